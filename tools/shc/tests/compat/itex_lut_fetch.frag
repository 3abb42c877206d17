#version 330 core
#pragma chrisos profile 2
// An isampler2D lookup table read with texelFetch, one entry per 8x8 cell, its words decoded.
uniform isampler2D u_lut;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy) / 8;
    ivec4 e = texelFetch(u_lut, cell, 0);
    // The next entry along the row, wrapped by hand (texelFetch does not wrap).
    ivec4 n = texelFetch(u_lut, ivec2((cell.x + 1) % textureSize(u_lut, 0).x, cell.y), 0);
    int red = e.r & 255;               // the low byte of a value above 2^24
    int green = -e.g - 1000;           // a negative word
    int blue = (e.b >> 20) & 255;      // a shifted field
    float shade = e.a < 0 ? 0.55 : 1.0;
    bool above = (e.r >> 24) > (n.r >> 24) - 1;
    vec3 c = vec3(float(red), float(green), float(blue)) / 255.0 * shade;
    frag_color = vec4(above ? c : c.bgr, 1.0);
}
