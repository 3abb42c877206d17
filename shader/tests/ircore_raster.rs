//! Rasterizer, executor-through-raster and reference-call tests (hand-built IR).
mod ircore_util;
use ircore_util::*;
use shader::back::raster::*;
use shader::ir::*;

const NO_TEX: [Option<TextureRef>; 4] = [None, None, None, None];

struct Img {
    w: u32,
    h: u32,
    color: Vec<u32>,
    depth: Vec<f32>,
}

impl Img {
    fn new(w: u32, h: u32) -> Img {
        Img {
            w,
            h,
            color: vec![0; (w * h) as usize],
            depth: vec![1.0; (w * h) as usize],
        }
    }
    fn target(&mut self) -> Target<'_> {
        Target {
            width: self.w,
            height: self.h,
            color: &mut self.color,
            depth: &mut self.depth,
        }
    }
    fn at(&self, x: u32, row: u32) -> u32 {
        self.color[(row * self.w + x) as usize]
    }
    fn covered(&self) -> Vec<bool> {
        self.color.iter().map(|&c| c != 0).collect()
    }
}

/// Vertices of 8 floats: position xyzw, colour rgba.
fn draw_verts(
    p: &shader::program::link::Program,
    verts: &[[f32; 8]],
    idx: Option<&[u16]>,
    st: &RasterState,
    img: &mut Img,
) -> DrawStats {
    draw_verts_tex(p, verts, idx, &NO_TEX, st, img)
}

/// [`draw_verts`] with textures.
fn draw_verts_tex(
    p: &shader::program::link::Program,
    verts: &[[f32; 8]],
    idx: Option<&[u16]>,
    tex: &[Option<TextureRef>; 4],
    st: &RasterState,
    img: &mut Img,
) -> DrawStats {
    with_input(verts, |input| {
        draw(p, input, idx, tex, st, &mut img.target()).unwrap()
    })
}

/// `f` of the vertex input of `verts` (position at location 0, colour at location 1).
fn with_input<R>(verts: &[[f32; 8]], f: impl FnOnce(&VertexInput) -> R) -> R {
    let data: Vec<f32> = verts.iter().flatten().copied().collect();
    let attribs = [
        VertexAttrib {
            location: 0,
            offset: 0,
            components: 4,
        },
        VertexAttrib {
            location: 1,
            offset: 4,
            components: 4,
        },
    ];
    let input = VertexInput {
        data: &data,
        stride: 8,
        attribs: &attribs,
        count: verts.len() as u32,
    };
    f(&input)
}

fn v(x: f32, y: f32, z: f32, w: f32, c: [f32; 4]) -> [f32; 8] {
    [x, y, z, w, c[0], c[1], c[2], c[3]]
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

fn pt() -> shader::program::link::Program {
    link(&passthrough_vs(), &passthrough_fs())
}

fn no_depth(w: u32, h: u32) -> RasterState {
    RasterState {
        depth_test: false,
        ..RasterState::new(w, h)
    }
}

#[test]
fn mvp_is_column_major() {
    let mut b = B::new(Stage::Vertex);
    let p = b.attribute("position", 0, Type::Vec4);
    let model = b.uniform("model", Type::Mat4, 0);
    let view = b.uniform("view", Type::Mat4, 4);
    let proj = b.uniform("projection", Type::Mat4, 8);
    let t1 = b.temp();
    b.inst(Op::MulMV, t1, model, p, 4, 4, 0);
    let t2 = b.temp();
    b.inst(Op::MulMV, t2, view, t1, 4, 4, 0);
    let t3 = b.temp();
    b.inst(Op::MulMV, t3, proj, t2, 4, 4, 0);
    b.position(t3);
    let mut prog = link(&b.done(), &passthrough_fs_without_varyings());
    let id = [
        1.0, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.,
    ];
    let m = [
        2.0, 0., 0., 0., 0., 3., 0., 0., 0., 0., 4., 0., 5., 6., 7., 1.,
    ];
    assert_eq!(prog.uniform_find("model"), Some(0));
    prog.set_uniform(0, &m).unwrap();
    prog.set_uniform(prog.uniform_find("view").unwrap(), &id)
        .unwrap();
    prog.set_uniform(prog.uniform_find("projection").unwrap(), &id)
        .unwrap();
    let r = soft_vs(&prog, &[1.0, 1.0, 1.0, 1.0]).unwrap();
    assert_eq!(r.position, [7.0, 9.0, 11.0, 1.0]);
}

fn passthrough_fs_without_varyings() -> Module {
    let mut b = B::new(Stage::Fragment);
    let c = b.konst(&[1.0, 0.0, 0.0, 1.0]);
    b.color(c);
    b.done()
}

#[test]
fn texel_order_is_bgra() {
    let mut f = B::new(Stage::Fragment);
    f.sampler("diffuseTexture", 0);
    let uv = f.konst(&[0.0, 0.0]);
    let s = f.sample(0, uv);
    f.color(s);
    let prog = link(&passthrough_vs_no_varying(), &f.done());
    assert_eq!(prog.sampler_find("diffuseTexture"), Some(0));
    // First texel bytes B, G, R, A = 0, 0, 255, 255.
    let bytes = [0u8, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let texels: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let tex = [
        Some(TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: 2,
            height: 2,
            texels: &texels,
            sampler: SamplerState::default(),
        }),
        None,
        None,
        None,
    ];
    let r = soft_fs(&prog, &[[0.0; 4]; 8], [0.5, 0.5, 0.5, 1.0], &tex).unwrap();
    assert_eq!(r.color, [1.0, 0.0, 0.0, 1.0]);
    assert!(!r.discarded);
}

fn passthrough_vs_no_varying() -> Module {
    let mut b = B::new(Stage::Vertex);
    let p = b.attribute("pos", 0, Type::Vec4);
    b.position(p);
    b.done()
}

#[test]
fn reference_soft_triangle_draws_red() {
    let prog = pt();
    let mut img = Img::new(32, 32);
    let a = v(-0.8, -0.8, 0.0, 1.0, RED);
    let b = v(0.8, -0.8, 0.0, 1.0, RED);
    let c = v(0.0, 0.8, 0.0, 1.0, RED);
    let st = soft_triangle(&prog, [&a, &b, &c], &NO_TEX, &mut img.target()).unwrap();
    let red = img.color.iter().filter(|&&p| (p >> 16) & 255 > 200).count();
    assert!(red > 20, "{} red pixels", red);
    assert_eq!(st.pixels_written as usize, red);
    // 129x129 is refused with a typed error.
    let mut big = Img::new(129, 129);
    assert!(matches!(
        soft_triangle(&prog, [&a, &b, &c], &NO_TEX, &mut big.target()),
        Err(DrawError::TargetSize { .. })
    ));
}

#[test]
fn full_screen_quad_covers_every_pixel_exactly_once() {
    let prog = pt();
    for (w, h) in [(16, 16), (17, 9), (640, 480)] {
        let quad = [
            v(-1., -1., 0., 1., RED),
            v(1., -1., 0., 1., RED),
            v(1., 1., 0., 1., RED),
            v(-1., 1., 0., 1., RED),
        ];
        let mut a = Img::new(w, h);
        draw_verts(&prog, &quad, Some(&[0, 1, 2]), &no_depth(w, h), &mut a);
        let mut b = Img::new(w, h);
        draw_verts(&prog, &quad, Some(&[0, 2, 3]), &no_depth(w, h), &mut b);
        for (i, (x, y)) in a.covered().iter().zip(b.covered()).enumerate() {
            assert!(*x != y, "pixel {} covered {} times", i, *x as u8 + y as u8);
        }
    }
}

/// Deterministic pseudo-random numbers for geometry tests.
struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

fn inside_margin(p: [f32; 2], t: &[[f32; 2]; 3], margin: f32) -> bool {
    let e = |a: [f32; 2], b: [f32; 2]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        ((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / (dx * dx + dy * dy).sqrt()
    };
    let d = [e(t[0], t[1]), e(t[1], t[2]), e(t[2], t[0])];
    d.iter().all(|&x| x > margin) || d.iter().all(|&x| x < -margin)
}

#[test]
fn fans_of_triangles_share_edges_without_gaps_or_overlaps() {
    let prog = pt();
    let (w, h) = (64u32, 48u32);
    let mut rng = Rng(7);
    for _ in 0..20 {
        // A fan around a random centre: 7 triangles sharing edges and the centre vertex.
        let cx = rng.f() * 0.6 - 0.3;
        let cy = rng.f() * 0.6 - 0.3;
        let mut ring = vec![];
        for k in 0..7 {
            let ang = (k as f32 + rng.f() * 0.5) * std::f32::consts::TAU / 7.0;
            let r = 0.5 + rng.f() * 0.4;
            ring.push([cx + r * ang.cos(), cy + r * ang.sin()]);
        }
        let mut count = vec![0u32; (w * h) as usize];
        for k in 0..7 {
            let (p, q) = (ring[k], ring[(k + 1) % 7]);
            let tri = [
                v(cx, cy, 0., 1., RED),
                v(p[0], p[1], 0., 1., RED),
                v(q[0], q[1], 0., 1., RED),
            ];
            let mut img = Img::new(w, h);
            draw_verts(&prog, &tri, None, &no_depth(w, h), &mut img);
            for (c, x) in count.iter_mut().zip(img.covered()) {
                *c += x as u32;
            }
        }
        // Every pixel at most once; pixel centres clearly inside one triangle (not within 0.01
        // pixel of any edge) exactly once.
        for row in 0..h {
            for col in 0..w {
                let n = count[(row * w + col) as usize];
                assert!(n <= 1, "pixel {},{} covered {} times", col, row, n);
                let px = [
                    (col as f32 + 0.5) / w as f32 * 2.0 - 1.0,
                    1.0 - (row as f32 + 0.5) / h as f32 * 2.0,
                ];
                let inside = (0..7).any(|k| {
                    let t = [[cx, cy], ring[k], ring[(k + 1) % 7]];
                    inside_margin(
                        [px[0] * w as f32 / 2.0, px[1] * h as f32 / 2.0],
                        &t.map(|p| [p[0] * w as f32 / 2.0, p[1] * h as f32 / 2.0]),
                        0.01,
                    )
                });
                if inside {
                    assert_eq!(n, 1, "pixel {},{} inside the fan not covered", col, row);
                }
            }
        }
    }
}

#[test]
fn top_left_fill_rule() {
    // 8x8 target; a square whose edges pass exactly through pixel centres (window 0.5..2.5).
    let prog = pt();
    let ndc = |x: f32| x / 4.0 - 1.0;
    let (a, b) = (ndc(0.5), ndc(2.5));
    let quad = [
        v(a, a, 0., 1., RED),
        v(b, a, 0., 1., RED),
        v(b, b, 0., 1., RED),
        v(a, b, 0., 1., RED),
    ];
    let mut img = Img::new(8, 8);
    draw_verts(
        &prog,
        &quad,
        Some(&[0, 1, 2, 0, 2, 3]),
        &no_depth(8, 8),
        &mut img,
    );
    let mut got = vec![];
    for row in 0..8 {
        for col in 0..8 {
            if img.at(col, row) != 0 {
                got.push((col, row));
            }
        }
    }
    // Left column (x centre 0.5) and top row (memory row 5) are in; right and bottom are out.
    assert_eq!(got, vec![(0, 5), (1, 5), (0, 6), (1, 6)]);
}

#[test]
fn back_faces_are_culled_when_asked() {
    let prog = pt();
    let ccw = [
        v(-0.5, -0.5, 0., 1., RED),
        v(0.5, -0.5, 0., 1., RED),
        v(0.0, 0.5, 0., 1., RED),
    ];
    let cw = [ccw[0], ccw[2], ccw[1]];
    let st = RasterState {
        cull_back: true,
        ..no_depth(16, 16)
    };
    let mut img = Img::new(16, 16);
    let s = draw_verts(&prog, &ccw, None, &st, &mut img);
    assert!(s.pixels_written > 0 && s.culled == 0);
    let mut img2 = Img::new(16, 16);
    let s = draw_verts(&prog, &cw, None, &st, &mut img2);
    assert_eq!((s.pixels_written, s.culled), (0, 1));
    // Without culling both windings draw the same pixels.
    let mut img3 = Img::new(16, 16);
    draw_verts(&prog, &cw, None, &no_depth(16, 16), &mut img3);
    assert_eq!(img.color, img3.color);
}

#[test]
fn viewport_sub_rectangle_is_honoured_with_y_up() {
    let prog = pt();
    let quad = [
        v(-1., -1., 0., 1., RED),
        v(1., -1., 0., 1., RED),
        v(1., 1., 0., 1., RED),
        v(-1., 1., 0., 1., RED),
    ];
    // Even a triangle far larger than the viewport stays inside it (scissor = viewport).
    let huge = [
        v(-30., -30., 0., 1., GREEN),
        v(30., -30., 0., 1., GREEN),
        v(0., 30., 0., 1., GREEN),
    ];
    for tri_set in [&quad[..], &huge[..]] {
        let mut img = Img::new(8, 8);
        let st = RasterState {
            viewport: [2, 1, 4, 3],
            ..no_depth(8, 8)
        };
        let idx: &[u16] = if tri_set.len() == 4 {
            &[0, 1, 2, 0, 2, 3]
        } else {
            &[0, 1, 2]
        };
        draw_verts(&prog, tri_set, Some(idx), &st, &mut img);
        for row in 0..8 {
            for col in 0..8 {
                // GL rows 1..4 from the bottom = memory rows 4..7.
                let expect = (2..6).contains(&col) && (4..7).contains(&row);
                assert_eq!(img.at(col, row) != 0, expect, "pixel {},{}", col, row);
            }
        }
    }
    // The top half of NDC lands in the top rows of memory.
    let top = [
        v(-1., 0., 0., 1., RED),
        v(1., 0., 0., 1., RED),
        v(1., 1., 0., 1., RED),
        v(-1., 1., 0., 1., RED),
    ];
    let mut img = Img::new(4, 4);
    draw_verts(
        &prog,
        &top,
        Some(&[0, 1, 2, 0, 2, 3]),
        &no_depth(4, 4),
        &mut img,
    );
    assert!(img.at(0, 0) != 0 && img.at(0, 3) == 0);
}

#[test]
fn depth_less_across_interleaved_draws() {
    let prog = pt();
    let quad = |z: f32, c| {
        [
            v(-1., -1., z, 1., c),
            v(1., -1., z, 1., c),
            v(1., 1., z, 1., c),
            v(-1., 1., z, 1., c),
        ]
    };
    let left = |z: f32, c| {
        [
            v(-1., -1., z, 1., c),
            v(0., -1., z, 1., c),
            v(0., 1., z, 1., c),
            v(-1., 1., z, 1., c),
        ]
    };
    let idx: &[u16] = &[0, 1, 2, 0, 2, 3];
    let st = RasterState::new(8, 8);
    let mut img = Img::new(8, 8);
    draw_verts(&prog, &quad(-0.5, GREEN), Some(idx), &st, &mut img); // near
    draw_verts(&prog, &quad(0.5, RED), Some(idx), &st, &mut img); // far: hidden
    assert!(img.color.iter().all(|&c| c == 0xFF00FF00));
    draw_verts(&prog, &left(-0.9, BLUE), Some(idx), &st, &mut img); // nearer: left half
    draw_verts(&prog, &quad(-0.5, RED), Some(idx), &st, &mut img); // equal depth fails LESS
    for row in 0..8 {
        for col in 0..8 {
            let want = if col < 4 { 0xFF0000FF } else { 0xFF00FF00 };
            assert_eq!(img.at(col, row), want);
        }
    }
    assert!(
        (img.depth[0] - 0.05).abs() < 1e-6,
        "window depth {}",
        img.depth[0]
    );
    // Depth test off: drawn regardless, depth untouched.
    let off = RasterState {
        depth_test: false,
        ..st
    };
    draw_verts(&prog, &quad(0.9, RED), Some(idx), &off, &mut img);
    assert!(img.color.iter().all(|&c| c == 0xFFFF0000));
    assert!((img.depth[0] - 0.05).abs() < 1e-6);
}

/// VS passes position; FS writes gl_FragCoord scaled by (1/16, 1/16, 1, 1).
#[test]
fn frag_coord_follows_gl() {
    let mut f = B::new(Stage::Fragment);
    let fc = f.fragcoord();
    let s = f.konst(&[1.0 / 16.0, 1.0 / 16.0, 1.0, 0.25]);
    let c = f.bin(Op::Mul, fc, s, 4);
    f.color(c);
    let prog = link(&passthrough_vs_no_varying(), &f.done());
    let w = 2.0;
    let quad = [
        v(-w, -w, 0.0, w, RED),
        v(w, -w, 0.0, w, RED),
        v(w, w, 0.0, w, RED),
        v(-w, w, 0.0, w, RED),
    ];
    let mut img = Img::new(16, 16);
    draw_verts(
        &prog,
        &quad,
        Some(&[0, 1, 2, 0, 2, 3]),
        &no_depth(16, 16),
        &mut img,
    );
    for (col, row) in [(0u32, 0u32), (3, 12), (15, 15)] {
        let p = img.at(col, row);
        let r = ((p >> 16) & 255) as f32 / 255.0;
        let g = ((p >> 8) & 255) as f32 / 255.0;
        let b = (p & 255) as f32 / 255.0;
        let a = (p >> 24) as f32 / 255.0;
        assert!(
            (r - (col as f32 + 0.5) / 16.0).abs() < 0.003,
            "x at {},{}: {}",
            col,
            row,
            r
        );
        assert!(
            (g - (16.0 - row as f32 - 0.5) / 16.0).abs() < 0.003,
            "y at {},{}: {}",
            col,
            row,
            g
        );
        assert!((b - 0.5).abs() < 0.003, "z {}", b);
        assert!((a - 0.125).abs() < 0.003, "w = 1/w_clip: {}", a);
    }
}

#[test]
fn varyings_are_perspective_correct() {
    let prog = pt();
    // A full-screen quad whose right side is 4x farther (w = 4): colour r = 0 left, 1 right.
    let (wl, wr) = (1.0f32, 4.0f32);
    let quad = [
        v(-wl, -wl, 0., wl, [0., 0., 0., 1.]),
        v(wr, -wr, 0., wr, [1., 0., 0., 1.]),
        v(wr, wr, 0., wr, [1., 0., 0., 1.]),
        v(-wl, wl, 0., wl, [0., 0., 0., 1.]),
    ];
    let mut img = Img::new(64, 4);
    draw_verts(
        &prog,
        &quad,
        Some(&[0, 1, 2, 0, 2, 3]),
        &no_depth(64, 4),
        &mut img,
    );
    for col in 0..64 {
        // Screen-space s in [0,1]; perspective-correct t = (s/wr) / ((1-s)/wl + s/wr).
        let s = (col as f32 + 0.5) / 64.0;
        let t = (s / wr) / ((1.0 - s) / wl + s / wr);
        let r = ((img.at(col, 1) >> 16) & 255) as f32 / 255.0;
        assert!(
            (r - t).abs() <= 1.0 / 255.0 + 1e-4,
            "col {}: {} vs {}",
            col,
            r,
            t
        );
    }
}

#[test]
fn near_plane_and_behind_camera_are_clipped() {
    let prog = pt();
    let (w, h) = (64u32, 64u32);
    // Perspective: fov 90, n = 0.5, f = 10; eye-space points -> clip.
    let (n, f) = (0.5f32, 10.0f32);
    let clip =
        |x: f32, y: f32, z: f32| v(x, y, (f + n) / (n - f) * z + 2.0 * f * n / (n - f), -z, RED);
    // Entirely behind the camera: nothing.
    let behind = [clip(-1., -1., 1.), clip(1., -1., 1.), clip(0., 1., 2.)];
    let mut img = Img::new(w, h);
    let s = draw_verts(&prog, &behind, None, &no_depth(w, h), &mut img);
    assert_eq!(s.pixels_written, 0);
    assert_eq!(s.rejected, 1);
    // A floor triangle reaching behind the camera (crosses w = 0 and the near plane).
    let floor = [clip(-1., -1., -2.), clip(1., -1., -2.), clip(0., -1., 1.)];
    let mut img = Img::new(w, h);
    let s = draw_verts(&prog, &floor, None, &no_depth(w, h), &mut img);
    assert_eq!(s.clipped, 1);
    assert!(s.pixels_written > 100, "{:?}", s);
    // Reference: clip in eye space at z = -n, project, test pixel centres.
    let proj = |p: [f32; 3]| [p[0] / -p[2], p[1] / -p[2]];
    let (a, b, c) = ([-1., -1., -2.], [1., -1., -2.], [0., -1., 1.]);
    let cut = |p: [f32; 3], q: [f32; 3]| {
        let t = (-n - p[2]) / (q[2] - p[2]);
        [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), -n]
    };
    let poly = [proj(a), proj(b), proj(cut(b, c)), proj(cut(a, c))];
    let to_px = |p: [f32; 2]| [(p[0] + 1.0) * 0.5 * w as f32, (p[1] + 1.0) * 0.5 * h as f32];
    let poly: Vec<[f32; 2]> = poly.iter().map(|&p| to_px(p)).collect();
    let mut wrong = 0;
    for row in 0..h {
        for col in 0..w {
            let p = [col as f32 + 0.5, h as f32 - row as f32 - 0.5];
            let t1 = [poly[0], poly[1], poly[2]];
            let t2 = [poly[0], poly[2], poly[3]];
            let clearly_in = inside_margin(p, &t1, 0.05) || inside_margin(p, &t2, 0.05);
            let clearly_out = !inside_margin(p, &t1, -0.05) && !inside_margin(p, &t2, -0.05);
            let drawn = img.at(col, row) != 0;
            if (clearly_in && !drawn) || (clearly_out && drawn) {
                wrong += 1;
            }
            // Nothing may appear above the horizon (where the behind-camera vertex would project).
            if row < h / 2 {
                assert!(!drawn, "garbage above the horizon at {},{}", col, row);
            }
        }
    }
    assert_eq!(wrong, 0);
}

#[test]
fn far_plane_clips_and_discard_drops_fragments() {
    let prog = pt();
    // z from -0.5 (left) to 3 (right), w = 1: the part with z > 1 is clipped away.
    let quad = [
        v(-1., -1., -0.5, 1., RED),
        v(1., -1., 3.0, 1., RED),
        v(1., 1., 3.0, 1., RED),
        v(-1., 1., -0.5, 1., RED),
    ];
    let mut img = Img::new(35, 4);
    draw_verts(
        &prog,
        &quad,
        Some(&[0, 1, 2, 0, 2, 3]),
        &no_depth(35, 4),
        &mut img,
    );
    for col in 0..35 {
        let s = (col as f32 + 0.5) / 35.0;
        let z = -0.5 + 3.5 * s;
        if (z - 1.0).abs() > 0.06 {
            assert_eq!(img.at(col, 1) != 0, z < 1.0, "col {} z {}", col, z);
        }
    }

    // FS: if (v.x < 0.5) discard; colour = v.
    let mut f = B::new(Stage::Fragment);
    let vv = f.load_varying("v", 0, Type::Vec4);
    let half = f.konst(&[0.5]);
    let c = f.temp();
    f.inst(Op::Cmp, c, vv, half, 1, CmpCode::Lt as i16, 0);
    f.inst(Op::If, -1, c, -1, 0, 0, 0);
    f.inst(Op::Discard, -1, -1, -1, 0, 0, 0);
    f.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    f.color(vv);
    let prog = link(&passthrough_vs(), &f.done());
    let quad = [
        v(-1., -1., 0., 1., [0., 0., 0., 1.]),
        v(1., -1., 0., 1., [1., 0., 0., 1.]),
        v(1., 1., 0., 1., [1., 0., 0., 1.]),
        v(-1., 1., 0., 1., [0., 0., 0., 1.]),
    ];
    let mut img = Img::new(16, 2);
    img.depth.iter_mut().for_each(|d| *d = 1.0);
    let st = draw_verts(
        &prog,
        &quad,
        Some(&[0, 1, 2, 0, 2, 3]),
        &RasterState::new(16, 2),
        &mut img,
    );
    for col in 0..16 {
        assert_eq!(img.at(col, 0) != 0, col >= 8, "col {}", col);
        // Discarded fragments leave depth alone.
        assert_eq!(img.depth[col as usize] < 1.0, col >= 8);
    }
    assert_eq!(st.fragments_shaded, 32);
    assert_eq!(st.pixels_written, 16);
}

#[test]
fn colours_are_clamped_and_rounded() {
    assert_eq!(pack([1.5, -0.5, 0.5, f32::NAN]), 0x00FF_0080);
    assert_eq!(pack([0.2, 0.4, 0.6, 1.0]), 0xFF33_6699);
    assert_eq!(
        pack([f32::INFINITY, f32::NEG_INFINITY, 1.0 / 255.0, 0.0]),
        0x00FF_0001
    );
}

#[test]
fn sampler_state_per_unit() {
    // 4x1 texture, red channel = 0, 85, 170, 255.
    let texels = [0xFF00_0000u32, 0xFF55_0000, 0xFFAA_0000, 0xFFFF_0000];
    let mk = |filter, wrap| TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 4,
        height: 1,
        texels: &texels,
        sampler: SamplerState::new(filter, wrap),
    };
    let r = |t: &TextureRef, u: f32| (t.sample(u, 0.5)[0] * 255.0).round() as u32;
    let nr = mk(Filter::Nearest, Wrap::Repeat);
    assert_eq!(
        [
            r(&nr, 0.0),
            r(&nr, 0.3),
            r(&nr, 0.99),
            r(&nr, 1.25),
            r(&nr, -0.1)
        ],
        [0, 85, 255, 85, 255]
    );
    let nc = mk(Filter::Nearest, Wrap::ClampToEdge);
    assert_eq!([r(&nc, 1.25), r(&nc, -0.1)], [255, 0]);
    let lc = mk(Filter::Linear, Wrap::ClampToEdge);
    // Texel centres are exact; half-way between texels 1 and 2 averages.
    assert_eq!(
        [r(&lc, 0.375), r(&lc, 0.5), r(&lc, 0.0), r(&lc, 1.0)],
        [85, 128, 0, 255]
    );
    let lr = mk(Filter::Linear, Wrap::Repeat);
    // At u = 0 repeat blends the last and the first texel.
    assert_eq!(r(&lr, 0.0), 128);
    // Alpha kept; NaN/huge coordinates are safe.
    assert_eq!(nr.sample(f32::NAN, f32::INFINITY)[3], 1.0);
    assert_eq!(lr.sample(1e30, -1e30)[3], 1.0);
}

#[test]
fn draw_errors_are_typed() {
    let prog = pt();
    let data = [0.0f32; 16];
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }];
    let input = VertexInput {
        data: &data,
        stride: 4,
        attribs: &attribs,
        count: 4,
    };
    let st = RasterState::new(8, 8);
    let mut img = Img::new(8, 8);
    assert_eq!(
        draw(
            &prog,
            &input,
            Some(&[0, 1, 4]),
            &NO_TEX,
            &st,
            &mut img.target()
        ),
        Err(DrawError::Index {
            position: 2,
            index: 4,
            count: 4
        })
    );
    let long = VertexInput { count: 5, ..input };
    assert!(matches!(
        draw(&prog, &long, None, &NO_TEX, &st, &mut img.target()),
        Err(DrawError::VertexData { .. })
    ));
    let bad_loc = [VertexAttrib {
        location: shader::limits::ATTR_CAP as u8,
        offset: 0,
        components: 4,
    }];
    let bl = VertexInput {
        attribs: &bad_loc,
        ..input
    };
    assert!(matches!(
        draw(&prog, &bl, None, &NO_TEX, &st, &mut img.target()),
        Err(DrawError::Attribute { .. })
    ));
    let vp = RasterState {
        viewport: [0, 0, 0, 8],
        ..st
    };
    assert!(matches!(
        draw(&prog, &input, None, &NO_TEX, &vp, &mut img.target()),
        Err(DrawError::Viewport { .. })
    ));
    let mut short = vec![0u32; 10];
    let mut depth = vec![0f32; 64];
    let mut t = Target {
        width: 8,
        height: 8,
        color: &mut short,
        depth: &mut depth,
    };
    assert!(matches!(
        draw(&prog, &input, None, &NO_TEX, &st, &mut t),
        Err(DrawError::TargetBuffers { .. })
    ));
    let mut big = Img::new(1921, 4);
    assert!(matches!(
        draw(&prog, &input, None, &NO_TEX, &st, &mut big.target()),
        Err(DrawError::TargetSize { .. })
    ));
    let tex = [
        Some(TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: 4,
            height: 4,
            texels: &[0; 3],
            sampler: SamplerState::default(),
        }),
        None,
        None,
        None,
    ];
    assert!(matches!(
        draw(&prog, &input, None, &tex, &st, &mut img.target()),
        Err(DrawError::Texture { unit: 0, .. })
    ));
    let unlinked = shader::program::link::Program::new();
    assert_eq!(
        draw(&unlinked, &input, None, &NO_TEX, &st, &mut img.target()),
        Err(DrawError::NotLinked)
    );
    // NaN and infinite positions are dropped, never drawn as garbage.
    let nan = [
        v(f32::NAN, 0., 0., 1., RED),
        v(1., 0., 0., 1., RED),
        v(0., 1., 0., f32::INFINITY, RED),
    ];
    let s = draw_verts(&prog, &nan, None, &st, &mut img);
    assert_eq!((s.rejected, s.pixels_written), (1, 0));
}

#[test]
fn indexed_draw_reuses_vertices_across_chunks() {
    let prog = pt();
    // A 10x10 grid of quads (200 triangles, 121 vertices): every pixel once, each colour by cell.
    let n = 10;
    let mut verts = vec![];
    for j in 0..=n {
        for i in 0..=n {
            let c = [i as f32 / n as f32, j as f32 / n as f32, 0.0, 1.0];
            verts.push(v(
                i as f32 / n as f32 * 2.0 - 1.0,
                j as f32 / n as f32 * 2.0 - 1.0,
                0.0,
                1.0,
                c,
            ));
        }
    }
    let mut idx = vec![];
    for j in 0..n {
        for i in 0..n {
            let a = (j * (n + 1) + i) as u16;
            idx.extend_from_slice(&[
                a,
                a + 1,
                a + n as u16 + 2,
                a,
                a + n as u16 + 2,
                a + n as u16 + 1,
            ]);
        }
    }
    let mut img = Img::new(50, 50);
    let s = draw_verts(
        &prog,
        &verts,
        Some(&idx),
        &RasterState::new(50, 50),
        &mut img,
    );
    assert_eq!(s.triangles, 200);
    assert_eq!(s.pixels_written, 2500);
    assert!(s.vertices_shaded < 600, "{}", s.vertices_shaded);
    // Colour = position: the red channel grows left to right.
    let r = |col| (img.at(col, 25) >> 16) & 255;
    assert!(r(0) < 10 && r(49) > 245 && r(10) < r(20));
}

mod fuzz {
    use super::*;
    use crate::ircore_util::reference::{random_module, Rng};
    use proptest::prelude::*;

    /// A random module of `stage` that can be linked (its TGSI fits the VirGL budget).
    fn module_of(stage: Stage, mut seed: u64) -> Module {
        loop {
            let m = random_module(seed);
            let mut text = shader::back::tgsi::TgsiText::new();
            if m.stage == stage && shader::back::tgsi::emit(&m, None, &mut text).is_ok() {
                return m;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]
        /// Random verified programs, random geometry (NaN, inf, huge, behind the camera), random
        /// viewports and states: draw never panics and its counters stay consistent.
        #[test]
        fn draw_never_panics(vs_seed in any::<u64>(), fs_seed in any::<u64>(), geo in any::<u64>()) {
            let prog = link(&module_of(Stage::Vertex, vs_seed), &module_of(Stage::Fragment, fs_seed));
            let mut r = Rng(geo | 1);
            let n = 3 + r.below(30) as usize;
            let data: Vec<f32> = (0..n * 16).map(|_| if r.chance(80) { (r.below(4001) as f32 - 2000.0) / 500.0 } else { r.value() }).collect();
            let attribs: Vec<VertexAttrib> = (0..4u8).map(|l| VertexAttrib { location: l, offset: l as u32 * 4, components: 1 + r.below(4) as u8 }).collect();
            let input = VertexInput { data: &data, stride: 16, attribs: &attribs, count: n as u32 };
            let idx: Vec<u16> = (0..r.below(60)).map(|_| r.below(n as u64) as u16).collect();
            let (w, h) = (1 + r.below(40) as u32, 1 + r.below(40) as u32);
            let state = RasterState {
                viewport: [r.below(40) as i32 - 20, r.below(40) as i32 - 20, 1 + r.below(60) as i32, 1 + r.below(60) as i32],
                depth_test: r.chance(50),
                depth_write: r.chance(50),
                cull_back: r.chance(50),
            };
            let texels = [0xFF00_00FFu32, 0x8000_FF00, 0x00FF_0000, 0xFFFF_FFFF];
            let tex = [Some(TextureRef { faces: &[], layers: &[], mips: &[], depth: None, rgba: None, ints: None, width: 2, height: 2, texels: &texels, sampler: SamplerState::new(Filter::Linear, Wrap::Repeat) }), None, None, None];
            let mut img = Img::new(w, h);
            let ix = if r.chance(50) { Some(&idx[..]) } else { None };
            let s = draw(&prog, &input, ix, &tex, &state, &mut img.target()).unwrap();
            prop_assert!(s.pixels_written <= s.fragments_shaded);
            prop_assert!(s.fragments_shaded <= (w * h) as u64 * (s.triangles as u64) * 8);
        }
    }
}

/// Fragment stage: colour = texture(unit 0, varying v.xy), optionally times (1, 1, 1, 1)
/// (which keeps every value but is no longer a plain sample).
fn sample_fs(times_one: bool) -> Module {
    let mut f = B::new(Stage::Fragment);
    f.sampler("tex", 0);
    let uv = f.load_varying("v", 0, Type::Vec4);
    let s = f.sample(0, uv);
    if times_one {
        let one = f.konst(&[1.0, 1.0, 1.0, 1.0]);
        let m = f.bin(Op::Mul, s, one, 4);
        f.color(m);
    } else {
        f.color(s);
    }
    f.done()
}

/// A colour that is a plain texture sample is fused (the raster takes the texels as pixels
/// without the float round trip); the picture is the same bit for bit as the unfused shader's,
/// for both filters and wraps, and the single-invocation path still sees the colour.
#[test]
fn sample_color_fusion_keeps_pixels() {
    use shader::back::exec::Executable;
    let fused = Executable::new(&sample_fs(false), None).unwrap();
    let plain = Executable::new(&sample_fs(true), None).unwrap();
    assert!(fused.sample_color());
    assert!(!plain.sample_color());
    // A pseudo-random 8x4 texture (every channel used, alpha too).
    let mut seed = 0x1234_5678u32;
    let texels: Vec<u32> = (0..32)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        })
        .collect();
    let quad = [
        v(-1.0, -1.0, 0.0, 1.0, [-0.3, -0.2, 0.0, 0.0]),
        v(1.0, -1.0, 0.0, 2.0, [1.7, -0.2, 0.0, 0.0]),
        v(1.0, 1.0, 0.0, 1.0, [1.7, 1.4, 0.0, 0.0]),
        v(-1.0, 1.0, 0.0, 3.0, [-0.3, 1.4, 0.0, 0.0]),
    ];
    for filter in [Filter::Nearest, Filter::Linear] {
        for wrap in [Wrap::Repeat, Wrap::ClampToEdge] {
            for (w, h) in [(8u32, 4u32), (5, 6)] {
                let tex = [
                    Some(TextureRef {
                        layers: &[],
                        faces: &[],
                        mips: &[],
                        depth: None,
                        rgba: None,
                        ints: None,
                        width: w,
                        height: h,
                        texels: &texels[..(w * h) as usize],
                        sampler: SamplerState::new(filter, wrap),
                    }),
                    None,
                    None,
                    None,
                ];
                let mut pics = Vec::new();
                for times_one in [false, true] {
                    let prog = link(&passthrough_vs(), &sample_fs(times_one));
                    let mut img = Img::new(37, 29);
                    let idx = [0, 1, 2, 0, 2, 3];
                    draw_verts_tex(&prog, &quad, Some(&idx), &tex, &no_depth(37, 29), &mut img);
                    pics.push(img.color);
                }
                assert!(pics[0].iter().any(|&p| p != pics[0][0]), "flat picture");
                assert_eq!(pics[0], pics[1], "{:?} {:?} {}x{}", filter, wrap, w, h);
                // The single-invocation helper (floats, no fusion of its output) agrees.
                let prog = link(&passthrough_vs(), &sample_fs(false));
                let vary = {
                    let mut v = [[0.0f32; 4]; 8];
                    v[0] = [0.37, 0.61, 0.0, 0.0];
                    v
                };
                let one = soft_fs(&prog, &vary, [0.5, 0.5, 0.5, 1.0], &tex).unwrap();
                let want = tex[0].as_ref().unwrap().sample(0.37, 0.61);
                assert_eq!(one.color, want);
            }
        }
    }
}

/// Not fused: the colour is not the sample itself, or the code has IF.
#[test]
fn sample_color_fusion_only_for_plain_samples() {
    use shader::back::exec::Executable;
    let mut f = B::new(Stage::Fragment);
    f.sampler("tex", 0);
    let uv = f.load_varying("v", 0, Type::Vec4);
    let s = f.sample(0, uv);
    let k = f.konst(&[1.0]);
    f.inst(Op::If, -1, k, -1, 0, 0, 0);
    f.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    f.color(s);
    assert!(!Executable::new(&f.done(), None).unwrap().sample_color());
    // Two stores: the first one's sample is not the final colour.
    let mut f = B::new(Stage::Fragment);
    f.sampler("tex", 0);
    let uv = f.load_varying("v", 0, Type::Vec4);
    let s = f.sample(0, uv);
    f.color(s);
    f.color(uv);
    assert!(!Executable::new(&f.done(), None).unwrap().sample_color());
}

/// Fragment stage: colour = vec4(texture(unit 0, varying v.xy).rgb, 1.0) as the compiler
/// emits it (CONST C = (0, 0, 0, 1); MOV C.xyz = sample; STORE_COLOR C), the sample first
/// multiplied by (1, 1, 1, 1) when `times_one` (the same values, not fusable).
fn sample_rgb_fs(times_one: bool) -> Module {
    let mut f = B::new(Stage::Fragment);
    f.sampler("tex", 0);
    let uv = f.load_varying("v", 0, Type::Vec4);
    let mut s = f.sample(0, uv);
    if times_one {
        let one = f.konst(&[1.0, 1.0, 1.0, 1.0]);
        s = f.bin(Op::Mul, s, one, 4);
    }
    let c = f.konst(&[0.0, 0.0, 0.0, 1.0]);
    f.inst(Op::Mov, c, s, -1, 3, 0, 0);
    f.color(c);
    f.done()
}

/// `vec4(texture(..).rgb, 1.0)` is fused too (alpha 1.0 set by the fused sample): the same
/// pixels as the unfused shader, bit for bit, for both filters, every wrap, mipmapped
/// (trilinear, the level of detail from the quads) or not, opaque and blended (the blend
/// takes the float colour the unfused code has).
#[test]
fn sample_fusions_keep_pixels() {
    use shader::back::exec::Executable;
    let fused = Executable::new(&sample_rgb_fs(false), None).unwrap();
    let plain = Executable::new(&sample_rgb_fs(true), None).unwrap();
    assert!(fused.sample_color() && fused.sample_opaque());
    assert!(!plain.sample_color() && !plain.sample_opaque());
    // Colour = texture() itself is fused without the alpha override.
    assert!(!Executable::new(&sample_fs(false), None)
        .unwrap()
        .sample_opaque());
    let mut seed = 0x8765_4321u32;
    let texels: Vec<u32> = (0..64 + 16 + 4 + 1)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        })
        .collect();
    let levels: [&[u32]; 3] = [&texels[64..80], &texels[80..84], &texels[84..85]];
    // Receding: w grows across the quad, so the level of detail varies.
    let quad = [
        v(-1.0, -1.0, 0.0, 1.0, [-0.3, -0.2, 0.0, 0.0]),
        v(1.0, -1.0, 0.0, 4.0, [5.7, -0.2, 0.0, 0.0]),
        v(1.0, 1.0, 0.0, 4.0, [5.7, 3.4, 0.0, 0.0]),
        v(-1.0, 1.0, 0.0, 1.0, [-0.3, 3.4, 0.0, 0.0]),
    ];
    let blends = [
        None,
        Some(Blend::ALPHA),
        Some(Blend {
            color: BlendComponent {
                src: BlendFactor::DstColor,
                dst: BlendFactor::SrcColor,
                op: BlendOp::Add,
            },
            alpha: BlendComponent::REPLACE,
            constant: [0.0; 4],
        }),
    ];
    for filter in [Filter::Nearest, Filter::Linear] {
        for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat] {
            for (mips, mip) in [
                (&levels[..], MipFilter::Linear),
                (&levels[..], MipFilter::Nearest),
                (&[][..], MipFilter::None),
            ] {
                let tex = [
                    Some(TextureRef {
                        layers: &[],
                        faces: &[],
                        mips,
                        depth: None,
                        rgba: None,
                        ints: None,
                        width: 8,
                        height: 8,
                        texels: &texels[..64],
                        sampler: SamplerState {
                            mip,
                            ..SamplerState::new(filter, wrap)
                        },
                    }),
                    None,
                    None,
                    None,
                ];
                // Both fused shapes: `colour = texture()` and `vec4(texture().rgb, 1.0)`.
                for (shape, fs) in [
                    ("rgba", sample_fs as fn(bool) -> Module),
                    ("rgb1", sample_rgb_fs),
                ] {
                    for blend in blends {
                        let pipe = Pipeline {
                            blend,
                            ..Pipeline::DEFAULT
                        };
                        let mut pics = Vec::new();
                        for times_one in [false, true] {
                            let prog = link(&passthrough_vs(), &fs(times_one));
                            let mut img = Img::new(37, 29);
                            // A varied background under the blends.
                            for (i, p) in img.color.iter_mut().enumerate() {
                                *p = (i as u32).wrapping_mul(0x9E37_79B9);
                            }
                            with_input(&quad, |input| {
                                let mut scratch = Box::new(Scratch::new());
                                draw_pipeline(
                                    &mut scratch,
                                    &prog,
                                    input,
                                    Some(&[0, 1, 2, 0, 2, 3]),
                                    &tex,
                                    &no_depth(37, 29),
                                    &pipe,
                                    &mut img.target(),
                                )
                                .unwrap()
                            });
                            pics.push(img.color);
                        }
                        assert!(pics[0].iter().any(|&p| p != pics[0][0]), "flat picture");
                        assert_eq!(
                            pics[0], pics[1],
                            "{shape} {filter:?} {wrap:?} {mip:?} blend {blend:?}"
                        );
                    }
                }
            }
        }
    }
}
