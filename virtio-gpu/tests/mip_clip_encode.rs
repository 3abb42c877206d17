//! Mip levels and clip planes in virgl_protocol.h's layout (brief C, session 6): a sampler
//! view's level word is first | last << 8 (VIRGL_OBJ_SAMPLER_VIEW_TEXTURE_LEVEL), and the
//! rasterizer's clip-plane enables are S3 bits 24..31 (VIRGL_OBJ_RS_S3_CLIP_PLANE_ENABLE).
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::{CollectSink, CommandBuffer};

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
fn sampler_views_span_every_level() {
    let w =
        stream(|e| e.create_sampler_view_levels(6, 11, FORMAT_B8G8R8A8_UNORM, false, 3)).unwrap();
    assert_eq!(
        w[1..],
        [
            6,
            11,
            FORMAT_B8G8R8A8_UNORM | 2 << 24,
            0,
            3 << 8,
            SWIZZLE_IDENTITY
        ]
    );
    let w =
        stream(|e| e.create_sampler_view_levels(6, 11, FORMAT_B8G8R8A8_UNORM, true, 14)).unwrap();
    assert_eq!(
        w[1..],
        [
            6,
            11,
            FORMAT_B8G8R8A8_UNORM | 4 << 24,
            5 << 16,
            14 << 8,
            SWIZZLE_IDENTITY
        ]
    );
    // Level 0 only is the plain view's stream.
    let a = stream(|e| e.create_sampler_view_levels(6, 11, FORMAT_B8G8R8A8_UNORM, false, 0));
    let b = stream(|e| e.create_sampler_view(6, 11, FORMAT_B8G8R8A8_UNORM));
    assert_eq!(a.unwrap(), b.unwrap());
    // More levels than a 16384 texture has are refused.
    assert!(
        stream(|e| e.create_sampler_view_levels(6, 11, FORMAT_B8G8R8A8_UNORM, false, 15)).is_err()
    );
}

#[test]
fn clip_plane_enables_land_in_s3() {
    for planes in [0u8, 1, 0b11, 0b1010_0101, 0xFF] {
        let rs = RasterState {
            clip_planes: planes,
            ..RasterState::default()
        };
        let w = stream(|e| e.create_rasterizer(4, &rs)).unwrap();
        // Header, handle, S0, point size, sprite coord, S3, ...
        assert_eq!(w[5], (planes as u32) << 24, "planes {planes:#x}");
    }
}
