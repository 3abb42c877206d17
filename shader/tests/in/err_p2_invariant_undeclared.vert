#pragma chrisos profile 2
out vec4 v_late;
in vec4 a_pos;
invariant v_early;
invariant a_pos;
void main() { v_late = a_pos; gl_Position = a_pos; }
