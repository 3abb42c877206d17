#version 330 core
#pragma chrisos profile 2
// A uniform colour array indexed by a band number computed per pixel.
uniform vec2 u_resolution;
uniform vec3 u_palette[4];

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    int band = int(floor(uv.x * 4.0));
    int next = min(band + 1, 3);
    float f = fract(uv.x * 4.0);
    frag_color = vec4(mix(u_palette[band], u_palette[next], f * uv.y), 1.0);
}
