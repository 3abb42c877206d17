#pragma chrisos profile 2
// Interface block members with their own interpolation qualifiers (GLSL 3.30 §4.3.7):
// flat, noperspective and smooth members in one output block.
in vec3 pos;
out VertexData {
    flat vec3 face;
    noperspective vec2 screen;
    smooth vec3 color;
    vec2 uv;
    float plain;
} vo;
void main() {
    vo.face = pos;
    vo.screen = pos.xy;
    vo.color = pos * 0.5;
    vo.uv = pos.yz;
    vo.plain = pos.z;
    gl_Position = vec4(pos, 1.0);
}
