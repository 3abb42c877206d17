#version 330 core
#pragma chrisos profile 2
// Stripes along the floor's texture coordinate, interpolated perspective-correctly (red),
// linearly in screen space (green) and at the centroid (blue).
smooth in vec2 v_uv;
noperspective in vec2 v_screen_uv;
centroid in vec2 v_centroid_uv;

out vec4 frag_color;

float stripes(float x) {
    return clamp(sin(x * 40.0) * 3.0 + 0.5, 0.0, 1.0);
}

void main() {
    frag_color = vec4(stripes(v_uv.y), stripes(v_screen_uv.y), stripes(v_centroid_uv.x) * 0.6, 1.0);
}
