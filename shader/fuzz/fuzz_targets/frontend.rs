//! Fuzz target: any bytes, in either stage, must compile to a verified module or produce at least
//! one diagnostic with a position inside the source, within the compile work budget; rendering and
//! dumping never panic. Run with a short per-input timeout (`scripts/fuzz.sh` passes -timeout=2)
//! so a compile that takes too long is a failure too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (stage, src) = match data.split_first() {
        Some((s, rest)) => ((*s & 1) as u32, rest),
        None => (0, data),
    };
    let (result, stats) = shader::program::compile::compile_with_stats(stage, src, "fuzz");
    assert!(stats.work <= shader::limits::WORK_MAX + 1);
    match result {
        Ok(sh) => {
            assert!(shader::ir::verify::verify(&sh.module).is_ok());
            let mut s = String::new();
            shader::ir::dump::dump_module(&sh.name, &sh.module, &mut s).unwrap();
        }
        Err(d) => {
            assert!(!d.is_empty());
            let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            for e in d.errors() {
                assert!(e.line >= 1 && e.line <= lines && e.column >= 1);
            }
            let mut s = String::new();
            d.render(src, &mut s).unwrap();
        }
    }
    let _ = shader::front::dump::dump_ast(src, "fuzz", &mut String::new());
});
