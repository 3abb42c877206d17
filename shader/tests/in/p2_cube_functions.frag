#version 330 core
#pragma chrisos profile 2
// samplerCube: texture (with and without bias), textureLod, textureGrad, textureSize.
in vec3 v_dir;
out vec4 frag;
uniform samplerCube u_sky;
uniform samplerCube u_envs[2];

void main() {
    vec4 a = texture(u_sky, v_dir);
    vec4 b = texture(u_sky, normalize(v_dir), 0.5);
    vec4 c = textureLod(u_envs[1], v_dir, 2.0);
    vec4 d = textureGrad(u_envs[0], v_dir, dFdx(v_dir), dFdy(v_dir));
    ivec2 s = textureSize(u_sky, 0);
    frag = a + b + c + d + vec4(float(s.x), float(s.y), 0.0, 0.0);
}
