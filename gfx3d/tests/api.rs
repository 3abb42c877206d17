//! The Gfx3D API contract on the host with fake programs and a fault-injecting fake device:
//! backends, handles and owners, tables, objects, frame preconditions, statistics, the mock log,
//! residency, hot refresh and the device-lost policy.
mod common;

use common::*;
use gfx3d::*;

type G = Gfx3d<FakeProgram>;

fn mock() -> G {
    let mut g = G::new();
    g.boot(BackendMode::Mock, None).unwrap();
    g
}

fn setup(g: &mut G, owner: u32) -> (ContextId, TargetId, MeshId, ProgramId) {
    let c = g.context_create(owner).unwrap();
    let t = g.target_create(owner, c, 16, 16).unwrap();
    let m = g.mesh_create(owner, Usage::Static).unwrap();
    g.mesh_upload_f32(owner, m, &tri_layout(), &red_triangle(), None)
        .unwrap();
    let p = g.prog_prepare(owner, c, FakeProgram::mvp()).unwrap();
    (c, t, m, p)
}

#[test]
fn backend_selection_and_names() {
    let mut g = G::new();
    assert_eq!(g.backend_name(), "software");
    g.boot(BackendMode::Mock, None).unwrap();
    assert_eq!(g.backend_name(), "mock");
    g.boot(BackendMode::Auto, None).unwrap();
    assert_eq!(g.backend_name(), "software");
    let (dev, _) = FakeDevice::new();
    g.boot(BackendMode::Auto, Some(Box::new(dev))).unwrap();
    assert_eq!(g.backend_name(), "virgl");
    let (mut dev, _) = FakeDevice::new();
    dev.available = false;
    g.boot(BackendMode::Auto, Some(Box::new(dev))).unwrap();
    assert_eq!(g.backend_name(), "software");
    assert_eq!(
        g.boot(BackendMode::Virgl, None),
        Err(Error::VirglUnavailable)
    );
    assert_eq!(g.backend_name(), "virgl-lost");
    let s = g.stats();
    assert!(s.forced);
    assert_eq!(s.backend, Backend::Virgl);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 4, 4).unwrap();
    assert_eq!(g.begin(0, c, t), Err(Error::ForcedVirglUnavailable));
    assert_eq!(
        Error::ForcedVirglUnavailable.to_string(),
        "forced virgl unavailable"
    );
    g.boot(BackendMode::Software, None).unwrap();
    assert_eq!(g.backend_name(), "software");
    g.begin(0, c, t).unwrap();
}

#[test]
fn mock_sequencing() {
    let mut g = mock();
    let (c, t, m, p) = setup(&mut g, 1);
    let tex = g.tex_solid(1, 0xFF00FF00).unwrap();
    g.begin(1, c, t).unwrap();
    g.clear(1, c, [0.0, 1.0, 0.0, 1.0], true).unwrap();
    g.use_program(1, c, p).unwrap();
    g.bind_texture(1, c, 0, Some(tex)).unwrap();
    g.draw(1, c, m).unwrap();
    g.end(1, c).unwrap();
    assert_eq!(g.mock_log(), "begin\nclear\nuse\ntex\ndraw\nend\n");
    // The mock renders nothing.
    let mut px = vec![7u32; 256];
    g.target_read(1, t, &mut px).unwrap();
    assert!(px.iter().all(|&p| p == 0));
    assert!(g.program(1, p).unwrap().draws.borrow().is_empty());
    let s = g.stats();
    assert_eq!((s.draws, s.triangles, s.frames), (1, 1, 1));
}

#[test]
fn mock_log_is_bounded_and_clearable() {
    let mut g = mock();
    let (c, t, _, _) = setup(&mut g, 1);
    for _ in 0..200 {
        g.begin(1, c, t).unwrap();
        g.end(1, c).unwrap();
    }
    assert!(g.mock_log().len() <= limits::MOCK_LOG_BYTES);
    assert!(g.mock_log().len() > limits::MOCK_LOG_BYTES - 8);
    assert!(g.mock_log_dropped() > 0);
    g.mock_log_clear();
    assert_eq!(g.mock_log(), "");
    assert_eq!(g.mock_log_dropped(), 0);
    g.begin(1, c, t).unwrap();
    assert_eq!(g.mock_log(), "begin\n");
}

#[test]
fn owners_are_isolated() {
    let mut g = mock();
    let (c1, t1, m1, p1) = setup(&mut g, 1);
    let c2 = g.context_create(2).unwrap();
    let t2 = g.target_create(2, c2, 8, 8).unwrap();
    // A foreign handle is answered exactly as a stale one: same error, same text.
    let stale = |kind| Err(Error::StaleHandle { kind });
    assert_eq!(g.mesh_destroy(2, m1), stale(ObjectKind::Mesh));
    assert_eq!(g.begin(2, c1, t1), stale(ObjectKind::Context));
    assert_eq!(g.begin(1, c1, t2), stale(ObjectKind::Target));
    assert_eq!(g.use_program(2, c2, p1), stale(ObjectKind::Program));
    assert_eq!(
        g.target_create(2, c1, 4, 4).map(|_| ()),
        stale(ObjectKind::Context)
    );
    assert_eq!(g.context_destroy(2, c1), stale(ObjectKind::Context));
    let foreign = g.mesh_destroy(2, m1).unwrap_err().to_string();
    let dead = g.mesh_create(2, Usage::Static).unwrap();
    g.mesh_destroy(2, dead).unwrap();
    assert_eq!(foreign, g.mesh_destroy(2, dead).unwrap_err().to_string());
    assert!(!foreign.contains("owner"), "{}", foreign);
    // The kernel is just owner 0: no implicit rights.
    assert_eq!(g.mesh_destroy(OWNER_KERNEL, m1), stale(ObjectKind::Mesh));
    // A target of another context of the same owner.
    let c1b = g.context_create(1).unwrap();
    assert_eq!(
        g.begin(1, c1b, t1),
        Err(Error::WrongContext {
            kind: ObjectKind::Target
        })
    );
    assert_eq!(
        g.use_program(1, c1b, p1),
        Err(Error::WrongContext {
            kind: ObjectKind::Program
        })
    );
    g.mesh_destroy(1, m1).unwrap();
}

/// One owner filling every table cannot lock the kernel out: one slot of each table is held for
/// owner 0, visible in the statistics and in `limits::KERNEL_RESERVED`.
#[test]
fn kernel_can_create_one_of_each_when_another_owner_filled_the_tables() {
    let mut g = mock();
    let app = 5;
    let s = g.stats();
    assert_eq!(
        (
            s.reserved_ctx,
            s.reserved_target,
            s.reserved_mesh,
            s.reserved_tex,
            s.reserved_prog
        ),
        (1, 1, 1, 1, 1)
    );
    let n = limits::CONTEXT_MAX - limits::KERNEL_RESERVED;
    let ctxs: Vec<_> = (0..n).map(|_| g.context_create(app).unwrap()).collect();
    let full = |kind, capacity| {
        Err::<(), _>(Error::TableFull {
            kind,
            capacity,
            reserved: limits::KERNEL_RESERVED,
        })
    };
    assert_eq!(
        g.context_create(app).map(|_| ()),
        full(ObjectKind::Context, limits::CONTEXT_MAX)
    );
    for _ in 0..limits::TARGET_MAX - 1 {
        g.target_create(app, ctxs[0], 1, 1).unwrap();
    }
    assert_eq!(
        g.target_create(app, ctxs[0], 1, 1).map(|_| ()),
        full(ObjectKind::Target, limits::TARGET_MAX)
    );
    for _ in 0..limits::MESH_MAX - 1 {
        g.mesh_create(app, Usage::Static).unwrap();
    }
    assert_eq!(
        g.mesh_create(app, Usage::Static).map(|_| ()),
        full(ObjectKind::Mesh, limits::MESH_MAX)
    );
    for _ in 0..limits::TEXTURE_MAX - 1 {
        g.tex_create(app, 1, 1).unwrap();
    }
    assert_eq!(
        g.tex_create(app, 1, 1).map(|_| ()),
        full(ObjectKind::Texture, limits::TEXTURE_MAX)
    );
    for _ in 0..limits::PROGRAM_MAX - 1 {
        g.prog_prepare(app, ctxs[0], FakeProgram::mvp()).unwrap();
    }
    assert_eq!(
        g.prog_prepare(app, ctxs[0], FakeProgram::mvp()).map(|_| ()),
        full(ObjectKind::Program, limits::PROGRAM_MAX)
    );
    // Another application owner is refused too; the kernel is not.
    assert!(g.mesh_create(6, Usage::Static).is_err());
    let (kc, kt, km, kp) = setup(&mut g, OWNER_KERNEL);
    let ktex = g.tex_create(OWNER_KERNEL, 1, 1).unwrap();
    let s = g.stats();
    assert_eq!(
        (
            s.reserved_ctx,
            s.reserved_target,
            s.reserved_mesh,
            s.reserved_tex,
            s.reserved_prog
        ),
        (0, 0, 0, 0, 0)
    );
    assert_eq!(s.live_ctx as usize, limits::CONTEXT_MAX);
    // Now every table is really full, for the kernel as well.
    assert_eq!(
        g.mesh_create(OWNER_KERNEL, Usage::Static),
        Err(Error::TableFull {
            kind: ObjectKind::Mesh,
            capacity: limits::MESH_MAX,
            reserved: 0
        })
    );
    // The kernel's objects work.
    g.begin(OWNER_KERNEL, kc, kt).unwrap();
    g.use_program(OWNER_KERNEL, kc, kp).unwrap();
    g.bind_texture(OWNER_KERNEL, kc, 0, Some(ktex)).unwrap();
    g.draw(OWNER_KERNEL, kc, km).unwrap();
    g.end(OWNER_KERNEL, kc).unwrap();
    g.drop_owner(OWNER_KERNEL);
    assert_eq!(g.stats().reserved_mesh, 1);
    g.drop_owner(app);
    assert_nothing_live(&g.stats(), "after both owners dropped");
}

#[test]
fn tables_have_their_capacities() {
    let mut g = mock();
    let ctxs: Vec<_> = (0..8).map(|_| g.context_create(0).unwrap()).collect();
    assert_eq!(
        g.context_create(0),
        Err(Error::TableFull {
            kind: ObjectKind::Context,
            capacity: 8,
            reserved: 0
        })
    );
    assert!(g
        .context_create(0)
        .unwrap_err()
        .to_string()
        .contains("context table full"));
    for _ in 0..8 {
        g.target_create(0, ctxs[0], 1, 1).unwrap();
    }
    assert_eq!(
        g.target_create(0, ctxs[1], 1, 1),
        Err(Error::TableFull {
            kind: ObjectKind::Target,
            capacity: 8,
            reserved: 0
        })
    );
    for _ in 0..48 {
        g.mesh_create(0, Usage::Static).unwrap();
    }
    assert_eq!(
        g.mesh_create(0, Usage::Static),
        Err(Error::TableFull {
            kind: ObjectKind::Mesh,
            capacity: 48,
            reserved: 0
        })
    );
    for _ in 0..24 {
        g.tex_create(0, 1, 1).unwrap();
    }
    assert_eq!(
        g.tex_create(0, 1, 1),
        Err(Error::TableFull {
            kind: ObjectKind::Texture,
            capacity: 24,
            reserved: 0
        })
    );
    assert_eq!(
        g.tex_solid(0, 0),
        Err(Error::TableFull {
            kind: ObjectKind::Texture,
            capacity: 24,
            reserved: 0
        })
    );
    for _ in 0..16 {
        g.prog_prepare(0, ctxs[0], FakeProgram::mvp()).unwrap();
    }
    assert_eq!(
        g.prog_prepare(0, ctxs[0], FakeProgram::mvp()),
        Err(Error::TableFull {
            kind: ObjectKind::Program,
            capacity: 16,
            reserved: 0
        })
    );
    g.drop_owner(0);
    assert_nothing_live(&g.stats(), "after drop_owner(0)");
}

#[test]
fn handles_differ_after_destroy_and_stale_ones_fail() {
    let mut g = mock();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    assert_eq!(m.get(), 0x0001_0001);
    g.mesh_destroy(0, m).unwrap();
    let m2 = g.mesh_create(0, Usage::Static).unwrap();
    assert_ne!(m, m2);
    assert_eq!(m2.get(), 0x0002_0001);
    assert_eq!(
        g.mesh_destroy(0, m),
        Err(Error::StaleHandle {
            kind: ObjectKind::Mesh
        })
    );
    assert!(MeshId::from_u32(0).is_none());
    // A forged slot index far outside the table.
    let forged = MeshId::from_u32(0x0001_FFFF).unwrap();
    assert_eq!(
        g.mesh_destroy(0, forged),
        Err(Error::StaleHandle {
            kind: ObjectKind::Mesh
        })
    );
    assert_eq!(g.mesh_usage(0, m2), Ok(Usage::Static));
    assert_eq!(Usage::from_u32(1), Usage::Dynamic);
    assert_eq!(Usage::from_u32(2), Usage::Stream);
    assert_eq!(Usage::from_u32(77), Usage::Static);
}

#[test]
fn target_sizes_and_resize() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    for (w, h) in [(0, 1), (1, 0), (1921, 1), (1, 1081)] {
        assert_eq!(
            g.target_create(0, c, w, h),
            Err(Error::BadTargetSize {
                width: w,
                height: h
            })
        );
    }
    let big = g.target_create(0, c, 1920, 1080).unwrap();
    g.target_destroy(0, big).unwrap();
    let t = g.target_create(0, c, 1, 1).unwrap();
    for (w, h) in [(320, 200), (640, 480), (800, 600), (640, 480)] {
        g.target_resize(0, t, w, h).unwrap();
        assert_eq!(g.target_size(0, t), Ok((w, h)));
        let s = g.stats();
        assert_eq!(s.target_bytes, (w * h * 4) as u64);
        assert_eq!(s.depth_bytes, (w * h * 4) as u64);
    }
    // Content is not kept by a real resize; an unchanged size is a no-op that keeps it.
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [1.0, 0.0, 0.0, 1.0], true).unwrap();
    g.end(0, c).unwrap();
    g.target_resize(0, t, 640, 480).unwrap();
    let mut px = vec![0u32; 640 * 480];
    g.target_read(0, t, &mut px).unwrap();
    assert!(px.iter().all(|&p| p == 0xFFFF0000));
    g.target_resize(0, t, 320, 240).unwrap();
    let mut px = vec![1u32; 320 * 240];
    g.target_read(0, t, &mut px).unwrap();
    assert!(px.iter().all(|&p| p == 0));
    assert_eq!(
        g.target_resize(0, t, 0, 5),
        Err(Error::BadTargetSize {
            width: 0,
            height: 5
        })
    );
    let mut small = vec![0u32; 10];
    assert_eq!(
        g.target_read(0, t, &mut small),
        Err(Error::ReadbackCapacity {
            found: 10,
            expected: 320 * 240
        })
    );
}

#[test]
fn clear_clamps_and_rounds() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 2, 2).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [2.0, -1.0, 0.5, f32::NAN], false).unwrap();
    let mut px = [0u32; 4];
    g.target_read(0, t, &mut px).unwrap();
    assert_eq!(px, [0x00FF_0080; 4]);
    assert_eq!(pack_color([0.2, 0.4, 0.6, 1.0]), 0xFF33_6699);
}

#[test]
fn frame_preconditions() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    assert_eq!(g.clear(0, c, [0.0; 4], true), Err(Error::NoFrame));
    assert_eq!(g.draw(0, c, m), Err(Error::NoFrame));
    assert_eq!(g.end(0, c), Err(Error::NoFrame));
    assert_eq!(g.viewport(0, c, 0, 0, 4, 4), Err(Error::NoFrame));
    g.begin(0, c, t).unwrap();
    assert_eq!(g.begin(0, c, t), Err(Error::FrameOpen));
    assert_eq!(g.draw(0, c, m), Err(Error::NoProgram));
    assert_eq!(
        g.uniform_f(0, c, "tint", &[1.0; 4]),
        Err(Error::NoBoundProgram { call: "uniform_f" })
    );
    assert_eq!(
        g.uniform_f(0, c, "tint", &[1.0; 4])
            .unwrap_err()
            .to_string(),
        "uniform_f: no program bound in this context"
    );
    assert_eq!(
        g.uniform_mat4(0, c, "model", &gfx3d::Mat4::IDENTITY)
            .unwrap_err()
            .to_string(),
        "uniform_mat4: no program bound in this context"
    );
    g.use_program(0, c, p).unwrap();
    let empty = g.mesh_create(0, Usage::Static).unwrap();
    assert_eq!(g.draw(0, c, empty), Err(Error::MeshNotUploaded));
    assert_eq!(
        g.viewport(0, c, 0, 0, 0, 4),
        Err(Error::BadViewport {
            x: 0,
            y: 0,
            width: 0,
            height: 4
        })
    );
    assert!(g.viewport(0, c, 0, 0, 8193, 4).is_err());
    assert!(g.viewport(0, c, -8193, 0, 4, 4).is_err());
    g.viewport(0, c, -8192, 8192, 8192, 1).unwrap();
    // Sixteen units (0..=15): unit 15 binds, unit 16 is the first refused.
    g.bind_texture(0, c, 15, None).unwrap();
    assert_eq!(
        g.bind_texture(0, c, 16, None),
        Err(Error::TextureUnit { unit: 16 })
    );
    // The program needs location 1 with 4 components.
    let short = layout(32, &[(0, 4, 0), (1, 3, 16)]);
    g.mesh_upload_f32(0, empty, &short, &red_triangle(), None)
        .unwrap();
    assert_eq!(
        g.draw(0, c, empty),
        Err(Error::Layout(LayoutError::TooFewComponents {
            location: 1,
            supplied: 3,
            required: 4
        }))
    );
    let only0 = layout(32, &[(0, 4, 0)]);
    g.mesh_upload_f32(0, empty, &only0, &red_triangle(), None)
        .unwrap();
    assert_eq!(
        g.draw(0, c, empty),
        Err(Error::Layout(LayoutError::MissingAttribute { location: 1 }))
    );
    assert!(g
        .draw(0, c, empty)
        .unwrap_err()
        .to_string()
        .contains("vertex layout mismatch"));
    // Two vertices: no triangle.
    g.mesh_upload_f32(0, empty, &tri_layout(), &red_triangle()[..16], None)
        .unwrap();
    assert_eq!(g.draw(0, c, empty), Err(Error::NoTriangles));
    g.draw(0, c, m).unwrap();
    // A destroyed program leaves nothing bound.
    g.program_destroy(0, p).unwrap();
    assert_eq!(g.draw(0, c, m), Err(Error::NoProgram));
    g.end(0, c).unwrap();
    assert_eq!(g.end(0, c), Err(Error::NoFrame));
    // A program must be linked.
    let mut unlinked = FakeProgram::mvp();
    unlinked.linked = false;
    assert_eq!(g.prog_prepare(0, c, unlinked), Err(Error::ProgramNotLinked));
    // A destroyed target ends nothing but draws have no target.
    g.begin(0, c, t).unwrap();
    g.target_destroy(0, t).unwrap();
    assert!(g.clear(0, c, [0.0; 4], false).is_err());
    g.end(0, c).unwrap();
}

#[test]
fn mesh_upload_validation() {
    let mut g = G::new();
    let m = g.mesh_create(0, Usage::Dynamic).unwrap();
    let l = tri_layout();
    let v = red_triangle();
    assert_eq!(
        g.mesh_upload_f32(0, m, &l, &v[..7], None),
        Err(Error::Layout(LayoutError::VertexBytes {
            bytes: 28,
            stride: 32
        }))
    );
    assert_eq!(
        g.mesh_upload_f32(0, m, &l, &[], None),
        Err(Error::Layout(LayoutError::VertexBytes {
            bytes: 0,
            stride: 32
        }))
    );
    assert_eq!(
        g.mesh_upload_f32(0, m, &l, &v, Some(&[0, 1, 3])),
        Err(Error::IndexOutOfRange {
            index: 3,
            vertices: 3
        })
    );
    assert_eq!(
        g.mesh_upload_f32(0, m, &l, &v, Some(&[0, 1])),
        Err(Error::IndexCount { count: 2 })
    );
    assert_eq!(
        g.mesh_upload_f32(0, m, &l, &v, Some(&[])),
        Err(Error::IndexCount { count: 0 })
    );
    let bad = layout(16, &[(0, 4, 4)]);
    assert_eq!(
        g.mesh_upload_f32(0, m, &bad, &v, None),
        Err(Error::Layout(LayoutError::OutsideStride {
            element: 0,
            end: 20,
            stride: 16
        }))
    );
    g.mesh_upload_f32(0, m, &l, &v, Some(&[0, 1, 2, 2, 1, 0]))
        .unwrap();
    assert_eq!(g.stats().cpu_mesh_bytes, 96 + 12);
}

#[test]
fn builder_cap_and_canonical_layout() {
    let mut g = G::new();
    let (c, t, _, _) = setup(&mut g, 0);
    let m = g.mesh_create(0, Usage::Static).unwrap();
    assert_eq!(
        g.mesh_finish(0, m),
        Err(Error::BuilderTooFew { vertices: 0 })
    );
    g.mesh_vertex(0, m, [1.0, 2.0, 3.0], [0.0, 0.0, 1.0], [0.25, 0.75])
        .unwrap();
    g.mesh_vertex(0, m, [4.0, 5.0, 6.0], [0.0, 1.0, 0.0], [0.5, 0.5])
        .unwrap();
    assert_eq!(
        g.mesh_finish(0, m),
        Err(Error::BuilderTooFew { vertices: 2 })
    );
    assert_eq!(g.mesh_builder_len(0, m), Ok(2));
    g.mesh_vertex(0, m, [7.0, 8.0, 9.0], [1.0, 0.0, 0.0], [1.0, 0.0])
        .unwrap();
    g.mesh_finish(0, m).unwrap();
    assert_eq!(g.mesh_builder_len(0, m), Ok(0));
    let mut prog = FakeProgram::mvp();
    prog.attrs.push(program::AttributeReq {
        location: 2,
        components: 2,
    });
    let p = g.prog_prepare(0, c, prog).unwrap();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    let seen = g.program(0, p).unwrap().draws.borrow()[0].clone();
    assert_eq!(seen.stride, 40);
    let f = seen.vertices.clone();
    assert_eq!(
        &f[..10],
        &[1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.25, 0.75]
    );
    // The cap.
    let big = g.mesh_create(0, Usage::Static).unwrap();
    for i in 0..limits::BUILDER_VERTEX_MAX {
        g.mesh_vertex(0, big, [i as f32, 0.0, 0.0], [0.0; 3], [0.0; 2])
            .unwrap();
    }
    assert_eq!(
        g.mesh_vertex(0, big, [0.0; 3], [0.0; 3], [0.0; 2]),
        Err(Error::BuilderFull)
    );
    g.mesh_finish(0, big).unwrap();
    assert_eq!(g.stats().cpu_mesh_bytes, 3 * 40 + 8192 * 40 + 96);
}

#[test]
fn textures_keep_alpha_and_sizes_are_checked() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    for (w, h) in [(0, 1), (1, 0), (1025, 1), (1, 1025)] {
        assert_eq!(
            g.tex_create(0, w, h),
            Err(Error::BadTextureSize {
                width: w,
                height: h
            })
        );
    }
    let big = g.tex_create(0, 1024, 1024).unwrap();
    assert_eq!(
        g.tex_upload(0, big, &[0; 4]),
        Err(Error::PixelCount {
            found: 4,
            expected: 1024 * 1024
        })
    );
    g.tex_destroy(0, big).unwrap();
    let tex = g.tex_create(0, 2, 1).unwrap();
    g.tex_upload(0, tex, &[0x8011_2233, 0x0044_5566]).unwrap();
    g.tex_sampler(0, tex, SamplerState::new(Filter::Linear, Wrap::ClampToEdge))
        .unwrap();
    let solid = g.tex_solid(0, 0x40FF_0000).unwrap();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(tex)).unwrap();
    g.bind_texture(0, c, 3, Some(solid)).unwrap();
    g.draw(0, c, m).unwrap();
    g.bind_texture(0, c, 0, None).unwrap();
    g.tex_destroy(0, solid).unwrap();
    g.draw(0, c, m).unwrap();
    let d = g.program(0, p).unwrap().draws.borrow().clone();
    let t0 = d[0].textures[0].clone().unwrap();
    assert_eq!(
        (t0.0, t0.1, t0.2.clone()),
        (2, 1, vec![0x8011_2233, 0x0044_5566])
    );
    assert_eq!(t0.3, SamplerState::new(Filter::Linear, Wrap::ClampToEdge));
    assert!(d[0].textures[1].is_none() && d[0].textures[2].is_none());
    assert_eq!(d[0].textures[3].clone().unwrap().2, vec![0x40FF_0000]);
    // Unbinding and destroying unbind.
    assert!(d[1].textures.iter().all(|t| t.is_none()));
}

#[test]
fn state_reaches_the_software_backend() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.viewport(0, c, 2, 3, 8, 4).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.cull_back(0, c, true).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    // A new frame resets the viewport to the whole target; depth and cull are context state.
    g.begin(0, c, t).unwrap();
    g.draw(0, c, m).unwrap();
    let d = g.program(0, p).unwrap().draws.borrow().clone();
    assert_eq!(
        d[0].viewport,
        Some(program::Viewport {
            x: 0,
            y: 0,
            width: 16,
            height: 16
        })
    );
    assert!(d[0].depth_test && !d[0].cull_back);
    assert_eq!(
        d[1].viewport,
        Some(program::Viewport {
            x: 2,
            y: 3,
            width: 8,
            height: 4
        })
    );
    assert!(!d[1].depth_test && d[1].cull_back);
    assert_eq!(
        d[2].viewport,
        Some(program::Viewport {
            x: 0,
            y: 0,
            width: 16,
            height: 16
        })
    );
    assert!(!d[2].depth_test && d[2].cull_back);
}

#[test]
fn context_matrices_are_applied_to_every_bound_program() {
    let mut g = G::new();
    let (c, t, _, p) = setup(&mut g, 0);
    let model = Mat4::translation(1.0, 2.0, 3.0).mul(&Mat4::scale(2.0, 2.0, 2.0));
    // Set before any program is bound and before any frame (aspect from no target = 1).
    g.set_model(0, c, &model).unwrap();
    g.begin(0, c, t).unwrap();
    g.end(0, c).unwrap();
    g.camera(0, c, [0.0, 1.5, 5.0], 10.0, -5.0).unwrap();
    g.use_program(0, c, p).unwrap();
    let (mm, vv, pp) = g.matrices(0, c).unwrap();
    assert_eq!(mm, model);
    assert_eq!(vv, Mat4::camera([0.0, 1.5, 5.0], 10.0, -5.0));
    assert_eq!(pp, Mat4::perspective(60.0, 1.0, 0.1, 200.0));
    let prog = g.program(0, p).unwrap();
    assert_eq!(prog.uniform("model"), model.0.to_vec());
    assert_eq!(prog.uniform("view"), vv.0.to_vec());
    assert_eq!(prog.uniform("projection"), pp.0.to_vec());
    assert_eq!(
        prog.uniform("normalMatrix"),
        model.normal_matrix().0.to_vec()
    );
    // A second program of the context gets the same state when bound.
    let p2 = g.prog_prepare(0, c, FakeProgram::mvp()).unwrap();
    g.use_program(0, c, p2).unwrap();
    assert_eq!(g.program(0, p2).unwrap().uniform("model"), model.0.to_vec());
    // Changing the model while bound updates the bound program (and normalMatrix).
    let r = Mat4::rotation_y(28.0);
    g.set_model(0, c, &r).unwrap();
    assert_eq!(
        g.program(0, p2).unwrap().uniform("normalMatrix"),
        r.normal_matrix().0.to_vec()
    );
    // uniform_mat4("model") is context state too.
    g.uniform_mat4(0, c, "model", &Mat4::IDENTITY).unwrap();
    g.use_program(0, c, p).unwrap();
    assert_eq!(
        g.program(0, p).unwrap().uniform("model"),
        Mat4::IDENTITY.0.to_vec()
    );
    // Plain uniforms and their errors.
    g.uniform_f(0, c, "tint", &[1.0, 0.5, 0.25, 1.0]).unwrap();
    assert_eq!(
        g.program(0, p).unwrap().uniform("tint"),
        vec![1.0, 0.5, 0.25, 1.0]
    );
    assert_eq!(g.uniform_f(0, c, "nope", &[1.0]), Err(Error::NoSuchUniform));
    assert_eq!(
        g.uniform_f(0, c, "tint", &[1.0]),
        Err(Error::UniformSize { found: 1 })
    );
    // The perspective follows the target's aspect.
    g.perspective(0, c, 90.0, 1.0, 10.0).unwrap();
    assert_eq!(
        g.matrices(0, c).unwrap().2,
        Mat4::perspective(90.0, 1.0, 1.0, 10.0)
    );
}

/// A camera set before the first frame knows no target (aspect 1); `begin` recomputes the
/// projection with the target's aspect, and writes it into the bound program. An explicit
/// projection is never replaced.
#[test]
fn camera_before_the_first_begin_follows_the_target_aspect() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let wide = g.target_create(0, c, 64, 32).unwrap();
    let tall = g.target_create(0, c, 16, 48).unwrap();
    let p = g.prog_prepare(0, c, FakeProgram::mvp()).unwrap();
    g.use_program(0, c, p).unwrap();
    g.camera(0, c, [0.0, 1.0, 4.0], 0.0, 0.0).unwrap();
    assert_eq!(
        g.matrices(0, c).unwrap().2,
        Mat4::perspective(60.0, 1.0, 0.1, 200.0)
    );
    g.begin(0, c, wide).unwrap();
    let want = Mat4::perspective(60.0, 2.0, 0.1, 200.0);
    assert_eq!(g.matrices(0, c).unwrap().2, want);
    assert_eq!(
        g.program(0, p).unwrap().uniform("projection"),
        want.0.to_vec()
    );
    g.end(0, c).unwrap();
    // Another target of another aspect: recomputed again, with the context's fov and planes.
    g.perspective(0, c, 90.0, 1.0, 10.0).unwrap();
    g.begin(0, c, tall).unwrap();
    let want = Mat4::perspective(90.0, 16.0 / 48.0, 1.0, 10.0);
    assert_eq!(g.matrices(0, c).unwrap().2, want);
    assert_eq!(
        g.program(0, p).unwrap().uniform("projection"),
        want.0.to_vec()
    );
    g.end(0, c).unwrap();
    // An explicit projection stays what the caller set.
    let mine = Mat4::scale(0.5, 0.5, 0.5);
    g.set_projection(0, c, &mine).unwrap();
    g.begin(0, c, wide).unwrap();
    assert_eq!(g.matrices(0, c).unwrap().2, mine);
    g.end(0, c).unwrap();
}

#[test]
fn stress_create_upload_destroy_1000() {
    let mut g = G::new();
    let base = g.stats();
    for i in 0..1000u32 {
        let m = g.mesh_create(3, Usage::Stream).unwrap();
        g.mesh_upload_f32(3, m, &tri_layout(), &red_triangle(), Some(&[0, 1, 2]))
            .unwrap();
        let t = g.tex_create(3, 2, 2).unwrap();
        g.tex_upload(3, t, &[i, i + 1, i + 2, i + 3]).unwrap();
        g.mesh_destroy(3, m).unwrap();
        g.tex_destroy(3, t).unwrap();
    }
    let s = g.stats();
    assert_eq!((s.live_mesh, s.live_tex), (base.live_mesh, 0));
    assert_eq!((s.cpu_mesh_bytes, s.cpu_texture_bytes), (0, 0));
}

#[test]
fn drop_owner_clears_everything_of_that_owner_only() {
    let mut g = mock();
    let (_c1, _, _, _) = setup(&mut g, 1);
    g.tex_solid(1, 0).unwrap();
    let (c2, _, _, _) = setup(&mut g, 2);
    g.drop_owner(1);
    let s = g.stats();
    assert_eq!(live_counts(&s), (1, 1, 1, 0, 1));
    assert!(g.is_live_context(2, c2));
    g.drop_owner(2);
    let s = g.stats();
    assert_eq!(live_counts(&s), (0, 0, 0, 0, 0));
    assert_eq!((s.target_bytes, s.depth_bytes, s.cpu_mesh_bytes), (0, 0, 0));
}

#[test]
fn context_destroy_takes_its_targets_and_programs_only() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    let tex = g.tex_solid(0, 0).unwrap();
    g.context_destroy(0, c).unwrap();
    assert!(g.target_size(0, t).is_err());
    assert!(g.program(0, p).is_err());
    assert!(g.mesh_usage(0, m).is_ok());
    assert!(g.tex_size(0, tex).is_ok());
}

#[test]
fn stats_reset_keeps_live_counts_and_memory() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let s = g.stats();
    assert_eq!((s.draws, s.triangles, s.frames), (2, 2, 1));
    assert_eq!(s.backend, Backend::Software);
    assert!(!s.forced && !s.degraded);
    g.stats_reset();
    let r = g.stats();
    assert_eq!(
        (r.draws, r.triangles, r.frames, r.submits, r.readbacks),
        (0, 0, 0, 0, 0)
    );
    assert_eq!(
        (r.live_ctx, r.live_target, r.live_mesh, r.live_prog),
        (1, 1, 1, 1)
    );
    assert_eq!(
        (r.cpu_mesh_bytes, r.target_bytes, r.depth_bytes),
        (s.cpu_mesh_bytes, 16 * 16 * 4, 16 * 16 * 4)
    );
}

// ----- device paths (fake device) -----

fn virgl(mode: BackendMode) -> (G, std::sync::Arc<std::sync::Mutex<DevLog>>) {
    let (dev, log) = FakeDevice::new();
    let mut g = G::new();
    g.boot(mode, Some(Box::new(dev))).unwrap();
    (g, log)
}

#[test]
fn device_objects_follow_the_api() {
    let (mut g, log) = virgl(BackendMode::Virgl);
    let (c, t, m, p) = setup(&mut g, 0);
    {
        let l = log.lock().unwrap();
        assert_eq!(l.count("context_create"), 1);
        assert_eq!(l.count("target_create 16x16"), 1);
        assert_eq!(l.count("program_create"), 1);
        // Meshes are uploaded on first use, not at upload.
        assert_eq!(l.count("buffer_create"), 0);
    }
    let tex = g.tex_solid(0, 0x80FF0000).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 2.0, 0.0, 1.0], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 2, Some(tex)).unwrap();
    g.viewport(0, c, 1, 2, 3, 4).unwrap();
    g.cull_back(0, c, true).unwrap();
    g.draw(0, c, m).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let s = g.stats();
    {
        let l = log.lock().unwrap();
        assert_eq!(l.count("clear [0.0, 1.0, 0.0, 1.0] true"), 1);
        assert_eq!(l.count("buffer_create Vertex"), 1);
        assert_eq!(l.count("texture_create"), 1);
        assert_eq!(l.count("texture_create ctx1 1x1 80ff0000"), 1);
        assert_eq!(l.count("draw"), 2);
        let d = l.draws[0];
        assert_eq!((d.0, d.1, d.2, d.3), (3, 2, true, true));
        assert_eq!(
            d.4,
            program::Viewport {
                x: 1,
                y: 2,
                width: 3,
                height: 4
            }
        );
        assert!(d.5[2].is_some() && d.5[0].is_none());
    }
    assert_eq!((s.uploads, s.bytes_up), (2, 96 + 4));
    assert_eq!((s.submits, s.dwords), (1, 100));
    assert_eq!(
        (s.virgl_obj_live, s.virgl_obj_peak, s.gpu_backing_bytes),
        (6, 9, 4096)
    );
    // Readback transfers first.
    let mut px = vec![0u32; 256];
    g.target_read(0, t, &mut px).unwrap();
    assert!(px.iter().all(|&p| p == 0xFF12_3456));
    assert_eq!(g.stats().readbacks, 1);
    g.present_scanout(0, t).unwrap();
    g.scanout_primary().unwrap();
    g.drop_owner(0);
    let l = log.lock().unwrap();
    // One device present per present_scanout (the backend makes its scanout copy itself).
    assert_eq!(l.count("present"), 1);
    assert_eq!(l.count("scanout_primary"), 1);
    assert_eq!(l.count("buffer_destroy"), 1);
    assert_eq!(l.count("texture_destroy"), 1);
    assert_eq!(l.count("program_destroy"), 1);
    assert_eq!(l.count("target_destroy"), 1);
    assert_eq!(l.count("context_destroy"), 1);
}

#[test]
fn meshes_are_resident_per_device_context_and_survive_shader_switches() {
    let (mut g, log) = virgl(BackendMode::Auto);
    let (c1, t1, m, p1) = setup(&mut g, 0);
    let p1b = g.prog_prepare(0, c1, FakeProgram::mvp()).unwrap();
    let c2 = g.context_create(0).unwrap();
    let t2 = g.target_create(0, c2, 8, 8).unwrap();
    let p2 = g.prog_prepare(0, c2, FakeProgram::mvp()).unwrap();
    g.begin(0, c1, t1).unwrap();
    g.use_program(0, c1, p1).unwrap();
    g.draw(0, c1, m).unwrap();
    let uploads = g.stats().uploads;
    g.use_program(0, c1, p1b).unwrap();
    g.draw(0, c1, m).unwrap();
    assert_eq!(
        g.stats().uploads,
        uploads,
        "a shader switch must not re-upload the mesh"
    );
    g.end(0, c1).unwrap();
    g.begin(0, c2, t2).unwrap();
    g.use_program(0, c2, p2).unwrap();
    g.draw(0, c2, m).unwrap();
    g.end(0, c2).unwrap();
    let l = log.lock().unwrap();
    assert_eq!(l.count("buffer_create Vertex ctx1"), 1);
    assert_eq!(
        l.count("buffer_create Vertex"),
        2,
        "one upload per device context: {:?}",
        l.calls
    );
}

#[test]
fn hot_refresh_reuploads_changed_programs() {
    let (mut g, log) = virgl(BackendMode::Virgl);
    let (c, t, m, p) = setup(&mut g, 0);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    assert_eq!(log.lock().unwrap().count("program_create"), 1);
    g.program_mut(0, p).unwrap().generation += 1;
    g.draw(0, c, m).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let l = log.lock().unwrap();
    assert_eq!(l.count("program_destroy"), 1);
    assert_eq!(l.count("program_create"), 2);
}

#[test]
fn auto_degrades_to_software_and_keeps_objects_usable() {
    let (mut g, log) = virgl(BackendMode::Auto);
    let (c, t, m, p) = setup(&mut g, 0);
    g.program_mut(0, p).unwrap().fill = Some(0xFF00_00FF);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    log.lock().unwrap().fail = Some("draw");
    // The failing draw still succeeds, on the CPU.
    g.draw(0, c, m).unwrap();
    assert_eq!(g.backend_name(), "software");
    assert!(g.stats().degraded);
    assert_eq!(g.program(0, p).unwrap().draws.borrow().len(), 1);
    g.end(0, c).unwrap();
    // Later frames are correct and never touch the device.
    log.lock().unwrap().dead = true;
    let calls = log.lock().unwrap().calls.len();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 0.0, 0.0, 1.0], true).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; 256];
    g.target_read(0, t, &mut px).unwrap();
    assert!(px.iter().all(|&p| p == 0xFF00_00FF));
    let t2 = g.target_create(0, c, 4, 4).unwrap();
    g.target_resize(0, t2, 8, 8).unwrap();
    assert_eq!(log.lock().unwrap().calls.len(), calls);
    let s = g.stats();
    assert_eq!(s.backend, Backend::Software);
    assert!(s.degraded && !s.forced);
    assert_eq!(g.present_scanout(0, t), Err(Error::NotVirgl));
}

/// A program the device cannot take (no TGSI, or refused while the device stays available) is
/// a program error of that call: never a loss, under AUTO (no degrading to software) or forced
/// VirGL (never `virgl-lost`). A dead device refusing it is still a loss.
#[test]
fn unpreparable_program_is_a_program_error_not_a_device_loss() {
    let why = "vertex shader TGSI exceeds the VirGL budget of 3600 bytes";
    for mode in [BackendMode::Auto, BackendMode::Virgl] {
        let (mut g, log) = virgl(mode);
        let (c, t, m, p) = setup(&mut g, 0);
        let mut bad = FakeProgram::mvp();
        bad.tgsi_error = Some(why);
        assert_eq!(
            g.prog_prepare(0, c, bad),
            Err(Error::ProgramUnsupported { what: why })
        );
        assert_eq!(
            Error::ProgramUnsupported { what: why }.to_string(),
            "program cannot be prepared for the device: vertex shader TGSI exceeds the VirGL budget of 3600 bytes"
        );
        // The device refuses the shaders but is still available.
        log.lock().unwrap().fail = Some("program_create");
        assert_eq!(
            g.prog_prepare(0, c, FakeProgram::mvp()),
            Err(Error::ProgramUnsupported { what: "injected" })
        );
        // A relinked program that can no longer be prepared fails its use and draw only.
        let p2 = g.prog_prepare(0, c, FakeProgram::mvp()).unwrap();
        {
            let prog = g.program_mut(0, p2).unwrap();
            prog.tgsi_error = Some(why);
            prog.generation += 1;
        }
        g.begin(0, c, t).unwrap();
        assert_eq!(
            g.use_program(0, c, p2),
            Err(Error::ProgramUnsupported { what: why })
        );
        assert_eq!(
            g.draw(0, c, m),
            Err(Error::ProgramUnsupported { what: why })
        );
        assert_eq!(g.backend_name(), "virgl", "{:?}", mode);
        assert!(!g.is_lost() && !g.stats().degraded);
        // Every other program still draws on the device.
        g.use_program(0, c, p).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        assert_eq!(
            g.program(0, p).unwrap().draws.borrow().len(),
            0,
            "drawn on the CPU"
        );
        assert_eq!(g.stats().live_prog, 2);
        // A dead device is a loss, even when the call was a program upload.
        log.lock().unwrap().dead = true;
        let r = g.prog_prepare(0, c, FakeProgram::mvp());
        if mode == BackendMode::Virgl {
            assert!(matches!(r, Err(Error::Device { .. })), "{:?}", r);
            assert_eq!(g.backend_name(), "virgl-lost");
        } else {
            assert!(r.is_ok());
            assert_eq!(g.backend_name(), "software");
        }
    }
}

#[test]
fn auto_context_creation_failure_still_returns_a_context() {
    let (mut g, log) = virgl(BackendMode::Auto);
    log.lock().unwrap().fail = Some("context_create");
    let c = g.context_create(0).unwrap();
    assert_eq!(g.backend_name(), "software");
    let t = g.target_create(0, c, 4, 4).unwrap();
    g.begin(0, c, t).unwrap();
}

#[test]
fn auto_resize_failure_keeps_the_cpu_target() {
    let (mut g, log) = virgl(BackendMode::Auto);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 4, 4).unwrap();
    log.lock().unwrap().fail = Some("target_create");
    g.target_resize(0, t, 8, 8).unwrap();
    assert_eq!(g.target_size(0, t), Ok((8, 8)));
    assert_eq!(g.backend_name(), "software");
}

#[test]
fn forced_virgl_reports_the_loss() {
    let (mut g, log) = virgl(BackendMode::Virgl);
    let (c, t, m, p) = setup(&mut g, 0);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    log.lock().unwrap().fail = Some("draw");
    assert_eq!(g.draw(0, c, m), Err(Error::Device { what: "injected" }));
    assert_eq!(g.backend_name(), "virgl-lost");
    assert!(g.is_lost());
    assert!(g.program(0, p).unwrap().draws.borrow().is_empty());
    g.end(0, c).unwrap_or(());
    assert_eq!(g.begin(0, c, t), Err(Error::ForcedVirglUnavailable));
    let s = g.stats();
    assert!(s.forced && !s.degraded);
    assert_eq!(s.backend, Backend::Virgl);
    // Context creation failing under forced VirGL fails the call.
    let (mut g, log) = virgl(BackendMode::Virgl);
    log.lock().unwrap().fail = Some("context_create");
    assert_eq!(g.context_create(0), Err(Error::Device { what: "injected" }));
    assert_eq!(g.stats().live_ctx, 0);
    // mark_lost under forced VirGL only records the loss.
    let (mut g, _) = virgl(BackendMode::Virgl);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 2, 2).unwrap();
    g.mark_lost();
    assert_eq!(g.backend_name(), "virgl-lost");
    assert_eq!(g.begin(0, c, t), Err(Error::ForcedVirglUnavailable));
}

#[test]
fn forced_virgl_readback_failure_is_reported() {
    let (mut g, log) = virgl(BackendMode::Virgl);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 2, 2).unwrap();
    log.lock().unwrap().fail = Some("read_target");
    let mut px = [0u32; 4];
    assert_eq!(
        g.target_read(0, t, &mut px),
        Err(Error::Device { what: "injected" })
    );
    assert_eq!(g.stats().readbacks, 0);
}

#[test]
fn raster_failures_and_byte_uploads() {
    let mut g = G::new();
    let (c, t, m, p) = setup(&mut g, 0);
    g.program_mut(0, p).unwrap().raster_error = Some("viewport out of range");
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    assert_eq!(
        g.draw(0, c, m),
        Err(Error::Raster {
            reason: "viewport out of range"
        })
    );
    assert_eq!(g.stats().draws, 0, "a failed draw is not counted");
    // Byte uploads are little-endian floats with the same checks.
    let bytes: Vec<u8> = red_triangle()
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    g.mesh_upload(0, m, &tri_layout(), &bytes, Some(&[2, 1, 0]))
        .unwrap();
    assert_eq!(
        g.mesh_upload(0, m, &tri_layout(), &bytes[..95], None),
        Err(Error::Layout(LayoutError::VertexBytes {
            bytes: 95,
            stride: 32
        }))
    );
    g.program_mut(0, p).unwrap().raster_error = None;
    g.draw(0, c, m).unwrap();
    let seen = g
        .program(0, p)
        .unwrap()
        .draws
        .borrow()
        .last()
        .cloned()
        .unwrap();
    assert_eq!(seen.vertices, red_triangle());
    assert_eq!(seen.indices, Some(3));
}

#[test]
fn every_error_message_says_what_and_the_limit() {
    let cases: Vec<(Error, &[&str])> = vec![
        (Error::VirglUnavailable, &["virgl unavailable"]),
        (Error::ForcedVirglUnavailable, &["forced virgl unavailable"]),
        (
            Error::Device {
                what: "virgl draw failed",
            },
            &["virgl draw failed"],
        ),
        (
            Error::StaleHandle {
                kind: ObjectKind::Mesh,
            },
            &["mesh", "not live"],
        ),
        (
            Error::TableFull {
                kind: ObjectKind::Program,
                capacity: 16,
                reserved: 0,
            },
            &["program table full (capacity 16)"],
        ),
        (
            Error::TableFull {
                kind: ObjectKind::Mesh,
                capacity: 48,
                reserved: 1,
            },
            &["mesh table full (capacity 48, 1 reserved for the kernel)"],
        ),
        (
            Error::WrongContext {
                kind: ObjectKind::Target,
            },
            &["target", "context"],
        ),
        (
            Error::BadTargetSize {
                width: 0,
                height: 5,
            },
            &["0x5", "1920x1080"],
        ),
        (
            Error::BadTextureSize {
                width: 2000,
                height: 5,
            },
            &["2000x5", "1024"],
        ),
        (
            Error::PixelCount {
                found: 3,
                expected: 4,
            },
            &["3", "4"],
        ),
        (
            Error::ReadbackCapacity {
                found: 3,
                expected: 4,
            },
            &["3", "4"],
        ),
        (
            Error::IndexOutOfRange {
                index: 9,
                vertices: 3,
            },
            &["9", "3"],
        ),
        (Error::IndexCount { count: 2 }, &["2", "multiple of 3"]),
        (Error::NoTriangles, &["triangle"]),
        (Error::MeshNotUploaded, &["uploaded"]),
        (Error::BuilderFull, &["8192"]),
        (Error::BuilderTooFew { vertices: 2 }, &["2", "3"]),
        (Error::ProgramNotLinked, &["program not linked"]),
        (Error::NoFrame, &["begin"]),
        (Error::FrameOpen, &["already open"]),
        (Error::NoProgram, &["draw missing bind"]),
        (
            Error::NoBoundProgram { call: "uniform_f" },
            &["uniform_f: no program bound in this context"],
        ),
        (Error::NoSuchUniform, &["uniform"]),
        (Error::UniformSize { found: 3 }, &["3"]),
        (Error::TextureUnit { unit: 16 }, &["16", "0..16"]),
        (
            Error::BadViewport {
                x: 0,
                y: 0,
                width: 0,
                height: 1,
            },
            &["8192"],
        ),
        (Error::Raster { reason: "why" }, &["why"]),
        (Error::NotVirgl, &["virgl"]),
        (Error::OutOfMemory { bytes: 12 }, &["12"]),
        (
            Error::Layout(LayoutError::Stride { stride: 6 }),
            &["6", "2048"],
        ),
        (
            Error::Layout(LayoutError::ElementCount { count: 9 }),
            &["9", "8"],
        ),
        (
            Error::Layout(LayoutError::Location {
                element: 1,
                location: 9,
            }),
            &["9", "0..8"],
        ),
        (
            Error::Layout(LayoutError::OutsideStride {
                element: 0,
                end: 20,
                stride: 16,
            }),
            &["20", "16"],
        ),
        (
            Error::Layout(LayoutError::MissingAttribute { location: 2 }),
            &["vertex layout mismatch", "2"],
        ),
    ];
    for (e, want) in cases {
        let text = e.to_string();
        for w in want {
            assert!(
                text.contains(w),
                "{:?} renders as {:?}, missing {:?}",
                e,
                text,
                w
            );
        }
    }
}
