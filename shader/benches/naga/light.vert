#version 450 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(set = 0, binding = 0) uniform Matrices {
    mat4 model;
    mat4 view;
    mat4 projection;
};
layout(location = 0) out vec3 vN;
layout(location = 1) out vec3 vP;

void main() {
    vec4 world = model * vec4(position, 1.0);
    vP = world.xyz;
    vN = normal;
    gl_Position = projection * view * world;
}
