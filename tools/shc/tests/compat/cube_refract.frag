#version 330 core
#pragma chrisos profile 2
// Glass: refraction and reflection rays through the environment cube, blended by a Fresnel term.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 frag;
uniform samplerCube u_env;
uniform vec3 u_view_pos;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(v_world - u_view_pos);
    vec3 refl = texture(u_env, reflect(v, n)).rgb;
    vec3 refr = texture(u_env, refract(v, n, 0.66)).rgb;
    float f = 0.1 + 0.9 * pow(1.0 - max(dot(-v, n), 0.0), 3.0);
    frag = vec4(mix(refr, refl, f), 1.0);
}
