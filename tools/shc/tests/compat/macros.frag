#version 330 core
#pragma chrisos profile 2
// Preprocessor-heavy lighting, as engines generate it: configuration macros, function-like
// macros with nested expansion, #if arithmetic, a line continuation, #undef, and blocks for
// other platforms that desktop GL skips.
#ifdef GL_ES
precision mediump float;
#error this block is only for OpenGL ES
#endif

#define NUM_LIGHTS 2
#define SATURATE(x) clamp((x), 0.0, 1.0)
#define LAMBERT(n, pos) SATURATE(dot((n), normalize((pos) - v_world)))
#define ADD_LIGHT(acc, n, pos, color) \
    acc += (color) * LAMBERT(n, pos)

#if __VERSION__ >= 330 && defined(GL_core_profile)
#define AMBIENT_SCALE 1.5
#elif __VERSION__ >= 130
#define AMBIENT_SCALE 0.5
#else
#define AMBIENT_SCALE 0.0
#endif

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_ambient;
uniform vec3 u_diffuse_color;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
#if NUM_LIGHTS > 1
uniform vec3 u_light1_pos;
uniform vec3 u_light1_color;
#endif

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 light = u_ambient * AMBIENT_SCALE;
    ADD_LIGHT(light, n, u_light0_pos, u_light0_color);
#if NUM_LIGHTS > 1
    ADD_LIGHT(light, n, u_light1_pos, u_light1_color);
#endif
#undef SATURATE
#define SATURATE(x) (x)
    frag_color = vec4(SATURATE(u_diffuse_color * light), 1.0);
}
