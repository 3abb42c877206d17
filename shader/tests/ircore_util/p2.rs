//! Shared helpers of the profile-2 GLSL tests: compile one shader (its diagnostics rendered
//! on failure), emit and check its TGSI, link a program, run a vertex shader on the executor,
//! and a serial worker pool for the rasterizer.
use super::B;

use shader::back::exec::lanes::{Mask, Vec4x, ALL_LANES, LANES};
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::back::raster::{
    draw_parallel, CompareFunc, Pipeline, RasterState, Scratch, Target, VertexAttrib, VertexInput,
    Workers,
};
use shader::back::tgsi::{check_tgsi, emit};
use shader::ir::{loop_inst, CmpCode, Inst, Module, Op, Stage};
use shader::limits::{Profile, SAMPLER_MAX, UNIFORM_FLOATS, VARYING_CAP};
use shader::program::compile::{compile, Shader};
use shader::program::link::Program;

/// Compiles `src` for `stage` (0 vertex, 1 fragment) under the file name `file`; panics with
/// the rendered diagnostics when it does not compile.
pub fn build_named(stage: u32, src: &str, file: &str) -> Shader {
    match compile(stage, src.as_bytes(), file) {
        Ok(s) => s,
        Err(d) => {
            let mut s = std::string::String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

/// [`build_named`] under the file name "t".
pub fn build(stage: u32, src: &str) -> Shader {
    build_named(stage, src, "t")
}

/// Compiles a profile-2 vertex shader (the pragma is prepended).
pub fn compile_p2_vs(body: &str) -> Shader {
    let src = format!("#pragma chrisos profile 2\n{}", body);
    build_named(0, &src, "t.vert")
}

/// The module's TGSI, which must emit and pass `check_tgsi`.
pub fn tgsi_ok(m: &Module) -> std::string::String {
    let mut out = shader::back::tgsi::TgsiText::new();
    emit(m, None, &mut out).unwrap_or_else(|e| panic!("emit failed: {}", e));
    check_tgsi(&out).unwrap_or_else(|e| panic!("{}\n{}", e, out.as_str()));
    out.as_str().into()
}

/// Links the compiled vertex and fragment sources.
pub fn link_glsl(vs: &str, fs: &str) -> Program {
    let vs = build(0, vs);
    let fs = build(1, fs);
    let mut prog = Program::new();
    prog.link(Some(&vs.module), Some(&fs.module))
        .unwrap_or_else(|e| panic!("{} {}", e, prog.log()));
    prog
}

/// Runs vertex module `m` once on the `active` lanes with `uniforms` (vec4 slots in order) and
/// attribute 0 = `attr0(lane)`; gl_Position per lane.
pub fn run_vs_lanes(
    m: &Module,
    uniforms: &[[f32; 4]],
    attr0: impl Fn(usize) -> [f32; 4],
    active: Mask,
) -> [[f32; 4]; LANES] {
    let exe = Executable::new(m, None).expect("verified");
    run_exe_lanes(&exe, uniforms, attr0, active)
}

/// [`run_vs_lanes`] of an executable built once (for tests that run it many times).
pub fn run_exe_lanes(
    exe: &Executable,
    uniforms: &[[f32; 4]],
    attr0: impl Fn(usize) -> [f32; 4],
    active: Mask,
) -> [[f32; 4]; LANES] {
    let mut uni = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter().enumerate() {
        uni[i * 4..i * 4 + 4].copy_from_slice(u);
    }
    let mut inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    for l in 0..LANES {
        let a = attr0(l);
        for c in 0..4 {
            inputs[0][c][l] = a[c];
        }
    }
    let textures = [None; SAMPLER_MAX];
    let fragcoord = [[0.0; LANES]; 4];
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut regs = Box::new(Regs::new());
    let mut out = Box::new(Outputs::new());
    exe.run(&mut regs, &inv, &mut out, active);
    let mut r = [[0.0; 4]; LANES];
    for (l, v) in r.iter_mut().enumerate() {
        for c in 0..4 {
            v[c] = out.position[c][l];
        }
    }
    r
}

/// A serial worker pool that asks for `0` bands (the picture must not depend on them).
pub struct Bands(pub usize);

impl Workers for Bands {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut() {
            job();
        }
    }
}

/// Every job one after the other on this thread, last job first: the last job then draws every
/// band and the others none (the bands go to whichever job asks first).
pub struct Backwards(pub usize);

impl Workers for Backwards {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut().rev() {
            job();
        }
    }
}

/// `0` jobs at once, each on its own scoped thread.
pub struct OnThreads(pub usize);

impl Workers for OnThreads {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        std::thread::scope(|s| {
            for job in jobs.iter_mut() {
                s.spawn(move || job());
            }
        });
    }
}

/// `i = 0; loop(bound) { if (i >= x) break; i += 1; } color = i` with an extra accumulator that
/// `continue` skips on odd iterations: lanes leave the loop at different iterations.
pub fn counting(bound: u32, limit_from_lane: bool) -> Module {
    let mut b = B::new(Stage::Fragment);
    let fc = b.fragcoord();
    let one = b.konst(&[1.0]);
    let two = b.konst(&[2.0]);
    let i = b.konst(&[0.0]);
    let acc = b.konst(&[0.0]);
    let lim = if limit_from_lane { fc } else { b.konst(&[1e9]) };
    b.push(loop_inst(bound));
    let c = b.temp();
    b.inst(Op::Cmp, c, i, lim, 1, CmpCode::Ge as i16, 0);
    b.inst(Op::If, -1, c, -1, 0, 0, 0);
    b.push(Inst::new(Op::Break));
    b.push(Inst::new(Op::Endif));
    b.inst(Op::Add, i, i, one, 1, 0, 0);
    continue_if_odd(&mut b, i, two);
    b.inst(Op::Add, acc, acc, one, 1, 0, 0);
    b.push(Inst::new(Op::EndLoop));
    color_i_acc(b, i, acc)
}

/// `i = 0; acc = 0; loop(bound) { i += 1; if (fract(i / 2) != 0) continue; acc += 1;
/// if (acc >= gl_FragCoord.x) break; } color = (i, acc)`: the BREAK comes after the
/// iteration's effects (a BREAK that only left an inner loop would show).
pub fn break_after_effects(bound: u32) -> Module {
    let mut b = B::new(Stage::Fragment);
    let fc = b.fragcoord();
    let one = b.konst(&[1.0]);
    let two = b.konst(&[2.0]);
    let i = b.konst(&[0.0]);
    let acc = b.konst(&[0.0]);
    b.push(loop_inst(bound));
    b.inst(Op::Add, i, i, one, 1, 0, 0);
    continue_if_odd(&mut b, i, two);
    b.inst(Op::Add, acc, acc, one, 1, 0, 0);
    let c = b.temp();
    b.inst(Op::Cmp, c, acc, fc, 1, CmpCode::Ge as i16, 0);
    b.inst(Op::If, -1, c, -1, 0, 0, 0);
    b.push(Inst::new(Op::Break));
    b.push(Inst::new(Op::Endif));
    b.push(Inst::new(Op::EndLoop));
    color_i_acc(b, i, acc)
}

/// `if (fract(i / two) != 0) CONTINUE;` (`two` holds 2.0).
fn continue_if_odd(b: &mut B, i: i16, two: i16) {
    let h = b.temp();
    b.inst(Op::Div, h, i, two, 1, 0, 0);
    let f = b.temp();
    b.inst(Op::Fract, f, h, -1, 1, 0, 0);
    let z = b.konst(&[0.0]);
    let odd = b.temp();
    b.inst(Op::Cmp, odd, f, z, 1, CmpCode::Ne as i16, 0);
    b.inst(Op::If, -1, odd, -1, 0, 0, 0);
    b.push(Inst::new(Op::Continue));
    b.push(Inst::new(Op::Endif));
}

/// color = (i, acc, 0, 0); the profile-2 module.
fn color_i_acc(mut b: B, i: i16, acc: i16) -> Module {
    let o = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    b.inst(Op::SetLane, o, i, -1, 0, 0, 0);
    b.inst(Op::SetLane, o, acc, -1, 0, 1, 0);
    b.color(o);
    let mut m = b.done();
    m.profile = Profile::P2;
    m
}

/// Runs fragment module `m` on every lane with gl_FragCoord.x = the lane index (every lane
/// must stay alive); its colour, per component and lane.
pub fn run_fs_lanes(m: &Module) -> Vec4x {
    let exe = Executable::new(m, None).expect("verifies");
    let mut regs = Box::new(Regs::new());
    let inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    let mut fc = [[0.0f32; LANES]; 4];
    for (l, x) in fc[0].iter_mut().enumerate() {
        *x = l as f32;
    }
    let uni = [0.0f32; UNIFORM_FLOATS];
    let textures = [None; SAMPLER_MAX];
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut out = Box::new(Outputs::new());
    let alive = exe.run(&mut regs, &inv, &mut out, ALL_LANES);
    assert_eq!(alive, ALL_LANES);
    out.color
}

/// Draws one triangle covering the whole `w` x `h` target (no depth test, no textures, one
/// band) with `prog`; returns the colour pixels.
pub fn draw_fullscreen(prog: &Program, w: u32, h: u32) -> std::vec::Vec<u32> {
    let data: [f32; 12] = [
        -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
    ];
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }];
    let input = VertexInput {
        data: &data,
        stride: 4,
        attribs: &attribs,
        count: 3,
    };
    let mut color = std::vec![0u32; (w * h) as usize];
    let mut depth = std::vec![1.0f32; (w * h) as usize];
    let mut t = Target {
        width: w,
        height: h,
        color: &mut color,
        depth: &mut depth,
    };
    let st = RasterState {
        depth_test: false,
        ..RasterState::new(w, h)
    };
    let pipe = Pipeline {
        depth_func: CompareFunc::Less,
        ..Pipeline::DEFAULT
    };
    let mut scratches = std::vec![Scratch::new()];
    draw_parallel(
        &Bands(1),
        &mut scratches,
        prog,
        &input,
        &[],
        0,
        None,
        &[None, None, None, None],
        &st,
        &pipe,
        &mut t,
    )
    .expect("drawn");
    color
}

/// Floats per vertex of [`draw_pos_col`]'s data: position (3) at location 0, colour (4) at 1.
pub const POS_COL_STRIDE: usize = 7;

/// Draws `data` (interleaved position and colour, [`POS_COL_STRIDE`] floats a vertex) with
/// `prog` into `color`/`depth` of a `w` x `h` target on `bands` bands (serially, see
/// [`Bands`]), through `idx` when given, with `pipe` and the depth test on or off.
#[allow(clippy::too_many_arguments)]
pub fn draw_pos_col(
    prog: &Program,
    data: &[f32],
    idx: Option<&[u16]>,
    (pipe, depth_test): (&Pipeline, bool),
    bands: usize,
    (w, h): (u32, u32),
    color: &mut [u32],
    depth: &mut [f32],
) -> shader::back::raster::DrawStats {
    let attribs = [
        VertexAttrib {
            location: 0,
            offset: 0,
            components: 3,
        },
        VertexAttrib {
            location: 1,
            offset: 3,
            components: 4,
        },
    ];
    let input = VertexInput {
        data,
        stride: POS_COL_STRIDE as u32,
        attribs: &attribs,
        count: (data.len() / POS_COL_STRIDE) as u32,
    };
    let st = RasterState {
        depth_test,
        ..RasterState::new(w, h)
    };
    let mut scratches: std::vec::Vec<Scratch> = (0..bands).map(|_| Scratch::new()).collect();
    let mut t = Target {
        width: w,
        height: h,
        color,
        depth,
    };
    draw_parallel(
        &Bands(bands),
        &mut scratches,
        prog,
        &input,
        &[],
        0,
        idx,
        &[None, None, None, None],
        &st,
        pipe,
        &mut t,
    )
    .expect("drawn")
}

/// Saves `m` as CSIR v2 and loads it back (panics on either error).
pub fn csir_v2_round_trip(m: &Module) -> Module {
    use shader::program::csir::{self, Version, CSIR_MAX};
    let mut buf = std::vec![0u8; CSIR_MAX];
    let n = csir::save(m, Version::V2, &mut buf).unwrap_or_else(|e| panic!("save: {}", e));
    csir::load(&buf[..n]).unwrap_or_else(|e| panic!("load: {}", e))
}

/// The layers of an array texture, leaked for the test's whole run (a `TextureRef` borrows).
pub fn leak_layers(
    layers: impl Iterator<Item = shader::back::raster::TextureRef<'static>>,
) -> &'static [shader::back::raster::TextureRef<'static>] {
    Box::leak(layers.collect::<std::vec::Vec<_>>().into_boxed_slice())
}
