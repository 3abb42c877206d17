//! Replays the committed minimized fuzz corpora (`shader/fuzz/corpus-min/<target>/`) through
//! the fuzz targets' own entry logic (`shader/fuzz/src/lib.rs`, included here so the stable
//! toolchain runs it without libFuzzer): every input that once mattered to a target stays a
//! regression test. No fuzzing happens here; `scripts/fuzz.sh` fuzzes and refreshes the corpora.
#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_entry;

use std::path::Path;

#[test]
fn every_minimized_corpus_input_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus-min");
    for target in fuzz_entry::TARGETS {
        let dir = root.join(target);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(
            files.len() >= 10,
            "{}: only {} inputs (run scripts/fuzz.sh to refresh the corpus)",
            target,
            files.len()
        );
        for f in &files {
            let data = std::fs::read(f).unwrap();
            let r = std::panic::catch_unwind(|| fuzz_entry::run_target(target, &data));
            match r {
                Ok(known) => assert!(known, "unknown target {}", target),
                Err(_) => panic!("{} input {} fails its target", target, f.display()),
            }
        }
    }
}

#[test]
fn the_entry_logic_rejects_unknown_targets() {
    assert!(!fuzz_entry::run_target("nope", b""));
}
