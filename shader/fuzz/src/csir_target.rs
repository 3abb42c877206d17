//! The `csir` fuzz target: any bytes given to the CSIR loaders either load or are rejected with an error
//! (never a panic). A module that loads is verified, generates TGSI, and round-trips: saving it
//! again (v2) and loading that gives the same module, and saving that gives the same bytes; v1
//! (no interface tables) keeps the instructions and immediates. A loaded module is untrusted
//! code that passed the verifier, so it is also linked with a fixed partner stage and drawn.
//!
//! Input: byte 0 = mode, the rest = the blob. Mode bit 0: before loading, store the correct
//! checksum (and, for v2, the total size) in the blob, so that mutations reach the record,
//! table and verifier checks instead of all stopping at the checksum. Mode bit 1: draw a module
//! that loads (the mode byte is also the draw options and uniform seed).
use shader::program::csir::{self, Version};

fn save(m: &shader::Module, v: Version) -> Vec<u8> {
    let mut buf = vec![0u8; csir::CSIR_MAX];
    let n = csir::save(m, v, &mut buf)
        .unwrap_or_else(|e| panic!("a loaded module cannot be saved as {:?}: {}", v, e));
    assert_eq!(n, csir::saved_size(m, v), "saved_size disagrees with save");
    buf.truncate(n);
    buf
}

/// Module equality with immediates compared bit for bit (a blob may hold NaN immediates, which
/// `PartialEq` would call different from themselves).
fn same(a: &shader::Module, b: &shader::Module) -> bool {
    let bits = |m: &shader::Module| m.imms.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    if bits(a) != bits(b) {
        return false;
    }
    let (mut a, mut b) = (a.clone(), b.clone());
    a.imms.clear();
    b.imms.clear();
    a == b
}

/// Stores the checksum (v1: byte sum of the records; v2: total size, then FNV-1a 64) that the
/// blob's header calls for.
fn fix_checksum(b: &mut [u8]) {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    match csir::blob_version(b) {
        Ok(1) => {
            let n = u32_at(b, 12) as usize;
            let end = csir::V1_HEADER
                .saturating_add(n.saturating_mul(csir::RECORD))
                .min(b.len());
            let sum = b[csir::V1_HEADER..end]
                .iter()
                .fold(0u32, |s, &x| s.wrapping_add(x as u32));
            b[24..28].copy_from_slice(&sum.to_le_bytes());
        }
        Ok(2) if b.len() >= csir::V2_HEADER => {
            let len = b.len() as u32;
            b[44..48].copy_from_slice(&len.to_le_bytes());
            let h = csir::fnv1a64(csir::fnv1a64(csir::FNV64_OFFSET, &b[..48]), &b[56..]);
            b[48..56].copy_from_slice(&h.to_le_bytes());
        }
        _ => {}
    }
}

/// One input of the target: byte 0 = mode, the rest = the blob.
pub fn run(input: &[u8]) {
    let Some((&mode, blob)) = input.split_first() else {
        return;
    };
    let mut fixed;
    let data = if mode & 1 != 0 {
        fixed = blob.to_vec();
        fix_checksum(&mut fixed);
        &fixed[..]
    } else {
        blob
    };
    let _ = csir::blob_version(data);
    let mut text = shader::back::tgsi::TgsiText::new();
    let with_tgsi = csir::load_with_tgsi(data, &mut text);
    let loaded = csir::load(data);
    match (&with_tgsi, &loaded) {
        (Ok((a, _)), Ok(b)) => assert!(same(a, b), "load and load_with_tgsi disagree"),
        (Err(a), Err(b)) => assert_eq!(a, b, "load and load_with_tgsi disagree"),
        _ => panic!("load and load_with_tgsi disagree"),
    }
    let m = match loaded {
        Ok(m) => m,
        Err(e) => {
            // Every rejection renders as a message.
            assert!(!format!("{}", e).is_empty());
            return;
        }
    };
    assert!(
        shader::ir::verify::verify(&m).is_ok(),
        "loader handed out an unverified module"
    );

    let v2 = save(&m, Version::V2);
    let back = csir::load(&v2).unwrap_or_else(|e| panic!("re-saved v2 blob rejected: {}", e));
    assert!(same(&back, &m), "v2 round trip changed the module");
    assert_eq!(save(&back, Version::V2), v2, "v2 save is not stable");

    // v1 holds profile 1 only: a profile-2 module is refused, naming its profile.
    if m.profile != shader::limits::Profile::P1 {
        let mut buf = vec![0u8; csir::CSIR_MAX];
        assert_eq!(
            csir::save(&m, Version::V1, &mut buf),
            Err(csir::CsirError::ProfileNotInV1 {
                profile: m.profile.number()
            }),
            "v1 save of a profile-{} module",
            m.profile.number()
        );
        draw(&m, mode);
        return;
    }
    // v1 has no opcode past 32 (DIV, SQRT): saving such a module as v1 is refused, naming it.
    if let Some(i) = m
        .insts
        .iter()
        .position(|i| i.op as u8 > csir::V1_OPCODE_MAX)
    {
        let mut buf = vec![0u8; csir::CSIR_MAX];
        assert_eq!(
            csir::save(&m, Version::V1, &mut buf),
            Err(csir::CsirError::NotInV1 {
                inst: i,
                op: m.insts[i].op
            }),
            "v1 save of a module with opcode {}",
            m.insts[i].op as u8
        );
        draw(&m, mode);
        return;
    }
    let v1 = save(&m, Version::V1);
    let back = csir::load(&v1).unwrap_or_else(|e| panic!("re-saved v1 blob rejected: {}", e));
    let mut ir_only = m.clone();
    ir_only.iface = back.iface.clone();
    assert!(
        same(&back, &ir_only),
        "v1 round trip changed the instructions or immediates"
    );
    assert_eq!(save(&back, Version::V1), v1, "v1 save is not stable");

    draw(&m, mode);
}

/// Mode bit 1: link a loaded module with its partner and draw it.
fn draw(m: &shader::Module, mode: u8) {
    if mode & 2 != 0 {
        // Linking may refuse a loaded module (names or types its partner cannot match, v1
        // varyings that cannot be matched by name, TGSI over the budget).
        if let Ok(mut program) = super::link_with_partner(m) {
            super::draw_linked(&mut program, mode, mode);
        }
    }
}
