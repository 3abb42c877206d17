//! Fuzz target: any bytes given to the CSIR loaders either load or are rejected with an error
//! (never a panic). A module that loads is verified, generates TGSI, and round-trips: saving it
//! again (v2) and loading that gives the same module, and saving that gives the same bytes; v1
//! (no interface tables) keeps the instructions and immediates.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shader::csir::{self, Version};
use shader::limits::TGSI_MAX;

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

fuzz_target!(|data: &[u8]| {
    let _ = csir::blob_version(data);
    let mut text = heapless::String::<TGSI_MAX>::new();
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
        shader::verify::verify(&m).is_ok(),
        "loader handed out an unverified module"
    );

    let v2 = save(&m, Version::V2);
    let back = csir::load(&v2).unwrap_or_else(|e| panic!("re-saved v2 blob rejected: {}", e));
    assert!(same(&back, &m), "v2 round trip changed the module");
    assert_eq!(save(&back, Version::V2), v2, "v2 save is not stable");

    let v1 = save(&m, Version::V1);
    let back = csir::load(&v1).unwrap_or_else(|e| panic!("re-saved v1 blob rejected: {}", e));
    let mut ir_only = m.clone();
    ir_only.iface = back.iface.clone();
    assert!(same(&back, &ir_only), "v1 round trip changed the instructions or immediates");
    assert_eq!(save(&back, Version::V1), v1, "v1 save is not stable");
});
