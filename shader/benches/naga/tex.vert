#version 450 core
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
layout(set = 0, binding = 0) uniform Matrices {
    mat4 model;
    mat4 view;
    mat4 projection;
};
layout(location = 0) out vec2 fragUV;

void main() {
    fragUV = uv;
    gl_Position = projection * view * model * position;
}
