#version 330 core
#pragma chrisos profile 2
// Vertex animation: a flat grid displaced by two travelling sine waves, with the analytic
// normal of the displaced surface.
layout(location = 0) in vec3 a_position;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform float u_time;
uniform float u_amplitude;
uniform float u_frequency;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

#define SPEED_X 1.3
#define SPEED_Z 0.8

void main() {
    vec3 p = a_position;
    float fx = u_frequency;
    float fz = u_frequency * 0.7;
    float wx = sin(p.x * fx + u_time * SPEED_X);
    float wz = cos(p.z * fz + u_time * SPEED_Z);
    p.y += u_amplitude * wx * wz;
    // d(height)/dx and d(height)/dz give the normal (-dh/dx, 1, -dh/dz).
    float dhdx = u_amplitude * fx * cos(p.x * fx + u_time * SPEED_X) * wz;
    float dhdz = -u_amplitude * fz * wx * sin(p.z * fz + u_time * SPEED_Z);
    v_normal = normalize(vec3(-dhdx, 1.0, -dhdz));
    v_world = p;
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(p, 1.0);
}
