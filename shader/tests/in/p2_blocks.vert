#pragma chrisos profile 2
layout(std140) uniform Matrices { mat4 projection; layout(row_major) mat4 view; };
layout(std140, column_major) uniform Obj { mat4 model; vec3 tint; } obj;
layout(std140) uniform;
in vec3 pos;
out VS_OUT { vec3 c; vec2 uv; } vs_out;
out Plain { float f; };
void main() {
    vs_out.c = obj.tint;
    vs_out.uv = pos.xy;
    f = 1.0;
    gl_Position = projection * view * obj.model * vec4(pos, 1.0);
}
