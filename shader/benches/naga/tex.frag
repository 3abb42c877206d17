#version 450 core
layout(location = 0) in vec2 fragUV;
layout(set = 0, binding = 1) uniform texture2D diffuseTexture;
layout(set = 0, binding = 2) uniform sampler diffuseSampler;
layout(location = 0) out vec4 color;

void main() {
    color = texture(sampler2D(diffuseTexture, diffuseSampler), fragUV);
}
