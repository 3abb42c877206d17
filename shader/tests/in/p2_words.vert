#pragma chrisos profile 2
// Words that GLSL 3.30 does not reserve are names in profile 2 (profile 1 rejects them as
// qualifiers of later GLSL versions).
out float sample;
void main() {
    float patch = 1.0;
    float shared = 2.0, precise = 3.0, readonly = 4.0, writeonly = 5.0, coherent = 6.0;
    float restrict = 7.0;
    sample = patch + shared + precise + readonly + writeonly + coherent + restrict;
    gl_Position = vec4(sample);
}
