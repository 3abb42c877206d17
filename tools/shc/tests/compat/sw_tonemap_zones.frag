#version 330 core
#pragma chrisos profile 2
// Post-processing: the picture split in four vertical zones, each tone-mapped by a different
// operator chosen by a switch on the zone index (an int computed per pixel), default last.
uniform sampler2D u_image;
uniform float u_exposure;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 c = texture(u_image, v_uv).rgb * 2.5;
    int zone = int(gl_FragCoord.x) / 16;
    vec3 m;
    switch (zone) {
    case 0:
        m = c / (1.0 + c);
        break;
    case 1:
        m = 1.0 - exp(-c);
        break;
    case 2:
        m = clamp((c * (2.51 * c + 0.03)) / (c * (2.43 * c + 0.59) + 0.14), 0.0, 1.0);
        break;
    default:
        m = clamp(c * 0.5, 0.0, 1.0);
        break;
    }
    frag_color = vec4(pow(m, vec3(1.0 / 2.2)), 1.0);
}
