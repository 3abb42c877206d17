#pragma chrisos profile 2
// A uniform block array (GLSL 3.30 4.3.7): each element its own block, members named
// Light[0].color, Light[1].color, ... as GL names them; constant indexes only (a loop
// counter is not a constant expression: err_p2_ubo_array_index.frag).
layout(std140) uniform Light { vec3 color; float k; mat3 basis; } lights[3];
in vec2 uv;
out vec4 color;
void main() {
    vec3 c = lights[2].color * lights[0].k;
    c += lights[0].basis * vec3(uv, lights[0].k);
    c += lights[1].basis * vec3(uv, lights[1].k);
    c += lights[2].basis * vec3(uv, lights[2].k);
    color = vec4(c, 1.0);
}
