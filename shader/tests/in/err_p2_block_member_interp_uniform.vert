#pragma chrisos profile 2
// Interpolation qualifiers on uniform block members are errors (in/out block members only).
in vec3 pos;
uniform Params { flat vec4 tint; } params;
void main() { gl_Position = vec4(pos, 1.0) * params.tint; }
