#version 330 core
#pragma chrisos profile 2
// Two fragment outputs at explicit locations, as a deferred or bloom pass writes them: the
// target stores location 0; location 1 (the bright part) has no attachment.
uniform vec2 u_resolution;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_bright;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec3 color = mix(u_color_a, u_color_b, uv.x) * (0.4 + 0.6 * uv.y);
    float brightness = dot(color, vec3(0.2126, 0.7152, 0.0722));
    o_bright = brightness > 0.5 ? vec4(color, 1.0) : vec4(0.0, 0.0, 0.0, 1.0);
    o_color = vec4(color, 1.0);
}
