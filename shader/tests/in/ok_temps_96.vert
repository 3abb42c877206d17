#version 330 core
void main() {
    mat4 m0;
    mat4 m1;
    mat4 m2;
    mat4 m3;
    mat4 m4;
    mat4 m5;
    mat4 m6;
    mat4 m7;
    mat4 m8;
    mat4 m9;
    mat4 m10;
    mat4 m11;
    mat4 m12;
    mat4 m13;
    mat4 m14;
    mat4 m15;
    mat4 m16;
    mat4 m17;
    mat4 m18;
    mat4 m19;
    mat4 m20;
    mat4 m21;
    mat4 m22;
    float a = 1.0;
    float b = 2.0;
    gl_Position = vec4(a, b, 0.0, 1.0);
}
