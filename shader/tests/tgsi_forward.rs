//! The TGSI emitter's forwarding step (registers read directly instead of copied, MUL + ADD as
//! MAD, unread mat3 lanes not written, matrix products without copies) changes the text, never
//! the result: a small interpreter of the emitted TGSI subset runs the forwarded text and the
//! unforwarded reference text of the same module on the same inputs, and every output register
//! (and the KILL state) must be bit-identical. Temps start as a canary value in both, so a
//! forwarded read of a temp that was never written shows up as a difference.
#[path = "tgsi_fixtures.rs"]
mod fixtures;
mod ircore_util;

use std::collections::HashMap;

use proptest::prelude::*;
use shader::back::tgsi::{check_tgsi, emit, emit_unforwarded};
use shader::ir::*;

#[derive(Clone, Copy, Debug, PartialEq)]
enum File {
    Temp,
    In,
    Out,
    Imm,
    Const,
}

#[derive(Clone, Debug)]
struct Operand {
    file: File,
    index: usize,
    swizzle: [usize; 4],
    mask: [bool; 4],
    neg: bool,
    abs: bool,
}

fn operand(text: &str) -> Operand {
    let mut t = text.trim();
    let neg = t.starts_with('-');
    if neg {
        t = &t[1..];
    }
    let abs = t.starts_with('|');
    if abs {
        t = t.trim_matches('|');
    }
    let (reg, suffix) = match t.rfind("].") {
        Some(k) => (&t[..k + 1], &t[k + 2..]),
        None => (t, ""),
    };
    let file = match &reg[..reg.find('[').unwrap()] {
        "TEMP" => File::Temp,
        "IN" => File::In,
        "OUT" => File::Out,
        "IMM" => File::Imm,
        "CONST" => File::Const,
        other => panic!("register file {}", other),
    };
    let index: usize = reg
        .rsplit('[')
        .next()
        .unwrap()
        .trim_end_matches(']')
        .parse()
        .unwrap();
    let lane = |c: char| "xyzw".find(c).unwrap();
    let mut swizzle = [0, 1, 2, 3];
    let mut mask = [true; 4];
    if !suffix.is_empty() {
        mask = [false; 4];
        for c in suffix.chars() {
            mask[lane(c)] = true;
        }
        if suffix.len() == 4 {
            for (k, c) in suffix.chars().enumerate() {
                swizzle[k] = lane(c);
            }
        }
    }
    Operand {
        file,
        index,
        swizzle,
        mask,
        neg,
        abs,
    }
}

struct Machine {
    temp: HashMap<usize, [f32; 4]>,
    out: HashMap<usize, [f32; 4]>,
    input: Vec<[f32; 4]>,
    konst: Vec<[f32; 4]>,
    imm: Vec<[f32; 4]>,
    killed: bool,
}

const CANARY: f32 = 1234.5;

impl Machine {
    fn read(&self, o: &Operand) -> [f32; 4] {
        let r = match o.file {
            File::Temp => self.temp.get(&o.index).copied().unwrap_or([CANARY; 4]),
            File::In => self.input[o.index],
            File::Imm => self.imm[o.index],
            File::Const => self.konst[o.index],
            File::Out => panic!("reads OUT"),
        };
        let mut v = [0.0; 4];
        for k in 0..4 {
            let mut x = r[o.swizzle[k]];
            if o.abs {
                x = x.abs();
            }
            if o.neg {
                x = -x;
            }
            v[k] = x;
        }
        v
    }

    fn write(&mut self, o: &Operand, v: [f32; 4]) {
        let reg = match o.file {
            File::Temp => self.temp.entry(o.index).or_insert([CANARY; 4]),
            File::Out => self.out.entry(o.index).or_insert([CANARY; 4]),
            _ => panic!("writes a read-only register"),
        };
        for k in 0..4 {
            if o.mask[k] {
                reg[k] = v[k];
            }
        }
    }
}

fn imm_values(line: &str) -> [f32; 4] {
    let body = line.split('{').nth(1).unwrap().trim_end_matches('}');
    let mut v = [0.0; 4];
    let uint = line.contains("UINT32");
    for (k, t) in body.split(", ").enumerate() {
        v[k] = if uint {
            f32::from_bits(t.trim().parse::<u32>().unwrap())
        } else {
            shader::back::tgsi::parse_tgsi_float(t.trim()).unwrap()
        };
    }
    v
}

fn bits(v: [f32; 4]) -> [u32; 4] {
    // All NaNs are one value: the two texts may produce different NaN payloads only through
    // operand order, which is not what this test is about.
    v.map(|x| if x.is_nan() { 0x7fc0_0000 } else { x.to_bits() })
}

/// Runs `text` (as the emitter writes it) and returns its outputs and whether it killed.
fn run(text: &str, input: &[[f32; 4]], konst: &[[f32; 4]]) -> (Vec<(usize, [u32; 4])>, bool) {
    let mut m = Machine {
        temp: HashMap::new(),
        out: HashMap::new(),
        input: input.to_vec(),
        konst: konst.to_vec(),
        imm: Vec::new(),
        killed: false,
    };
    let mut lines: Vec<&str> = Vec::new();
    for l in text.lines().skip(1) {
        if l.starts_with("IMM[") {
            m.imm.push(imm_values(l));
        } else if !(l.starts_with("DCL") || l.starts_with("PROPERTY") || l.is_empty()) {
            lines.push(l);
        }
    }
    // Structured control flow (one invocation, so by jumps): where each IF's ELSE (or ENDIF)
    // and each ELSE's ENDIF are, each ENDLOOP's BGNLOOP, and each BRK's loop's ENDLOOP.
    let mut jump = vec![usize::MAX; lines.len()];
    let mut open: Vec<usize> = Vec::new();
    let mut brks: Vec<Vec<usize>> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        match l.split(' ').next().unwrap_or("") {
            "IF" | "BGNLOOP" => {
                open.push(i);
                brks.push(Vec::new());
            }
            "ELSE" => {
                let k = open.pop().unwrap();
                jump[k] = i;
                open.push(i);
            }
            "ENDIF" => {
                let k = open.pop().unwrap();
                jump[k] = i;
                brks.pop();
            }
            "ENDLOOP" => {
                let k = open.pop().unwrap();
                jump[i] = k;
                for b in brks.pop().unwrap() {
                    jump[b] = i;
                }
            }
            "BRK" => {
                // Onto the list of the innermost open BGNLOOP (IFs in between keep none).
                let d = open
                    .iter()
                    .rposition(|&k| lines[k].starts_with("BGNLOOP"))
                    .unwrap();
                brks[d].push(i);
            }
            _ => {}
        }
    }
    let mut pc = 0;
    let mut steps = 0u32;
    while let Some(l) = lines.get(pc).copied() {
        steps += 1;
        assert!(steps < 50_000_000, "the TGSI does not terminate:\n{}", text);
        let here = pc;
        pc += 1;
        let (op, rest) = l.split_once(' ').unwrap_or((l, ""));
        match op {
            "IF" => {
                let c = m.read(&operand(rest))[0];
                if c == 0.0 {
                    pc = jump[here] + 1;
                }
                continue;
            }
            // Reached at the end of the IF's block: past the ENDIF.
            "ELSE" => {
                pc = jump[here] + 1;
                continue;
            }
            "ENDIF" | "BGNLOOP" => continue,
            "ENDLOOP" => {
                pc = jump[here] + 1;
                continue;
            }
            "BRK" => {
                pc = jump[here] + 1;
                continue;
            }
            "END" => break,
            "KILL" => {
                m.killed = true;
                continue;
            }
            _ => {}
        }
        let ops: Vec<&str> = rest.split(", ").collect();
        let dst = operand(ops[0]);
        let src: Vec<[f32; 4]> = if op == "TEX" {
            vec![m.read(&operand(ops[1]))]
        } else {
            ops[1..].iter().map(|o| m.read(&operand(o))).collect()
        };
        let lanewise = |f: &dyn Fn(usize) -> f32| -> [f32; 4] { [f(0), f(1), f(2), f(3)] };
        let dot = |n: usize| -> f32 {
            let (a, b) = (src[0], src[1]);
            let mut s = a[0] * b[0];
            for (x, y) in a.iter().zip(b.iter()).take(n).skip(1) {
                s += x * y;
            }
            s
        };
        let v = match op {
            "MOV" => src[0],
            "ADD" => lanewise(&|k| src[0][k] + src[1][k]),
            "MUL" => lanewise(&|k| src[0][k] * src[1][k]),
            // Rounded twice, as MUL then ADD: the interpreter checks data flow, not fusion.
            "MAD" => lanewise(&|k| src[0][k] * src[1][k] + src[2][k]),
            "MAX" => lanewise(&|k| src[0][k].max(src[1][k])),
            "MIN" => lanewise(&|k| src[0][k].min(src[1][k])),
            "DP2" => [dot(2); 4],
            "DP3" => [dot(3); 4],
            "DP4" => [dot(4); 4],
            "RCP" => [1.0 / src[0][0]; 4],
            "RSQ" => [1.0 / src[0][0].abs().sqrt(); 4],
            "SQRT" => [src[0][0].sqrt(); 4],
            "SIN" => [src[0][0].sin(); 4],
            "COS" => [src[0][0].cos(); 4],
            "POW" => [src[0][0].powf(src[1][0]); 4],
            "TRUNC" => lanewise(&|k| src[0][k].trunc()),
            "FLR" => lanewise(&|k| src[0][k].floor()),
            "CEIL" => lanewise(&|k| src[0][k].ceil()),
            "FRC" => lanewise(&|k| src[0][k] - src[0][k].floor()),
            "ROUND" => lanewise(&|k| src[0][k].round_ties_even()),
            "SSG" => lanewise(&|k| {
                let x = src[0][k];
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }),
            "EX2" => [src[0][0].exp2(); 4],
            "LG2" => [src[0][0].log2(); 4],
            // One invocation: the quad is this pixel four times over.
            "DDX" | "DDY" => [0.0; 4],
            "SLT" => lanewise(&|k| (src[0][k] < src[1][k]) as u8 as f32),
            "SGE" => lanewise(&|k| (src[0][k] >= src[1][k]) as u8 as f32),
            "SEQ" => lanewise(&|k| (src[0][k] == src[1][k]) as u8 as f32),
            "SNE" => lanewise(&|k| (src[0][k] != src[1][k]) as u8 as f32),
            // A texture that depends on the coordinate and the unit.
            "TEX" => {
                let unit: f32 = ops[2]
                    .trim_start_matches("SAMP[")
                    .trim_end_matches(']')
                    .parse()
                    .unwrap();
                let (u, v) = (src[0][0], src[0][1]);
                [u + unit, v, u * v, u - v]
            }
            // Profile 2's integer instructions on the lanes' bits (TGSI's definitions).
            "UADD" | "UMUL" | "IDIV" | "UDIV" | "MOD" | "UMOD" | "AND" | "OR" | "XOR" | "SHL"
            | "ISHR" | "USHR" | "IMIN" | "IMAX" | "UMIN" | "UMAX" | "ISLT" | "ISGE" | "USLT"
            | "USGE" | "USEQ" | "USNE" => lanewise(&|k| {
                let (x, y) = (src[0][k].to_bits(), src[1][k].to_bits());
                let (sx, sy) = (x as i32, y as i32);
                let t = |c: bool| if c { u32::MAX } else { 0 };
                f32::from_bits(match op {
                    "UADD" => x.wrapping_add(y),
                    "UMUL" => x.wrapping_mul(y),
                    "IDIV" if y == 0 => 0,
                    "IDIV" => sx.wrapping_div(sy) as u32,
                    "UDIV" => x.checked_div(y).unwrap_or(u32::MAX),
                    "MOD" | "UMOD" => x.checked_rem(y).unwrap_or(u32::MAX),
                    "AND" => x & y,
                    "OR" => x | y,
                    "XOR" => x ^ y,
                    "SHL" => x << (y & 31),
                    "ISHR" => (sx >> (y & 31)) as u32,
                    "USHR" => x >> (y & 31),
                    "IMIN" => sx.min(sy) as u32,
                    "IMAX" => sx.max(sy) as u32,
                    "UMIN" => x.min(y),
                    "UMAX" => x.max(y),
                    "ISLT" => t(sx < sy),
                    "ISGE" => t(sx >= sy),
                    "USLT" => t(x < y),
                    "USGE" => t(x >= y),
                    "USEQ" => t(x == y),
                    _ => t(x != y),
                })
            }),
            "NOT" | "INEG" | "IABS" | "ISSG" | "I2F" | "U2F" | "F2I" | "F2U" => lanewise(&|k| {
                let x = src[0][k];
                let b = x.to_bits();
                match op {
                    "NOT" => f32::from_bits(!b),
                    "INEG" => f32::from_bits((b as i32).wrapping_neg() as u32),
                    "IABS" => f32::from_bits((b as i32).wrapping_abs() as u32),
                    "ISSG" => f32::from_bits((b as i32).signum() as u32),
                    "I2F" => b as i32 as f32,
                    "U2F" => b as f32,
                    "F2I" => f32::from_bits(shader::ir::f2i(x) as u32),
                    _ => f32::from_bits(shader::ir::f2u(x)),
                }
            }),
            other => panic!("opcode {} in\n{}", other, text),
        };
        m.write(&dst, v);
    }
    let mut outs: Vec<(usize, [u32; 4])> = m.out.iter().map(|(k, v)| (*k, bits(*v))).collect();
    outs.sort();
    (outs, m.killed)
}

fn texts(m: &Module) -> Option<(std::string::String, std::string::String)> {
    let mut a = shader::back::tgsi::TgsiText::new();
    let mut b = shader::back::tgsi::TgsiText::new();
    emit(m, None, &mut a).ok()?;
    emit_unforwarded(m, None, &mut b).ok()?;
    check_tgsi(&a).unwrap_or_else(|e| panic!("{}\n{}", e, a.as_str()));
    Some((a.as_str().to_string(), b.as_str().to_string()))
}

fn inputs(seed: u32) -> (Vec<[f32; 4]>, Vec<[f32; 4]>) {
    let mut x = seed.wrapping_mul(2_654_435_761) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // Small values with a sign, so products and comparisons go both ways.
        ((x % 2001) as f32 - 1000.0) / 250.0
    };
    let mut v4 =
        |n: usize| -> Vec<[f32; 4]> { (0..n).map(|_| [next(), next(), next(), next()]).collect() };
    (v4(16), v4(32))
}

fn same_results(m: &Module, seed: u32) -> Result<(), TestCaseError> {
    let Some((forwarded, reference)) = texts(m) else {
        return Ok(());
    };
    let (input, konst) = inputs(seed);
    let a = run(&forwarded, &input, &konst);
    let b = run(&reference, &input, &konst);
    prop_assert_eq!(
        &a,
        &b,
        "forwarded:\n{}\nreference:\n{}",
        forwarded,
        reference
    );
    Ok(())
}

/// Instructions biased towards what forwarding rewrites: constants, loads, whole copies, MUL
/// followed by ADD or SUB, partial writes of the same few temps, and blocks around them.
fn arb_biased(temps: i16) -> impl Strategy<Value = (Inst, u8)> {
    let plain = fixtures::random::arb_inst(temps);
    let shaped = (
        0u8..6,
        0i16..temps,
        0i16..temps,
        0i16..temps,
        1u8..5,
        0u8..8,
    )
        .prop_map(move |(kind, d, a, b, lanes, wrap)| {
            let mut i = match kind {
                0 => {
                    let mut i = Inst::new(Op::Const);
                    i.lanes = 1 + lanes % 4;
                    i.aux = a % 4;
                    i
                }
                1 => {
                    let mut i = Inst::new(Op::Mov);
                    i.a = a;
                    i.lanes = if lanes > 2 { 4 } else { lanes };
                    i
                }
                2 | 3 => {
                    let mut i = Inst::new(if kind == 2 { Op::Mul } else { Op::Add });
                    (i.a, i.b, i.lanes) = (a, b, if lanes > 1 { 4 } else { lanes });
                    i
                }
                4 => {
                    let mut i = Inst::new(Op::Sub);
                    (i.a, i.b, i.lanes) = (a, b, 4);
                    i
                }
                _ => {
                    let mut i = Inst::new(Op::LoadUni);
                    (i.aux, i.aux2) = if lanes > 2 { (0, 4) } else { (4, 1) };
                    i.dst = d % (temps - 4);
                    return (shader::program::csir::normalize(i), wrap);
                }
            };
            i.ty = Type::Vec4 as u8;
            i.dst = d;
            (shader::program::csir::normalize(i), wrap)
        });
    prop_oneof![plain, shaped]
}

/// Makes most MUL + ADD/SUB neighbours a product and its use (either operand, the same lanes).
fn pair_up(mut v: Vec<(Inst, u8)>) -> Vec<Inst> {
    for k in 1..v.len() {
        let (prev, _) = v[k - 1];
        let (cur, wrap) = &mut v[k];
        if prev.op == Op::Mul && matches!(cur.op, Op::Add | Op::Sub) && *wrap > 1 {
            if *wrap % 2 == 0 {
                cur.a = prev.dst;
            } else {
                cur.b = prev.dst;
            }
            cur.lanes = prev.lanes;
        }
    }
    fixtures::random::with_blocks(v)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn forwarding_keeps_every_result(
        frag in any::<bool>(),
        insts in proptest::collection::vec(arb_biased(6), 1..40),
        seed in any::<u32>(),
    ) {
        let m = fixtures::random::module(frag, pair_up(insts));
        if shader::ir::verify::verify(&m).is_ok() {
            same_results(&m, seed)?;
        }
    }
}

/// The corpus shaders, through the compiler: identical results, and the forwarded text is
/// never longer.
#[test]
fn corpus_results_are_unchanged_and_text_is_shorter() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let file = p.file_name().unwrap().to_str().unwrap().to_string();
        if file.starts_with("err_") || !(file.ends_with(".vert") || file.ends_with(".frag")) {
            continue;
        }
        let src = std::fs::read(&p).unwrap();
        let stage = if file.ends_with(".frag") { 1 } else { 0 };
        let sh = shader::program::compile::compile(stage, &src, &file).unwrap();
        // Modules with loops are emitted without forwarding (and this interpreter has no
        // loops): nothing to compare.
        // Likewise modules with indirect addressing (emitted without forwarding; no ADDR here),
        // and with profile 2's texture ops (this interpreter models TEX only).
        if sh
            .module
            .insts
            .iter()
            .any(|i| i.op == shader::ir::Op::Loop || i.op.is_indirect() || i.op.is_texture())
        {
            continue;
        }
        // Nor system values (gl_VertexID, gl_InstanceID).
        if sh
            .module
            .insts
            .iter()
            .any(|i| i.op == shader::ir::Op::LoadSysval)
        {
            continue;
        }
        let mut fwd = shader::back::tgsi::TgsiText::new();
        emit(&sh.module, None, &mut fwd).unwrap_or_else(|e| panic!("{}: {}", file, e));
        let mut big = std::string::String::new();
        // The reference may not fit the budget (that is why forwarding exists): only compare
        // when it does.
        let mut reference = shader::back::tgsi::TgsiText::new();
        if emit_unforwarded(&sh.module, None, &mut reference).is_ok() {
            assert!(fwd.len() <= reference.len(), "{}", file);
            big.push_str(reference.as_str());
            for seed in 0..8 {
                let (input, konst) = inputs(seed);
                assert_eq!(
                    run(fwd.as_str(), &input, &konst),
                    run(&big, &input, &konst),
                    "{}\n{}\n{}",
                    file,
                    fwd.as_str(),
                    big
                );
            }
            n += 1;
        }
    }
    assert!(n > 40, "{} corpus shaders compared", n);
}

/// The property above only says something if the generator mostly produces verified modules
/// whose forwarded text differs from the reference (MADs, direct register reads).
#[test]
fn most_biased_modules_verify_and_get_forwarded() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strat = (
        any::<bool>(),
        proptest::collection::vec(arb_biased(6), 1..40),
    );
    let (mut verified, mut changed, mut mads) = (0, 0, 0);
    for _ in 0..300 {
        let (frag, insts) = strat.new_tree(&mut runner).unwrap().current();
        let m = fixtures::random::module(frag, pair_up(insts));
        if shader::ir::verify::verify(&m).is_err() {
            continue;
        }
        verified += 1;
        if let Some((a, b)) = texts(&m) {
            changed += (a != b) as u32;
            mads += (a.matches("MAD").count() > b.matches("MAD").count()) as u32;
        }
    }
    assert!(verified > 150, "{} of 300 verify", verified);
    assert!(changed > 100, "{} forwarded", changed);
    assert!(mads > 20, "{} with a fused MAD", mads);
}

#[test]
fn a_loop_with_continue_computes_on_tgsi_what_the_executor_computes() {
    // A CSIR module may hold a CONTINUE; the emitter lowers it without CONT (a one-trip inner
    // loop left by BRK, a break flag for BREAK). Per lane (gl_FragCoord.x = lane: the lanes
    // leave at different iterations, continue skips the odd ones), the interpreted TGSI must
    // give the executor's colour, and a bound that cuts the loop short must too.
    use shader::back::exec::lanes::LANES;
    for (bound, from_lane, late) in [
        (100, true, false),
        (5, true, false),
        (7, false, false),
        (100, true, true),
        (9, true, true),
    ] {
        let m = if late {
            ircore_util::p2::break_after_effects(bound)
        } else {
            ircore_util::p2::counting(bound, from_lane)
        };
        assert!(m.insts.iter().any(|i| i.op == Op::Continue));
        let text = ircore_util::p2::tgsi_ok(&m);
        assert!(!text.lines().any(|l| l.trim() == "CONT"), "{}", text);
        let color = ircore_util::p2::run_fs_lanes(&m);
        for l in 0..LANES {
            let (outs, killed) = run(&text, &[[l as f32, 0.0, 0.0, 1.0]], &[]);
            assert!(!killed);
            let want = bits([color[0][l], color[1][l], color[2][l], color[3][l]]);
            assert_eq!(
                outs,
                vec![(0, want)],
                "bound {} lane {}\n{}",
                bound,
                l,
                text
            );
        }
    }
}
