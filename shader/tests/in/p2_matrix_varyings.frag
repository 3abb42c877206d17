#pragma chrisos profile 2
// Reads the matrix varyings of p2_matrix_varyings.vert whole and by column.
in mat3 tbn;
layout(location = 4) noperspective in mat2x4 m24;
in float f;
out vec4 color;
void main() {
    color = vec4(tbn * vec3(0.0, 0.0, 1.0) + tbn[1], f) + m24[1] * 0.5;
}
