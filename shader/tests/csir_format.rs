//! CSIR v1 and v2: round trips, rejection of every single-byte flip and every truncation, a v1
//! blob assembled by hand from the documented layout, and robustness on arbitrary bytes.
#[path = "tgsi_fixtures.rs"]
mod fixtures;

use proptest::prelude::*;
use shader::back::tgsi;
use shader::ir::*;
use shader::program::csir::{self, CsirError, Version, CSIR_MAX};

fn save(m: &Module, v: Version) -> Vec<u8> {
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(m, v, &mut buf).unwrap();
    assert_eq!(n, csir::saved_size(m, v));
    buf.truncate(n);
    buf
}

/// `m` with the opcodes v1 does not have (DIV 33, SQRT 34) replaced by same-shaped v1 ones (MUL,
/// RSQ), so the v1 tests keep covering every other opcode of the fixtures.
fn v1_able(m: &Module) -> Module {
    let mut m = m.clone();
    for i in m.insts.iter_mut() {
        i.op = match i.op {
            Op::Div => Op::Mul,
            Op::Sqrt => Op::Rsq,
            op => op,
        };
    }
    m
}

fn v1_corpus() -> Vec<(&'static str, Module)> {
    fixtures::corpus()
        .into_iter()
        .map(|(n, m)| (n, v1_able(&m)))
        .collect()
}

#[test]
fn v2_round_trip_is_identical() {
    for (name, m) in fixtures::corpus() {
        let blob = save(&m, Version::V2);
        let back = csir::load(&blob).unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_eq!(back, m, "{}", name);
        // Saving again gives the same bytes.
        assert_eq!(save(&back, Version::V2), blob, "{}", name);
    }
}

#[test]
fn v1_round_trip_keeps_ir_and_derives_the_interface() {
    for (name, m) in v1_corpus() {
        let blob = save(&m, Version::V1);
        assert_eq!(blob.len(), 32 + 16 * m.insts.len() + 4 * m.imms.len());
        let back = csir::load(&blob).unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_eq!(back.stage, m.stage);
        assert_eq!(back.insts, m.insts, "{}", name);
        assert_eq!(back.imms, m.imms);
        assert_eq!(back.temps, m.temps);
        // The derived interface covers everything the instructions touch.
        assert_eq!(back.iface.writes_position, m.iface.writes_position);
        assert_eq!(
            back.iface.color_output.is_some(),
            m.iface.color_output.is_some()
        );
        assert_eq!(back.iface.reads_fragcoord, m.iface.reads_fragcoord);
        assert_eq!(
            back.iface.samplers.len(),
            m.iface.samplers.len(),
            "{}",
            name
        );
        assert_eq!(
            back.iface.uniform_vec4s(),
            m.iface.uniform_vec4s(),
            "{}",
            name
        );
        // Same TGSI as the original, apart from nothing: declarations come from the same uses.
        let (mut a, mut b) = (
            shader::back::tgsi::TgsiText::new(),
            shader::back::tgsi::TgsiText::new(),
        );
        tgsi::emit(&m, None, &mut a).unwrap();
        tgsi::emit(&back, None, &mut b).unwrap();
        assert_eq!(a, b, "{}", name);
        assert_eq!(save(&back, Version::V1), blob);
    }
}

#[test]
fn every_single_byte_flip_is_rejected() {
    for (name, m) in fixtures::corpus() {
        let blob = save(&m, Version::V2);
        for at in 0..blob.len() {
            for x in [0xffu8, 0x01, 0x80] {
                let mut bad = blob.clone();
                bad[at] ^= x;
                assert!(
                    csir::load(&bad).is_err(),
                    "{} v2: flip {:#x} at byte {} accepted",
                    name,
                    x,
                    at
                );
            }
        }
        // v1's checksum covers only the IR records: every change there is rejected. The header
        // words are range-checked, which rejects every inverted byte; a temp count changed to
        // another in-range value and the immediates are not covered (v1 limits that v2 closes).
        let m = v1_able(&m);
        let blob = save(&m, Version::V1);
        let ir_end = 32 + 16 * m.insts.len();
        for at in 0..ir_end {
            let flips: &[u8] = if at >= 32 {
                &[0xff, 0x01, 0x80]
            } else {
                &[0xff]
            };
            for &x in flips {
                let mut bad = blob.clone();
                bad[at] ^= x;
                assert!(
                    csir::load(&bad).is_err(),
                    "{} v1: flip {:#x} at byte {} accepted",
                    name,
                    x,
                    at
                );
            }
        }
    }
}

#[test]
fn v1_immediate_corruption_is_not_detectable_but_v2_is() {
    let m = fixtures::vary_frag();
    let mut blob = save(&m, Version::V1);
    let at = 32 + 16 * m.insts.len();
    blob[at + 3] ^= 0x01;
    let loaded = csir::load(&blob).unwrap();
    assert_ne!(loaded.imms[0], m.imms[0]);
    let mut blob = save(&m, Version::V2);
    let at = 64 + 16 * m.insts.len();
    blob[at + 3] ^= 0x01;
    assert!(matches!(
        csir::load(&blob),
        Err(CsirError::BadChecksum { .. })
    ));
}

#[test]
fn every_truncation_and_extension_is_rejected() {
    for (name, m) in fixtures::corpus() {
        for v in [Version::V1, Version::V2] {
            let m = if v == Version::V1 {
                v1_able(&m)
            } else {
                m.clone()
            };
            let blob = save(&m, v);
            for len in 0..blob.len() {
                assert!(
                    csir::load(&blob[..len]).is_err(),
                    "{} {:?}: truncation to {} accepted",
                    name,
                    v,
                    len
                );
            }
            let mut longer = blob.clone();
            longer.push(0);
            assert!(
                matches!(csir::load(&longer), Err(CsirError::BadSize { .. })),
                "{} {:?}",
                name,
                v
            );
        }
    }
}

#[test]
fn listed_v1_rejections_have_their_own_errors() {
    let m = fixtures::tri_vert();
    let blob = save(&m, Version::V1);
    let word =
        |b: &mut Vec<u8>, i: usize, v: u32| b[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    assert!(matches!(
        csir::load(&blob[..31]),
        Err(CsirError::TooShort { len: 31, min: 32 })
    ));
    let mut b = blob.clone();
    word(&mut b, 0, 0x1234);
    assert!(matches!(
        csir::load(&b),
        Err(CsirError::BadMagic { found: 0x1234 })
    ));
    let mut b = blob.clone();
    word(&mut b, 1, 3);
    assert!(matches!(
        csir::load(&b),
        Err(CsirError::BadVersion { found: 3 })
    ));
    let mut b = blob.clone();
    word(&mut b, 2, 2);
    assert!(matches!(
        csir::load(&b),
        Err(CsirError::BadStage { found: 2 })
    ));
    for (i, limit) in [(3usize, 384u32), (4, 160), (5, 96)] {
        let mut b = blob.clone();
        word(&mut b, i, limit + 1);
        assert!(matches!(csir::load(&b), Err(CsirError::TooMany { limit: l, .. }) if l == limit));
    }
    let mut b = blob.clone();
    word(&mut b, 6, 0);
    assert!(matches!(csir::load(&b), Err(CsirError::BadChecksum { .. })));
}

/// Bytes of one v1 record, written field by field from the documented layout.
fn record(op: u8, ty: u8, lanes: u8, f: [i16; 6]) -> Vec<u8> {
    let mut r = vec![op, ty, lanes, 0];
    for v in f {
        r.extend_from_slice(&v.to_le_bytes());
    }
    r
}

#[test]
fn hand_built_v1_blob_loads() {
    // gl_Position = vec4(0.5, -0.5, 0, 1): CONST t0 <- imm[0..4]; STORE_POS t0. Old writers
    // left unused operands 0 (CONST's a, b, c read as temp 0 were an artefact).
    let mut ir = record(1, 7, 4, [0, 0, 0, 0, 0, 0]);
    ir.extend(record(26, 0, 0, [-1, 0, -1, -1, 0, 0]));
    let sum: u32 = ir.iter().map(|&b| b as u32).sum();
    let mut blob = Vec::new();
    for w in [0x5249_5343u32, 1, 0, 2, 4, 1, sum, 0] {
        blob.extend_from_slice(&w.to_le_bytes());
    }
    assert_eq!(&blob[..4], b"CSIR");
    blob.extend(ir);
    for f in [0.5f32, -0.5, 0.0, 1.0] {
        blob.extend_from_slice(&f.to_le_bytes());
    }
    let mut text = shader::back::tgsi::TgsiText::new();
    let (m, info) = csir::load_with_tgsi(&blob, &mut text).unwrap();
    assert_eq!(m.stage, Stage::Vertex);
    assert_eq!(
        m.insts[0].a, -1,
        "unused operand fields are ignored (normalized)"
    );
    assert!(m.iface.writes_position);
    assert_eq!(info.bytes, text.len());
    tgsi::check_tgsi(&text).unwrap();
    assert!(
        text.as_str().contains("IMM[0] FLT32 {0.5, -0.5, 0.0, 1.0}"),
        "{}",
        text.as_str()
    );
    // The constant is read from its immediate directly (no copy into a temp).
    assert!(
        text.as_str().contains("MOV OUT[0], IMM[0]"),
        "{}",
        text.as_str()
    );
}

#[test]
fn v2_header_is_little_endian_and_self_describing() {
    let m = fixtures::mvp_vert();
    let blob = save(&m, Version::V2);
    let w = |i: usize| u32::from_le_bytes(blob[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!(&blob[..4], b"CSIR");
    assert_eq!(
        (w(1), w(2), w(3), w(4), w(5)),
        (2, 0, m.insts.len() as u32, 0, 23)
    );
    assert_eq!((w(6), w(7), w(8), w(9)), (2, 1, 3, 0));
    assert_eq!(w(10), 1, "writes_position flag");
    assert_eq!(w(11) as usize, blob.len());
    let h = u64::from_le_bytes(blob[48..56].try_into().unwrap());
    let mut expect = csir::fnv1a64(csir::FNV64_OFFSET, &blob[..48]);
    expect = csir::fnv1a64(expect, &blob[56..]);
    assert_eq!(h, expect);
}

#[test]
fn small_buffer_is_an_error() {
    let m = fixtures::tri_vert();
    let mut buf = [0u8; 40];
    assert!(matches!(
        csir::save(&m, Version::V1, &mut buf),
        Err(CsirError::BufferTooSmall { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = csir::load(&bytes);
    }

    #[test]
    fn mutated_blobs_never_panic(idx in 0usize..7, v2 in any::<bool>(), edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let m = fixtures::corpus().swap_remove(idx).1;
        let m = if v2 { m } else { v1_able(&m) };
        let mut blob = save(&m, if v2 { Version::V2 } else { Version::V1 });
        for (at, val) in edits {
            let n = blob.len();
            blob[at % n] = val;
        }
        let _ = csir::load(&blob);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]
    /// Every verified random module round-trips: v2 exactly, v1 its IR (interface derived).
    #[test]
    fn random_verified_modules_round_trip(frag in any::<bool>(), insts in proptest::collection::vec(fixtures::random::arb_inst(12), 1..40)) {
        use fixtures::random::{module, with_blocks};
        let m = module(frag, with_blocks(insts));
        prop_assume!(shader::ir::verify::verify(&m).is_ok());
        let mut t = shader::back::tgsi::TgsiText::new();
        prop_assume!(tgsi::emit(&m, None, &mut t).is_ok());
        prop_assert_eq!(&csir::load(&save(&m, Version::V2)).unwrap(), &m);
        if let Some(i) = m.insts.iter().position(|i| i.op as u8 > csir::V1_OPCODE_MAX) {
            let mut buf = vec![0u8; CSIR_MAX];
            prop_assert_eq!(
                csir::save(&m, Version::V1, &mut buf),
                Err(CsirError::NotInV1 { inst: i, op: m.insts[i].op })
            );
            return Ok(());
        }
        let v1 = csir::load(&save(&m, Version::V1)).unwrap();
        prop_assert_eq!(&v1.insts, &m.insts);
        prop_assert_eq!(&v1.imms, &m.imms);
    }
}
