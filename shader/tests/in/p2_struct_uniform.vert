#pragma chrisos profile 2
// A uniform struct of structs: each leaf is a program uniform (xf.model, xf.cam.view, ...).
struct Camera { mat4 view; mat4 proj; };
struct Transform { mat4 model; Camera cam; vec3 tint; bool flip; };
uniform Transform xf;
in vec3 pos;
out vec3 c;
Transform flipped(Transform t) {
    t.tint = t.tint.zyx;
    return t;
}
void main() {
    Transform t = xf.flip ? flipped(xf) : xf;
    c = t.tint;
    gl_Position = t.cam.proj * t.cam.view * t.model * vec4(pos, 1.0);
}
