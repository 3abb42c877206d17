#version 330 core
#pragma chrisos profile 2
// A bias needs a fragment shader (an isampler2DArray too).
layout(location = 0) in vec4 pos;
flat out ivec4 v_id;
uniform isampler2DArray u_ids;

void main() {
    v_id = texture(u_ids, vec3(0.5, 0.5, 1.0), 1.0);
    gl_Position = pos;
}
