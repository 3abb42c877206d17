#version 330
#pragma chrisos profile 2
// A post-processing pass over an earlier pass's RGBA8 target: a 3x3 bilinear blur and an
// edge detector (central differences), edges lightened.
in vec2 v_uv;
uniform sampler2D u_scene;
uniform vec2 u_texel;
out vec4 frag;

void main() {
    vec3 sum = vec3(0.0);
    for (int j = -1; j <= 1; j++) {
        for (int i = -1; i <= 1; i++) {
            sum += texture(u_scene, v_uv + vec2(float(i), float(j)) * u_texel * 1.5).rgb;
        }
    }
    vec3 blur = sum / 9.0;
    vec2 dx = vec2(u_texel.x, 0.0);
    vec2 dy = vec2(0.0, u_texel.y);
    vec3 gx = texture(u_scene, v_uv + dx).rgb - texture(u_scene, v_uv - dx).rgb;
    vec3 gy = texture(u_scene, v_uv + dy).rgb - texture(u_scene, v_uv - dy).rgb;
    float edge = clamp(length(gx) + length(gy), 0.0, 1.0);
    frag = vec4(mix(blur, vec3(1.0), edge * 0.5), 1.0);
}
