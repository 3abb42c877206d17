#pragma chrisos profile 2
// Eight outputs: location 0 is the colour, the others are reflected and not stored.
in vec2 v_uv;
layout(location = 3) out vec4 o_three;
layout(location = 0) out vec4 o_color;
out float o_auto;
layout(location = 7) out vec2 o_seven;
layout(location = 2) out vec3 o_two;
layout(location = 4) out vec4 o_four;
layout(location = 5) out vec4 o_five;
layout(location = 6) out vec4 o_six;
void main() {
    o_color = vec4(v_uv, 0.0, 1.0);
    o_three = vec4(1.0);
    o_auto = 0.5;
    o_seven = v_uv;
    o_two = vec3(v_uv, 1.0);
}
