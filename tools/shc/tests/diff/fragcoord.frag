#version 330
// gl_FragCoord (origin lower-left, centres at .5, z = window depth, w = 1/w_clip) and discard
// on pixel columns above row 20.
out vec4 frag;

void main() {
    if (sin(gl_FragCoord.x * 0.7853982) > 0.1 && gl_FragCoord.y > 20.0) {
        discard;
    }
    frag = vec4(gl_FragCoord.x / 64.0, gl_FragCoord.y / 64.0, gl_FragCoord.z, clamp(gl_FragCoord.w * 2.0, 0.0, 1.0));
}
