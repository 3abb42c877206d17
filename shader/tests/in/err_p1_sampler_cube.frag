#version 330 core
// Profile 1 has sampler2D only: samplerCube is GLSL's, not this language's.
in vec3 v_dir;
out vec4 frag;
uniform samplerCube u_sky;

void main() {
    frag = vec4(v_dir, 1.0);
}
