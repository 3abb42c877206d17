#version 330 core
#pragma chrisos profile 2
// Two-sided colouring: gl_FrontFacing picks a warm ramp for front faces, a cool one for back faces.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 front = vec3(0.9, 0.5, 0.2) * (0.5 + 0.5 * v_uv.x);
    vec3 back = vec3(0.2, 0.4, 0.9) * (0.5 + 0.5 * v_uv.y);
    frag_color = vec4(gl_FrontFacing ? front : back, 1.0);
}
