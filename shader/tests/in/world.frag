#version 330 core
in vec3 vN;
in vec3 vP;
in vec2 vUV;
uniform sampler2D diffuseTexture;
uniform vec3 lightPosition;
uniform vec3 lightColor;
uniform vec3 ambientColor;
out vec4 color;

void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float d = max(dot(N, L), 0.0);
    vec4 base = texture(diffuseTexture, vUV);
    color = base * vec4(ambientColor + d * lightColor, 1.0);
}
