//! The host's frames (`Jit::with_frames`, session 14): lent once per call on the calling
//! thread, never twice at once, each thread its own; and a compiled stage run on frames
//! prepared for another module, or never prepared, returns (wrong values at most, never an
//! access outside its regions: the safety contract in the crate header).
#![cfg(all(target_arch = "x86_64", unix))]

use shader::back::exec::jit::{Frame, Jit, GROUPS, STAGE_FRAMES};
use shader::back::exec::lanes::LANES;
use shader::back::exec::{Executable, Invocation, Outputs};
use shader::ir::Stage;

fn exe(src: &str) -> Executable {
    let m = match shader::program::compile::compile(Stage::Fragment as u32, src.as_bytes(), "t") {
        Ok(s) => s.module,
        Err(d) => panic!("compile failed: {d:?}"),
    };
    Executable::new(&m, None).expect("verifies")
}

#[test]
fn frames_are_lent_once_per_thread() {
    let jit = jitmem::host();
    let mut outer = 0;
    let mut nested = None;
    jit.with_frames(&mut |f| {
        outer = f.map_or(0, |f| f.len());
        // Already lent on this thread: a nested call gets none.
        jit.with_frames(&mut |g| nested = Some(g.is_none()));
    });
    assert!(outer >= STAGE_FRAMES);
    assert_eq!(nested, Some(true));
    // Lent again once the first call is over, and on another thread its own.
    let mut again = 0;
    jit.with_frames(&mut |f| again = f.map_or(0, |f| f.len()));
    assert!(again >= STAGE_FRAMES);
    let other = std::thread::spawn(|| {
        let mut n = 0;
        jitmem::host().with_frames(&mut |f| n = f.map_or(0, |f| f.len()));
        n
    })
    .join()
    .expect("thread");
    assert!(other >= STAGE_FRAMES);
}

#[test]
fn stages_on_foreign_frames_return() {
    if !std::is_x86_feature_detected!("avx2") {
        return;
    }
    let head = "#version 330\nin vec4 a;\nuniform vec4 u;\nout vec4 c;\n";
    let looped = exe(&format!("{head}void main() {{ c = sin(a) * u + a; }}\n"));
    let branchy = exe(&format!(
        "{head}void main() {{ c = a; if (a.x > u.x) {{ c = a * 2.0; }} if (a.y < 0.0) discard; }}\n"
    ));
    let jit = jitmem::host();
    let (Some(s1), Some(s2)) = (jit.stage(&looped), jit.stage(&branchy)) else {
        panic!("both compile");
    };
    let uniforms = [0.5f32; 128];
    let inputs = Box::new([[[0.25f32; LANES]; 4]; 16]);
    let fragcoord = [[0.0f32; LANES]; 4];
    let inv = Invocation {
        uniforms: &uniforms,
        textures: &[],
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut out = Box::new(Outputs::new());
    // Fresh frames (never prepared), frames prepared for the other module, frames full of
    // garbage words: each run returns.
    let mut fresh = vec![Frame::new(); GROUPS];
    let _ = s1.run(&mut fresh, &looped, &inv, &mut out, u32::MAX);
    let _ = s2.run(&mut fresh, &branchy, &inv, &mut out, u32::MAX);
    let mut frames = vec![Frame::new(); GROUPS];
    branchy.prepare_frames(&mut frames, &uniforms);
    let _ = s1.run(&mut frames, &looped, &inv, &mut out, 0x00FF_0F0F);
    looped.prepare_frames(&mut frames, &uniforms);
    let _ = s2.run(&mut frames, &branchy, &inv, &mut out, u32::MAX);
    for f in frames.iter_mut() {
        f.bail = [u32::MAX; 16];
        f.masks.iter_mut().for_each(|m| *m = [u32::MAX; 16]);
    }
    let _ = s1.run(&mut frames, &looped, &inv, &mut out, u32::MAX);
    let _ = s2.run(&mut frames, &branchy, &inv, &mut out, u32::MAX);
    // Too few frames for a module with seams is refused, not run; an empty slice too.
    assert_eq!(s1.run(&mut [], &looped, &inv, &mut out, u32::MAX), None);
}
