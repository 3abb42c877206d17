//! Every encoder function driven with extreme values against a private `virgl_test_server`:
//! each value must be either refused by the encoder with an error (nothing sent) or accepted by
//! the host. After every case a triangle is drawn and read back, and the server's stderr is
//! scanned (`context error`, `failed to dispatch`, `Illegal command buffer`); a host rejection
//! also drops the vtest connection, which the busy-wait round trip turns into an error.
//!
//! Also: the vtest transport refuses the resources the kernel's driver refuses.
use virtio_gpu::encode::*;
use virtio_gpu::limits::*;
use virtio_gpu::proto::Box3d;
use virtio_gpu::protocol::*;
use virtio_gpu::scenes::{SceneCtx, FS_CONST0, H, VS_POS, W};
use virtio_gpu::transport::{CtxSink, ResourceDesc};
use virtio_gpu::vtest::{VtestServer, VtestTransport};
use virtio_gpu::{GpuError, GpuTransport3d};

type E<'a, 'b> = Encoder<'a, CtxSink<'b, VtestTransport>>;
type Case = Box<dyn Fn(&mut E<'_, '_>, &Live) -> virtio_gpu::Result<()>>;

/// Live objects of the case's context the extreme commands may name.
struct Live {
    vbo: u32,
    tex: u32,
    /// A free object handle (not yet used in the context).
    free: u32,
}

const FLOATS: [f32; 12] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1.0,
    0.0,
    -0.0,
    1e30,
    -1e30,
    3e9,
    f32::MAX,
    f32::MIN_POSITIVE,
    16385.0,
];
const WORDS: [u32; 9] = [
    0,
    1,
    2,
    7,
    255,
    MAX_OBJECT_HANDLES + 1,
    0x7FFF_FFFF,
    0x8000_0000,
    u32::MAX,
];

/// Object handles outside what the pools hand out (a handle inside the range may be live or not:
/// only the caller knows, so those are not extremes of the encoder's).
const HANDLES: [u32; 5] = [
    0,
    MAX_OBJECT_HANDLES + 1,
    0x7FFF_FFFF,
    0x8000_0000,
    u32::MAX,
];
/// Resource ids outside what the transports hand out.
const RESOURCES: [u32; 5] = [0, MAX_RESOURCES + 1, 0x7FFF_FFFF, 0x8000_0000, u32::MAX];

fn vp(scale: [f32; 3], translate: [f32; 3]) -> Viewport {
    Viewport { scale, translate }
}

/// The cases: (name, encoder calls).
fn cases() -> Vec<(String, Case)> {
    let mut v: Vec<(String, Case)> = Vec::new();
    let good = Viewport::top_down(0.0, 0.0, W as f32, H as f32);
    for &x in &FLOATS {
        for i in 0..6 {
            let mut s = good.scale;
            let mut t = good.translate;
            if i < 3 {
                s[i] = x;
            } else {
                t[i - 3] = x;
            }
            v.push((
                format!("set_viewport component {} = {:?}", i, x),
                Box::new(move |e, _| e.set_viewport(&vp(s, t))),
            ));
        }
        v.push((
            format!("clear colour {:?}", x),
            Box::new(move |e, _| e.clear(CLEAR_COLOR0, [x, 0.0, 0.0, 1.0], 1.0, 0)),
        ));
        v.push((
            format!("clear depth {:?}", x),
            Box::new(move |e, _| e.clear(CLEAR_COLOR0 | CLEAR_DEPTH, [0.0; 4], x as f64, 0)),
        ));
        v.push((
            format!("constants {:?}", x),
            Box::new(move |e, _| e.set_constant_buffer(SHADER_FRAGMENT, &[[x, x, x, 1.0]])),
        ));
    }
    v.push((
        "viewport of negative width".into(),
        Box::new(|e, _| e.set_viewport(&Viewport::top_down(0.0, 0.0, -64.0, 64.0))),
    ));
    v.push((
        "viewport 1e30 wide".into(),
        Box::new(|e, _| e.set_viewport(&Viewport::top_down(0.0, 0.0, 1e30, 64.0))),
    ));
    v.push((
        "viewport 3e9 high".into(),
        Box::new(|e, _| e.set_viewport(&Viewport::top_down(0.0, 0.0, 64.0, 3e9))),
    ));
    v.push((
        "viewport at the bounds".into(),
        Box::new(|e, _| {
            e.set_viewport(&Viewport::top_down(
                -16384.0,
                -16384.0,
                MAX_VIEWPORT_DIM,
                MAX_VIEWPORT_DIM,
            ))
        }),
    ));
    for &w in &WORDS {
        v.push((
            format!("clear buffers {:#x}", w),
            Box::new(move |e, _| e.clear(w, [0.0; 4], 1.0, 0)),
        ));
        v.push((
            format!("clear stencil {:#x}", w),
            Box::new(move |e, _| e.clear(CLEAR_COLOR0 | CLEAR_STENCIL, [0.0; 4], 1.0, w)),
        ));
        v.push((
            format!("surface format {:#x}", w),
            Box::new(move |e, l| e.create_surface(l.free, l.tex, w, 0, 0)),
        ));
        v.push((
            format!("surface level {:#x}", w),
            Box::new(move |e, l| e.create_surface(l.free, l.tex, FORMAT_B8G8R8A8_UNORM, w, 0)),
        ));
        v.push((
            format!("surface layers {:#x}", w),
            Box::new(move |e, l| e.create_surface(l.free, l.tex, FORMAT_B8G8R8A8_UNORM, 0, w)),
        ));
        v.push((
            format!("sampler view format {:#x}", w),
            Box::new(move |e, l| e.create_sampler_view(l.free, l.tex, w)),
        ));
        for field in 0..7 {
            v.push((
                format!("blend field {} = {:#x}", field, w),
                Box::new(move |e, l| {
                    let mut b = BlendState {
                        enable: true,
                        ..BlendState::default()
                    };
                    match field {
                        0 => b.rgb_func = w,
                        1 => b.rgb_src = w,
                        2 => b.rgb_dst = w,
                        3 => b.alpha_func = w,
                        4 => b.alpha_src = w,
                        5 => b.alpha_dst = w,
                        _ => b.colormask = w,
                    }
                    e.create_blend(l.free, &b)?;
                    e.bind_object(OBJ_BLEND, l.free)
                }),
            ));
        }
        v.push((
            format!("rasterizer cull {:#x}", w),
            Box::new(move |e, l| {
                e.create_rasterizer(
                    l.free,
                    &RasterState {
                        cull_face: w,
                        ..RasterState::default()
                    },
                )?;
                e.bind_object(OBJ_RASTERIZER, l.free)
            }),
        ));
        v.push((
            format!("dsa func {:#x}", w),
            Box::new(move |e, l| {
                e.create_dsa(
                    l.free,
                    &DsaState {
                        depth_enable: true,
                        depth_write: true,
                        depth_func: w,
                    },
                )?;
                e.bind_object(OBJ_DSA, l.free)
            }),
        ));
        for field in 0..4 {
            v.push((
                format!("sampler state field {} = {:#x}", field, w),
                Box::new(move |e, l| {
                    let mut s = SamplerState::default();
                    match field {
                        0 => s.wrap_s = w,
                        1 => s.wrap_t = w,
                        2 => s.min_filter = w,
                        _ => s.mag_filter = w,
                    }
                    e.create_sampler_state(l.free, &s)?;
                    e.bind_sampler_states(SHADER_FRAGMENT, 0, &[l.free])
                }),
            ));
        }
        v.push((
            format!("vertex element offset {:#x}", w),
            Box::new(move |e, l| {
                let el = VertexElement {
                    offset: w,
                    buffer_index: 0,
                    components: 4,
                };
                e.create_vertex_elements(l.free, &[el])?;
                e.bind_object(OBJ_VERTEX_ELEMENTS, l.free)
            }),
        ));
        v.push((
            format!("vertex element buffer index {:#x}", w),
            Box::new(move |e, l| {
                let el = VertexElement {
                    offset: 0,
                    buffer_index: w,
                    components: 4,
                };
                e.create_vertex_elements(l.free, &[el])
            }),
        ));
        v.push((
            format!("vertex element components {:#x}", w),
            Box::new(move |e, l| {
                let el = VertexElement {
                    offset: 0,
                    buffer_index: 0,
                    components: w,
                };
                e.create_vertex_elements(l.free, &[el])
            }),
        ));
        v.push((
            format!("vertex buffer stride {:#x}", w),
            Box::new(move |e, l| {
                e.set_vertex_buffers(&[VertexBuffer {
                    stride: w,
                    offset: 0,
                    resource: l.vbo,
                }])
            }),
        ));
        v.push((
            format!("vertex buffer offset {:#x}", w),
            Box::new(move |e, l| {
                e.set_vertex_buffers(&[VertexBuffer {
                    stride: 16,
                    offset: w,
                    resource: l.vbo,
                }])
            }),
        ));
        v.push((
            format!("index buffer size {:#x}", w),
            Box::new(move |e, l| e.set_index_buffer(Some((l.vbo, w, 0)))),
        ));
        v.push((
            format!("index buffer offset {:#x}", w),
            Box::new(move |e, l| e.set_index_buffer(Some((l.vbo, 2, w)))),
        ));
        v.push((
            format!("bind object type {:#x}", w),
            Box::new(move |e, _| e.bind_object(w, 0)),
        ));
        v.push((
            format!("destroy object type {:#x}", w),
            Box::new(move |e, l| e.destroy_object(w, l.free)),
        ));
        v.push((
            format!("bind shader stage {:#x}", w),
            Box::new(move |e, _| e.bind_shader(0, w)),
        ));
        v.push((
            format!("create shader stage {:#x}", w),
            Box::new(move |e, l| e.create_shader(l.free, w, FS_CONST0)),
        ));
        v.push((
            format!("constants stage {:#x}", w),
            Box::new(move |e, _| e.set_constant_buffer(w, &[[1.0, 0.0, 0.0, 1.0]])),
        ));
        v.push((
            format!("sampler views stage {:#x}", w),
            Box::new(move |e, _| e.set_sampler_views(w, 0, &[0])),
        ));
        v.push((
            format!("sampler views start {:#x}", w),
            Box::new(move |e, _| e.set_sampler_views(SHADER_FRAGMENT, w, &[0])),
        ));
        v.push((
            format!("sampler states start {:#x}", w),
            Box::new(move |e, _| e.bind_sampler_states(SHADER_FRAGMENT, w, &[0])),
        ));
        v.push((
            format!("draw mode {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.mode = w;
                e.draw_vbo(&d)
            }),
        ));
        v.push((
            format!("draw count {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.count = w;
                e.draw_vbo(&d)
            }),
        ));
        v.push((
            format!("draw start {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.start = w;
                e.draw_vbo(&d)
            }),
        ));
        v.push((
            format!("draw instances {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.instance_count = w;
                e.draw_vbo(&d)
            }),
        ));
        v.push((
            format!("draw max index {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.max_index = w;
                e.draw_vbo(&d)
            }),
        ));
        v.push((
            format!("draw index bias {:#x}", w),
            Box::new(move |e, _| {
                let mut d = DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?;
                d.index_bias = w as i32;
                e.draw_vbo(&d)
            }),
        ));
        if (2..MAX_RESOURCE_DIM).contains(&w) {
            // Inside the largest resource: whether it fits this 2x2 texture is the caller's
            // knowledge (the encoder does not know resource sizes).
            continue;
        }
        v.push((
            format!("inline write x {:#x}", w),
            Box::new(move |e, l| {
                let bx = Box3d {
                    x: w,
                    y: 0,
                    z: 0,
                    w: 1,
                    h: 1,
                    d: 1,
                };
                e.resource_inline_write(l.tex, bx, 4, 4, &[0; 4])
            }),
        ));
    }
    for &w in &HANDLES {
        v.push((
            format!("surface handle {:#x}", w),
            Box::new(move |e, l| e.create_surface(w, l.tex, FORMAT_B8G8R8A8_UNORM, 0, 0)),
        ));
        v.push((
            format!("bind object handle {:#x}", w),
            Box::new(move |e, _| e.bind_object(OBJ_DSA, w)),
        ));
        v.push((
            format!("destroy object handle {:#x}", w),
            Box::new(move |e, _| e.destroy_object(OBJ_SURFACE, w)),
        ));
        v.push((
            format!("bind shader handle {:#x}", w),
            Box::new(move |e, _| e.bind_shader(w, SHADER_VERTEX)),
        ));
        v.push((
            format!("link shader handles {:#x}", w),
            Box::new(move |e, _| e.link_shader(w, w)),
        ));
        v.push((
            format!("sampler view handle {:#x}", w),
            Box::new(move |e, _| e.set_sampler_views(SHADER_FRAGMENT, 0, &[w])),
        ));
        v.push((
            format!("framebuffer depth surface {:#x}", w),
            Box::new(move |e, _| e.set_framebuffer_state(&[1], w)),
        ));
        v.push((
            format!("framebuffer colour surface {:#x}", w),
            Box::new(move |e, _| e.set_framebuffer_state(&[w], 0)),
        ));
        v.push((
            format!("blend handle {:#x}", w),
            Box::new(move |e, _| e.create_blend(w, &BlendState::default())),
        ));
        v.push((
            format!("shader handle {:#x}", w),
            Box::new(move |e, _| e.create_shader(w, SHADER_FRAGMENT, FS_CONST0)),
        ));
    }
    for &w in &RESOURCES {
        v.push((
            format!("surface resource {:#x}", w),
            Box::new(move |e, l| e.create_surface(l.free, w, FORMAT_B8G8R8A8_UNORM, 0, 0)),
        ));
        v.push((
            format!("sampler view resource {:#x}", w),
            Box::new(move |e, l| e.create_sampler_view(l.free, w, FORMAT_B8G8R8A8_UNORM)),
        ));
        v.push((
            format!("vertex buffer resource {:#x}", w),
            Box::new(move |e, _| {
                e.set_vertex_buffers(&[VertexBuffer {
                    stride: 16,
                    offset: 0,
                    resource: w,
                }])
            }),
        ));
        v.push((
            format!("index buffer resource {:#x}", w),
            Box::new(move |e, _| e.set_index_buffer(Some((w, 2, 0)))),
        ));
        v.push((
            format!("inline write resource {:#x}", w),
            Box::new(move |e, _| e.resource_inline_write(w, Box3d::new_2d(1, 1), 4, 4, &[0; 4])),
        ));
    }
    // Header and length are the encoder's to check; the TGSI syntax of the rest is the
    // emitter's (every emitted text is checked against the host by vtest_shader_corpus).
    for text in ["", "END\n", "VERT\nEND\n", "FRAG"] {
        v.push((
            format!("fragment shader text {:?}", text),
            Box::new(move |e, l| e.create_shader(l.free, SHADER_FRAGMENT, text)),
        ));
    }
    v
}

/// A scene context with a program, a vertex buffer, a 2x2 texture and a free handle.
fn setup(t: &mut VtestTransport) -> virtio_gpu::Result<(SceneCtx<'_, VtestTransport>, Live)> {
    let mut s = SceneCtx::new(t, true)?;
    s.program(VS_POS, FS_CONST0)?;
    let vbo = s.vertices(
        &[
            -0.9, -0.9, 0.0, 1.0, 0.9, -0.9, 0.0, 1.0, 0.0, 0.9, 0.0, 1.0,
        ],
        &[4],
    )?;
    let tex = s.texture(2, 2, &[0u8; 16])?;
    let free = s.handles.alloc()?;
    s.flush()?;
    Ok((
        s,
        Live {
            vbo: vbo.0,
            tex: tex.0,
            free,
        },
    ))
}

/// Runs one case on a fresh connection. `Ok(true)`: the encoder refused it; `Ok(false)`: the
/// host accepted it; `Err`: the host rejected what the encoder sent.
fn run_case(server: &VtestServer, name: &str, case: &Case) -> Result<bool, String> {
    let before = server.host_errors().len();
    let mut t = VtestTransport::connect(server.socket_path()).map_err(|e| e.to_string())?;
    let (mut s, live) = setup(&mut t).map_err(|e| format!("setup: {}", e))?;
    let refused = s.enc(|e| case(e, &live)).is_err();
    // Whatever was accepted must survive a draw, a readback and the teardown.
    let r = s
        .enc(|e| {
            e.set_constant_buffer(SHADER_FRAGMENT, &[[1.0, 0.0, 0.0, 1.0]])?;
            e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)
        })
        .and_then(|_| s.read_back())
        .and_then(|_| s.finish());
    let errors = server.host_errors();
    // The forked server children share stderr, so a disconnect's "client failed: ..._INPUT_READ"
    // line can arrive split; only a real marker or a named non-disconnect failure counts.
    let new: Vec<&String> = errors
        .iter()
        .skip(before)
        .filter(|l| {
            HOST_ERROR_MARKERS.iter().any(|m| l.contains(m))
                || (l.contains("VTEST_CLIENT_ERROR_") && !l.contains("INPUT_READ"))
        })
        .collect();
    if r.is_err() || !new.is_empty() {
        return Err(format!(
            "{}: encoder {} it, then {:?}; host: {:?}",
            name,
            if refused { "refused" } else { "sent" },
            r.err(),
            new
        ));
    }
    Ok(refused)
}

#[test]
fn every_extreme_value_is_refused_by_the_encoder_or_accepted_by_the_host() {
    let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
    let mut failures = Vec::new();
    let (mut refused, mut accepted) = (0, 0);
    for (name, case) in cases() {
        match run_case(&server, &name, &case) {
            Ok(true) => refused += 1,
            Ok(false) => accepted += 1,
            Err(why) => failures.push(why),
        }
    }
    eprintln!(
        "{} cases refused by the encoder, {} accepted by the host",
        refused, accepted
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases were rejected by the host:\n{}",
        failures.len(),
        refused + accepted + failures.len(),
        failures.join("\n")
    );
    // The test is not vacuous: both outcomes happen.
    assert!(refused > 50 && accepted > 50, "{} {}", refused, accepted);
}

/// vtest refuses what the kernel's driver refuses (one shared check), instead of creating a
/// resource the host then rejects.
#[test]
fn vtest_applies_the_driver_resource_limits() {
    let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
    let mut t = VtestTransport::connect(server.socket_path()).unwrap();
    let ctx = t.ctx_create().unwrap();
    let max = t.caps().max_texture_2d_size.min(MAX_RESOURCE_DIM);
    for (w, h) in [(max + 1, 1), (1, max + 1), (0, 1), (1, 0), (u32::MAX, 1)] {
        let r = t.resource_create_3d(ctx, &ResourceDesc::texture(w, h));
        assert!(
            matches!(r, Err(GpuError::OutOfRange { .. })),
            "{}x{}: {:?}",
            w,
            h,
            r
        );
        assert_eq!(
            ResourceDesc::texture(w, h)
                .check(t.caps().max_texture_2d_size)
                .err(),
            r.err()
        );
    }
    let mut deep = ResourceDesc::texture(4, 4);
    deep.depth = 2;
    assert!(t.resource_create_3d(ctx, &deep).is_err());
    // The largest accepted texture and a buffer wider than a texture are created by the host.
    let big = t
        .resource_create_3d(ctx, &ResourceDesc::texture(max, 1))
        .unwrap();
    let buf = t
        .resource_create_3d(
            ctx,
            &ResourceDesc::buffer(MAX_RESOURCE_DIM * 4, BIND_VERTEX_BUFFER),
        )
        .unwrap();
    t.wait_idle(ctx).unwrap();
    t.resource_destroy(ctx, big).unwrap();
    t.resource_destroy(ctx, buf).unwrap();
    t.ctx_destroy(ctx).unwrap();
    assert!(!t.is_lost());
    assert!(server.host_errors().is_empty(), "{}", server.stderr_text());
}
