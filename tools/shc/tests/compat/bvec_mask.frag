#version 330 core
#pragma chrisos profile 2
// Boolean vectors: component-wise comparisons (lessThan, greaterThan, equal), any/all/not,
// and vector == as whole-value equality, to mask rectangles and a cross.
uniform vec2 u_resolution;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

void main() {
    vec2 p = gl_FragCoord.xy;
    bvec2 inside_a = lessThan(abs(p - vec2(20.5, 40.5)), vec2(12.0, 9.0));
    bvec2 inside_b = greaterThan(p, vec2(34.0, 10.0));
    bvec2 on_axes = lessThan(abs(p - vec2(44.5, 22.5)), vec2(2.0));
    vec3 color = vec3(0.1, 0.12, 0.15);
    if (all(inside_a))
        color = u_color_a;
    if (all(inside_b) && all(not(greaterThan(p, vec2(60.0, 36.0)))))
        color = mix(color, u_color_b, 0.7);
    if (any(on_axes) && all(lessThan(abs(p - vec2(44.5, 22.5)), vec2(12.0))))
        color = vec3(1.0);
    bvec3 bright = greaterThan(color, vec3(0.5));
    color = (bright == bvec3(true, true, true)) ? color * 0.9 : color;
    frag_color = vec4(color, 1.0);
}
