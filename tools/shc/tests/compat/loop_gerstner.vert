#version 330 core
#pragma chrisos profile 2
// Gerstner waves in the vertex shader: a uniform wave count, each wave's direction from an
// integer hash of its index (xor, shifts), summed displacement and normal, a break past the cap.
layout(location = 0) in vec3 a_position;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform float u_time;
uniform float u_amplitude;
uniform float u_frequency;
uniform int u_wave_count;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

vec2 wave_dir(uint i) {
    uint h = (i + 1u) * 2654435761u;
    h ^= h >> 16;
    float angle = float(h & 1023u) / 1023.0 * 6.2831853;
    return vec2(cos(angle), sin(angle));
}

void main() {
    vec3 p = a_position;
    vec3 n = vec3(0.0, 1.0, 0.0);
    float amp = u_amplitude * 0.8;
    float freq = u_frequency;
    uint i = 0u;
    while (i < uint(u_wave_count)) {
        if (i == 6u)
            break;
        vec2 d = wave_dir(i);
        float phase = freq * dot(d, a_position.xz) + u_time * (1.2 + 0.4 * float(i));
        float s = sin(phase);
        float c = cos(phase);
        p.xz += 0.35 * amp * d * c;
        p.y += amp * s;
        n.xz -= d * (freq * amp * c);
        amp *= 0.55;
        freq *= 1.8;
        ++i;
    }
    v_normal = normalize(n);
    v_world = p;
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(p, 1.0);
}
