//! The fuzz targets' entry logic, one function per target ([`frontend`], [`exec`],
//! [`csir_target::run`], [`guest_target::run`], all reachable through [`run_target`]): the
//! libFuzzer binaries in `fuzz_targets/` only call them, and `shader/tests/fuzz_corpus.rs`
//! replays the committed minimized corpora (`corpus-min/<target>/`) through the same functions
//! on the stable toolchain (it includes this file with `#[path]`, so nothing here may depend on
//! libfuzzer-sys). Also shared: linking a fuzzed stage with a fixed partner stage, and drawing a
//! linked program on a small target with every input a draw call can take filled in (all
//! attribute locations, every uniform, a texture on every unit).
//!
//! Must never: hide a failure of the library under test (a draw that fails for a program that
//! linked and inputs that are valid is a panic here, so the fuzzer reports it).
use shader::back::raster::{
    draw, Filter, RasterState, SamplerState, Target, TextureRef, VertexAttrib, VertexInput, Wrap,
};
use shader::ir::{Module, Stage, Type};
use shader::limits::{ATTR_MAX, SAMPLER_MAX};
use shader::program::link::{LinkError, Program};

#[path = "csir_target.rs"]
pub mod csir_target;
#[path = "guest_target.rs"]
pub mod guest_target;

/// The four targets, as `run_target` and the corpus directories name them.
pub const TARGETS: [&str; 4] = ["frontend", "csir", "exec", "guest"];

/// Runs one input through the named target's logic (false: no such target).
pub fn run_target(target: &str, data: &[u8]) -> bool {
    match target {
        "frontend" => frontend(data),
        "csir" => csir_target::run(data),
        "exec" => exec(data),
        "guest" => guest_target::run(data),
        _ => return false,
    }
    true
}

/// The `frontend` target: any bytes, in either stage (byte 0, bit 0) and either profile (byte 0,
/// bit 1: profile 2 by the compile option; a source's own `#pragma chrisos profile N` still
/// overrides it), must compile to a verified module or produce at least one diagnostic with a
/// position inside the source, within the profile's work budget; rendering and dumping never
/// panic. In profile 2 the preprocessor also runs on its own (as `shc preprocess` does): its
/// output stays within the token budgets and its diagnostics inside the source.
pub fn frontend(data: &[u8]) {
    let (opts, src) = match data.split_first() {
        Some((s, rest)) => (*s, rest),
        None => (0, data),
    };
    let stage = (opts & 1) as u32;
    if opts & 2 != 0 {
        return frontend_p2(stage, src);
    }
    let (result, stats) = shader::program::compile::compile_with_stats(stage, src, "fuzz");
    assert!(stats.work <= shader::limits::WORK_MAX + 1);
    check_result(src, result.as_ref().map(|sh| &sh.module));
    let _ = shader::front::dump::dump_ast(src, "fuzz", &mut String::new());
}

/// A compile's result: a verified, dumpable module, or located diagnostics that render.
fn check_result(src: &[u8], result: Result<&Module, &shader::front::diag::Diagnostics>) {
    match result {
        Ok(m) => {
            assert!(shader::ir::verify::verify(m).is_ok());
            let mut s = String::new();
            shader::ir::dump::dump_module("fuzz", m, &mut s).unwrap();
        }
        Err(d) => {
            assert!(d.total() > 0);
            check_located(src, d);
            let mut s = String::new();
            d.render(src, &mut s).unwrap();
        }
    }
}

/// Every kept error and warning points at a line of `src` (column 1 or more).
fn check_located(src: &[u8], d: &shader::front::diag::Diagnostics) {
    let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    for e in d.errors().chain(d.warnings()) {
        assert!(
            e.line >= 1 && e.line <= lines && e.column >= 1,
            "diagnostic at {}:{} outside the {} lines: {}",
            e.line,
            e.column,
            lines,
            e.message
        );
    }
}

thread_local! {
    /// One profile-2 workspace and preprocessor per thread (several MiB: never on the stack,
    /// and not allocated again for every input).
    static P2: core::cell::RefCell<(
        Box<shader::program::compile::Workspace>,
        Box<shader::front::pp::Preprocessor>,
    )> = core::cell::RefCell::new((
        Box::new(shader::program::compile::Workspace::new()),
        Box::new(shader::front::pp::Preprocessor::new()),
    ));
}

/// The profile-2 half of [`frontend`].
fn frontend_p2(stage: u32, src: &[u8]) {
    use shader::limits::{limits, Profile};
    use shader::program::compile::{compile_with_stats_in, CompileOptions};
    let opts = CompileOptions::profile(Profile::P2);
    let l = limits(Profile::P2);
    P2.with(|cell| {
        let mut guard = cell.borrow_mut();
        let (ws, pp) = &mut *guard;
        let (result, stats) = compile_with_stats_in(ws, stage, src, "fuzz", &opts);
        // Profile 2's budget (a source that selects profile 1 by its pragma has the smaller one).
        assert!(
            stats.work as usize <= l.compile_work_steps_max + 1,
            "work {}",
            stats.work
        );
        check_result(src, result.as_ref().map(|sh| &sh.module));
        drop(result);

        let mut diag = shader::front::diag::Diagnostics::new("fuzz");
        let ok = pp.run(src, &mut diag);
        check_located(src, &diag);
        let mut s = String::new();
        diag.render(src, &mut s).unwrap();
        if ok {
            assert!(pp.tokens().len() <= l.tokens_max);
            let mut text = String::new();
            pp.render(src, &mut text).unwrap();
        } else {
            assert!(diag.total() > 0);
        }
    });
}

/// The `exec` target: a shader compiled from fuzzer-chosen source is linked with a fixed
/// partner stage and drawn by the software rasterizer on a 16x16 target; nothing may panic, and
/// a program that linked must draw (the draw call's errors are all about invalid inputs, which
/// this never gives).
///
/// Input: byte 0 = options (bit 0 stage: 1 fragment, 0 vertex; the other bits as in
/// [`draw_linked`]), byte 1 = seed of the uniform values, the rest = source. The vertex shader
/// paired with a fragment shader is a fixed template that writes gl_Position plus one `out` per
/// varying the fragment shader reads (so linking succeeds whenever the fragment shader compiles
/// and fits the TGSI budget); vertex shaders are paired with a fixed one-colour fragment shader.
pub fn exec(data: &[u8]) {
    let [opts, seed, src @ ..] = data else { return };
    let fragment = opts & 1 != 0;
    let Some(m) = compile(fragment as u32, src) else {
        return;
    };
    let mut program = match link_with_partner(&m) {
        Ok(p) => p,
        // Only the trivial fallback vertex shader may lack the fragment inputs.
        Err(_) if fragment => return,
        // A stage over the TGSI budget compiles but never links (the specification's rule).
        Err(LinkError::Tgsi(Stage::Vertex, _)) => return,
        Err(e) => panic!("vertex shader compiled but does not link: {}", e),
    };
    draw_linked(&mut program, *opts, *seed);
}

/// Edge of the square render target.
pub const SIZE: u32 = 16;

/// Trivial vertex shader used when the template of [`vertex_for`] does not compile (a varying
/// name that collides with the template's own names, for instance).
pub const FIXED_VS: &[u8] = b"#version 330 core
layout(location = 0) in vec4 fz_pos;
void main() { gl_Position = fz_pos; }
";

/// Fragment shader paired with fuzzed vertex shaders.
pub const FIXED_FS: &[u8] = b"#version 330 core
out vec4 fz_color;
void main() { fz_color = vec4(1.0, 0.5, 0.25, 1.0); }
";

/// Uniform and attribute values: ordinary numbers and the awkward ones (signed zero, huge,
/// infinite, NaN, subnormal).
const VALUES: [f32; 16] = [
    0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    -0.0,
    1e30,
    -1e30,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1e-40,
    3.0,
    -7.5,
    f32::MAX,
    100.0,
];

const TEX_SIZES: [(u32, u32); 8] = [
    (1, 1),
    (2, 2),
    (3, 5),
    (4, 4),
    (16, 1),
    (1, 16),
    (7, 3),
    (8, 8),
];

/// Two triangles: one covering most of the target, one crossing the near plane (clipped).
const POSITIONS: [[f32; 4]; 6] = [
    [-0.9, -0.9, 0.0, 1.0],
    [0.9, -0.8, 0.5, 1.0],
    [0.1, 0.95, -0.5, 1.0],
    [-0.5, 0.5, -2.0, 1.0],
    [0.5, 0.5, 0.5, 1.0],
    [0.0, -0.5, 0.5, -0.5],
];

/// Compiles `src` for `stage` (0 vertex, 1 fragment), keeping only the module.
pub fn compile(stage: u32, src: &[u8]) -> Option<Module> {
    shader::program::compile::compile(stage, src, "fuzz")
        .ok()
        .map(|s| s.module)
}

/// The vertex template: gl_Position from attribute 0, every input of `fs` from attribute 1.
pub fn vertex_for(fs: &Module) -> String {
    let mut s = String::from(
        "#version 330 core\nlayout(location = 0) in vec4 fz_pos;\nlayout(location = 1) in vec4 fz_col;\n",
    );
    for v in &fs.iface.varyings {
        s.push_str(&format!("out {} {};\n", v.ty.name(), v.name.as_str()));
    }
    s.push_str("void main() {\n");
    for v in &fs.iface.varyings {
        let swizzle = match v.ty {
            Type::Float => ".x",
            Type::Vec2 => ".xy",
            Type::Vec3 => ".xyz",
            _ => "",
        };
        s.push_str(&format!("    {} = fz_col{};\n", v.name.as_str(), swizzle));
    }
    s.push_str("    gl_Position = fz_pos;\n}\n");
    s
}

/// Links `m` with the fixed partner of the other stage (for a fragment module: the template
/// vertex shader writing its inputs, or the trivial one when the template does not compile).
pub fn link_with_partner(m: &Module) -> Result<Program, LinkError> {
    let mut program = Program::new();
    match m.stage {
        Stage::Fragment => {
            let vs = compile(0, vertex_for(m).as_bytes())
                .or_else(|| compile(0, FIXED_VS))
                .expect("the fixed vertex shader compiles");
            program.link(Some(&vs), Some(m))?;
        }
        _ => {
            let fs = compile(1, FIXED_FS).expect("the fixed fragment shader compiles");
            program.link(Some(m), Some(&fs))?;
        }
    }
    Ok(program)
}

/// Sets every uniform from `seed`, then draws the two triangles on a [`SIZE`]² target with a
/// texture on every unit. `opts`: bit 1 depth test, bit 2 cull back faces, bit 3 linear filter,
/// bit 4 clamp-to-edge, bits 5-7 texture size. Panics when the draw is refused.
pub fn draw_linked(program: &mut Program, opts: u8, seed: u8) {
    for i in 0..program.uniforms().len() {
        let floats = program.uniforms()[i].floats();
        let vals: Vec<f32> = (0..floats)
            .map(|k| VALUES[(seed as usize + k * (seed as usize | 1) + i) % VALUES.len()])
            .collect();
        program
            .set_uniform(i, &vals)
            .expect("a uniform takes exactly floats() values");
    }

    // Every attribute location gets 4 floats per vertex: location 0 the position, the others a
    // pattern; each declared attribute reads its own component count.
    const STRIDE: usize = 4 * ATTR_MAX;
    let mut vdata = vec![0.0f32; STRIDE * POSITIONS.len()];
    for (v, p) in POSITIONS.iter().enumerate() {
        for loc in 0..ATTR_MAX {
            for c in 0..4 {
                vdata[v * STRIDE + loc * 4 + c] = if loc == 0 {
                    p[c]
                } else {
                    VALUES[(v + loc + c + seed as usize) % 6] * 0.5 + (c as f32) * 0.25
                };
            }
        }
    }
    let attribs: Vec<VertexAttrib> = program
        .attributes()
        .iter()
        .map(|a| VertexAttrib {
            location: a.location,
            offset: a.location as u32 * 4,
            components: a.components,
        })
        .collect();
    let input = VertexInput {
        data: &vdata,
        stride: STRIDE as u32,
        attribs: &attribs,
        count: POSITIONS.len() as u32,
    };

    let (tw, th) = TEX_SIZES[(opts >> 5) as usize];
    let texels: Vec<u32> = (0..tw * th)
        .map(|i| 0xff00_0000 | i.wrapping_mul(0x0004_1c37))
        .collect();
    let sampler = SamplerState {
        filter: if opts & 8 != 0 {
            Filter::Linear
        } else {
            Filter::Nearest
        },
        wrap: if opts & 16 != 0 {
            Wrap::ClampToEdge
        } else {
            Wrap::Repeat
        },
        ..SamplerState::default()
    };
    let tex = TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: tw,
        height: th,
        texels: &texels,
        sampler,
    };
    let textures: [Option<TextureRef>; SAMPLER_MAX] = [Some(tex); SAMPLER_MAX];

    let mut state = RasterState::new(SIZE, SIZE);
    state.depth_test = opts & 2 != 0;
    state.cull_back = opts & 4 != 0;
    let mut color = vec![0u32; (SIZE * SIZE) as usize];
    let mut depth = vec![1.0f32; (SIZE * SIZE) as usize];
    let mut target = Target {
        width: SIZE,
        height: SIZE,
        color: &mut color,
        depth: &mut depth,
    };
    target.clear(0xff00_0000, 1.0);
    if let Err(e) = draw(program, &input, None, &textures, &state, &mut target) {
        panic!("a linked program with valid inputs failed to draw: {}", e);
    }
}
