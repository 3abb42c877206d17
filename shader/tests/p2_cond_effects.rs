//! Issue 14 item 3: `?:` whose arms call functions with side effects (out/inout parameters,
//! writes of globals): only the selected arm's effects happen, per lane.
use heapless::String;
use shader::back::exec::lanes::{Vec4x, ALL_LANES, LANES};
use shader::back::exec::*;
use shader::back::tgsi::{check_tgsi, emit};
use shader::ir::*;
use shader::limits::{SAMPLER_MAX, TGSI_CAP, UNIFORM_FLOATS, VARYING_CAP};

fn compile(body: &str) -> shader::program::compile::Shader {
    let src = format!("#pragma chrisos profile 2\n{}", body);
    match shader::program::compile::compile(0, src.as_bytes(), "t.vert") {
        Ok(s) => s,
        Err(d) => {
            let mut s = std::string::String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

fn tgsi(m: &Module) -> std::string::String {
    let mut out: String<TGSI_CAP> = String::new();
    emit(m, None, &mut out).unwrap_or_else(|e| panic!("emit failed: {}", e));
    check_tgsi(&out).unwrap_or_else(|e| panic!("{}\n{}", e, out.as_str()));
    out.as_str().into()
}

/// Compiles a vertex shader, checks its TGSI, runs it with `uniforms` (vec4 slots) and
/// attribute 0 = (lane index, 0, 0, 0); gl_Position per lane.
fn run(body: &str, uniforms: &[[f32; 4]]) -> [[f32; 4]; LANES] {
    let sh = compile(body);
    tgsi(&sh.module);
    let exe = Executable::new(&sh.module, None).expect("verified");
    let mut uni = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter().enumerate() {
        uni[i * 4..i * 4 + 4].copy_from_slice(u);
    }
    let mut inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    for l in 0..LANES {
        inputs[0][0][l] = l as f32;
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
    exe.run(&mut regs, &inv, &mut out, ALL_LANES);
    let mut r = [[0.0; 4]; LANES];
    for (l, v) in r.iter_mut().enumerate() {
        for c in 0..4 {
            v[c] = out.position[c][l];
        }
    }
    r
}

#[test]
fn only_the_selected_arm_writes_out_params_and_globals_per_lane() {
    let r = run(
        "in vec4 a;\nfloat g = 0.0;\n\
         float bump(inout float x) { x += 10.0; g += 1.0; return 1.0; }\n\
         float other(out float y) { y = 5.0; g += 100.0; return 2.0; }\n\
         void main() { float x = 0.0; float y = 0.0;\n\
         float r = (a.x < 16.0) ? bump(x) : other(y);\n\
         gl_Position = vec4(r, x, y, g); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let want = if l < 16 {
            [1.0, 10.0, 0.0, 1.0]
        } else {
            [2.0, 0.0, 5.0, 100.0]
        };
        assert_eq!(*p, want, "lane {}", l);
    }
}

#[test]
fn an_int_arm_with_effects_converts_to_a_float_result() {
    let r = run(
        "in vec4 a;\nfloat g = 0.0;\n\
         int three(out float z) { z = 7.0; g += 1.0; return 3; }\n\
         float onehalf(inout float z) { z += 1.0; return 1.5; }\n\
         void main() { float z = 0.0;\n\
         float q = (a.x < 8.0) ? three(z) : onehalf(z);\n\
         float w = (a.x < 4.0) ? 0.25 : float(three(z));\n\
         gl_Position = vec4(q, z, g, w); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let (q, z1, g1) = if l < 8 {
            (3.0, 7.0, 1.0)
        } else {
            (1.5, 1.0, 0.0)
        };
        let (w, z, g) = if l < 4 {
            (0.25, z1, g1)
        } else {
            (3.0, 7.0, g1 + 1.0)
        };
        assert_eq!(*p, [q, z, g, w], "lane {}", l);
    }
}

#[test]
fn an_int_second_arm_with_effects_converts_too() {
    let r = run(
        "in vec4 a;\n\
         int three(out float z) { z = 7.0; return 3; }\n\
         float onehalf(inout float z) { z += 1.0; return 1.5; }\n\
         void main() { float z = 0.0;\n\
         float q = (a.x < 8.0) ? onehalf(z) : three(z);\n\
         gl_Position = vec4(q, z, 0.0, 1.0); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let want = if l < 8 {
            [1.5, 1.0, 0.0, 1.0]
        } else {
            [3.0, 7.0, 0.0, 1.0]
        };
        assert_eq!(*p, want, "lane {}", l);
    }
}
