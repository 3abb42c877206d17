//! Executor tests: SoA execution against the scalar reference interpreter on random verified
//! IR, and the numeric edge cases chosen to follow llvmpipe.
mod ircore_util;
use ircore_util::reference::*;
use ircore_util::*;
use proptest::prelude::*;
use shader::back::exec::lanes::{Mask, ALL_LANES, LANES};
use shader::back::exec::math::{cos, pow, sin};
use shader::back::exec::texture::{Filter, SamplerState, TextureRef, Wrap};
use shader::back::exec::*;
use shader::ir::*;

fn texels() -> Vec<u32> {
    vec![0xFF10_2030, 0x8040_5060, 0x0070_8090, 0xFFA0_B0C0]
}

/// Runs `m` on 8 lanes with per-lane inputs from `seed` and checks every active lane against
/// the reference interpreter.
fn check_module(m: &Module, seed: u64) {
    let exe = Executable::new(m, None).expect("generated module verifies");
    let mut r = Rng(seed | 3);
    let tx = texels();
    let textures = [
        Some(TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: 2,
            height: 2,
            texels: &tx,
            sampler: SamplerState::new(Filter::Linear, Wrap::Repeat),
        }),
        None,
        None,
        None,
    ];
    let mut uniforms = [0.0f32; 128];
    uniforms.iter_mut().for_each(|u| *u = r.value());
    let mut inputs = [[[0.0f32; LANES]; 4]; 16];
    let mut fragcoord = [[0.0f32; LANES]; 4];
    for s in inputs.iter_mut() {
        for c in s.iter_mut() {
            c.iter_mut().for_each(|x| *x = r.value());
        }
    }
    for c in fragcoord.iter_mut() {
        c.iter_mut().for_each(|x| *x = r.value());
    }
    let active = (r.next() as Mask) | 1;
    let mut regs = Regs::new();
    // Dirty registers must not leak into results (temps read before written start at 0).
    let mut dirty = Outputs::new();
    let junk = [[[f32::NAN; LANES]; 4]; 16];
    let inv_junk = Invocation {
        uniforms: &[7.0; 128],
        textures: &textures,
        inputs: &junk,
        fragcoord: &junk[0],
    };
    exe.run(&mut regs, &inv_junk, &mut dirty, ALL_LANES);
    let inv = Invocation {
        uniforms: &uniforms,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut out = Outputs::new();
    out.color = [[f32::NAN; LANES]; 4];
    let alive = exe.run(&mut regs, &inv, &mut out, active);
    for l in 0..LANES {
        if active & (1 << l) == 0 {
            continue;
        }
        let lane4 = |v: &[[f32; LANES]; 4]| [v[0][l], v[1][l], v[2][l], v[3][l]];
        let mut ri = RefIn {
            attrs: [[0.0; 4]; 8],
            vars: [[0.0; 4]; 8],
            fragcoord: lane4(&fragcoord),
            uniforms: &uniforms,
            textures: &textures,
        };
        for s in 0..8 {
            ri.attrs[s] = lane4(&inputs[s]);
            ri.vars[s] = lane4(&inputs[s]);
        }
        let want = reference(m, &ri);
        let discarded = alive & (1 << l) == 0;
        assert_eq!(discarded, want.discarded, "lane {} discard", l);
        let cmp = |what: &str, got: [f32; 4], exp: [f32; 4]| {
            for c in 0..4 {
                assert!(
                    same(got[c], exp[c]),
                    "lane {} {}[{}]: got {} want {}\n{:?}",
                    l,
                    what,
                    c,
                    got[c],
                    exp[c],
                    m.insts
                );
            }
        };
        match m.stage {
            Stage::Vertex => {
                cmp("position", lane4(&out.position), want.position);
                for s in 0..4 {
                    cmp("varying", lane4(&out.varyings[s]), want.varyings[s]);
                }
            }
            Stage::Fragment if !discarded => cmp("color", lane4(&out.color), want.color),
            Stage::Fragment => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn soa_executor_matches_scalar_reference(seed in any::<u64>(), input_seed in any::<u64>()) {
        let m = random_module(seed);
        check_module(&m, input_seed);
    }
}

fn run_fs(m: &Module) -> [f32; 4] {
    let exe = Executable::new(m, None).unwrap();
    let inputs = [[[0.0f32; LANES]; 4]; 16];
    let fc = [[0.0f32; LANES]; 4];
    let tex: [Option<TextureRef>; 4] = [None; 4];
    let inv = Invocation {
        uniforms: &[0.0; 128],
        textures: &tex,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut out = Outputs::new();
    exe.run(&mut Regs::new(), &inv, &mut out, 1);
    [
        out.color[0][0],
        out.color[1][0],
        out.color[2][0],
        out.color[3][0],
    ]
}

#[test]
fn gpu_like_edge_cases() {
    let mut b = B::new(Stage::Fragment);
    let one = b.konst(&[1.0, 1.0, 1.0, 1.0]);
    let zero = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    let div = b.bin(Op::Div, one, zero, 1); // 1/0 = inf
    let rcp = b.un(Op::Rcp, zero, 1); // inf
                                      // normalize(vec3(0)) = v * rsq(dot(v, v)) = 0 * inf = NaN
    let d = b.temp();
    b.inst(Op::Dot, d, zero, zero, 1, 3, 0);
    let rs = b.un(Op::Rsq, d, 1);
    let nrm = b.bin(Op::Mul, zero, rs, 1);
    let out = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    b.inst(Op::SetLane, out, div, -1, 0, 0, 0);
    b.inst(Op::SetLane, out, rcp, -1, 0, 1, 0);
    b.inst(Op::SetLane, out, nrm, -1, 0, 2, 0);
    b.color(out);
    let c = run_fs(&b.done());
    assert_eq!(c[0], f32::INFINITY);
    assert_eq!(c[1], f32::INFINITY);
    assert!(c[2].is_nan());
    assert_eq!(c[3], 0.0);

    assert!(pow(-2.0, 2.0).is_nan());
    assert!(pow(0.0, 0.0).is_nan());
    assert_eq!(pow(0.0, 2.0), 0.0);
    assert_eq!(pow(0.0, -1.0), f32::INFINITY);
    assert_eq!(pow(2.0, 10.0), 1024.0);
    assert_eq!(pow(4.0, 0.5), 2.0);
}

#[test]
fn min_max_return_the_number_when_one_operand_is_nan() {
    let mut b = B::new(Stage::Fragment);
    let nan = b.konst(&[f32::NAN, 2.0, f32::NAN, 0.0]);
    let lo = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    let hi = b.konst(&[1.0, 1.0, 1.0, 1.0]);
    // clamp(x, 0, 1) = min(max(x, 0), 1)
    let m1 = b.bin(Op::Max, nan, lo, 4);
    let m2 = b.bin(Op::Min, m1, hi, 4);
    b.color(m2);
    assert_eq!(run_fs(&b.done()), [0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn if_else_masks_per_lane_and_discard_ends_lanes() {
    // colour.x = lane's varying.x > 0 ? 1 : 2; discard when varying.y > 0.
    let mut b = B::new(Stage::Fragment);
    let v = b.load_varying("v", 0, Type::Vec4);
    let z = b.konst(&[0.0]);
    let c = b.temp();
    b.inst(Op::Cmp, c, v, z, 1, CmpCode::Gt as i16, 0);
    let out = b.konst(&[0.0, 0.0, 0.0, 1.0]);
    let k1 = b.konst(&[1.0]);
    let k2 = b.konst(&[2.0]);
    b.inst(Op::If, -1, c, -1, 0, 0, 0);
    b.inst(Op::Mov, out, k1, -1, 1, 0, 0);
    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Mov, out, k2, -1, 1, 0, 0);
    let y = b.temp();
    b.inst(Op::Swz, y, v, -1, 1, 1, 0); // y = v.y
    let c2 = b.temp();
    b.inst(Op::Cmp, c2, y, z, 1, CmpCode::Gt as i16, 0);
    b.inst(Op::If, -1, c2, -1, 0, 0, 0);
    b.inst(Op::Discard, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    b.color(out);
    let m = b.done();
    let exe = Executable::new(&m, None).unwrap();
    let mut inputs = [[[0.0f32; LANES]; 4]; 16];
    for l in 0..LANES {
        inputs[0][0][l] = if l % 2 == 0 { 1.0 } else { -1.0 };
        inputs[0][1][l] = if l % 4 < 2 { 1.0 } else { -1.0 };
    }
    let fc = [[0.0f32; LANES]; 4];
    let tex: [Option<TextureRef>; 4] = [None; 4];
    let inv = Invocation {
        uniforms: &[0.0; 128],
        textures: &tex,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut out = Outputs::new();
    let alive = exe.run(&mut Regs::new(), &inv, &mut out, 0b0111_1111);
    // Lanes with x <= 0 and y > 0 (1, 5) are discarded; lane 7 was never active.
    assert_eq!(alive, 0b0101_1101);
    for l in [0usize, 2, 4, 6] {
        assert_eq!(out.color[0][l], 1.0);
    }
    assert_eq!(out.color[0][3], 2.0);
}

#[test]
fn executable_refuses_unverified_modules() {
    let mut b = B::new(Stage::Fragment);
    b.temps(2);
    b.inst(Op::Add, 0, 1, 5, 4, 0, 0); // temp 5 does not exist
    assert!(Executable::new(&b.done(), None).is_err());
}

#[test]
fn pow_is_close_to_libm() {
    let mut r = Rng(99);
    for _ in 0..200_000 {
        let x = f32::from_bits((r.next() as u32) & 0x7fff_ffff);
        let y = (r.below(4001) as f32 - 2000.0) / 100.0;
        if !x.is_finite() {
            continue;
        }
        let (a, b) = (pow(x, y), libm::powf(x, y));
        let ok = if a.is_normal() && b.is_normal() {
            // f32 evaluation: relative error grows with |y log2 x| (rounding of log2 x).
            ((a - b) / b).abs() <= 1.2e-7 * (libm::log2f(b.abs()).abs() + 2.0)
        } else {
            // Subnormal, zero, infinite or NaN results come from the f64 path.
            same(a, b) || (a.to_bits() as i64 - b.to_bits() as i64).abs() <= 1
        };
        assert!(ok, "pow({}, {}) = {} vs {}", x, y, a, b);
    }
    assert_eq!(pow(2.0, 10.0), 1024.0);
    assert_eq!(pow(0.5, 16.0), 1.0 / 65536.0);
    assert_eq!(pow(4.0, 0.5), 2.0);
    assert_eq!(pow(f32::INFINITY, 2.0), f32::INFINITY);
    assert_eq!(pow(f32::INFINITY, -2.0), 0.0);
}

#[test]
fn sin_cos_are_close_to_libm() {
    let mut r = Rng(5);
    for i in 0..400_000 {
        let x = match i % 3 {
            0 => (r.below(2_000_001) as f32 - 1_000_000.0) / 1000.0,
            1 => f32::from_bits(r.next() as u32),
            _ => (r.below(20001) as f32 - 10000.0) * 9.5,
        };
        for (a, b) in [(sin(x), libm::sinf(x)), (cos(x), libm::cosf(x))] {
            // The f32 path (|x| < 8192): 2 ulp, or 2e-7 absolute near zeros of sin/cos.
            let d = (a.to_bits() as i64 - b.to_bits() as i64).abs();
            let ulps = if x.abs() < 8192.0 { 2 } else { 1 };
            assert!(
                same(a, b) || d <= ulps || (a - b).abs() <= 2e-7,
                "x = {}: {} vs {}",
                x,
                a,
                b
            );
        }
    }
    assert_eq!(sin(0.0), 0.0);
    assert_eq!(cos(0.0), 1.0);
    assert!(sin(f32::INFINITY).is_nan() && cos(f32::NAN).is_nan());
}

// --- Profile-2 modules with more temps than the executor's 96 registers (issue 12 item 3):
// the executor renumbers temps by live range (ir::regalloc) and must compute exactly what the
// reference interpreter computes on the module as written.

/// `m` with its temps moved up by `fillers` and, before every instruction, filler pairs
/// (CONST f; ADD f, f, t) on fresh temps below: each filler lives two instructions, the body's
/// temps live across them, so a register shared wrongly clobbers a body value. Profile 2.
fn spread(m: &Module, fillers: u16, seed: u64) -> Module {
    let mut r = Rng(seed | 5);
    let mut o = m.clone();
    o.profile = shader::limits::Profile::P2;
    o.temps = m.temps + fillers;
    o.insts.clear();
    let shift = |v: i16| if v >= 0 { v + fillers as i16 } else { v };
    let per = (fillers as usize).div_ceil(m.insts.len().max(1));
    let mut next = 0u16;
    for inst in m.insts.iter() {
        for _ in 0..per {
            if next == fillers {
                break;
            }
            let f = next as i16;
            next += 1;
            let body = shift(r.below(m.temps as u64) as i16);
            let mut c = Inst::new(Op::Const);
            c.ty = Type::Vec4 as u8;
            c.lanes = 4;
            c.dst = f;
            c.aux = 0;
            o.insts.push(c).unwrap();
            let mut a = Inst::new(Op::Add);
            a.ty = Type::Vec4 as u8;
            a.dst = f;
            a.a = f;
            a.b = body;
            o.insts.push(a).unwrap();
        }
        let e = shader::ir::regalloc::temp_operands(inst);
        let mut i = *inst;
        if e.0 {
            i.dst = shift(i.dst);
        }
        if e.1 {
            i.a = shift(i.a);
        }
        if e.2 {
            i.b = shift(i.b);
        }
        o.insts.push(i).unwrap();
    }
    o
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn renumbered_profile_2_modules_match_the_reference(
        seed in any::<u64>(),
        input_seed in any::<u64>(),
        fillers in 90u16..990,
    ) {
        let m = spread(&random_module(seed), fillers, seed ^ input_seed);
        prop_assert!(m.temps as usize > 96);
        shader::ir::verify::verify(&m).unwrap();
        check_module(&m, input_seed);
    }
}

/// Runs fragment module `m` on LANES lanes where varying 0 is (l % 2, 1, 2, 3) in lane l and
/// returns the colour of lanes 0 and 1.
fn run_fs_alternating(m: &Module) -> [[f32; 4]; 2] {
    let exe = Executable::new(m, None).unwrap();
    let mut inputs = [[[0.0f32; LANES]; 4]; 16];
    for l in 0..LANES {
        inputs[0][0][l] = (l % 2) as f32;
        inputs[0][1][l] = 1.0;
        inputs[0][2][l] = 2.0;
        inputs[0][3][l] = 3.0;
    }
    let fc = [[0.0f32; LANES]; 4];
    let tex: [Option<TextureRef>; 4] = [None; 4];
    let inv = Invocation {
        uniforms: &[0.0; 128],
        textures: &tex,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut out = Outputs::new();
    exe.run(&mut Regs::new(), &inv, &mut out, ALL_LANES);
    let lane = |l: usize| {
        [
            out.color[0][l],
            out.color[1][l],
            out.color[2][l],
            out.color[3][l],
        ]
    };
    [lane(0), lane(1)]
}

/// A temp written only under IF and read after ENDIF starts at zero in the lanes that skipped
/// the IF, even when an earlier temp (dead by then) could have lent it its register.
#[test]
fn renumbering_keeps_temps_written_under_if_zero_elsewhere() {
    let mut b = B::new(Stage::Fragment);
    b.m.profile = shader::limits::Profile::P2;
    b.declare_varying("v", 0, Type::Vec4);
    b.m.imms.extend_from_slice(&[2.0, 2.0, 2.0, 2.0]).unwrap();
    b.m.temps = 200;
    let (f, t) = (0i16, 150i16);
    b.inst(Op::LoadVar, f, -1, -1, 4, 0, 0);
    b.inst(Op::If, -1, f, -1, 0, 0, 0);
    b.inst(Op::Const, t, -1, -1, 4, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    b.inst(Op::StoreColor, -1, t, -1, 4, 0, 0);
    let m = b.m.clone();
    shader::ir::verify::verify(&m).unwrap();
    let r = shader::ir::regalloc::renumber(&m, 96).unwrap();
    assert_ne!(
        r.register(f),
        r.register(t),
        "t may be read as zero: it must not share"
    );
    assert_eq!(run_fs_alternating(&m), [[0.0; 4], [2.0; 4]]);
    // Written in the IF and read there: the two may share one register.
    let mut b2 = B::new(Stage::Fragment);
    b2.m.profile = shader::limits::Profile::P2;
    b2.declare_varying("v", 0, Type::Vec4);
    b2.m.imms.extend_from_slice(&[2.0, 2.0, 2.0, 2.0]).unwrap();
    b2.m.temps = 200;
    let out = 7i16;
    b2.inst(Op::Const, out, -1, -1, 4, 0, 0);
    b2.inst(Op::LoadVar, f, -1, -1, 4, 0, 0);
    b2.inst(Op::If, -1, f, -1, 0, 0, 0);
    b2.inst(Op::Const, t, -1, -1, 4, 0, 0);
    b2.inst(Op::Add, out, t, t, 4, 0, 0);
    b2.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    b2.inst(Op::StoreColor, -1, out, -1, 4, 0, 0);
    let r = shader::ir::regalloc::renumber(&b2.m, 96).unwrap();
    assert_eq!(
        r.register(f),
        r.register(t),
        "disjoint live ranges share a register"
    );
    assert_eq!(run_fs_alternating(&b2.m), [[2.0; 4], [4.0; 4]]);
}

/// A profile-2 GLSL shader of 600 locals, each live for a few statements: 600+ temps that fit
/// the executor's 96 registers after renumbering; its results match the reference on the module
/// as compiled. And one whose 150 locals are all live at once is refused with the reason.
#[test]
fn profile_2_glsl_with_hundreds_of_temps_runs_on_the_executor() {
    let mut src = String::from(
        "#version 330\n#pragma chrisos profile 2\nin vec4 vcolor;\nout vec4 fragColor;\nuniform vec4 k;\nvoid main() {\n    vec4 a0 = vcolor;\n",
    );
    for i in 1..600 {
        src.push_str(&format!(
            "    vec4 a{} = a{} * 0.75 + a{} * 0.25 + k;\n",
            i,
            i - 1,
            i.max(5) - 5
        ));
    }
    src.push_str("    fragColor = a599 * 0.001;\n}\n");
    let sh = shader::program::compile::compile(1, src.as_bytes(), "chain").unwrap();
    let m = &sh.module;
    assert!(m.temps >= 600, "{} temps", m.temps);
    let r = shader::ir::regalloc::renumber(m, 96).unwrap();
    assert!(r.registers <= 16, "{} registers", r.registers);
    for seed in 0..8 {
        check_module(m, seed);
    }

    let mut wide = String::from(
        "#version 330\n#pragma chrisos profile 2\nin vec4 vcolor;\nout vec4 fragColor;\nvoid main() {\n",
    );
    for i in 0..150 {
        wide.push_str(&format!("    vec4 a{} = vcolor * {}.0;\n", i, i + 1));
    }
    wide.push_str("    vec4 s = vec4(0.0);\n");
    for i in 0..150 {
        wide.push_str(&format!("    s = s + a{};\n", i));
    }
    wide.push_str("    fragColor = s;\n}\n");
    let sh = shader::program::compile::compile(1, wide.as_bytes(), "wide").unwrap();
    let e = match Executable::new(&sh.module, None) {
        Err(e) => e,
        Ok(_) => panic!("150 live vec4 cannot fit 96 registers"),
    };
    assert!(
        e.message.contains("at most 96 temporaries live at once"),
        "{}",
        e
    );
    let at = e.inst.expect("located");
    assert!(at < sh.module.insts.len());
    let Err(p) = shader::ir::regalloc::renumber(&sh.module, 96) else {
        panic!("renumbering fits 150 live vec4 into 96 registers")
    };
    assert!(p.live > 96, "{:?}", p);
}
