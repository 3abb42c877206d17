#version 330 core
#pragma chrisos profile 2
// Sphere impostors: the depth of the sphere's surface written to gl_FragDepth, lit by its normal.
in vec2 v_quad;
in vec3 v_color;
out vec4 frag_color;

void main() {
    float r2 = dot(v_quad, v_quad);
    if (r2 > 1.0) {
        discard;
    }
    float h = sqrt(1.0 - r2);
    gl_FragDepth = gl_FragCoord.z - 0.2 * h;
    vec3 n = vec3(v_quad, h);
    float diffuse = max(dot(n, normalize(vec3(-0.4, 0.5, 0.75))), 0.0);
    frag_color = vec4(v_color * (0.2 + 0.8 * diffuse), 1.0);
}
