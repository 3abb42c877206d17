#version 330 core
#pragma chrisos profile 2
// Flat against smooth interpolation: the left half of the picture shows the provoking
// vertex's colour of each triangle, the right half the interpolated one.
flat in vec3 v_flat_color;
smooth in vec3 v_smooth_color;

out vec4 frag_color;

void main() {
    bool left = gl_FragCoord.x < 32.0;
    frag_color = vec4(left ? v_flat_color : v_smooth_color, 1.0);
}
