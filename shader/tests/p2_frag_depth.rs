//! Profile 2's gl_FragDepth (issue 15 item 5): the frontend (fragment only, a float, profile 2
//! only), the IR op STORE_DEPTH through the verifier, the rasterizer (the written depth,
//! clamped to [0, 1], replaces the interpolated one for the depth test and the depth buffer;
//! no early depth test for such shaders; identical at any band count, packed or float
//! colour) and TGSI (`DCL OUT[1], POSITION`, its .z written).
mod ircore_util;
use ircore_util::p2::{build, link_glsl, Bands};
use shader::back::raster::{
    draw_parallel, draw_parallel_float, CompareFunc, Pipeline, RasterState, Scratch, Target,
    VertexAttrib, VertexInput,
};
use shader::back::tgsi::check_tgsi;
use shader::ir::Op;
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec3 pos;
void main() { gl_Position = vec4(pos, 1.0); }";

fn program(fs: &str) -> Program {
    link_glsl(VS, fs)
}

const W: u32 = 16;
const H: u32 = 12;

struct Img {
    packed: Vec<u32>,
    color: Vec<[f32; 4]>,
    depth: Vec<f32>,
}

impl Img {
    fn new(depth: f32) -> Img {
        let n = (W * H) as usize;
        Img {
            packed: vec![0; n],
            color: vec![[0.0; 4]; n],
            depth: vec![depth; n],
        }
    }
}

/// Full-screen triangle at clip z (window depth z * 0.5 + 0.5).
fn draw(prog: &Program, z: f32, img: &mut Img, bands: usize, float: bool) {
    let verts = [[-1.0, -1.0, z], [3.0, -1.0, z], [-1.0, 3.0, z]];
    let data: Vec<f32> = verts.iter().flatten().copied().collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 3,
    }];
    let input = VertexInput {
        data: &data,
        stride: 3,
        attribs: &attribs,
        count: 3,
    };
    let st = RasterState::new(W, H);
    let mut scratches: Vec<Scratch> = (0..bands).map(|_| Scratch::new()).collect();
    let mut t = Target {
        width: W,
        height: H,
        color: &mut img.packed,
        depth: &mut img.depth,
    };
    let pipe = Pipeline {
        depth_func: CompareFunc::Less,
        ..Pipeline::DEFAULT
    };
    let textures = [None, None, None, None];
    let r = if float {
        draw_parallel_float(
            &Bands(bands),
            &mut scratches,
            prog,
            &input,
            &[],
            0,
            None,
            &textures,
            &st,
            &pipe,
            &mut t,
            &mut img.color,
        )
    } else {
        draw_parallel(
            &Bands(bands),
            &mut scratches,
            prog,
            &input,
            &[],
            0,
            None,
            &textures,
            &st,
            &pipe,
            &mut t,
        )
    };
    r.expect("drawn");
}

/// Writes gl_FragDepth = x / 16 (x = window column) and colour (1, 0, 0, 1).
const DEPTH_BY_COLUMN: &str = "#pragma chrisos profile 2
out vec4 c;
void main() {
    gl_FragDepth = gl_FragCoord.x / 16.0;
    c = vec4(1.0, 0.0, 0.0, 1.0);
}";

const GREEN: &str = "#pragma chrisos profile 2
out vec4 c;
void main() { c = vec4(0.0, 1.0, 0.0, 1.0); }";

#[test]
fn written_depth_replaces_the_interpolated_one() {
    let depth = program(DEPTH_BY_COLUMN);
    let green = program(GREEN);
    for bands in [1, 3] {
        for float in [false, true] {
            // The triangle lies at window depth 0.9; its written depth is (x + 0.5) / 16.
            let mut img = Img::new(1.0);
            draw(&depth, 0.8, &mut img, bands, float);
            for row in 0..H {
                for x in 0..W {
                    let i = (row * W + x) as usize;
                    assert_eq!(
                        img.depth[i],
                        (x as f32 + 0.5) / 16.0,
                        "depth at {} {}",
                        x,
                        row
                    );
                }
            }
            // A green plane at window depth 0.5: in front of columns 8.. only.
            draw(&green, 0.0, &mut img, bands, float);
            for x in 0..W {
                let i = x as usize;
                let is_green = if float {
                    img.color[i] == [0.0, 1.0, 0.0, 1.0]
                } else {
                    img.packed[i] == 0xff00ff00
                };
                assert_eq!(
                    is_green,
                    x >= 8,
                    "column {} (bands {}, float {})",
                    x,
                    bands,
                    float
                );
            }
        }
    }
}

#[test]
fn no_early_depth_test_and_the_written_depth_is_clamped() {
    // The triangle's interpolated depth (0.95) fails against the clear value 0.6; its written
    // depth passes: an early test would have dropped every pixel.
    let fs = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    gl_FragDepth = gl_FragCoord.x < 8.0 ? -3.0 : 0.25;
    c = vec4(1.0);
}",
    );
    for bands in [1, 2] {
        let mut img = Img::new(0.6);
        draw(&fs, 0.9, &mut img, bands, false);
        for x in 0..W {
            let want = if x < 8 { 0.0 } else { 0.25 };
            assert_eq!(img.depth[x as usize], want, "column {}", x);
            assert_eq!(img.packed[x as usize], 0xffffffff);
        }
        // Clamped above: 7.0 becomes 1.0, which fails LESS against 1.0.
        let hi = program(
            "#pragma chrisos profile 2
out vec4 c;
void main() { gl_FragDepth = 7.0; c = vec4(1.0); }",
        );
        let mut img = Img::new(1.0);
        draw(&hi, -0.9, &mut img, bands, false);
        assert!(
            img.packed.iter().all(|&p| p == 0),
            "1.0 is not LESS than 1.0"
        );
    }
}

#[test]
fn an_unwritten_path_keeps_the_interpolated_depth() {
    let fs = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    if (gl_FragCoord.x > 8.0) { gl_FragDepth = 0.125; }
    c = vec4(1.0);
}",
    );
    let mut img = Img::new(1.0);
    draw(&fs, 0.0, &mut img, 1, false);
    for x in 0..W {
        let want = if x >= 8 { 0.125 } else { 0.5 };
        assert_eq!(img.depth[x as usize], want, "column {}", x);
    }
}

#[test]
fn reading_without_writing_stores_no_depth() {
    let sh = build(
        1,
        "#pragma chrisos profile 2
out vec4 c;
void main() { c = vec4(gl_FragDepth); }",
    );
    assert!(!sh.module.iface.writes_depth);
    assert!(!sh.module.insts.iter().any(|i| i.op == Op::StoreDepth));
}

#[test]
fn tgsi_declares_a_position_output_and_writes_its_z() {
    let sh = build(1, DEPTH_BY_COLUMN);
    assert!(sh.module.iface.writes_depth);
    let mut out = shader::back::tgsi::TgsiText::new();
    shader::back::tgsi::emit(&sh.module, None, &mut out).expect("emitted");
    let text = out.as_str();
    assert!(
        text.contains("DCL OUT[0], COLOR\nDCL OUT[1], POSITION\n"),
        "{}",
        text
    );
    assert!(text.contains("MOV OUT[1].z, "), "{}", text);
    check_tgsi(text).expect("virglrenderer's rules");
}

#[test]
fn verifier_and_csir_keep_store_depth_to_profile_2_fragment_shaders() {
    let sh = build(1, DEPTH_BY_COLUMN);
    let bytes = {
        let mut b = vec![0u8; 1 << 16];
        let n = shader::program::csir::save(&sh.module, shader::program::csir::Version::V2, &mut b)
            .expect("saved");
        b.truncate(n);
        b
    };
    let m = shader::program::csir::load(&bytes).expect("loaded");
    assert!(m.iface.writes_depth);
    let mut vs = build(0, VS).module;
    let at = vs.insts.len() - 1;
    vs.insts
        .insert(
            at,
            shader::ir::Inst {
                a: 0,
                ..shader::ir::Inst::new(Op::StoreDepth)
            },
        )
        .unwrap();
    assert!(shader::ir::verify::verify(&vs).is_err());
}
