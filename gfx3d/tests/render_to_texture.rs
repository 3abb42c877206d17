//! Render to texture and instanced draws on the software and mock backends: a target's colour
//! and depth sampled by a later draw (exact pixels), misuse (the target being drawn into, the
//! open frame, wrong context, stale and foreign handles, bad units, bad instance counts, too few
//! instance rows, lines and points), the mock log, drop_owner, and 1000 create/bind/destroy
//! cycles returning the live counts to their start.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::{assert_nothing_live, layout, live_counts, prog, screen_quad, tri_layout};

type G = Gfx3d<Linked>;
const W: u32 = 8;
const H: u32 = 8;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

fn rect(g: &mut G, r: [f32; 4], z: f32, c: [f32; 4]) -> MeshId {
    let [x0, y0, x1, y1] = r;
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, z, 1.0, c[0], c[1], c[2], c[3]]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

/// Full-screen quad: position xyzw, uv with v = 0 at the top.
fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

const COPY_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D src;
out vec4 color;
void main() {
    color = texture(src, fragUV);
}
";

/// Left half red, right half green at depth 0.5 (window 0.75) into `a`.
fn first_pass(g: &mut G, c: ContextId, a: TargetId) {
    let tri = prog(g, c, TRI_VERT, TRI_FRAG);
    let left = rect(g, [-1.0, -1.0, 0.0, 1.0], 0.5, [1.0, 0.0, 0.0, 1.0]);
    let right = rect(g, [0.0, -1.0, 1.0, 1.0], -0.5, [0.0, 1.0, 0.0, 0.5]);
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.draw(0, c, left).unwrap();
    g.draw(0, c, right).unwrap();
    g.end(0, c).unwrap();
}

#[test]
fn colour_of_a_target_is_sampled_exactly() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let b = g.target_create(0, c, W, H).unwrap();
    first_pass(&mut g, c, a);
    let before = g.stats();
    let copy = prog(&mut g, c, PASS_VERT, COPY_FRAG);
    let quad = screen_quad(&mut g);
    g.begin(0, c, b).unwrap();
    g.use_program(0, c, copy).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Color, SamplerState::default())
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let src = read(&mut g, a);
    assert_eq!(src[0], 0xFFFF_0000);
    assert_eq!(src[(W - 1) as usize], 0x80_00FF_00);
    assert_eq!(read(&mut g, b), src, "pixel-for-pixel copy, alpha kept");
    // Sampling a target costs no memory: the target's own pixels are read.
    let after = g.stats();
    assert_eq!(after.target_bytes, before.target_bytes);
    assert_eq!(after.depth_bytes, before.depth_bytes);
    assert_eq!(after.cpu_texture_bytes, before.cpu_texture_bytes);
}

#[test]
fn depth_of_a_target_reads_d_d_d_1_at_float_precision() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let b = g.target_create(0, c, W, H).unwrap();
    first_pass(&mut g, c, a);
    // A compare that needs more than 8 bits: 0.75 against 0.7505 and 0.7495.
    let fs = "#version 330
in vec2 fragUV;
uniform sampler2D shadowMap;
uniform float ref;
out vec4 color;
void main() {
    vec4 d = texture(shadowMap, fragUV);
    float lit = 0.0;
    if (d.r < ref) {
        lit = 1.0;
    }
    color = vec4(lit, d.g, d.b, d.a);
}
";
    let p = prog(&mut g, c, PASS_VERT, fs);
    let quad = screen_quad(&mut g);
    for (r, want_lit) in [(0.7505f32, true), (0.7495, false)] {
        g.begin(0, c, b).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, p).unwrap();
        g.uniform_f(0, c, "ref", &[r]).unwrap();
        g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, SamplerState::default())
            .unwrap();
        g.draw(0, c, quad).unwrap();
        g.end(0, c).unwrap();
        let px = read(&mut g, b);
        // Left half: depth 0.75 -> g = b = round(0.75 * 255) = 191, a = 1.
        let red = if want_lit { 0xFF } else { 0 };
        assert_eq!(px[0], 0xFF00_BFBF | red << 16, "ref {}", r);
        // Right half: window depth 0.25 -> 64, always lit.
        assert_eq!(px[(W - 1) as usize], 0xFFFF_4040, "ref {}", r);
    }
}

#[test]
fn instanced_draw_equals_separate_draws() {
    let vs = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 2) in vec4 offset;
out vec4 vcolor;
void main() {
    vcolor = color;
    gl_Position = vec4(position.xyz + offset.xyz, 1.0);
}
";
    let draw = |instanced: bool| -> (Vec<u32>, Stats) {
        let mut g = boot(BackendMode::Software);
        let c = g.context_create(0).unwrap();
        let t = g.target_create(0, c, W, H).unwrap();
        let p = prog(&mut g, c, vs, TRI_FRAG);
        // Rows: quad corner (xyzw), colour (per vertex), offset (per instance, divisor 1).
        let corners = [(-1.0f32, -1.0f32), (-0.5, -1.0), (-0.5, -0.5), (-1.0, -0.5)];
        let colors = [
            [1.0f32, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [1.0, 1.0, 1.0, 1.0],
        ];
        let offsets = [[0.0f32, 0.0], [0.5, 0.5], [1.0, 1.0], [1.5, 0.0]];
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, p).unwrap();
        if instanced {
            let mut v = Vec::new();
            for i in 0..4 {
                let (x, y) = corners[i];
                v.extend_from_slice(&[x, y, 0.0, 1.0]);
                v.extend_from_slice(&colors[i]);
                v.extend_from_slice(&[offsets[i][0], offsets[i][1], 0.0, 0.0]);
            }
            let l = layout(48, &[(0, 4, 0), (1, 4, 16), (2, 4, 32)])
                .instanced(2, 1)
                .unwrap();
            assert_eq!(l.divisor(2), 1);
            let m = g.mesh_create(0, Usage::Static).unwrap();
            g.mesh_upload_f32(0, m, &l, &v, Some(&[0, 1, 2, 0, 2, 3]))
                .unwrap();
            g.stats_reset();
            g.draw_instanced(0, c, m, 4).unwrap();
        } else {
            g.stats_reset();
            for off in offsets {
                let mut v = Vec::new();
                for i in 0..4 {
                    let (x, y) = corners[i];
                    v.extend_from_slice(&[x, y, 0.0, 1.0]);
                    v.extend_from_slice(&colors[i]);
                    v.extend_from_slice(&[off[0], off[1], 0.0, 0.0]);
                }
                let l = layout(48, &[(0, 4, 0), (1, 4, 16), (2, 4, 32)]);
                let m = g.mesh_create(0, Usage::Static).unwrap();
                g.mesh_upload_f32(0, m, &l, &v, Some(&[0, 1, 2, 0, 2, 3]))
                    .unwrap();
                g.draw(0, c, m).unwrap();
            }
        }
        g.end(0, c).unwrap();
        let s = g.stats();
        (read(&mut g, t), s)
    };
    let (a, sa) = draw(true);
    let (b, sb) = draw(false);
    assert_eq!(a, b);
    assert!(a.iter().filter(|&&p| p != 0).count() >= 16);
    assert_eq!((sa.draws, sa.triangles), (1, 8));
    assert_eq!((sb.draws, sb.triangles), (4, 8));
}

#[test]
fn instance_and_vertex_ids_match_separate_draws() {
    // Profile 2: gl_InstanceID places each instance; gl_VertexID (the index value) colours.
    let vs_ids = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
out vec4 vcolor;
void main() {
    float v = float(gl_VertexID);
    vcolor = vec4(v / 5.0, 1.0 - v / 5.0, 0.5, 1.0);
    gl_Position = vec4(position.xy + vec2(0.5) * float(gl_InstanceID), 0.0, 1.0);
}
";
    // The same picture from a vertex colour and a uniform offset per draw.
    let vs_plain = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
uniform vec4 shift;
out vec4 vcolor;
void main() {
    vcolor = color;
    gl_Position = vec4(position.xy + shift.xy, 0.0, 1.0);
}
";
    let corners = [(-1.0f32, -1.0f32), (-0.5, -1.0), (-0.5, -0.5), (-1.0, -0.5)];
    let indices = [2u16, 3, 4, 2, 4, 5];
    let draw = |ids: bool| -> (Vec<u32>, Stats) {
        let mut g = boot(BackendMode::Software);
        let c = g.context_create(0).unwrap();
        let t = g.target_create(0, c, W, H).unwrap();
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        // Six rows, vertices 2..=5 used: position xyzw, colour rgba.
        let mut v = vec![0.0f32; 16];
        for (i, (x, y)) in corners.iter().enumerate() {
            let id = (i + 2) as f32;
            v.extend_from_slice(&[*x, *y, 0.0, 1.0]);
            v.extend_from_slice(&[id / 5.0, 1.0 - id / 5.0, 0.5, 1.0]);
        }
        let l = layout(32, &[(0, 4, 0), (1, 4, 16)]);
        let m = g.mesh_create(0, Usage::Static).unwrap();
        g.mesh_upload_f32(0, m, &l, &v, Some(&indices)).unwrap();
        if ids {
            let p = prog(&mut g, c, vs_ids, TRI_FRAG);
            g.use_program(0, c, p).unwrap();
            g.stats_reset();
            g.draw_instanced(0, c, m, 3).unwrap();
        } else {
            let p = prog(&mut g, c, vs_plain, TRI_FRAG);
            g.use_program(0, c, p).unwrap();
            g.stats_reset();
            for i in 0..3 {
                let k = 0.5 * i as f32;
                g.uniform_f(0, c, "shift", &[k, k, 0.0, 0.0]).unwrap();
                g.draw(0, c, m).unwrap();
            }
        }
        g.end(0, c).unwrap();
        let s = g.stats();
        (read(&mut g, t), s)
    };
    let (a, sa) = draw(true);
    let (b, _) = draw(false);
    assert_eq!(a, b);
    assert!(a.iter().filter(|&&p| p != 0).count() >= 12);
    assert_eq!((sa.draws, sa.triangles), (1, 6));
}

#[test]
fn misuse_is_an_error_never_a_panic() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let c2 = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let other = g.target_create(0, c2, W, H).unwrap();
    let copy = prog(&mut g, c, PASS_VERT, COPY_FRAG);
    let quad = screen_quad(&mut g);
    let sd = SamplerState::default();
    // Binding the target of the open frame, and drawing into a sampled target.
    g.begin(0, c, a).unwrap();
    assert_eq!(
        g.bind_target_texture(0, c, 0, a, TargetPlane::Color, sd),
        Err(Error::SampleTargetInFrame)
    );
    g.end(0, c).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, sd)
        .unwrap();
    g.begin(0, c, a).unwrap();
    g.use_program(0, c, copy).unwrap();
    assert_eq!(g.draw(0, c, quad), Err(Error::SampleTargetInFrame));
    assert_eq!(
        g.draw_instanced(0, c, quad, 2),
        Err(Error::SampleTargetInFrame)
    );
    assert!(!Error::SampleTargetInFrame.to_string().is_empty());
    g.end(0, c).unwrap();
    // Another context's target, bad unit, stale and foreign handles.
    assert_eq!(
        g.bind_target_texture(0, c, 0, other, TargetPlane::Color, sd),
        Err(Error::WrongContext {
            kind: ObjectKind::Target
        })
    );
    assert_eq!(
        g.bind_target_texture(0, c, 16, a, TargetPlane::Color, sd),
        Err(Error::TextureUnit { unit: 16 })
    );
    assert_eq!(
        g.bind_target_texture(7, c, 0, a, TargetPlane::Color, sd),
        Err(Error::StaleHandle {
            kind: ObjectKind::Context
        })
    );
    let dead = g.target_create(0, c, W, H).unwrap();
    g.target_destroy(0, dead).unwrap();
    assert_eq!(
        g.bind_target_texture(0, c, 0, dead, TargetPlane::Color, sd),
        Err(Error::StaleHandle {
            kind: ObjectKind::Target
        })
    );
    // A destroyed sampled target unbinds itself: the next draw reads black, no error.
    let b = g.target_create(0, c, W, H).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Color, sd)
        .unwrap();
    g.target_destroy(0, a).unwrap();
    g.begin(0, c, b).unwrap();
    g.use_program(0, c, copy).unwrap();
    g.draw(0, c, quad).unwrap();
    // Instance counts and rows, primitives.
    assert_eq!(
        g.draw_instanced(0, c, quad, 0),
        Err(Error::InstanceCount { instances: 0 })
    );
    assert_eq!(
        g.draw_instanced(0, c, quad, limits::INSTANCES_MAX + 1),
        Err(Error::InstanceCount {
            instances: limits::INSTANCES_MAX + 1
        })
    );
    let l = layout(24, &[(0, 4, 0), (1, 2, 16)])
        .instanced(1, 2)
        .unwrap();
    let mut v = Vec::new();
    for _ in 0..6 {
        v.extend_from_slice(&[0.0, 0.0, 0.0, 1.0, 0.5, 0.5]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &l, &v, None).unwrap();
    g.draw_instanced(0, c, m, 12).unwrap();
    assert_eq!(
        g.draw_instanced(0, c, m, 13),
        Err(Error::InstanceRows {
            location: 1,
            needed: 7,
            rows: 6
        })
    );
    assert_eq!(
        g.draw_primitives(0, c, quad, Primitive::Lines, 1),
        Err(Error::PrimitiveUnsupported { what: "lines" })
    );
    assert_eq!(
        g.draw_primitives(0, c, quad, Primitive::Points, 1),
        Err(Error::PrimitiveUnsupported { what: "points" })
    );
    g.draw_primitives(0, c, quad, Primitive::Triangles, 1)
        .unwrap();
    assert_eq!(state::primitive_from_gl(4), Ok(Primitive::Triangles));
    assert_eq!(
        state::primitive_from_gl(2),
        Err(Error::BadEnum {
            what: "primitive",
            value: 2
        })
    );
    g.end(0, c).unwrap();
    assert_eq!(
        layout(24, &[(0, 4, 0)]).instanced(3, 1),
        Err(LayoutError::DivisorWithoutElement { location: 3 })
    );
    g.drop_owner(0);
    assert_nothing_live(&g.stats(), "after drop_owner");
}

#[test]
fn mock_log_records_target_bindings_and_instanced_draws() {
    let mut g = boot(BackendMode::Mock);
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let b = g.target_create(0, c, W, H).unwrap();
    let copy = prog(&mut g, c, PASS_VERT, COPY_FRAG);
    let quad = screen_quad(&mut g);
    g.bind_target_texture(0, c, 2, a, TargetPlane::Depth, SamplerState::default())
        .unwrap();
    g.begin(0, c, b).unwrap();
    g.use_program(0, c, copy).unwrap();
    g.draw_instanced(0, c, quad, 3).unwrap();
    g.end(0, c).unwrap();
    assert_eq!(
        g.mock_log(),
        "tex-target 2 depth\nbegin\nuse\ndraw instances=3\nend\n"
    );
}

#[test]
fn a_thousand_create_bind_destroy_cycles_return_live_counts() {
    for mode in [BackendMode::Software, BackendMode::Mock] {
        let mut g = boot(mode);
        let c = g.context_create(0).unwrap();
        let b = g.target_create(0, c, W, H).unwrap();
        let copy = prog(&mut g, c, PASS_VERT, COPY_FRAG);
        let quad = screen_quad(&mut g);
        let start = g.stats();
        for i in 0..1000u32 {
            let a = g.target_create(0, c, W, H).unwrap();
            g.begin(0, c, a).unwrap();
            g.clear(0, c, [1.0, 0.0, 0.0, 1.0], true).unwrap();
            g.end(0, c).unwrap();
            let plane = if i % 2 == 0 {
                TargetPlane::Color
            } else {
                TargetPlane::Depth
            };
            g.bind_target_texture(0, c, i % 4, a, plane, SamplerState::default())
                .unwrap();
            g.begin(0, c, b).unwrap();
            g.use_program(0, c, copy).unwrap();
            g.draw(0, c, quad).unwrap();
            g.end(0, c).unwrap();
            g.target_destroy(0, a).unwrap();
        }
        let end = g.stats();
        assert_eq!(live_counts(&end), live_counts(&start));
        assert_eq!(end.target_bytes, start.target_bytes);
        assert_eq!(end.depth_bytes, start.depth_bytes);
        g.drop_owner(0);
        assert_nothing_live(&g.stats(), "after drop_owner");
    }
}
