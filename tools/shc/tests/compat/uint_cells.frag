#version 330 core
#pragma chrisos profile 2
// Types: uint cells with u literals, uvec2, truncating division and uint -> float conversion.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    uvec2 cell = uvec2(v_uv * 16.0);
    uint id = cell.x + cell.y * 16u;
    uint band = id / 37u;
    uint parity = (cell.x + cell.y) - 2u * ((cell.x + cell.y) / 2u);
    bvec2 edge = greaterThanEqual(cell, uvec2(15u));
    float shade = float(band) / 7.0;
    vec3 c = mix(vec3(shade, 0.2, 1.0 - shade), vec3(1.0), float(parity) * 0.3);
    c = mix(c, vec3(0.0), any(edge) ? 1.0 : 0.0);
    frag_color = vec4(c, 1.0);
}
