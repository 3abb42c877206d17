//! libFuzzer binary of the `exec` target (see `shader_fuzz::exec`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shader_fuzz::exec(data));
