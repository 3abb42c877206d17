//! RGBA32F render targets on the software and mock backends: unclamped stores, float blending
//! (GL's float-target rules: nothing clamped), readback as floats and as clamped RGBA8,
//! sampling the float target as a texture (unclamped, e.g. an HDR tone-map pass), statistics,
//! the mock log, bad format values, drop_owner, and the VirGL backend's clear refusal.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::{assert_nothing_live, live_counts, prog, screen_quad, tri_layout, FakeDevice};

type G = Gfx3d<Linked>;
const W: u32 = 8;
const H: u32 = 8;
const N: usize = (W * H) as usize;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

/// The rectangle `r` (NDC x0, y0, x1, y1) in colour `c` (passed through by TRI_FRAG).
fn rect(g: &mut G, r: [f32; 4], c: [f32; 4]) -> MeshId {
    let [x0, y0, x1, y1] = r;
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, c[0], c[1], c[2], c[3]]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

fn read_f(g: &mut G, t: TargetId) -> Vec<[f32; 4]> {
    let mut px = vec![[0.0f32; 4]; N];
    g.target_read_float(0, t, &mut px).unwrap();
    px
}

fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; N];
    g.target_read(0, t, &mut px).unwrap();
    px
}

const HDR_LEFT: [f32; 4] = [4.0, 2.5, 0.5, 1.0];
const HDR_RIGHT: [f32; 4] = [-1.0, 0.25, 9.0, 3.0];

/// Left half HDR_LEFT, right half HDR_RIGHT into the float target `a`, over a clear of
/// (1.5, -2, 0, 1) (only row... none left: the halves cover it).
fn hdr_pass(g: &mut G, c: ContextId, a: TargetId) {
    let tri = prog(g, c, TRI_VERT, TRI_FRAG);
    let left = rect(g, [-1.0, -1.0, 0.0, 1.0], HDR_LEFT);
    let right = rect(g, [0.0, -1.0, 1.0, 1.0], HDR_RIGHT);
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [1.5, -2.0, 0.0, 1.0], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.draw(0, c, left).unwrap();
    g.draw(0, c, right).unwrap();
    g.end(0, c).unwrap();
}

#[test]
fn float_target_stores_unclamped_and_reads_back_rgba8_clamped() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    assert_eq!(g.target_format(0, a).unwrap(), TargetFormat::Rgba32F);
    // Clear keeps its values unclamped.
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [1.5, -2.0, f32::NAN, 7.0], true).unwrap();
    g.end(0, c).unwrap();
    assert!(read_f(&mut g, a)
        .iter()
        .all(|p| *p == [1.5, -2.0, 0.0, 7.0]));
    hdr_pass(&mut g, c, a);
    let f = read_f(&mut g, a);
    assert_eq!(f[0], HDR_LEFT);
    assert_eq!(f[(W - 1) as usize], HDR_RIGHT);
    // As RGBA8: clamped to [0, 1], 0.5 * 255 = 127.5 rounds to even 128, 0.25 * 255 = 63.75
    // rounds to 64.
    let px = read(&mut g, a);
    assert_eq!(px[0], 0xFFFF_FF80);
    assert_eq!(px[(W - 1) as usize], 0xFF00_40FF);
}

#[test]
fn float_blending_is_not_clamped() {
    let add = Blend {
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
    let sub = Blend {
        color: BlendComponent {
            src: BlendFactor::SrcAlpha,
            dst: BlendFactor::ConstantColor,
            op: BlendOp::ReverseSubtract,
        },
        ..add
    };
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let tri = prog(&mut g, c, TRI_VERT, TRI_FRAG);
    let full = rect(&mut g, [-1.0, -1.0, 1.0, 1.0], [3.0, 0.5, -0.25, 2.0]);
    let draw = |g: &mut G, t: TargetId, blends: &[Blend]| {
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, tri).unwrap();
        g.depth_test(0, c, false).unwrap();
        for b in blends {
            g.set_blend(0, c, Some(*b)).unwrap();
            g.draw(0, c, full).unwrap();
        }
        g.end(0, c).unwrap();
    };
    let f = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    draw(&mut g, f, &[add, add]);
    assert_eq!(read_f(&mut g, f)[9], [6.0, 1.0, -0.5, 4.0]);
    // Constant and factors unclamped too: dst * k - src * src_alpha with k = 2.5, alpha 2.
    let mut sub_k = sub;
    sub_k.constant = [2.5, 2.5, 2.5, 2.5];
    draw(&mut g, f, &[add, sub_k]);
    // r: 3 * 2.5 - 3 * 2 = 1.5; g: 0.5 * 2.5 - 0.5 * 2 = 0.25; b: -0.625 + 0.5; a: 2 + 2.
    assert_eq!(read_f(&mut g, f)[9], [1.5, 0.25, -0.125, 4.0]);
    // The same draws into RGBA8 clamp (source 1.0 -> 1 + 1 = 1).
    let r8 = g.target_create(0, c, W, H).unwrap();
    draw(&mut g, r8, &[add, add]);
    assert_eq!(read(&mut g, r8)[9], 0xFFFF_FF00);
    // The colour mask applies per channel.
    g.set_color_mask(
        0,
        c,
        ColorMask {
            r: false,
            g: true,
            b: true,
            a: false,
        },
    )
    .unwrap();
    draw(&mut g, f, &[add]);
    assert_eq!(read_f(&mut g, f)[9], [0.0, 0.5, -0.25, 0.0]);
}

const TONEMAP_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D hdr;
out vec4 color;
void main() {
    vec4 c = texture(hdr, fragUV);
    color = vec4(c.rgb / (vec3(1.0) + c.rgb), 1.0);
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
fn sampling_a_float_target_returns_unclamped_values() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    let b = g
        .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
        .unwrap();
    let out = g.target_create(0, c, W, H).unwrap();
    hdr_pass(&mut g, c, a);
    let quad = screen_quad(&mut g);
    // A copy into another float target is exact, values above 1 and below 0 kept.
    let copy = prog(&mut g, c, PASS_VERT, COPY_FRAG);
    g.begin(0, c, b).unwrap();
    g.use_program(0, c, copy).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Color, SamplerState::default())
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    assert_eq!(read_f(&mut g, b), read_f(&mut g, a));
    // Tone-mapped x / (1 + x) into RGBA8: 4 -> 0.8 (204), 2.5 -> 0.714 (182), 0.5 -> 0.333 (85).
    let tone = prog(&mut g, c, PASS_VERT, TONEMAP_FRAG);
    g.begin(0, c, out).unwrap();
    g.use_program(0, c, tone).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Color, SamplerState::default())
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(&mut g, out);
    assert_eq!(px[0], 0xFFCC_B655);
    // Right: -1 / 0 = -inf -> 0; 0.25 / 1.25 = 0.2 (51); 9 / 10 = 0.9 (229.5 -> 230).
    assert_eq!(px[(W - 1) as usize], 0xFF00_33E6);
    // Linear filtering of the float texels is in float (no 8-bit quantization): between 4.0 and
    // -1.0 at the middle columns.
    let lin = SamplerState::new(Filter::Linear, Wrap::ClampToEdge);
    g.begin(0, c, b).unwrap();
    g.use_program(0, c, copy).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Color, lin)
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let f = read_f(&mut g, b);
    // Column 3 samples x = 3.5 / 8 * 8 - 0.5 = 3 exactly: texel 3 (left half).
    assert_eq!(f[3], HDR_LEFT);
    // Column 4's bilinear weight is 0 towards column 3: texel 4.
    assert_eq!(f[4], HDR_RIGHT);
}

#[test]
fn float_target_memory_mock_log_bad_format_and_drop_owner() {
    assert_eq!(TargetFormat::from_raw(0).unwrap(), TargetFormat::Rgba8);
    assert_eq!(TargetFormat::from_raw(1).unwrap(), TargetFormat::Rgba32F);
    assert_eq!(
        TargetFormat::from_raw(2),
        Err(Error::BadEnum {
            what: "target format",
            value: 2
        })
    );
    assert_eq!(TargetFormat::default(), TargetFormat::Rgba8);
    for mode in [BackendMode::Software, BackendMode::Mock] {
        let mut g = boot(mode);
        let start = live_counts(&g.stats());
        let c = g.context_create(0).unwrap();
        let base = g.stats().target_bytes;
        let a = g.target_create(0, c, W, H).unwrap();
        assert_eq!(g.stats().target_bytes - base, (N * 4) as u64);
        let f = g
            .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
            .unwrap();
        assert_eq!(g.stats().target_bytes - base, (N * 4 + N * 16) as u64);
        // Depth is the same for both formats.
        assert_eq!(g.stats().depth_bytes, (2 * N * 4) as u64);
        // Resize keeps the format (and counts the new size).
        g.target_resize(0, f, 4, 2).unwrap();
        assert_eq!(g.target_format(0, f).unwrap(), TargetFormat::Rgba32F);
        assert_eq!(g.stats().target_bytes - base, (N * 4 + 8 * 16) as u64);
        if mode == BackendMode::Mock {
            assert_eq!(g.mock_log(), "target rgba32f 8x8\n");
        }
        // Stale handles are errors.
        g.target_destroy(0, a).unwrap();
        assert!(g.target_format(0, a).is_err());
        // A foreign owner cannot see the target.
        assert!(g.target_format(7, f).is_err());
        let mut px = vec![[0.0f32; 4]; 8];
        assert!(g.target_read_float(0, f, &mut px[..7]).is_err());
        g.target_read_float(0, f, &mut px).unwrap();
        g.drop_owner(0);
        assert_eq!(live_counts(&g.stats()), start);
        assert_eq!(g.stats().target_bytes, base);
        assert_nothing_live(&g.stats(), "after drop_owner");
    }
}

#[test]
fn create_destroy_cycles_of_sampled_float_targets_return_to_start() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let start = g.stats();
    for _ in 0..1000 {
        let t = g
            .target_create_format(0, c, 4, 4, TargetFormat::Rgba32F)
            .unwrap();
        g.bind_target_texture(0, c, 0, t, TargetPlane::Color, SamplerState::default())
            .unwrap();
        g.target_destroy(0, t).unwrap();
    }
    let end = g.stats();
    assert_eq!(live_counts(&end), live_counts(&start));
    assert_eq!(end.target_bytes, start.target_bytes);
}

#[test]
fn virgl_refuses_float_targets_clearly() {
    for mode in [BackendMode::Virgl, BackendMode::Auto] {
        let (dev, _) = FakeDevice::new();
        let mut g = G::new();
        g.boot(mode, Some(Box::new(dev))).unwrap();
        assert_eq!(g.backend_name(), "virgl");
        let c = g.context_create(0).unwrap();
        let e = g
            .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
            .unwrap_err();
        assert_eq!(
            e,
            Error::TargetFormatUnsupported {
                format: "rgba32f",
                backend: "virgl"
            }
        );
        assert!(e.to_string().contains("rgba32f"), "{}", e);
        // Nothing was created, and RGBA8 still works.
        assert_eq!(g.stats().live_target, 0);
        g.target_create(0, c, W, H).unwrap();
    }
}

/// Each job on its own scoped thread.
struct TestThreads(usize);

impl Workers for TestThreads {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        std::thread::scope(|s| {
            for job in jobs.iter_mut() {
                s.spawn(move || job());
            }
        });
    }
}

static THREE: TestThreads = TestThreads(3);

#[test]
fn float_target_bands_over_threads_match_one_band() {
    let run = |workers: Option<&'static TestThreads>| -> Vec<[f32; 4]> {
        let mut g = boot(BackendMode::Software);
        if let Some(w) = workers {
            g.set_workers(w);
        }
        let c = g.context_create(0).unwrap();
        let (w, h) = (37u32, 29u32);
        let t = g
            .target_create_format(0, c, w, h, TargetFormat::Rgba32F)
            .unwrap();
        let tri = prog(&mut g, c, TRI_VERT, TRI_FRAG);
        let mut v = Vec::new();
        for (x, y, col) in [
            (-0.9f32, -0.8f32, [6.0f32, 0.0, 0.0, 1.0]),
            (0.9, -0.7, [0.0, 3.0, 0.0, 2.0]),
            (0.1, 0.95, [0.0, 0.0, 12.0, 0.5]),
        ] {
            v.extend_from_slice(&[x, y, 0.0, 1.0]);
            v.extend_from_slice(&col);
        }
        let m = g.mesh_create(0, Usage::Static).unwrap();
        g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [0.0, 0.0, 0.0, 0.0], true).unwrap();
        g.use_program(0, c, tri).unwrap();
        g.set_blend(0, c, Some(Blend::ALPHA)).unwrap();
        g.draw(0, c, m).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        let mut px = vec![[0.0f32; 4]; (w * h) as usize];
        g.target_read_float(0, t, &mut px).unwrap();
        px
    };
    let one = run(None);
    assert!(one.iter().any(|p| p[2] > 1.0), "HDR values were stored");
    assert_eq!(run(Some(&THREE)), one);
}
