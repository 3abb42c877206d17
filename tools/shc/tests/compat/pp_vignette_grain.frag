#version 330 core
#pragma chrisos profile 2
// Post-processing: a smoothstep vignette over an elliptical distance and a film-grain
// ripple (smooth in the pixel position).
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_resolution;
uniform float u_time;
uniform float u_strength;

out vec4 frag_color;

void main() {
    vec3 color = texture(u_image, v_uv).rgb;
    vec2 centered = (v_uv - 0.5) * vec2(u_resolution.x / u_resolution.y, 1.0);
    float vignette = smoothstep(0.75, 0.25, length(centered) * u_strength * 1.2);
    float grain = sin(dot(gl_FragCoord.xy, vec2(0.71, 1.37)) * 3.1 + u_time) *
                  cos(gl_FragCoord.y * 0.53 - gl_FragCoord.x * 0.21);
    color = color * vignette + grain * 0.04;
    frag_color = vec4(clamp(color, 0.0, 1.0), 1.0);
}
