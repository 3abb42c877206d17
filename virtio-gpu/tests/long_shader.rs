//! Shaders as long as the shader compiler's profile-2 TGSI bound (256 KiB): the encoder splits
//! them into a first CREATE_OBJECT(SHADER) packet carrying the total length and continuation
//! packets carrying their byte offset, over several batches; every batch passes the host's rules
//! (the stream checker) and the packets reassemble into the text. The renderer itself draws with
//! one in the `longest_shader` scene (vtest_scenes.rs, and through the fake device in
//! device_fake.rs).
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::error::GpuError;
use virtio_gpu::limits::{DEFAULT_BATCH_DWORDS, MAX_SHADER_TEXT_BYTES};
use virtio_gpu::protocol::*;
use virtio_gpu::scenes::long_fragment_shader;
use virtio_gpu::{CollectSink, CommandBuffer};

/// The profile-2 bound of the shader crate (`shader::limits::P2_TGSI_MAX`), spelled out: this
/// crate does not depend on the compiler (gfx3d checks the two constants agree).
const P2_TGSI_MAX: usize = 256 * 1024;

/// Encodes `text` as shader 5 behind `prefix` dwords of NOPs in batches of `cap` dwords;
/// returns the batches.
fn encode(text: &str, cap: usize, prefix: usize) -> Result<Vec<Vec<u32>>, GpuError> {
    let mut cb = CommandBuffer::new(cap)?;
    let mut sink = CollectSink::default();
    for _ in 0..prefix {
        cb.push_command(&mut sink, &[cmd0(CCMD_NOP, 0, 0)])?;
    }
    Encoder::new(&mut cb, &mut sink).create_shader(5, SHADER_FRAGMENT, text)?;
    cb.flush(&mut sink)?;
    Ok(sink.batches)
}

/// Checks every batch with one checker (state persists across batches as on the host) and
/// returns the reassembled text bytes (with the NUL padding) and the shader packet count.
fn reassemble(batches: &[Vec<u32>]) -> (Vec<u8>, usize) {
    let mut ck = StreamChecker::new();
    let mut bytes = Vec::new();
    let mut packets = 0;
    for (i, b) in batches.iter().enumerate() {
        ck.check_with(b, |c| {
            if c.cmd == CCMD_CREATE_OBJECT && c.obj == OBJ_SHADER {
                packets += 1;
                let offlen = c.payload[2];
                if packets == 1 {
                    assert_eq!(offlen & SHADER_OFFSET_CONT, 0, "first packet");
                } else {
                    assert_eq!(
                        offlen,
                        SHADER_OFFSET_CONT | bytes.len() as u32,
                        "continuation offset"
                    );
                }
                assert!(c.payload[3] as usize > 16, "token bound in every packet");
                for w in &c.payload[5..] {
                    bytes.extend_from_slice(&w.to_le_bytes());
                }
            }
        })
        .unwrap_or_else(|e| panic!("batch {}: {:?}", i, e));
    }
    (bytes, packets)
}

#[test]
fn encoder_accepts_the_profile_2_bound() {
    let text = long_fragment_shader(P2_TGSI_MAX);
    assert!(encode(&text, DEFAULT_BATCH_DWORDS, 0).is_ok());
    assert!(text.len() <= MAX_SHADER_TEXT_BYTES);
}

#[test]
fn a_256_kib_shader_splits_over_several_batches_and_reassembles() {
    for (cap, prefix) in [
        (DEFAULT_BATCH_DWORDS, 0),
        (DEFAULT_BATCH_DWORDS, 4000),
        (64, 10),
    ] {
        let text = long_fragment_shader(P2_TGSI_MAX);
        assert_eq!(text.len(), P2_TGSI_MAX);
        let batches = encode(&text, cap, prefix).unwrap();
        assert!(batches.iter().all(|b| b.len() <= cap));
        // 65537 text dwords cannot go in fewer than 17 batches of 4096.
        let min = (P2_TGSI_MAX / 4 + 1).div_ceil(cap - 6);
        assert!(
            batches.len() >= min,
            "{} batches for cap {}",
            batches.len(),
            cap
        );
        let (bytes, packets) = reassemble(&batches);
        assert!(packets >= min);
        assert_eq!(&bytes[..text.len()], text.as_bytes());
        assert!(bytes[text.len()..].iter().all(|&b| b == 0));
        assert_eq!(bytes.len(), (text.len() + 1).div_ceil(4) * 4);
    }
}

#[test]
fn one_byte_past_the_bound_is_refused_before_anything_is_sent() {
    let text = long_fragment_shader(MAX_SHADER_TEXT_BYTES + 1);
    let mut cb = CommandBuffer::new(DEFAULT_BATCH_DWORDS).unwrap();
    let mut sink = CollectSink::default();
    let r = Encoder::new(&mut cb, &mut sink).create_shader(5, SHADER_FRAGMENT, &text);
    assert!(matches!(r, Err(GpuError::OutOfRange { .. })), "{:?}", r);
    assert!(cb.is_empty() && sink.batches.is_empty());
}

#[test]
fn checker_refuses_a_first_packet_longer_than_announced() {
    // 8 text dwords announced as 5 bytes: the host's "Invalid expected token count".
    let mut s = vec![
        cmd0(CCMD_CREATE_OBJECT, OBJ_SHADER, 5 + 8),
        1,
        SHADER_FRAGMENT,
        5,
        64,
        0,
    ];
    s.extend_from_slice(&[u32::from_le_bytes(*b"FRAG"), 0, 0, 0, 0, 0, 0, 0]);
    assert!(StreamChecker::new().check(&s).is_err());
}

#[test]
fn checker_refuses_a_continuation_without_a_token_bound() {
    let text = long_fragment_shader(20_000);
    let mut batches = encode(&text, 1024, 0).unwrap();
    // Zero the token count of the last continuation packet (the one the host translates with).
    let last = batches.last_mut().unwrap();
    assert_eq!(last[0] & 0xFF, CCMD_CREATE_OBJECT);
    last[4] = 0;
    let mut ck = StreamChecker::new();
    let results: Vec<_> = batches.iter().map(|b| ck.check(b)).collect();
    assert!(results.last().unwrap().is_err(), "{:?}", results);
}
