#version 330 core
void main() {
for (int i0 = 0; i0 < 8; i0++)
for (int i1 = 0; i1 < 8; i1++)
for (int i2 = 0; i2 < 8; i2++)
for (int i3 = 0; i3 < 8; i3++)
for (int i4 = 0; i4 < 8; i4++)
for (int i5 = 0; i5 < 8; i5++)
for (int i6 = 0; i6 < 8; i6++)
for (int i7 = 0; i7 < 8; i7++)
for (int i8 = 0; i8 < 8; i8++)
for (int i9 = 0; i9 < 8; i9++)
{ }
    gl_Position = vec4(0.0);
}
