//! CREATE_OBJECT SAMPLER_STATE carries every field Gfx3D samples with (brief E, session 4):
//! wraps (mirrored repeat too), min/mag filters, the mip filter and LOD bias/min/max, in
//! virgl_protocol.h's layout; bad values are errors, and the default stream is unchanged.
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::{CollectSink, CommandBuffer};

fn words(s: &SamplerState) -> virtio_gpu::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(64).unwrap();
    let mut sink = CollectSink::default();
    {
        let mut e = Encoder::new(&mut cb, &mut sink);
        e.create_sampler_state(5, s)?;
        e.flush().unwrap();
    }
    let w = sink.batches.concat();
    StreamChecker::new().check(&w).unwrap();
    Ok(w)
}

#[test]
fn default_sampler_stream_is_unchanged() {
    let w = words(&SamplerState::default()).unwrap();
    // S0: repeat/repeat/repeat, nearest, mip NONE (2 << 11), nearest; LODs 0, 0, 1000.
    assert_eq!(
        w[1..],
        [5, 2 << 11, 0, 0, 1000f32.to_bits(), 0, 0, 0, 0],
        "{:x?}",
        w
    );
}

#[test]
fn every_field_lands_in_its_bits() {
    let s = SamplerState {
        wrap_s: WRAP_MIRROR_REPEAT,
        wrap_t: WRAP_CLAMP_TO_EDGE,
        min_filter: FILTER_LINEAR,
        mag_filter: FILTER_NEAREST,
        mip_filter: MIPFILTER_LINEAR,
        lod_bias: -0.5,
        min_lod: 1.0,
        max_lod: 3.0,
        compare_func: None,
    };
    let w = words(&s).unwrap();
    let s0 = 4 | 2 << 3 | 2 << 6 | 1 << 9 | 1 << 11;
    assert_eq!(
        w[1..6],
        [5, s0, (-0.5f32).to_bits(), 1f32.to_bits(), 3f32.to_bits()]
    );
    let s = SamplerState {
        mip_filter: MIPFILTER_NEAREST,
        mag_filter: FILTER_LINEAR,
        ..SamplerState::default()
    };
    assert_eq!(words(&s).unwrap()[2], 1 << 13);
}

#[test]
fn bad_sampler_fields_are_errors() {
    let d = SamplerState::default();
    for s in [
        SamplerState { wrap_s: 1, ..d },
        SamplerState { wrap_t: 3, ..d },
        SamplerState { mip_filter: 3, ..d },
        SamplerState { min_filter: 2, ..d },
        SamplerState {
            lod_bias: f32::NAN,
            ..d
        },
        SamplerState {
            min_lod: -1001.0,
            ..d
        },
        SamplerState {
            max_lod: f32::INFINITY,
            ..d
        },
    ] {
        assert!(words(&s).is_err(), "{:?} accepted", s);
    }
}
