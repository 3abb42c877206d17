#version 330 core
#pragma chrisos profile 2
// Procedural: a colour wheel, hue from the angle (atan), saturation from the radius, through
// the usual branch-free HSV-to-RGB conversion.
uniform vec2 u_resolution;

out vec4 frag_color;

vec3 hsv2rgb(vec3 c) {
    vec4 k = vec4(1.0, 2.0 / 3.0, 1.0 / 3.0, 3.0);
    vec3 p = abs(fract(c.xxx + k.xyz) * 6.0 - k.www);
    return c.z * mix(k.xxx, clamp(p - k.xxx, 0.0, 1.0), c.y);
}

void main() {
    vec2 p = gl_FragCoord.xy - 0.5 * u_resolution;
    float hue = atan(p.y, p.x) / 6.2831853 + 0.5;
    float r = length(p) / (0.5 * u_resolution.x);
    float value = 1.0 - smoothstep(0.95, 1.0, r);
    frag_color = vec4(hsv2rgb(vec3(hue, clamp(r, 0.0, 1.0), value)), 1.0);
}
