//! 2D array resources and views in virgl_protocol.h's layout (session 8): PIPE_TEXTURE_2D_ARRAY
//! = 7 with array_size 1..=256 layers, and its sampler view spans layers 0..=N-1 (layer word
//! first | last << 16) and levels 0..=last (level word first | last << 8).
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::limits::MAX_ARRAY_LAYERS;
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
fn array_view_is_target_2d_array_over_every_layer_and_level() {
    assert_eq!(TARGET_TEXTURE_2D_ARRAY, 7);
    let w = stream(|e| e.create_sampler_view_array(6, 11, FORMAT_B8G8R8A8_UNORM, 5, 3)).unwrap();
    assert_eq!(
        w[1..],
        [
            6,
            11,
            FORMAT_B8G8R8A8_UNORM | 7 << 24,
            4 << 16,
            3 << 8,
            SWIZZLE_IDENTITY
        ]
    );
    let w = stream(|e| e.create_sampler_view_array(6, 11, FORMAT_B8G8R8A8_UNORM, 1, 0)).unwrap();
    assert_eq!(w[4..6], [0, 0], "one layer, one level");
    for layers in [0, MAX_ARRAY_LAYERS + 1] {
        assert!(
            stream(|e| e.create_sampler_view_array(6, 11, FORMAT_B8G8R8A8_UNORM, layers, 0))
                .is_err(),
            "{} layers",
            layers
        );
    }
    assert!(stream(|e| e.create_sampler_view_array(6, 11, FORMAT_B8G8R8A8_UNORM, 2, 15)).is_err());
}

#[test]
fn array_resources_take_1_to_256_layers() {
    let d = ResourceDesc::array_texture(16, 8, 3);
    assert_eq!((d.target, d.array_size, d.width, d.height), (7, 3, 16, 8));
    assert_eq!(d.check(0).unwrap(), 16 * 8 * 3 * 4);
    // Levels 16x8, 8x4, 4x2, 2x1, 1x1, each with all three layers.
    let m = d.with_levels(5);
    assert_eq!(
        m.check(0).unwrap(),
        (16 * 8 + 8 * 4 + 4 * 2 + 2 + 1) * 3 * 4
    );
    assert_eq!(m.level_offset(1), Some(16 * 8 * 3 * 4));
    assert!(ResourceDesc::array_texture(4, 4, 1).check(0).is_ok());
    assert!(ResourceDesc::array_texture(4, 4, MAX_ARRAY_LAYERS)
        .check(0)
        .is_ok());
    assert!(ResourceDesc::array_texture(4, 4, 0).check(0).is_err());
    assert!(ResourceDesc::array_texture(4, 4, MAX_ARRAY_LAYERS + 1)
        .check(0)
        .is_err());
    // The host's 2D limit applies to a layer; a plain 2D texture still has one layer.
    assert!(ResourceDesc::array_texture(64, 4, 2).check(32).is_err());
    let layered_2d = ResourceDesc {
        array_size: 2,
        ..ResourceDesc::texture(16, 16)
    };
    assert!(layered_2d.check(0).is_err());
}
