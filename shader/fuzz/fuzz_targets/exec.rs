//! Fuzz target: a shader compiled from fuzzer-chosen source is linked with a fixed partner stage
//! and drawn by the software rasterizer on a 16x16 target; nothing may panic, and a program that
//! linked must draw (the draw call's errors are all about invalid inputs, which this never gives).
//!
//! Input: byte 0 = options (bit 0 stage: 1 fragment, 0 vertex; the other bits as in
//! `shader_fuzz::draw_linked`), byte 1 = seed of the uniform values, the rest = source. The
//! vertex shader paired with a fragment shader is a fixed template that writes gl_Position plus
//! one `out` per varying the fragment shader reads (so linking succeeds whenever the fragment
//! shader compiles); vertex shaders are paired with a fixed one-colour fragment shader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shader_fuzz::{compile, draw_linked, link_with_partner};

fuzz_target!(|data: &[u8]| {
    let [opts, seed, src @ ..] = data else { return };
    let fragment = opts & 1 != 0;
    let Some(m) = compile(fragment as u32, src) else {
        return;
    };
    let mut program = match link_with_partner(&m) {
        Ok(p) => p,
        // Only the trivial fallback vertex shader may lack the fragment inputs.
        Err(_) if fragment => return,
        Err(e) => panic!("vertex shader compiled but does not link: {}", e),
    };
    draw_linked(&mut program, *opts, *seed);
});
