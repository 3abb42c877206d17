#version 330 core
#pragma chrisos profile 2
// Matrix transforms built in the shader: a turntable rotation (about y, then x) from angles,
// then the application's view and projection matrices. gl_Position is invariant.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_time;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
invariant gl_Position;

mat4 rotate_y(float a) {
    float c = cos(a);
    float s = sin(a);
    return mat4(c, 0.0, -s, 0.0,
                0.0, 1.0, 0.0, 0.0,
                s, 0.0, c, 0.0,
                0.0, 0.0, 0.0, 1.0);
}

mat4 rotate_x(float a) {
    float c = cos(a);
    float s = sin(a);
    return mat4(1.0, 0.0, 0.0, 0.0,
                0.0, c, s, 0.0,
                0.0, -s, c, 0.0,
                0.0, 0.0, 0.0, 1.0);
}

mat4 scale_translate(vec3 s, vec3 t) {
    return mat4(vec4(s.x, 0.0, 0.0, 0.0), vec4(0.0, s.y, 0.0, 0.0), vec4(0.0, 0.0, s.z, 0.0),
                vec4(t, 1.0));
}

void main() {
    mat4 model = scale_translate(vec3(0.8, 0.9, 0.8), vec3(0.1, 0.0, 0.0))
                 * rotate_x(0.35) * rotate_y(u_time);
    vec4 world = model * vec4(a_position, 1.0);
    // The model is a rotation times a positive scale: mat3(rotations) turns normals correctly.
    mat3 turn = mat3(rotate_x(0.35) * rotate_y(u_time));
    v_world = world.xyz;
    v_normal = turn * a_normal;
    v_uv = a_uv;
    gl_Position = u_proj * u_view * world;
}
