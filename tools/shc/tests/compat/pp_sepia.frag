#version 330 core
#pragma chrisos profile 2
// Post-processing: the classic sepia colour matrix, blended with the original by a strength.
in vec2 v_uv;

uniform sampler2D u_image;
uniform float u_strength;

out vec4 frag_color;

// Column-major: the first three numbers are the first column.
const mat3 SEPIA = mat3(0.393, 0.349, 0.272,
                        0.769, 0.686, 0.534,
                        0.189, 0.168, 0.131);

void main() {
    vec3 c = texture(u_image, v_uv).rgb;
    vec3 sepia = min(SEPIA * c, vec3(1.0));
    frag_color = vec4(mix(c, sepia, u_strength), 1.0);
}
