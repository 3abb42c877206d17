//! The integer-attribute picture shared by `int_attributes.rs` and `int_attributes_vtest.rs`.
#![allow(dead_code)]
use gfx3d::*;

use super::common::layout;

/// The attribute words pass through flat integer varyings and come back out of a float target
/// as their bit patterns (intBitsToFloat), so the readback shows every bit.
pub const INT_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
layout(location = 1) in ivec2 a;
layout(location = 2) in uint b;
flat out ivec2 va;
flat out uint vb;
void main() {
    va = a;
    vb = b;
    gl_Position = pos;
}
";

pub const INT_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
flat in ivec2 va;
flat in uint vb;
out vec4 c;
void main() {
    c = vec4(intBitsToFloat(va.x), intBitsToFloat(va.y), uintBitsToFloat(vb), 1.0);
}
";

/// Above 2^24 (not a float's integer), negative and above 2^31; every pattern a normal float.
pub const A: [i32; 2] = [16_777_217, -16_777_219];
pub const B: u32 = 0xC000_0001;

/// loc 0 position (4 floats at 0), loc 1 ivec2 (2 i32 at 16), loc 2 uint (1 u32 at 24).
pub fn int_layout() -> VertexLayout {
    layout(32, &[(0, 4, 0), (1, 2, 16), (2, 1, 24)])
        .with_kind(1, ElementKind::I32)
        .unwrap()
        .with_kind(2, ElementKind::U32)
        .unwrap()
}

/// A full-screen rectangle with the integer words A and B at every vertex.
pub fn int_vertices() -> Vec<f32> {
    let mut v = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        v.extend_from_slice(&[
            x,
            y,
            0.0,
            1.0,
            int_word(A[0]),
            int_word(A[1]),
            uint_word(B),
            0.0,
        ]);
    }
    v
}

/// Every integer format: an ivec4 and a uvec3 attribute (R32G32B32A32_SINT, R32G32B32_UINT)
/// mixed with integer operations in the vertex shader, per-vertex values, flat varyings.
pub const WIDE_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
layout(location = 1) in ivec4 q;
layout(location = 2) in uvec3 r;
flat out ivec2 va;
flat out uint vb;
void main() {
    va = ivec2(q.x ^ q.w, q.y * 3 + q.z);
    vb = (r.x >> 3u) + r.y * r.z;
    gl_Position = pos;
}
";

/// loc 0 position (4 floats at 0), loc 1 ivec4 (at 16), loc 2 uvec3 (at 32); 48 bytes.
pub fn wide_layout() -> VertexLayout {
    layout(48, &[(0, 4, 0), (1, 4, 16), (2, 3, 32)])
        .with_kind(1, ElementKind::I32)
        .unwrap()
        .with_kind(2, ElementKind::U32)
        .unwrap()
}

/// Two rectangles (left, right), each with its own words (the provoking vertex decides).
pub fn wide_vertices() -> Vec<f32> {
    let mut v = Vec::new();
    for (half, x0, x1) in [(0i32, -1.0f32, 0.0f32), (1, 0.0, 1.0)] {
        for (x, y) in [
            (x0, -1.0f32),
            (x1, -1.0),
            (x1, 1.0),
            (x0, -1.0),
            (x1, 1.0),
            (x0, 1.0),
        ] {
            let q = [
                0x7F00_0003 + half,
                -40_000_001 - half,
                i32::MIN + 7,
                0x0123_4567,
            ];
            let r = [0xF000_0008u32 + half as u32, 65_537, 65_539 + half as u32];
            v.extend_from_slice(&[x, y, 0.0, 1.0]);
            v.extend(q.iter().map(|k| int_word(*k)));
            v.extend(r.iter().map(|k| uint_word(*k)));
            v.push(0.0);
        }
    }
    v
}

/// What WIDE_VERT computes for `half` (0 left, 1 right): (va.x, va.y, vb) with wrapping.
pub fn wide_expected(half: i32) -> (i32, i32, u32) {
    let q = [
        0x7F00_0003 + half,
        -40_000_001 - half,
        i32::MIN + 7,
        0x0123_4567,
    ];
    let r = [0xF000_0008u32 + half as u32, 65_537, 65_539 + half as u32];
    (
        q[0] ^ q[3],
        q[1].wrapping_mul(3).wrapping_add(q[2]),
        (r[0] >> 3).wrapping_add(r[1].wrapping_mul(r[2])),
    )
}
