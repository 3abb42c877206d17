//! libFuzzer binary of the `csir` target (see `shader_fuzz::csir_target`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shader_fuzz::csir_target::run(data));
