#version 450 core
layout(location = 0) in vec3 vN;
layout(location = 1) in vec3 vP;
layout(location = 2) in vec2 vUV;
layout(set = 0, binding = 1) uniform texture2D diffuseTexture;
layout(set = 0, binding = 2) uniform sampler diffuseSampler;
layout(set = 0, binding = 3) uniform Light {
    vec3 lightPosition;
    vec3 lightColor;
    vec3 ambientColor;
};
layout(location = 0) out vec4 color;

void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float d = max(dot(N, L), 0.0);
    vec4 base = texture(sampler2D(diffuseTexture, diffuseSampler), vUV);
    color = base * vec4(ambientColor + d * lightColor, 1.0);
}
