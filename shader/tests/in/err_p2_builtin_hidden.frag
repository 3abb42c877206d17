#pragma chrisos profile 2
uniform sampler2D texture;
in vec2 v_uv;
out vec4 c;
void main() { c = texture(texture, v_uv); }
