#version 330 core
#pragma chrisos profile 2
// A sky for the gl_VertexID full-screen triangle: horizon gradient, a sun with an exp glow
// and the ground below.
in vec2 v_ndc;

uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform float u_time;

out vec4 frag_color;

void main() {
    float horizon = -0.1;
    vec3 sky = mix(vec3(1.0, 0.85, 0.7), u_sky_color, smoothstep(horizon, 0.8, v_ndc.y));
    vec2 sun = vec2(0.4 * cos(u_time), 0.3 + 0.2 * sin(u_time));
    float d = distance(v_ndc, sun);
    sky += vec3(1.0, 0.8, 0.5) * (exp(-d * 8.0) * 0.6 + (1.0 - smoothstep(0.08, 0.1, d)));
    vec3 ground = u_ground_color * (0.6 + 0.4 * smoothstep(-1.0, horizon, v_ndc.y));
    frag_color = vec4(v_ndc.y > horizon ? sky : ground, 1.0);
}
