#pragma chrisos profile 2
// gl_ClipDistance has CLIP_DISTANCE_MAX (8) elements.
layout(location = 0) in vec4 p;
void main() {
    gl_Position = p;
    gl_ClipDistance[8] = 1.0;
}
