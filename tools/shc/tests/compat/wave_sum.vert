#version 330 core
#pragma chrisos profile 2
// Vertex animation with a uniform number of directional waves (the loop bound comes from the
// application), summed with their normals.
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

const int MAX_WAVES = 8;

void main() {
    vec3 p = a_position;
    vec2 slope = vec2(0.0);
    float amplitude = u_amplitude;
    float frequency = u_frequency;
    for (int i = 0; i < u_wave_count; ++i) {
        if (i >= MAX_WAVES) {
            break;
        }
        float angle = float(i) * 1.9 + 0.3;
        vec2 dir = vec2(cos(angle), sin(angle));
        float phase = dot(dir, a_position.xz) * frequency + u_time * (1.0 + 0.3 * float(i));
        p.y += amplitude * sin(phase);
        slope += dir * (amplitude * frequency * cos(phase));
        amplitude *= 0.6;
        frequency *= 1.7;
    }
    v_normal = normalize(vec3(-slope.x, 1.0, -slope.y));
    v_world = p;
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(p, 1.0);
}
