//! Fuzz target: a shader compiled from fuzzer-chosen source is linked with a fixed partner stage
//! and drawn by the software rasterizer on a 16x16 target; nothing may panic, and a program that
//! linked must draw (errors are only allowed for reasons the draw call documents).
//!
//! Input: byte 0 = options (bit 0 stage: 1 fragment, 0 vertex; bit 1 depth test; bit 2 cull
//! back faces; bit 3 linear filter; bit 4 clamp-to-edge; bits 5-7 texture size), byte 1 = seed
//! of the uniform values, the rest = source. Most cases are fragment shaders: the vertex shader
//! is a fixed template that writes gl_Position plus one `out` per varying the fragment shader
//! reads (so linking succeeds whenever the fragment shader compiles). Vertex-stage sources are
//! linked with a fixed one-colour fragment shader and fed every attribute they declare.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shader::ir::{Module, Type};
use shader::limits::{ATTR_MAX, SAMPLER_MAX};
use shader::link::Program;
use shader::raster::{
    draw, Filter, RasterState, SamplerState, Target, TextureRef, VertexAttrib, VertexInput, Wrap,
};

const SIZE: u32 = 16;

/// Trivial vertex shader used when the template below does not compile (a varying name that
/// collides with the template's own names, for instance).
const FIXED_VS: &str = "#version 330 core
layout(location = 0) in vec4 fz_pos;
void main() { gl_Position = fz_pos; }
";

const FIXED_FS: &[u8] = b"#version 330 core
out vec4 fz_color;
void main() { fz_color = vec4(1.0, 0.5, 0.25, 1.0); }
";

/// Uniform values: ordinary numbers and the awkward ones (signed zero, huge, infinite, NaN,
/// subnormal).
const VALUES: [f32; 16] = [
    0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    -0.0,
    1e30,
    -1e30,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1e-40,
    3.0,
    -7.5,
    f32::MAX,
    100.0,
];

const TEX_SIZES: [(u32, u32); 8] = [
    (1, 1),
    (2, 2),
    (3, 5),
    (4, 4),
    (16, 1),
    (1, 16),
    (7, 3),
    (8, 8),
];

/// Two triangles: one covering most of the target, one crossing the near plane (clipped).
const POSITIONS: [[f32; 4]; 6] = [
    [-0.9, -0.9, 0.0, 1.0],
    [0.9, -0.8, 0.5, 1.0],
    [0.1, 0.95, -0.5, 1.0],
    [-0.5, 0.5, -2.0, 1.0],
    [0.5, 0.5, 0.5, 1.0],
    [0.0, -0.5, 0.5, -0.5],
];

fn type_vs_swizzle(ty: Type) -> &'static str {
    match ty {
        Type::Float => ".x",
        Type::Vec2 => ".xy",
        Type::Vec3 => ".xyz",
        _ => "",
    }
}

/// The vertex template: every fragment input comes from attribute 1 (a per-vertex colour).
fn vertex_for(fs: &Module) -> String {
    let mut s = String::from(
        "#version 330 core\nlayout(location = 0) in vec4 fz_pos;\nlayout(location = 1) in vec4 fz_col;\n",
    );
    for v in &fs.iface.varyings {
        s.push_str(&format!("out {} {};\n", v.ty.name(), v.name.as_str()));
    }
    s.push_str("void main() {\n");
    for v in &fs.iface.varyings {
        s.push_str(&format!(
            "    {} = fz_col{};\n",
            v.name.as_str(),
            type_vs_swizzle(v.ty)
        ));
    }
    s.push_str("    gl_Position = fz_pos;\n}\n");
    s
}

fn compile(stage: u32, src: &[u8]) -> Option<Module> {
    shader::compile::compile(stage, src, "fuzz")
        .ok()
        .map(|s| s.module)
}

fn set_uniforms(p: &mut Program, seed: u8) {
    let n = p.uniforms().len();
    for i in 0..n {
        let floats = p.uniforms()[i].floats();
        let vals: Vec<f32> = (0..floats)
            .map(|k| VALUES[(seed as usize + k * (seed as usize | 1) + i) % VALUES.len()])
            .collect();
        p.set_uniform(i, &vals)
            .expect("a uniform takes exactly floats() values");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (opts, seed, src) = (data[0], data[1], &data[2..]);
    let fragment = opts & 1 != 0;
    let mut program = Program::new();
    if fragment {
        let Some(fs) = compile(1, src) else { return };
        let vs = compile(0, vertex_for(&fs).as_bytes())
            .or_else(|| compile(0, FIXED_VS.as_bytes()))
            .expect("the fixed vertex shader compiles");
        if program.link(Some(&vs), Some(&fs)).is_err() {
            // Only the template fallback may fail to provide the fragment inputs.
            return;
        }
    } else {
        let Some(vs) = compile(0, src) else { return };
        let fs = compile(1, FIXED_FS).expect("the fixed fragment shader compiles");
        program
            .link(Some(&vs), Some(&fs))
            .unwrap_or_else(|e| panic!("vertex shader compiled but does not link: {}", e));
    }
    set_uniforms(&mut program, seed);

    // Every attribute location gets 4 floats per vertex: location 0 the position, the others a
    // pattern; each declared attribute reads its own component count.
    const STRIDE: usize = 4 * ATTR_MAX;
    let mut vdata = vec![0.0f32; STRIDE * POSITIONS.len()];
    for (v, p) in POSITIONS.iter().enumerate() {
        for loc in 0..ATTR_MAX {
            for c in 0..4 {
                vdata[v * STRIDE + loc * 4 + c] = if loc == 0 {
                    p[c]
                } else {
                    VALUES[(v + loc + c + seed as usize) % 6] * 0.5 + (c as f32) * 0.25
                };
            }
        }
    }
    let mut attribs: Vec<VertexAttrib> = Vec::new();
    if fragment {
        for loc in 0..2u8 {
            attribs.push(VertexAttrib {
                location: loc,
                offset: loc as u32 * 4,
                components: 4,
            });
        }
    } else {
        for a in program.attributes() {
            attribs.push(VertexAttrib {
                location: a.location,
                offset: a.location as u32 * 4,
                components: a.components,
            });
        }
    }
    let input = VertexInput {
        data: &vdata,
        stride: STRIDE as u32,
        attribs: &attribs,
        count: POSITIONS.len() as u32,
    };

    let (tw, th) = TEX_SIZES[(opts >> 5) as usize];
    let texels: Vec<u32> = (0..tw * th)
        .map(|i| 0xff00_0000 | i.wrapping_mul(0x0004_1c37))
        .collect();
    let sampler = SamplerState {
        filter: if opts & 8 != 0 {
            Filter::Linear
        } else {
            Filter::Nearest
        },
        wrap: if opts & 16 != 0 {
            Wrap::ClampToEdge
        } else {
            Wrap::Repeat
        },
    };
    let tex = TextureRef {
        width: tw,
        height: th,
        texels: &texels,
        sampler,
    };
    let textures: [Option<TextureRef>; SAMPLER_MAX] = [Some(tex); SAMPLER_MAX];

    let mut state = RasterState::new(SIZE, SIZE);
    state.depth_test = opts & 2 != 0;
    state.cull_back = opts & 4 != 0;
    let mut color = vec![0u32; (SIZE * SIZE) as usize];
    let mut depth = vec![1.0f32; (SIZE * SIZE) as usize];
    let mut target = Target {
        width: SIZE,
        height: SIZE,
        color: &mut color,
        depth: &mut depth,
    };
    target.clear(0xff00_0000, 1.0);
    if let Err(e) = draw(&program, &input, None, &textures, &state, &mut target) {
        panic!("a linked program with valid inputs failed to draw: {}", e);
    }
});
