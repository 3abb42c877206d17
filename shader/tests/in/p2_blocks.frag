#pragma chrisos profile 2
in VS_OUT { vec3 c; vec2 uv; } fs_in;
in Plain { float f; };
out vec4 color;
void main() { color = vec4(fs_in.c * f, fs_in.uv.x); }
