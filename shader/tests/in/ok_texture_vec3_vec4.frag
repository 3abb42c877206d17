#version 330 core
uniform sampler2D s;
in vec3 uvw;
in vec4 uvwq;
out vec4 fragColor;
void main() {
    fragColor = texture(s, uvw) + texture(s, uvwq) + texture(s, ivec3(0, 1, 2));
}
