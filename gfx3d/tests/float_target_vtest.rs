//! RGBA32F render targets on the VirGL backend (through vtest against virgl_test_server),
//! compared with the software backend: the float pixels of a target (clear, vertex colours
//! above 1 and below 0, unclamped additive blending) read back as floats and as clamped
//! RGBA8, a float target sampled by a later pass (HDR tone mapping, and an exact copy into
//! another float target), resize, the scanout refusal, and no host errors.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;
use virtio_gpu::vtest::VtestServer;

mod common;
use common::{prog, screen_quad, tri_layout};

type G = Gfx3d<Linked>;
const W: u32 = 16;
const H: u32 = 12;
const N: usize = (W * H) as usize;

fn virgl() -> (VtestServer, G) {
    let server = common::vtest_server();
    let g = common::virgl_on(&server);
    assert_eq!(g.backend_name(), "virgl");
    (server, g)
}

/// A rectangle (NDC x0, y0, x1, y1) with one colour per corner (passed through by TRI_FRAG).
fn rect(g: &mut G, r: [f32; 4], c: [[f32; 4]; 4]) -> MeshId {
    let [x0, y0, x1, y1] = r;
    let corners = [(x0, y0, 0), (x1, y0, 1), (x1, y1, 2), (x0, y1, 3)];
    let mut v = Vec::new();
    for i in [0usize, 1, 2, 0, 2, 3] {
        let (x, y, k) = corners[i];
        v.extend_from_slice(&[x, y, 0.0, 1.0]);
        v.extend_from_slice(&c[k]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

const ADD: Blend = Blend {
    color: BlendComponent {
        src: BlendFactor::One,
        dst: BlendFactor::One,
        op: BlendOp::Add,
    },
    alpha: BlendComponent {
        src: BlendFactor::One,
        dst: BlendFactor::One,
        op: BlendOp::Add,
    },
    constant: [0.0; 4],
};

/// Into a new float target: a clear with values outside [0, 1], a flat HDR rectangle on the
/// left, and on the right a rectangle with corner colours from -1 to 6 added (ONE + ONE) over
/// a flat one. Returns the float pixels and the RGBA8 readback.
fn hdr_picture(g: &mut G) -> (TargetId, Vec<[f32; 4]>, Vec<u32>) {
    let c = g.context_create(0).unwrap();
    let f = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    let tri = prog(g, c, TRI_VERT, TRI_FRAG);
    let flat = rect(g, [-1.0, -1.0, 0.0, 0.5], [[4.0, 2.5, 0.5, 1.0]; 4]);
    let base = rect(g, [0.0, -1.0, 1.0, 1.0], [[1.5, -0.5, 0.25, 2.0]; 4]);
    let ramp = rect(
        g,
        [0.0, -1.0, 1.0, 1.0],
        [
            [-1.0, 0.0, 2.0, 1.0],
            [6.0, 1.0, 0.0, 1.0],
            [2.0, 3.0, 4.0, 1.0],
            [0.5, 5.0, -2.0, 1.0],
        ],
    );
    g.begin(0, c, f).unwrap();
    g.clear(0, c, [1.5, -2.0, 0.25, 3.0], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.draw(0, c, flat).unwrap();
    g.draw(0, c, base).unwrap();
    g.set_blend(0, c, Some(ADD)).unwrap();
    g.draw(0, c, ramp).unwrap();
    g.set_blend(0, c, None).unwrap();
    g.end(0, c).unwrap();
    let mut fl = vec![[0.0f32; 4]; N];
    g.target_read_float(0, f, &mut fl).unwrap();
    let mut px = vec![0u32; N];
    g.target_read(0, f, &mut px).unwrap();
    (f, fl, px)
}

/// Largest channel difference of two float pictures.
fn max_diff(a: &[[f32; 4]], b: &[[f32; 4]]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(p, q)| p.iter().zip(q).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f32::max)
}

#[test]
fn a_float_target_holds_the_same_floats_on_virgl_and_software() {
    let (server, mut hw) = virgl();
    let mut sw = G::new();
    let (_, fs, ps) = hdr_picture(&mut sw);
    let (_, fh, ph) = hdr_picture(&mut hw);
    // Exact values where nothing is interpolated: the clear (top left), the flat rectangle,
    // and the flat base plus the ramp is unclamped (above 1 and below 0 kept).
    assert_eq!(fh[0], [1.5, -2.0, 0.25, 3.0], "clear, unclamped");
    let flat = (H as usize - 2) * W as usize + 1;
    assert_eq!(fh[flat], [4.0, 2.5, 0.5, 1.0]);
    assert_eq!(fs[flat], fh[flat]);
    assert!(
        fh.iter().any(|p| p[0] > 6.0) && fh.iter().any(|p| p[2] < -1.0),
        "the blended ramp keeps values outside [0, 1]"
    );
    // Interpolated and blended floats agree to float rounding.
    let d = max_diff(&fs, &fh);
    assert!(d < 1e-4, "float pixels differ by up to {}", d);
    // The RGBA8 readback of the float target clamps the same way on both: within one step
    // per channel (floats that agree to 1e-4 may round to neighbouring bytes; the host draws
    // targets GL-native, bottom row first, so its interpolation rounds a little differently).
    let step = |a: u32, b: u32| {
        (0..4)
            .map(|k| ((a >> (8 * k)) & 0xFF).abs_diff((b >> (8 * k)) & 0xFF))
            .max()
            .unwrap_or(0)
    };
    let worst = ps
        .iter()
        .zip(&ph)
        .map(|(a, b)| step(*a, *b))
        .max()
        .unwrap_or(0);
    assert!(worst <= 1, "RGBA8 readback differs by {} steps", worst);
    assert!(ps.iter().zip(&ph).filter(|(a, b)| a != b).count() < N / 20);
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

const TONEMAP_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D hdr;
out vec4 color;
void main() {
    vec4 c = texture(hdr, fragUV);
    color = vec4(c.rgb / (vec3(1.0) + max(c.rgb, vec3(0.0))), 1.0);
}
";

const COPY_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D src;
out vec4 color;
void main() {
    color = texture(src, fragUV);
}
";

#[test]
fn a_float_target_sampled_by_later_passes_agrees_with_software() {
    let run = |g: &mut G| -> (Vec<[f32; 4]>, Vec<[f32; 4]>, Vec<u32>) {
        let c = g.context_create(0).unwrap();
        let a = g
            .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
            .unwrap();
        let b = g
            .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
            .unwrap();
        let out = g.target_create(0, c, W, H).unwrap();
        let tri = prog(g, c, TRI_VERT, TRI_FRAG);
        let ramp = rect(
            g,
            [-1.0, -1.0, 1.0, 1.0],
            [
                [-1.0, 0.0, 2.0, 1.0],
                [6.0, 1.0, 0.0, 1.0],
                [2.0, 3.0, 4.0, 1.0],
                [0.5, 5.0, -2.0, 1.0],
            ],
        );
        g.begin(0, c, a).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, tri).unwrap();
        g.draw(0, c, ramp).unwrap();
        g.end(0, c).unwrap();
        let quad = screen_quad(g);
        let copy = prog(g, c, PASS_VERT, COPY_FRAG);
        let tone = prog(g, c, PASS_VERT, TONEMAP_FRAG);
        for (dst, p) in [(b, copy), (out, tone)] {
            g.begin(0, c, dst).unwrap();
            g.use_program(0, c, p).unwrap();
            g.bind_target_texture(0, c, 0, a, TargetPlane::Color, SamplerState::default())
                .unwrap();
            g.draw(0, c, quad).unwrap();
            g.bind_texture(0, c, 0, None).unwrap();
            g.end(0, c).unwrap();
        }
        let mut fa = vec![[0.0f32; 4]; N];
        g.target_read_float(0, a, &mut fa).unwrap();
        let mut fb = vec![[0.0f32; 4]; N];
        g.target_read_float(0, b, &mut fb).unwrap();
        let mut px = vec![0u32; N];
        g.target_read(0, out, &mut px).unwrap();
        (fa, fb, px)
    };
    let (server, mut hw) = virgl();
    let (sa, sb, sp) = run(&mut G::new());
    let (ha, hb, hp) = run(&mut hw);
    // The copy is exact on each backend: sampling a float target returns its floats.
    assert_eq!(hb, ha, "virgl: copy of a float target");
    assert_eq!(sb, sa, "software: copy of a float target");
    assert!(max_diff(&sa, &ha) < 1e-4);
    // Tone-mapped pixels agree within one step per channel.
    let mut worst = 0;
    for (x, y) in sp.iter().zip(&hp) {
        for sh in [0, 8, 16, 24] {
            let d = ((x >> sh) & 0xFF) as i32 - ((y >> sh) & 0xFF) as i32;
            worst = worst.max(d.abs());
        }
    }
    assert!(worst <= 1, "tone-mapped pixels differ by {} steps", worst);
    assert!(
        hp.iter().any(|p| (p >> 16) & 0xFF > 200),
        "bright parts tone-mapped, not black"
    );
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

#[test]
fn a_float_target_resizes_and_is_not_a_scanout() {
    let (server, mut g) = virgl();
    let c = g.context_create(0).unwrap();
    let f = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    g.target_resize(0, f, 4, 2).unwrap();
    assert_eq!(g.target_format(0, f).unwrap(), TargetFormat::Rgba32F);
    g.begin(0, c, f).unwrap();
    g.clear(0, c, [7.0, -1.0, 0.5, 2.0], true).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![[0.0f32; 4]; 8];
    g.target_read_float(0, f, &mut px).unwrap();
    assert_eq!(px, vec![[7.0, -1.0, 0.5, 2.0]; 8]);
    // vtest has no scanout; a float target is refused before the device is asked.
    assert_eq!(
        g.present_scanout(0, f),
        Err(Error::TargetFormatUnsupported {
            format: "rgba32f",
            backend: "scanout"
        })
    );
    g.drop_owner(0);
    assert_eq!(g.stats().live_target, 0);
    assert_eq!(g.backend_name(), "virgl");
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
