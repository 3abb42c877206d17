void main() {
    gl_Position = vec4(0.0);
    gl_ClipDistance[0] = 1.0;
}
