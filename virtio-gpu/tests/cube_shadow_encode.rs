//! Cube resources and views, and shadow (compare) sampler states, in virgl_protocol.h's
//! layout (brief G, session 5): PIPE_TEXTURE_CUBE = 4 with array_size 6, the cube view spans
//! layers 0..=5, and COMPARE_MODE / COMPARE_FUNC are S0 bits 15 and 16..18.
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::{CollectSink, CommandBuffer, ResourceDesc};

fn stream(
    f: impl FnOnce(&mut Encoder<'_, CollectSink>) -> virtio_gpu::Result<()>,
) -> virtio_gpu::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(64).unwrap();
    let mut sink = CollectSink::default();
    {
        let mut e = Encoder::new(&mut cb, &mut sink);
        f(&mut e)?;
        e.flush().unwrap();
    }
    let w = sink.batches.concat();
    StreamChecker::new().check(&w).unwrap();
    Ok(w)
}

#[test]
fn compare_func_lands_in_s0() {
    for func in FUNC_NEVER..=FUNC_ALWAYS {
        let s = SamplerState {
            compare_func: Some(func),
            ..SamplerState::default()
        };
        let w = stream(|e| e.create_sampler_state(5, &s)).unwrap();
        assert_eq!(w[2], 2 << 11 | 1 << 15 | func << 16, "func {}", func);
    }
    let w = stream(|e| e.create_sampler_state(5, &SamplerState::default())).unwrap();
    assert_eq!(w[2], 2 << 11, "no compare: mode 0, func 0");
    let bad = SamplerState {
        compare_func: Some(8),
        ..SamplerState::default()
    };
    assert!(stream(|e| e.create_sampler_state(5, &bad)).is_err());
}

#[test]
fn cube_view_is_target_cube_over_six_layers() {
    let w = stream(|e| e.create_sampler_view_cube(6, 11, FORMAT_B8G8R8A8_UNORM)).unwrap();
    assert_eq!(
        w[1..],
        [
            6,
            11,
            FORMAT_B8G8R8A8_UNORM | 4 << 24,
            5 << 16,
            0,
            SWIZZLE_IDENTITY
        ]
    );
    // The 2D view is unchanged.
    let w = stream(|e| e.create_sampler_view(6, 11, FORMAT_B8G8R8A8_UNORM)).unwrap();
    assert_eq!(
        w[1..],
        [
            6,
            11,
            FORMAT_B8G8R8A8_UNORM | 2 << 24,
            0,
            0,
            SWIZZLE_IDENTITY
        ]
    );
}

#[test]
fn cube_resources_are_square_with_six_layers() {
    let d = ResourceDesc::cube_texture(16);
    assert_eq!((d.target, d.array_size, d.width, d.height), (4, 6, 16, 16));
    assert_eq!(d.check(0).unwrap(), 16 * 16 * 6 * 4);
    let not_square = ResourceDesc { height: 8, ..d };
    assert!(not_square.check(0).is_err());
    let one_layer = ResourceDesc { array_size: 1, ..d };
    assert!(one_layer.check(0).is_err());
    let layered_2d = ResourceDesc {
        array_size: 6,
        ..ResourceDesc::texture(16, 16)
    };
    assert!(layered_2d.check(0).is_err());
}
