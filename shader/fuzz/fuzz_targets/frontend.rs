//! libFuzzer binary of the `frontend` target (see `shader_fuzz::frontend`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shader_fuzz::frontend(data));
