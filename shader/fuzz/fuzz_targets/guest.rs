//! libFuzzer binary of the `guest` target (see `shader_fuzz::guest_target`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shader_fuzz::guest_target::run(data));
