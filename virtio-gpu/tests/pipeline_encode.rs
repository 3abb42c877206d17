//! The pipeline-state commands Gfx3D's blending, depth, scissor and rasterizer state use:
//! exact dwords of SET_SCISSOR_STATE, SET_BLEND_COLOR and a rasterizer with polygon offset,
//! blend factors from the protocol table (SRC_ALPHA_SATURATE included, the gap 0x16 refused)
//! and every parameter the host would refuse refused first.
use virtio_gpu::batch::CollectSink;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::CommandBuffer;

fn encode(
    f: impl FnOnce(&mut Encoder<'_, CollectSink>) -> virtio_gpu::Result<()>,
) -> virtio_gpu::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(1024)?;
    let mut sink = CollectSink::default();
    let mut e = Encoder::new(&mut cb, &mut sink);
    f(&mut e)?;
    e.flush()?;
    Ok(sink.all())
}

#[test]
fn scissor_and_blend_colour_dwords() {
    assert_eq!(
        encode(|e| e.set_scissor([3, 4], [40, 60])).unwrap(),
        vec![
            cmd0(CCMD_SET_SCISSOR_STATE, 0, 3),
            0,
            3 | 4 << 16,
            40 | 60 << 16
        ]
    );
    assert_eq!(
        encode(|e| e.set_blend_color([0.25, 0.5, 1.0, 0.0])).unwrap(),
        vec![
            cmd0(CCMD_SET_BLEND_COLOR, 0, 4),
            0.25f32.to_bits(),
            0.5f32.to_bits(),
            1.0f32.to_bits(),
            0
        ]
    );
}

#[test]
fn bad_scissor_and_blend_colour_are_refused() {
    assert!(encode(|e| e.set_scissor([0, 0], [0x1_0000, 1])).is_err());
    assert!(encode(|e| e.set_scissor([5, 0], [4, 1])).is_err());
    assert!(encode(|e| e.set_scissor([0, 6], [4, 5])).is_err());
    assert!(
        encode(|e| e.set_scissor([2, 2], [2, 2])).is_ok(),
        "an empty rectangle is valid"
    );
    assert!(encode(|e| e.set_blend_color([f32::NAN, 0.0, 0.0, 0.0])).is_err());
    assert!(encode(|e| e.set_blend_color([0.0, 0.0, f32::INFINITY, 0.0])).is_err());
}

#[test]
fn rasterizer_carries_offset_scissor_and_winding() {
    let w = encode(|e| {
        e.create_rasterizer(
            5,
            &RasterState {
                cull_face: CULL_FRONT,
                front_ccw: false,
                scissor: true,
                offset_tri: true,
                offset_units: -2.0,
                offset_scale: 1.5,
                ..RasterState::default()
            },
        )
    })
    .unwrap();
    assert_eq!(w.len(), 1 + RS_SIZE as usize);
    assert_eq!(w[1], 5);
    let s0 = w[2];
    assert_eq!((s0 >> 8) & 3, CULL_FRONT);
    assert_eq!((s0 >> 14) & 1, 1, "scissor");
    assert_eq!((s0 >> 15) & 1, 0, "clockwise front");
    assert_eq!((s0 >> 20) & 1, 1, "offset_tri");
    assert_eq!(&w[7..10], &[(-2.0f32).to_bits(), 1.5f32.to_bits(), 0]);
    for bad in [f32::NAN, f32::INFINITY] {
        let r = encode(|e| {
            e.create_rasterizer(
                5,
                &RasterState {
                    offset_units: bad,
                    ..RasterState::default()
                },
            )
        });
        assert!(r.is_err());
        let r = encode(|e| {
            e.create_rasterizer(
                5,
                &RasterState {
                    offset_scale: bad,
                    ..RasterState::default()
                },
            )
        });
        assert!(r.is_err());
    }
}

#[test]
fn blend_factors_follow_the_protocol_table() {
    let all = [
        BLENDFACTOR_ONE,
        BLENDFACTOR_SRC_COLOR,
        BLENDFACTOR_SRC_ALPHA,
        BLENDFACTOR_DST_ALPHA,
        BLENDFACTOR_DST_COLOR,
        BLENDFACTOR_SRC_ALPHA_SATURATE,
        BLENDFACTOR_CONST_COLOR,
        BLENDFACTOR_CONST_ALPHA,
        BLENDFACTOR_ZERO,
        BLENDFACTOR_INV_SRC_COLOR,
        BLENDFACTOR_INV_SRC_ALPHA,
        BLENDFACTOR_INV_DST_ALPHA,
        BLENDFACTOR_INV_DST_COLOR,
        BLENDFACTOR_INV_CONST_COLOR,
        BLENDFACTOR_INV_CONST_ALPHA,
    ];
    for f in all {
        let b = BlendState {
            enable: true,
            rgb_src: f,
            alpha_dst: f,
            ..BlendState::default()
        };
        let w = encode(|e| e.create_blend(1, &b)).unwrap_or_else(|e| panic!("{:#x}: {}", f, e));
        assert_eq!((w[4] >> 4) & 0x1f, f);
        assert_eq!((w[4] >> 22) & 0x1f, f);
    }
    for f in [0, 0x0B, 0x10, 0x16, 0x1B, 0x20] {
        let b = BlendState {
            enable: true,
            rgb_dst: f,
            ..BlendState::default()
        };
        assert!(
            encode(|e| e.create_blend(1, &b)).is_err(),
            "{:#x} accepted",
            f
        );
    }
    for func in [
        BLEND_ADD,
        BLEND_SUBTRACT,
        BLEND_REVERSE_SUBTRACT,
        BLEND_MIN,
        BLEND_MAX,
    ] {
        let b = BlendState {
            enable: true,
            rgb_func: func,
            alpha_func: func,
            ..BlendState::default()
        };
        assert!(encode(|e| e.create_blend(1, &b)).is_ok());
    }
    let b = BlendState {
        rgb_func: BLEND_MAX + 1,
        ..BlendState::default()
    };
    assert!(encode(|e| e.create_blend(1, &b)).is_err());
}

#[test]
fn every_depth_function_is_encoded() {
    for func in [
        FUNC_NEVER,
        FUNC_LESS,
        FUNC_EQUAL,
        FUNC_LEQUAL,
        FUNC_GREATER,
        FUNC_NOTEQUAL,
        FUNC_GEQUAL,
        FUNC_ALWAYS,
    ] {
        let w = encode(|e| {
            e.create_dsa(
                1,
                &DsaState {
                    depth_enable: true,
                    depth_write: false,
                    depth_func: func,
                },
            )
        })
        .unwrap();
        assert_eq!(w[2], 1 | func << 2);
    }
    assert!(encode(|e| e.create_dsa(
        1,
        &DsaState {
            depth_enable: true,
            depth_write: true,
            depth_func: 8
        }
    ))
    .is_err());
}

#[test]
fn depth_sampler_view_and_swizzle_dwords() {
    let words =
        encode(|e| e.create_sampler_view_swizzled(5, 9, FORMAT_Z32_FLOAT, SWIZZLE_RRR1)).unwrap();
    assert_eq!(
        words,
        vec![
            cmd0(CCMD_CREATE_OBJECT, OBJ_SAMPLER_VIEW, SAMPLER_VIEW_SIZE),
            5,
            9,
            FORMAT_Z32_FLOAT | TARGET_TEXTURE_2D << 24,
            0,
            0,
            5 << 9
        ]
    );
    // The plain call keeps the identity swizzle.
    let plain = encode(|e| e.create_sampler_view(5, 9, FORMAT_B8G8R8A8_UNORM)).unwrap();
    assert_eq!(plain.last(), Some(&SWIZZLE_IDENTITY));
    // Selectors above ONE (5) and bits above 11 are refused; so is a format no view takes.
    assert!(encode(|e| e.create_sampler_view_swizzled(5, 9, FORMAT_Z32_FLOAT, 6)).is_err());
    assert!(encode(|e| e.create_sampler_view_swizzled(5, 9, FORMAT_Z32_FLOAT, 1 << 12)).is_err());
    assert!(encode(|e| e.create_sampler_view(5, 9, FORMAT_R32_FLOAT)).is_err());
}

#[test]
fn vertex_element_divisors_dwords() {
    let el = |offset, buffer_index| VertexElement {
        offset,
        buffer_index,
        components: 4,
    };
    let words =
        encode(|e| e.create_vertex_elements_divided(3, &[el(0, 0), el(16, 1)], &[0, 7])).unwrap();
    assert_eq!(
        &words[2..],
        &[
            0,
            0,
            0,
            FORMAT_R32G32B32A32_FLOAT,
            16,
            7,
            1,
            FORMAT_R32G32B32A32_FLOAT
        ]
    );
    // Without divisors the words are the plain call's.
    assert_eq!(
        encode(|e| e.create_vertex_elements_divided(3, &[el(0, 0)], &[])).unwrap(),
        encode(|e| e.create_vertex_elements(3, &[el(0, 0)])).unwrap()
    );
    // More divisors than elements is refused.
    assert!(encode(|e| e.create_vertex_elements_divided(3, &[el(0, 0)], &[1, 2])).is_err());
}
