//! Self-tests shared by the host (`cargo test`) and the in-guest runner (kernel `selftest` mode).
//!
//! Convention (same in every library crate): `TESTS` lists `(name, function)`; a function returns
//! `true` on success, or writes its failure reason to the writer and returns `false`. Names are
//! prefixed with the crate (`shader::`, `virtio_gpu::`, `gfx3d::`) so `filter=PREFIX` selects them.
//!
//! Owns: the pure, quick tests of this crate: wire sizes, golden dword streams of every encoder
//! function, stream-checker rules, batch boundaries and pool exhaustion/reuse.
//! Must never: touch a device or need `std`.
use crate::batch::{CollectSink, CommandBuffer, Sink};
use crate::caps::HostCaps;
use crate::decode::StreamChecker;
use crate::encode::*;
use crate::error::GpuError;
use crate::handles::IdPool;
use crate::proto::*;
use crate::protocol::*;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

pub type SelfTest = (&'static str, fn(&mut dyn Write) -> bool);

pub static TESTS: &[SelfTest] = &[
    (
        "virtio_gpu::proto_sizes_and_offsets",
        proto_sizes_and_offsets,
    ),
    ("virtio_gpu::proto_response_checks", proto_response_checks),
    ("virtio_gpu::caps_parse", caps_parse),
    ("virtio_gpu::golden_state_objects", golden_state_objects),
    ("virtio_gpu::golden_vertex_elements", golden_vertex_elements),
    ("virtio_gpu::golden_shader_short", golden_shader_short),
    ("virtio_gpu::golden_binds_and_state", golden_binds_and_state),
    ("virtio_gpu::golden_clear_and_draw", golden_clear_and_draw),
    ("virtio_gpu::golden_inline_write", golden_inline_write),
    ("virtio_gpu::argument_validation", argument_validation),
    ("virtio_gpu::frame_passes_checker", frame_passes_checker),
    (
        "virtio_gpu::checker_rejects_bad_lengths",
        checker_rejects_bad_lengths,
    ),
    (
        "virtio_gpu::long_shader_continuations",
        long_shader_continuations,
    ),
    ("virtio_gpu::inline_write_split", inline_write_split),
    ("virtio_gpu::batch_boundaries", batch_boundaries),
    (
        "virtio_gpu::pool_exhaustion_and_reuse",
        pool_exhaustion_and_reuse,
    ),
];

macro_rules! ensure {
    ($out:expr, $cond:expr, $($arg:tt)*) => {
        if !$cond {
            let _ = write!($out, $($arg)*);
            return false;
        }
    };
}

/// Encodes with a 1024-dword batch and returns all dwords (flushed).
fn encode(
    f: impl FnOnce(&mut Encoder<'_, CollectSink>) -> crate::Result<()>,
) -> crate::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(1024)?;
    let mut sink = CollectSink::default();
    let mut e = Encoder::new(&mut cb, &mut sink);
    f(&mut e)?;
    e.flush()?;
    Ok(sink.all())
}

fn golden(out: &mut dyn Write, what: &str, got: crate::Result<Vec<u32>>, want: &[u32]) -> bool {
    match got {
        Ok(g) if g == want => true,
        Ok(g) => {
            let _ = write!(out, "{}: got {:08x?}, want {:08x?}", what, g, want);
            false
        }
        Err(e) => {
            let _ = write!(out, "{}: {}", what, e);
            false
        }
    }
}

fn proto_sizes_and_offsets(out: &mut dyn Write) -> bool {
    let c = ResourceCreate3d {
        resource_id: 7,
        target: 2,
        format: 1,
        bind: 2,
        width: 64,
        height: 32,
        depth: 1,
        array_size: 1,
        last_level: 0,
        nr_samples: 0,
        flags: 0,
    }
    .to_bytes(9);
    ensure!(
        out,
        c.len() == 72 && rd32(&c, 0) == Some(CMD_RESOURCE_CREATE_3D),
        "create_3d type/size"
    );
    ensure!(
        out,
        rd32(&c, 4) == Some(FLAG_FENCE) && rd64(&c, 8) == Some(9),
        "fence flag and id"
    );
    ensure!(
        out,
        rd32(&c, 24) == Some(7)
            && rd32(&c, 28) == Some(2)
            && rd32(&c, 40) == Some(64)
            && rd32(&c, 44) == Some(32),
        "create_3d fields"
    );
    let x = CtxCreate {
        ctx_id: 3,
        context_init: 0,
        debug_name: b"chrisos",
    }
    .to_bytes(1);
    ensure!(
        out,
        x.len() == 96
            && rd32(&x, 16) == Some(3)
            && rd32(&x, 24) == Some(7)
            && &x[32..39] == b"chrisos"
            && x[39] == 0,
        "ctx_create layout"
    );
    let long = [b'x'; 100];
    let y = CtxCreate {
        ctx_id: 1,
        context_init: 0,
        debug_name: &long,
    }
    .to_bytes(1);
    ensure!(out, rd32(&y, 24) == Some(64), "debug name cut to 64");
    let a = ResourceAttachBacking {
        resource_id: 5,
        addr: 0x1234_5678_9000,
        length: 4096,
    }
    .to_bytes(1);
    ensure!(
        out,
        a.len() == 48
            && rd32(&a, 28) == Some(1)
            && rd64(&a, 32) == Some(0x1234_5678_9000)
            && rd32(&a, 40) == Some(4096),
        "attach_backing layout"
    );
    let t = Transfer3d {
        to_host: false,
        ctx_id: 2,
        bx: Box3d {
            x: 1,
            y: 2,
            z: 0,
            w: 3,
            h: 4,
            d: 1,
        },
        offset: 77,
        resource_id: 9,
        level: 0,
        stride: 256,
        layer_stride: 0,
    }
    .to_bytes(1);
    ensure!(
        out,
        t.len() == 72 && rd32(&t, 0) == Some(CMD_TRANSFER_FROM_HOST_3D) && rd32(&t, 16) == Some(2),
        "transfer type/ctx"
    );
    ensure!(
        out,
        rd32(&t, 24) == Some(1)
            && rd32(&t, 36) == Some(3)
            && rd64(&t, 48) == Some(77)
            && rd32(&t, 56) == Some(9)
            && rd32(&t, 64) == Some(256),
        "transfer fields"
    );
    let s = Submit3dHeader {
        ctx_id: 4,
        size_bytes: 8,
    }
    .to_bytes(1);
    ensure!(
        out,
        s.len() == 32 && rd32(&s, 24) == Some(8) && rd32(&s, 16) == Some(4),
        "submit header"
    );
    ensure!(
        out,
        GetCapsetInfo { capset_index: 1 }.to_bytes(1).len() == 32,
        "capset info size"
    );
    ensure!(
        out,
        GetCapset {
            capset_id: 2,
            capset_version: 1
        }
        .to_bytes(1)
        .len()
            == 32,
        "capset size"
    );
    ensure!(
        out,
        ResourceCreate2d::default().to_bytes(1).len() == 40,
        "create_2d size"
    );
    ensure!(
        out,
        ResourceUnref::default().to_bytes(1).len() == 32,
        "unref size"
    );
    ensure!(
        out,
        ResourceDetachBacking::default().to_bytes(1).len() == 32,
        "detach size"
    );
    ensure!(
        out,
        CtxAttachResource::default().to_bytes(1).len() == 32,
        "ctx attach size"
    );
    ensure!(
        out,
        CtxDetachResource::default().to_bytes(1).len() == 32,
        "ctx detach size"
    );
    ensure!(
        out,
        SetScanout::default().to_bytes(1).len() == 48,
        "set_scanout size"
    );
    ensure!(
        out,
        ResourceFlush::default().to_bytes(1).len() == 48,
        "flush size"
    );
    ensure!(
        out,
        TransferToHost2d::default().to_bytes(1).len() == 56,
        "transfer 2d size"
    );
    ensure!(
        out,
        GetDisplayInfo::default().to_bytes(1).len() == 24
            && CtxDestroy::default().to_bytes(1).len() == 24,
        "header-only sizes"
    );
    ensure!(
        out,
        DISPLAY_INFO_SIZE == 408 && CAPSET_INFO_RESP_SIZE == 40,
        "response sizes"
    );
    true
}

fn proto_response_checks(out: &mut dyn Write) -> bool {
    let mk = |ty: u32, fence: u64, len: usize| {
        let mut v = CtrlHeader {
            ty,
            flags: FLAG_FENCE,
            fence_id: fence,
            ctx_id: 0,
            ring_idx: 0,
        }
        .to_bytes()
        .to_vec();
        v.resize(len, 0);
        v
    };
    ensure!(
        out,
        check_response(1, &mk(RESP_OK_NODATA, 5, 24), RESP_OK_NODATA, 24, 5).is_ok(),
        "ok response"
    );
    ensure!(
        out,
        check_response(1, &mk(0x1203, 5, 24), RESP_OK_NODATA, 24, 5)
            == Err(GpuError::DeviceError {
                command: 1,
                response: 0x1203
            }),
        "error type"
    );
    ensure!(
        out,
        matches!(
            check_response(1, &mk(RESP_OK_CAPSET, 5, 24), RESP_OK_NODATA, 24, 5),
            Err(GpuError::Malformed { .. })
        ),
        "wrong type"
    );
    ensure!(
        out,
        matches!(
            check_response(1, &mk(RESP_OK_NODATA, 5, 24)[..12], RESP_OK_NODATA, 24, 5),
            Err(GpuError::Malformed { .. })
        ),
        "short header"
    );
    ensure!(
        out,
        matches!(
            check_response(
                1,
                &mk(RESP_OK_CAPSET_INFO, 5, 30),
                RESP_OK_CAPSET_INFO,
                40,
                5
            ),
            Err(GpuError::Malformed { .. })
        ),
        "short body"
    );
    ensure!(
        out,
        matches!(
            check_response(1, &mk(RESP_OK_NODATA, 6, 24), RESP_OK_NODATA, 24, 5),
            Err(GpuError::Malformed { .. })
        ),
        "fence mismatch"
    );
    true
}

fn caps_parse(out: &mut dyn Write) -> bool {
    let mut blob = vec![0u8; 700];
    let put = |b: &mut Vec<u8>, at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(&mut blob, 4, 1 << FORMAT_B8G8R8A8_UNORM);
    put(&mut blob, 264, 450);
    put(&mut blob, 484, 8192);
    put(&mut blob, 556, 6);
    let c = HostCaps::parse(CAPSET_VIRGL2, 2, &blob);
    ensure!(
        out,
        c.is_some_and(|c| c.glsl_level == 450
            && c.max_texture_2d_size == 8192
            && !c.supports_link_shader),
        "v2 fields"
    );
    ensure!(
        out,
        c.is_some_and(|c| c.sampler_formats.supports(1)
            && !c.sampler_formats.supports(2)
            && !c.sampler_formats.supports(9999)),
        "format mask"
    );
    put(&mut blob, 556, 7);
    ensure!(
        out,
        HostCaps::parse(CAPSET_VIRGL2, 2, &blob).is_some_and(|c| c.supports_link_shader),
        "link shader from feature version 7"
    );
    ensure!(
        out,
        HostCaps::parse(CAPSET_VIRGL2, 2, &blob[..400]).is_none(),
        "short v2 refused"
    );
    ensure!(
        out,
        HostCaps::parse(CAPSET_VIRGL, 1, &blob[..308]).is_some(),
        "v1 accepted at 308 bytes"
    );
    ensure!(
        out,
        HostCaps::parse(CAPSET_VIRGL, 1, &blob[..307]).is_none(),
        "v1 shorter than 308 refused"
    );
    ensure!(
        out,
        HostCaps::parse(3, 1, &blob).is_none(),
        "other capset ids refused"
    );
    true
}

fn golden_state_objects(out: &mut dyn Write) -> bool {
    golden(
        out,
        "blend",
        encode(|e| e.create_blend(1, &BlendState::default())),
        &[
            0x000B_0101,
            1,
            0,
            0,
            (1 << 4) | (0x11 << 9) | (1 << 17) | (0x11 << 22) | (0xF << 27),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ],
    ) && golden(
        out,
        "dsa",
        encode(|e| {
            e.create_dsa(
                2,
                &DsaState {
                    depth_enable: true,
                    depth_write: true,
                    depth_func: FUNC_LESS,
                },
            )
        }),
        &[0x0005_0301, 2, 1 | 2 | (1 << 2), 0, 0, 0],
    ) && golden(
        out,
        "dsa off",
        encode(|e| e.create_dsa(3, &DsaState::default())),
        &[0x0005_0301, 3, 0, 0, 0, 0],
    ) && golden(
        out,
        "rasterizer",
        encode(|e| {
            e.create_rasterizer(
                4,
                &RasterState {
                    cull_face: CULL_BACK,
                    ..RasterState::default()
                },
            )
        }),
        &[
            0x0009_0201,
            4,
            (1 << 1) | (2 << 8) | (1 << 15) | (1 << 29) | (1 << 30),
            0x3F80_0000,
            0,
            0,
            0x3F80_0000,
            0,
            0,
            0,
        ],
    ) && golden(
        out,
        "surface",
        encode(|e| e.create_surface(5, 10, FORMAT_B8G8R8A8_UNORM, 0, 0)),
        &[0x0005_0801, 5, 10, 1, 0, 0],
    ) && golden(
        out,
        "sampler view",
        encode(|e| e.create_sampler_view(6, 11, FORMAT_B8G8R8A8_UNORM)),
        &[
            0x0006_0601,
            6,
            11,
            1 | (2 << 24),
            0,
            0,
            (1 << 3) | (2 << 6) | (3 << 9),
        ],
    ) && golden(
        out,
        "sampler state",
        encode(|e| e.create_sampler_state(7, &SamplerState::default())),
        &[0x0009_0701, 7, 2 << 11, 0, 0, 0x447A_0000, 0, 0, 0, 0],
    )
}

fn golden_vertex_elements(out: &mut dyn Write) -> bool {
    let els: Vec<VertexElement> = (1..=4)
        .map(|c| VertexElement {
            offset: (c - 1) * 16,
            buffer_index: 0,
            components: c,
        })
        .collect();
    golden(
        out,
        "vertex elements 1..4 floats",
        encode(|e| e.create_vertex_elements(8, &els)),
        &[
            cmd0(1, 5, 17),
            8,
            0,
            0,
            0,
            FORMAT_R32_FLOAT,
            16,
            0,
            0,
            FORMAT_R32G32_FLOAT,
            32,
            0,
            0,
            FORMAT_R32G32B32_FLOAT,
            48,
            0,
            0,
            FORMAT_R32G32B32A32_FLOAT,
        ],
    )
}

fn golden_shader_short(out: &mut dyn Write) -> bool {
    // "FRAG" + NUL = 5 bytes = 2 dwords; offlen 5; tokens 5 + 16.
    golden(
        out,
        "shader",
        encode(|e| e.create_shader(9, SHADER_FRAGMENT, "FRAG")),
        &[
            cmd0(1, 4, 7),
            9,
            1,
            5,
            21,
            0,
            u32::from_le_bytes(*b"FRAG"),
            0,
        ],
    ) && golden(
        out,
        "shader exact dword",
        encode(|e| e.create_shader(9, SHADER_VERTEX, "VERT\nEN")),
        &[
            cmd0(1, 4, 7),
            9,
            0,
            8,
            24,
            0,
            u32::from_le_bytes(*b"VERT"),
            u32::from_le_bytes(*b"\nEN\0"),
        ],
    ) && encode(|e| e.create_shader(9, SHADER_VERTEX, "FRAG\nEND\n")).is_err()
        && encode(|e| e.create_shader(9, SHADER_FRAGMENT, "")).is_err()
}

fn golden_binds_and_state(out: &mut dyn Write) -> bool {
    golden(
        out,
        "bind",
        encode(|e| e.bind_object(OBJ_DSA, 3)),
        &[0x0001_0302, 3],
    ) && golden(
        out,
        "destroy",
        encode(|e| e.destroy_object(OBJ_SHADER, 9)),
        &[0x0001_0403, 9],
    ) && golden(
        out,
        "bind shader",
        encode(|e| e.bind_shader(9, SHADER_FRAGMENT)),
        &[0x0002_001F, 9, 1],
    ) && golden(
        out,
        "link shader",
        encode(|e| e.link_shader(8, 9)),
        &[0x0006_0034, 8, 9, 0, 0, 0, 0],
    ) && golden(
        out,
        "framebuffer",
        encode(|e| e.set_framebuffer_state(&[5], 6)),
        &[0x0003_0005, 1, 6, 5],
    ) && golden(
        out,
        "viewport",
        encode(|e| e.set_viewport(&Viewport::top_down(0.0, 0.0, 64.0, 32.0))),
        &[
            0x0007_0004,
            0,
            32f32.to_bits(),
            (-16f32).to_bits(),
            0.5f32.to_bits(),
            32f32.to_bits(),
            16f32.to_bits(),
            0.5f32.to_bits(),
        ],
    ) && golden(
        out,
        "vertex buffers",
        encode(|e| {
            e.set_vertex_buffers(&[VertexBuffer {
                stride: 24,
                offset: 0,
                resource: 12,
            }])
        }),
        &[0x0003_0006, 24, 0, 12],
    ) && golden(
        out,
        "index buffer",
        encode(|e| e.set_index_buffer(Some((13, 2, 0)))),
        &[0x0003_000B, 13, 2, 0],
    ) && golden(
        out,
        "index unbind",
        encode(|e| e.set_index_buffer(None)),
        &[0x0001_000B, 0],
    ) && golden(
        out,
        "constants",
        encode(|e| e.set_constant_buffer(SHADER_VERTEX, &[[1.0, 2.0, 3.0, 4.0]])),
        &[
            0x0006_000C,
            0,
            0,
            0x3F80_0000,
            0x4000_0000,
            0x4040_0000,
            0x4080_0000,
        ],
    ) && golden(
        out,
        "sampler views",
        encode(|e| e.set_sampler_views(SHADER_FRAGMENT, 0, &[6, 7, 8, 9])),
        &[0x0006_000A, 1, 0, 6, 7, 8, 9],
    ) && golden(
        out,
        "sampler states",
        encode(|e| e.bind_sampler_states(SHADER_FRAGMENT, 2, &[7, 7])),
        &[0x0004_0012, 1, 2, 7, 7],
    )
}

fn golden_clear_and_draw(out: &mut dyn Write) -> bool {
    golden(
        out,
        "clear",
        encode(|e| e.clear(CLEAR_COLOR0 | CLEAR_DEPTH, [1.0, 0.0, 0.5, 1.0], 1.0, 0)),
        &[
            0x0008_0007,
            5,
            0x3F80_0000,
            0,
            0x3F00_0000,
            0x3F80_0000,
            0,
            0x3FF0_0000,
            0,
        ],
    ) && golden(
        out,
        "draw arrays",
        encode(|e| e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 3, 6)?)),
        &[0x000C_0008, 3, 6, 4, 0, 1, 0, 0, 0, 0, 3, 8, 0],
    ) && golden(
        out,
        "draw indexed",
        encode(|e| e.draw_vbo(&DrawInfo::indexed(PRIM_TRIANGLES, &[4, 2, 9, 2, 9, 7])?)),
        &[0x000C_0008, 0, 6, 4, 1, 1, 0, 0, 0, 0, 2, 9, 0],
    )
}

fn golden_inline_write(out: &mut dyn Write) -> bool {
    let data = [1u8, 2, 3, 4, 5, 6];
    golden(
        out,
        "inline write",
        encode(|e| {
            e.resource_inline_write(
                20,
                Box3d {
                    x: 0,
                    y: 0,
                    z: 0,
                    w: 6,
                    h: 1,
                    d: 1,
                },
                1,
                6,
                &data,
            )
        }),
        &[
            cmd0(9, 0, 13),
            20,
            0,
            0,
            6,
            6,
            0,
            0,
            0,
            6,
            1,
            1,
            0x0403_0201,
            0x0000_0605,
        ],
    )
}

fn argument_validation(out: &mut dyn Write) -> bool {
    let c32 = [[0.0f32; 4]; 32];
    let c33 = [[0.0f32; 4]; 33];
    ensure!(
        out,
        encode(|e| e.set_constant_buffer(0, &c32)).is_ok(),
        "32 vec4 constants accepted"
    );
    ensure!(
        out,
        encode(|e| e.set_constant_buffer(0, &c33)).is_err(),
        "33 vec4 constants refused"
    );
    ensure!(
        out,
        encode(|e| e.set_constant_buffer(0, &[])).is_err(),
        "0 constants refused"
    );
    ensure!(
        out,
        encode(|e| e.set_sampler_views(1, 0, &[1; 17])).is_err(),
        "17 sampler views refused"
    );
    ensure!(
        out,
        encode(|e| e.bind_sampler_states(1, 15, &[1, 2])).is_err(),
        "sampler slots past 16 refused"
    );
    ensure!(
        out,
        encode(|e| e.create_vertex_elements(1, &[])).is_err(),
        "0 vertex elements refused"
    );
    ensure!(
        out,
        encode(|e| e.create_vertex_elements(
            1,
            &[VertexElement {
                offset: 0,
                buffer_index: 0,
                components: 5
            }]
        ))
        .is_err(),
        "5 components refused"
    );
    ensure!(
        out,
        encode(|e| e.create_surface(0, 1, 1, 0, 0)).is_err(),
        "handle 0 refused"
    );
    ensure!(
        out,
        encode(|e| e.clear(0, [0.0; 4], 1.0, 0)).is_err(),
        "empty clear refused"
    );
    ensure!(
        out,
        DrawInfo::arrays(PRIM_TRIANGLES, 0, 0).is_err()
            && DrawInfo::indexed(PRIM_TRIANGLES, &[]).is_err(),
        "empty draws refused"
    );
    ensure!(
        out,
        encode(|e| e.create_shader(1, 0, "VERT\0B")).is_err(),
        "NUL in shader text refused"
    );
    ensure!(
        out,
        encode(|e| e.bind_object(OBJ_SHADER, 1)).is_err(),
        "BIND_OBJECT of a shader refused"
    );
    let Ok(mut d) = DrawInfo::indexed(PRIM_TRIANGLES, &[0, 1, 2]) else {
        return false;
    };
    d.start = 3;
    ensure!(
        out,
        encode(|e| e.draw_vbo(&d)).is_err(),
        "indexed draw with start != 0 refused"
    );
    true
}

/// A complete frame: every command the scenes use, through the checker.
fn frame_passes_checker(out: &mut dyn Write) -> bool {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
    let stream = encode(|e| {
        e.create_surface(1, 10, FORMAT_B8G8R8A8_UNORM, 0, 0)?;
        e.create_surface(2, 11, FORMAT_Z32_FLOAT, 0, 0)?;
        e.set_framebuffer_state(&[1], 2)?;
        e.set_viewport(&Viewport::top_down(0.0, 0.0, 64.0, 64.0))?;
        e.create_blend(3, &BlendState::default())?;
        e.bind_object(OBJ_BLEND, 3)?;
        e.create_dsa(
            4,
            &DsaState {
                depth_enable: true,
                depth_write: true,
                depth_func: FUNC_LESS,
            },
        )?;
        e.bind_object(OBJ_DSA, 4)?;
        e.create_rasterizer(5, &RasterState::default())?;
        e.bind_object(OBJ_RASTERIZER, 5)?;
        e.create_shader(6, SHADER_VERTEX, vs)?;
        e.create_shader(7, SHADER_FRAGMENT, "FRAG\nDCL OUT[0], COLOR\n  0: END\n")?;
        e.bind_shader(6, SHADER_VERTEX)?;
        e.bind_shader(7, SHADER_FRAGMENT)?;
        e.link_shader(6, 7)?;
        e.create_vertex_elements(
            8,
            &[VertexElement {
                offset: 0,
                buffer_index: 0,
                components: 3,
            }],
        )?;
        e.bind_object(OBJ_VERTEX_ELEMENTS, 8)?;
        e.set_vertex_buffers(&[VertexBuffer {
            stride: 12,
            offset: 0,
            resource: 12,
        }])?;
        e.create_sampler_view(9, 13, FORMAT_B8G8R8A8_UNORM)?;
        e.create_sampler_state(10, &SamplerState::default())?;
        e.set_sampler_views(SHADER_FRAGMENT, 0, &[9])?;
        e.bind_sampler_states(SHADER_FRAGMENT, 0, &[10])?;
        e.clear(CLEAR_COLOR0 | CLEAR_DEPTH, [0.0; 4], 1.0, 0)?;
        e.set_constant_buffer(SHADER_VERTEX, &[[0.0; 4]; 4])?;
        e.set_index_buffer(Some((14, 2, 0)))?;
        e.draw_vbo(&DrawInfo::indexed(PRIM_TRIANGLES, &[0, 1, 2])?)?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)?;
        e.destroy_object(OBJ_SAMPLER_VIEW, 9)
    });
    let Ok(stream) = stream else {
        let _ = write!(out, "frame did not encode");
        return false;
    };
    let mut ck = StreamChecker::new();
    match ck.check(&stream) {
        Ok(n) => {
            ensure!(
                out,
                n == 28 && ck.draws == 2,
                "expected 28 commands and 2 draws, got {} and {}",
                n,
                ck.draws
            );
            ensure!(out, !ck.is_live(9) && ck.is_live(10), "destroy bookkeeping");
            true
        }
        Err(e) => {
            let _ = write!(out, "{}", e);
            false
        }
    }
}

fn checker_rejects_bad_lengths(out: &mut dyn Write) -> bool {
    let fb = [cmd0(1, 8, 5), 1, 10, 1, 0, 0, cmd0(5, 0, 3), 1, 0, 1];
    let bad: &[(&str, Vec<u32>)] = &[
        (
            "clear with 7 dwords",
            [&fb[..], &[cmd0(7, 0, 7), 4, 0, 0, 0, 0, 0, 0]].concat(),
        ),
        (
            "clear without a framebuffer",
            vec![cmd0(7, 0, 8), 4, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            "draw with 11 dwords",
            vec![cmd0(8, 0, 11), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 2],
        ),
        (
            "draw with a wrong max index",
            vec![cmd0(8, 0, 12), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 3, 0],
        ),
        ("length past the end", vec![cmd0(2, 1, 5), 1]),
        ("unknown command id", vec![cmd0(60, 0, 0)]),
        (
            "blend with 10 dwords",
            vec![cmd0(1, 1, 10), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        ("create with handle 0", vec![cmd0(1, 3, 5), 0, 0, 0, 0, 0]),
        (
            "shader without NUL",
            vec![cmd0(1, 4, 6), 1, 0, 4, 20, 0, u32::from_le_bytes(*b"ENDX")],
        ),
        (
            "shader continuation without start",
            vec![cmd0(1, 4, 6), 1, 0, SHADER_OFFSET_CONT | 4, 20, 0, 0],
        ),
        ("bind of an unknown handle", vec![cmd0(2, 1, 1), 77]),
        ("destroy of an unknown handle", vec![cmd0(3, 1, 1), 77]),
        (
            "viewport with 6 dwords",
            vec![cmd0(4, 0, 6), 0, 0, 0, 0, 0, 0],
        ),
        (
            "vertex buffers with 4 dwords",
            vec![cmd0(6, 0, 4), 0, 0, 0, 0],
        ),
        ("index buffer with 2 dwords", vec![cmd0(11, 0, 2), 0, 2]),
        (
            "link shader with 5 dwords",
            vec![cmd0(52, 0, 5), 0, 0, 0, 0, 0],
        ),
        (
            "create of a live handle",
            vec![cmd0(1, 3, 5), 4, 0, 0, 0, 0, cmd0(1, 3, 5), 4, 0, 0, 0, 0],
        ),
        (
            "indexed draw with start 1",
            vec![cmd0(8, 0, 12), 1, 3, 4, 1, 1, 0, 0, 0, 0, 0, 2, 0],
        ),
    ];
    for (what, s) in bad {
        ensure!(
            out,
            StreamChecker::new().check(s).is_err(),
            "checker accepted {}",
            what
        );
    }
    true
}

fn long_shader_continuations(out: &mut dyn Write) -> bool {
    let mut text = alloc::string::String::from("FRAG\n");
    while text.len() < 1000 {
        text.push_str("  0: MOV TEMP[0], TEMP[0]\n");
    }
    let mut cb = match CommandBuffer::new(64) {
        Ok(c) => c,
        Err(_) => return false,
    };
    let mut sink = CollectSink::default();
    let r = Encoder::new(&mut cb, &mut sink)
        .create_shader(3, SHADER_FRAGMENT, &text)
        .and_then(|_| cb.flush(&mut sink));
    ensure!(out, r.is_ok(), "long shader did not encode");
    ensure!(
        out,
        sink.batches.len() >= 4 && sink.batches.iter().all(|b| b.len() <= 64),
        "expected >= 4 batches of <= 64 dwords, got {}",
        sink.batches.len()
    );
    let mut ck = StreamChecker::new();
    let mut bytes = Vec::new();
    for b in &sink.batches {
        let r = ck.check_with(b, |c| {
            for w in &c.payload[5..] {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        });
        if let Err(e) = r {
            let _ = write!(out, "{}", e);
            return false;
        }
    }
    ensure!(out, ck.is_live(3), "shader not complete");
    ensure!(
        out,
        bytes.get(..text.len()) == Some(text.as_bytes()) && bytes.get(text.len()) == Some(&0),
        "reassembled text differs"
    );
    let first = sink.batches[0][3];
    ensure!(
        out,
        first == text.len() as u32 + 1,
        "first packet offlen {} (want {})",
        first,
        text.len() + 1
    );
    true
}

fn inline_write_split(out: &mut dyn Write) -> bool {
    // 100 rows of 40 bytes into a 64-dword batch: 52 data dwords = 208 bytes = 5 rows per packet.
    let data: Vec<u8> = (0..4000u32).map(|i| (i * 7) as u8).collect();
    let mut cb = match CommandBuffer::new(64) {
        Ok(c) => c,
        Err(_) => return false,
    };
    let mut sink = CollectSink::default();
    let r = Encoder::new(&mut cb, &mut sink)
        .resource_inline_write(
            5,
            Box3d {
                x: 0,
                y: 0,
                z: 0,
                w: 10,
                h: 100,
                d: 1,
            },
            4,
            40,
            &data,
        )
        .and_then(|_| cb.flush(&mut sink));
    ensure!(out, r.is_ok(), "split inline write failed");
    let mut got = vec![0u8; 4000];
    let mut ck = StreamChecker::new();
    let mut packets = 0;
    for b in &sink.batches {
        let r = ck.check_with(b, |c| {
            packets += 1;
            let (y, h) = (c.payload[6] as usize, c.payload[9] as usize);
            for (i, w) in c.payload[11..].iter().enumerate() {
                for (j, byte) in w.to_le_bytes().iter().enumerate() {
                    let at = y * 40 + i * 4 + j;
                    if at < (y + h) * 40 {
                        got[at] = *byte;
                    }
                }
            }
        });
        if let Err(e) = r {
            let _ = write!(out, "{}", e);
            return false;
        }
    }
    ensure!(out, packets == 20, "expected 20 packets, got {}", packets);
    ensure!(out, got == data, "reassembled data differs");
    // A single row wider than a batch is split along x.
    let wide = vec![9u8; 1000];
    let mut sink2 = CollectSink::default();
    let r = Encoder::new(&mut cb, &mut sink2)
        .resource_inline_write(
            5,
            Box3d {
                x: 0,
                y: 0,
                z: 0,
                w: 1000,
                h: 1,
                d: 1,
            },
            1,
            1000,
            &wide,
        )
        .and_then(|_| cb.flush(&mut sink2));
    ensure!(
        out,
        r.is_ok() && sink2.batches.len() == 5,
        "wide row split into {} batches",
        sink2.batches.len()
    );
    true
}

struct FailSink;
impl Sink for FailSink {
    fn submit(&mut self, _d: &[u32]) -> crate::Result<()> {
        Err(GpuError::Lost)
    }
}

fn batch_boundaries(out: &mut dyn Write) -> bool {
    ensure!(
        out,
        CommandBuffer::new(63).is_err() && CommandBuffer::new(4097).is_err(),
        "capacity limits"
    );
    let Ok(mut cb) = CommandBuffer::new(64) else {
        return false;
    };
    let mut sink = CollectSink::default();
    // 7 x CLEAR (9 dwords) = 63; a BIND (2) does not fit behind them, so it flushes first.
    for _ in 0..7 {
        let _ = Encoder::new(&mut cb, &mut sink).clear(CLEAR_COLOR0, [0.0; 4], 1.0, 0);
    }
    ensure!(
        out,
        sink.batches.is_empty() && cb.len() == 63,
        "63 dwords batched, nothing submitted"
    );
    let _ = Encoder::new(&mut cb, &mut sink).bind_object(OBJ_BLEND, 1);
    ensure!(
        out,
        sink.batches.len() == 1 && sink.batches[0].len() == 63 && cb.len() == 2,
        "overflowing command flushed the batch first"
    );
    // Exactly filling the batch does not flush.
    let mut sink2 = CollectSink::default();
    let Ok(mut cb2) = CommandBuffer::new(64) else {
        return false;
    };
    for _ in 0..32 {
        let _ = Encoder::new(&mut cb2, &mut sink2).bind_object(OBJ_BLEND, 1);
    }
    ensure!(
        out,
        sink2.batches.is_empty() && cb2.free() == 0,
        "exact fill must not flush"
    );
    // A command larger than the whole batch is refused and nothing is sent.
    let big = [0u32; 65];
    ensure!(
        out,
        matches!(
            cb2.push_command(&mut sink2, &big),
            Err(GpuError::TooLarge { .. })
        ) && sink2.batches.is_empty(),
        "oversized command refused"
    );
    // A shader that fits an empty batch is not split: the batch is flushed first.
    let mut sink4 = CollectSink::default();
    let Ok(mut cb4) = CommandBuffer::new(64) else {
        return false;
    };
    for _ in 0..5 {
        let _ = Encoder::new(&mut cb4, &mut sink4).clear(CLEAR_COLOR0, [0.0; 4], 1.0, 0);
    }
    let text = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    let r = Encoder::new(&mut cb4, &mut sink4).create_shader(2, SHADER_FRAGMENT, text);
    ensure!(
        out,
        r.is_ok()
            && sink4.batches.len() == 1
            && cb4.as_slice().first() == Some(&cmd0(1, 4, 5 + (text.len() as u32 + 4) / 4)),
        "shader fitting an empty batch was split"
    );
    // Flushing an empty batch submits nothing.
    let mut sink3 = CollectSink::default();
    let Ok(mut cb3) = CommandBuffer::new(64) else {
        return false;
    };
    ensure!(
        out,
        cb3.flush(&mut sink3).is_ok() && sink3.batches.is_empty(),
        "empty flush"
    );
    // A failed submit leaves an empty batch, not a poisoned one.
    let _ = Encoder::new(&mut cb3, &mut sink3).bind_object(OBJ_BLEND, 1);
    ensure!(
        out,
        cb3.flush(&mut FailSink).is_err() && cb3.is_empty(),
        "failed submit clears the batch"
    );
    ensure!(
        out,
        Encoder::new(&mut cb3, &mut sink3)
            .bind_object(OBJ_BLEND, 1)
            .is_ok(),
        "batch usable after a failed submit"
    );
    true
}

fn pool_exhaustion_and_reuse(out: &mut dyn Write) -> bool {
    let Ok(mut p) = IdPool::new("test", 130) else {
        return false;
    };
    let mut ids = Vec::new();
    for _ in 0..130 {
        match p.alloc() {
            Ok(id) => ids.push(id),
            Err(e) => {
                let _ = write!(out, "early exhaustion: {}", e);
                return false;
            }
        }
    }
    ensure!(
        out,
        ids.first() == Some(&1) && ids.last() == Some(&130),
        "ids 1..=130"
    );
    ensure!(
        out,
        p.alloc()
            == Err(GpuError::PoolExhausted {
                pool: "test",
                limit: 130
            }),
        "exhaustion is an error"
    );
    ensure!(out, p.free(65).is_ok() && p.free(3).is_ok(), "free");
    ensure!(
        out,
        p.alloc() == Ok(3) && p.alloc() == Ok(65),
        "lowest freed ids reused"
    );
    ensure!(
        out,
        p.free(0).is_err() && p.free(131).is_err(),
        "invalid ids refused"
    );
    ensure!(
        out,
        p.free(7).is_ok() && p.free(7).is_err(),
        "double free refused"
    );
    let mut n = 0;
    p.for_each_live(|_| n += 1);
    ensure!(
        out,
        n == 129 && p.live() == 129 && p.peak() == 130,
        "live count {}",
        n
    );
    ensure!(
        out,
        IdPool::new("x", 0).is_err() && IdPool::new("x", IdPool::MAX_CAPACITY + 1).is_err(),
        "capacity limits"
    );
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_selftests_pass() {
        let mut failures = std::string::String::new();
        for (name, run) in super::TESTS {
            let mut reason = std::string::String::new();
            if !run(&mut reason) {
                failures.push_str(&std::format!("{}: {}\n", name, reason));
            }
        }
        assert!(failures.is_empty(), "{}", failures);
    }
}
