#pragma chrisos profile 2
float external;
uniform float isampler3D;
void main() {
    float common = 1.0, partition = 2.0, active = 3.0;
    vec4 hvec2 = vec4(common);
    gl_Position = hvec2;
}
