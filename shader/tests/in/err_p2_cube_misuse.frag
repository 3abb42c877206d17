#version 330 core
#pragma chrisos profile 2
// samplerCube misuse: wrong coordinate sizes, functions a cube does not have, locals.
in vec3 v_dir;
out vec4 frag;
uniform samplerCube u_sky;

void main() {
    vec4 a = texture(u_sky, v_dir.xy);
    vec4 b = texelFetch(u_sky, ivec2(0), 0);
    vec4 c = textureOffset(u_sky, v_dir, ivec2(1));
    vec4 d = textureLod(u_sky, vec4(v_dir, 1.0), 0.0);
    vec4 e = textureGrad(u_sky, v_dir, vec2(0.0), vec2(0.0));
    vec4 f = textureProj(u_sky, vec4(v_dir, 1.0));
    samplerCube local;
    frag = a + b + c + d + e + f;
}
