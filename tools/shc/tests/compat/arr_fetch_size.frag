#version 330 core
#pragma chrisos profile 2
// texelFetch of a sampler2DArray, texel for texel, the layer from textureSize's layer count.
uniform sampler2DArray u_layers;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    ivec3 size = textureSize(u_layers, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    int layer = (p.x / 16 + 2 * (p.y / 32)) % size.z;
    ivec2 t = (p / ivec2(1, 2)) % size.xy;
    vec4 c = texelFetch(u_layers, ivec3(t, layer), 0);
    vec4 m = texelFetch(u_layers, ivec3(t / 2, (layer + 1) % size.z), 1);
    frag_color = vec4(mix(c.rgb, m.rgb, 0.25), 1.0);
}
