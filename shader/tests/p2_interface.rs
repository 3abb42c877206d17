//! Profile 2's interface qualifiers end to end (issue 12 item 5): `flat` and `noperspective`
//! interpolation in the software rasterizer (checked numerically against the GL formulas),
//! their TGSI declarations, the link rule that both stages agree, CSIR v2's interpolation byte,
//! and fragment outputs (float..vec4, several locations, only location 0 stored).
use shader::back::raster::*;
use shader::back::tgsi::check_tgsi;
use shader::ir::{Interp, Stage};
use shader::limits::Profile;
use shader::program::compile::{compile_with, CompileOptions};
use shader::program::csir::{self, Version};
use shader::program::link::{LinkError, Program};

fn module(stage: u32, src: &str) -> shader::ir::Module {
    match compile_with(
        stage,
        src.as_bytes(),
        "t",
        &CompileOptions::profile(Profile::P2),
    ) {
        Ok(s) => s.module,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

fn link(vs: &str, fs: &str) -> Program {
    let (vs, fs) = (module(0, vs), module(1, fs));
    let mut p = Program::new();
    p.link(Some(&vs), Some(&fs))
        .unwrap_or_else(|e| panic!("link: {} ({})", e, p.log()));
    p
}

const VS: &str = "layout(location = 0) in vec4 p;
layout(location = 1) in vec2 a;
flat out float f;
noperspective out float n;
out float s;
void main() {
    gl_Position = p;
    f = a.y;
    n = a.x;
    s = a.x;
}";

const FS: &str = "flat in float f;
noperspective in float n;
smooth in float s;
out vec4 c;
void main() {
    c = vec4(n, s, f, 1.0);
}";

const SIZE: u32 = 32;

/// Draws one triangle of 6 floats per vertex (clip x, y, z, w, then a.x, a.y) and returns the
/// picture (0xAARRGGBB, row 0 at the top; the clear colour is 0).
fn draw_triangle(program: &Program, verts: &[f32; 18]) -> Vec<u32> {
    let attribs = [
        VertexAttrib {
            location: 0,
            offset: 0,
            components: 4,
        },
        VertexAttrib {
            location: 1,
            offset: 4,
            components: 2,
        },
    ];
    let input = VertexInput {
        data: verts,
        stride: 6,
        attribs: &attribs,
        count: 3,
    };
    let mut color = vec![0u32; (SIZE * SIZE) as usize];
    let mut depth = vec![1.0f32; (SIZE * SIZE) as usize];
    let mut target = Target {
        width: SIZE,
        height: SIZE,
        color: &mut color,
        depth: &mut depth,
    };
    let state = RasterState {
        depth_test: false,
        cull_back: false,
        ..RasterState::new(SIZE, SIZE)
    };
    draw(program, &input, None, &[None; 4], &state, &mut target).unwrap();
    color
}

fn channel(p: u32, shift: u32) -> i32 {
    ((p >> shift) & 0xff) as i32
}

fn unorm(v: f64) -> i32 {
    (v.clamp(0.0, 1.0) * 255.0).round() as i32
}

/// v0 at the window's lower-left corner (w 1), v1 at the lower-right (w 4), v2 at the
/// upper-left (w 1): a.x is 0, 1 and 0.5 at the corners, a.y (flat) 0.2, 0.4 and 0.6.
const TRIANGLE: [f32; 18] = [
    -1.0, -1.0, 0.0, 1.0, 0.0, 0.2, //
    4.0, -4.0, 0.0, 4.0, 1.0, 0.4, //
    -1.0, 1.0, 0.0, 1.0, 0.5, 0.6,
];

#[test]
fn flat_takes_the_last_vertex_and_noperspective_is_screen_linear() {
    let program = link(VS, FS);
    let picture = draw_triangle(&program, &TRIANGLE);
    let (w0, w1, w2) = (1.0f64, 4.0, 1.0);
    let mut covered = 0;
    let mut perspective_differs = 0;
    for row in 0..SIZE {
        for x in 0..SIZE {
            let p = picture[(row * SIZE + x) as usize];
            if p == 0 {
                continue;
            }
            covered += 1;
            // Window position of the pixel centre (y up), then screen-space barycentrics.
            let (xw, yw) = (x as f64 + 0.5, (SIZE - 1 - row) as f64 + 0.5);
            let (b1, b2) = (xw / SIZE as f64, yw / SIZE as f64);
            let b0 = 1.0 - b1 - b2;
            let linear = b1 * 1.0 + b2 * 0.5;
            let persp = (b1 * 1.0 / w1 + b2 * 0.5 / w2) / (b0 / w0 + b1 / w1 + b2 / w2);
            let (r, g, b) = (channel(p, 16), channel(p, 8), channel(p, 0));
            assert!(
                (r - unorm(linear)).abs() <= 1,
                "noperspective at ({}, {}): {} vs {}",
                x,
                row,
                r,
                unorm(linear)
            );
            assert!(
                (g - unorm(persp)).abs() <= 1,
                "smooth at ({}, {}): {} vs {}",
                x,
                row,
                g,
                unorm(persp)
            );
            assert_eq!(b, unorm(0.6), "flat at ({}, {})", x, row);
            if (unorm(linear) - unorm(persp)).abs() > 20 {
                perspective_differs += 1;
            }
        }
    }
    assert!(covered > 300, "the triangle covers {} pixels", covered);
    // The scene tells the two interpolations apart.
    assert!(perspective_differs > 50, "{}", perspective_differs);
}

/// The provoking vertex is the triangle's last one also when clipping makes new vertices
/// (here v1 lies behind the near plane), and whichever vertex comes last.
#[test]
fn flat_survives_clipping_and_follows_the_last_vertex() {
    let program = link(VS, FS);
    let mut clipped = TRIANGLE;
    clipped[8] = -8.0; // v1.z < -w: clipped by the near plane
    for (verts, want) in [
        (clipped, 0.6),
        (rotate(&TRIANGLE), 0.2),
        (rotate(&rotate(&TRIANGLE)), 0.4),
    ] {
        let picture = draw_triangle(&program, &verts);
        let blues: std::collections::BTreeSet<i32> = picture
            .iter()
            .filter(|&&p| p != 0)
            .map(|&p| channel(p, 0))
            .collect();
        assert_eq!(blues.into_iter().collect::<Vec<_>>(), [unorm(want)]);
    }
}

/// The vertices in the order v1, v2, v0.
fn rotate(t: &[f32; 18]) -> [f32; 18] {
    let mut r = [0.0; 18];
    r[..12].copy_from_slice(&t[6..]);
    r[12..].copy_from_slice(&t[..6]);
    r
}

#[test]
fn tgsi_declares_constant_and_linear_inputs() {
    let program = link(VS, FS);
    let text = program.tgsi(Stage::Fragment);
    check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
    let dcl: Vec<&str> = text
        .as_str()
        .lines()
        .filter(|l| l.starts_with("DCL IN"))
        .collect();
    assert_eq!(
        dcl,
        [
            "DCL IN[0], GENERIC[0], CONSTANT",
            "DCL IN[1], GENERIC[1], LINEAR",
            "DCL IN[2], GENERIC[2], PERSPECTIVE",
        ]
    );
    check_tgsi(program.tgsi(Stage::Vertex)).unwrap();
}

#[test]
fn interpolation_must_match_between_the_stages() {
    let vs = module(0, VS);
    for (fs, name, ok) in [
        (FS.replace("flat in float f", "in float f"), "f", false),
        (FS.replace("noperspective in", "flat in"), "n", false),
        (
            FS.replace("smooth in float s", "noperspective in float s"),
            "s",
            false,
        ),
        (
            FS.replace("smooth in float s", "centroid in float s"),
            "s",
            true,
        ),
    ] {
        let fs = module(1, &fs);
        let mut p = Program::new();
        match p.link(Some(&vs), Some(&fs)) {
            Ok(()) => assert!(ok, "{} linked", name),
            Err(e) => {
                assert!(!ok);
                assert_eq!(
                    e,
                    LinkError::VaryingInterpMismatch(name.try_into().unwrap())
                );
                assert!(
                    p.log().contains("varying interpolation mismatch"),
                    "{}",
                    p.log()
                );
            }
        }
    }
}

#[test]
fn csir_v2_keeps_the_interpolation() {
    for (stage, src) in [(0, VS), (1, FS)] {
        let m = module(stage, src);
        let mut buf = vec![0u8; 1 << 16];
        let n = csir::save(&m, Version::V2, &mut buf).unwrap();
        // The byte after the slot of each varying entry (profile-2 entries: a 64-byte name,
        // then type, slot, interpolation): 1 flat, 2 noperspective, 0 smooth.
        const INTERP: usize = 64 + 2;
        for (name, byte) in [("f", 1u8), ("n", 2), ("s", 0)] {
            assert_eq!(buf[find_entry(&buf[..n], name) + INTERP], byte, "{}", name);
        }
        let back = csir::load(&buf[..n]).unwrap();
        let modes: Vec<Interp> = back.iface.varyings.iter().map(|v| v.interp).collect();
        assert_eq!(modes, [Interp::Flat, Interp::NoPerspective, Interp::Smooth]);
        // An unknown interpolation byte is refused.
        let at = find_entry(&buf[..n], "f");
        let mut bad = buf[..n].to_vec();
        bad[at + INTERP] = 3;
        assert!(csir::load(&bad).is_err());
    }
}

/// Offset of the varying entry named `name` (a 40-byte name field: length, then the bytes).
fn find_entry(blob: &[u8], name: &str) -> usize {
    let mut field = vec![name.len() as u8];
    field.extend_from_slice(name.as_bytes());
    field.resize(40, 0);
    blob.windows(40)
        .position(|w| w == field.as_slice())
        .expect("entry")
}

const QUAD_VS: &str = "layout(location = 0) in vec4 p;
out vec2 uv;
void main() { gl_Position = p; uv = p.xy * 0.5 + 0.5; }";

/// The colour a fragment shader writes over the whole target (one pixel read).
fn colour(fs: &str) -> (u32, Program) {
    let program = link(QUAD_VS, fs);
    let verts: [f32; 18] = [
        -1.0, -1.0, 0.0, 1.0, 0.0, 0.0, //
        3.0, -1.0, 0.0, 1.0, 0.0, 0.0, //
        -1.0, 3.0, 0.0, 1.0, 0.0, 0.0,
    ];
    let picture = draw_triangle(&program, &verts);
    (picture[(SIZE * SIZE / 2 + SIZE / 2) as usize], program)
}

/// Missing channels are written as Mesa (llvmpipe) writes them to an RGBA8 target: 0, alpha
/// included (checked with tools/mesa-ref).
#[test]
fn short_outputs_write_zero_in_the_missing_channels() {
    let (c, _) = colour("out float o; void main() { o = 0.5; }");
    assert_eq!(c, 0x0080_0000);
    let (c, _) = colour("out vec2 o; void main() { o = vec2(1.0, 0.25); }");
    assert_eq!(c, 0x00ff_4000);
    let (c, _) =
        colour("layout(location = 0) out vec3 o; void main() { o = vec3(1.0, 0.5, 0.25); }");
    assert_eq!(c, 0x00ff_8040);
    let (c, _) = colour("out vec4 o; void main() { o = vec4(1.0, 0.5, 0.25, 0.75); }");
    assert_eq!(c, 0xbfff_8040);
}

#[test]
fn only_location_0_is_stored_and_the_log_says_so() {
    let (c, program) = colour(
        "layout(location = 1) out vec4 other;
layout(location = 0) out vec4 o;
void main() { other = vec4(1.0); o = vec4(0.0, 0.0, 1.0, 1.0); }",
    );
    assert_eq!(c, 0xff00_00ff);
    assert!(
        program
            .log()
            .contains("fragment output 'other' (location 1) is not stored"),
        "{}",
        program.log()
    );
    let fs = program.module(Stage::Fragment).unwrap();
    let outs: Vec<(&str, u8)> = fs
        .iface
        .frag_outputs
        .iter()
        .map(|o| (o.name.as_str(), o.location))
        .collect();
    assert_eq!(outs, [("other", 1), ("o", 0)]);
    assert_eq!(fs.iface.color_output.as_deref(), Some("o"));
}
