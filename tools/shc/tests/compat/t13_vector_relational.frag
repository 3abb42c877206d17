#version 330 core
#pragma chrisos profile 2
// Vector relational built-ins and bvec logic on exact per-pixel values (gl_FragCoord at pixel
// centres): lessThan, greaterThanEqual, equal, notEqual, any, all, not, mix with a bvec.
out vec4 frag_color;

void main() {
    vec2 c = floor(gl_FragCoord.xy / 8.0);
    bvec2 lo = lessThan(c, vec2(4.0));
    bvec2 hi = greaterThanEqual(c, vec2(2.0, 5.0));
    bvec2 eq = equal(mod(c, 3.0), vec2(0.0));
    bool diag = c.x == c.y;
    bvec3 sel = bvec3(all(lo), any(hi), any(notEqual(eq, not(lo))));
    vec3 base = mix(vec3(0.2, 0.3, 0.4), vec3(0.9, 0.7, 0.2), sel);
    vec3 c2 = diag ? base.zyx : base;
    frag_color = vec4(c2 * (0.7 + 0.3 * fract(gl_FragCoord.x / 16.0)), 1.0);
}
