#pragma chrisos profile 2
layout(location = 0) in vec4 p;
out float gl_ClipDistance[4];
void main() {
    gl_Position = p;
    gl_ClipDistance[0] = 1.0;
}
