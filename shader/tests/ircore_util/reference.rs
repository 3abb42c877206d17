//! A scalar, one-invocation reference interpreter written straight from the operand table in
//! `ir.rs`, and a generator of random verified modules. Used by the executor and optimiser
//! property tests.
#![allow(dead_code)]
use shader::back::exec::math::pow;
use shader::back::exec::texture::TextureRef;
use shader::ir::*;

use super::{name, B};

pub struct RefIn<'a> {
    pub attrs: [[f32; 4]; 8],
    pub vars: [[f32; 4]; 8],
    pub fragcoord: [f32; 4],
    pub uniforms: &'a [f32; 128],
    pub textures: &'a [Option<TextureRef<'a>>; 4],
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefOut {
    pub position: [f32; 4],
    pub varyings: [[f32; 4]; 8],
    pub color: [f32; 4],
    pub discarded: bool,
}

pub fn reference(m: &Module, inp: &RefIn) -> RefOut {
    let mut t = vec![[0.0f32; 4]; m.temps as usize];
    let mut o = RefOut {
        position: [0., 0., 0., 1.],
        varyings: [[0.0; 4]; 8],
        color: [0.0; 4],
        discarded: false,
    };
    // Skip stack: (skipping before this IF, this IF's branch taken).
    let mut stack: Vec<(bool, bool)> = vec![];
    let mut skip = false;
    let l04 = |l: u8| if l == 0 { 4 } else { l as usize };
    let l01 = |l: u8| if l == 0 { 1 } else { l as usize };
    // Open loops: (first body instruction, iterations done, bound, broke, continued). A loop
    // reached while skipping is jumped over whole.
    let mut loops: Vec<(usize, u32, u32, bool, bool)> = vec![];
    let mut pc = 0usize;
    while let Some(i) = m.insts.get(pc) {
        pc += 1;
        let (d, a, b) = (i.dst as usize, i.a as usize, i.b as usize);
        let lflag = loops.last().is_some_and(|f| f.3 || f.4);
        match i.op {
            Op::If => {
                let cond = !skip && !lflag && t[a][0] != 0.0;
                stack.push((skip, cond));
                skip = skip || !cond;
                continue;
            }
            Op::Else => {
                let &(outer, cond) = stack.last().unwrap();
                skip = outer || cond;
                continue;
            }
            Op::Endif => {
                skip = stack.pop().unwrap().0;
                continue;
            }
            Op::Loop => {
                if skip || lflag {
                    let mut depth = 0;
                    while let Some(j) = m.insts.get(pc) {
                        pc += 1;
                        match j.op {
                            Op::Loop => depth += 1,
                            Op::EndLoop if depth == 0 => break,
                            Op::EndLoop => depth -= 1,
                            _ => {}
                        }
                    }
                } else {
                    loops.push((pc, 0, loop_bound(i), false, false));
                }
                continue;
            }
            Op::Break | Op::Continue => {
                if !skip && !lflag {
                    let f = loops.last_mut().unwrap();
                    if i.op == Op::Break {
                        f.3 = true;
                    } else {
                        f.4 = true;
                    }
                }
                continue;
            }
            Op::EndLoop => {
                let f = loops.last_mut().unwrap();
                f.1 += 1;
                if f.3 || f.1 >= f.2 {
                    loops.pop();
                } else {
                    f.4 = false;
                    pc = f.0;
                }
                continue;
            }
            _ => {}
        }
        if skip || lflag {
            continue;
        }
        match i.op {
            Op::Nop | Op::If | Op::Else | Op::Endif => {}
            Op::Loop | Op::Break | Op::Continue | Op::EndLoop => {}
            // Profile 2's texture opcodes: the random programs never hold them (mip.rs has
            // their own tests).
            Op::SampleLod
            | Op::SampleBias
            | Op::SampleGrad
            | Op::TexFetch
            | Op::TexSize
            | Op::CubeLod
            | Op::CubeBias
            | Op::CubeGrad
            | Op::ShadowLod
            | Op::ShadowBias
            | Op::ShadowCube
            | Op::ShadowGrad
            | Op::ArrLod
            | Op::ArrBias
            | Op::ArrGrad
            | Op::ArrFetch
            | Op::ArrSize => {}
            // gl_FragDepth is the rasterizer's (tests/p2_frag_depth.rs); the random programs
            // never hold it.
            Op::StoreDepth | Op::StoreClip => {}
            Op::Const => {
                let mut v = [0.0; 4];
                for k in 0..i.lanes as usize {
                    v[k] = m.imms[i.aux as usize + k];
                }
                t[d] = v;
            }
            Op::Mov => {
                let s = t[a];
                for k in 0..l04(i.lanes) {
                    t[d][k] = s[k];
                }
            }
            Op::Swz => {
                let s = t[a];
                let mut v = [0.0; 4];
                for k in 0..i.lanes as usize {
                    v[k] = s[((i.aux >> (2 * k)) & 3) as usize];
                }
                t[d] = v;
            }
            Op::SetLane => {
                let s = t[a][i.aux2 as usize];
                t[d][i.aux as usize] = s;
            }
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Max | Op::Min => {
                let (x, y) = (t[a], t[b]);
                for k in 0..l04(i.lanes) {
                    t[d][k] = match i.op {
                        Op::Add => x[k] + y[k],
                        Op::Sub => x[k] - y[k],
                        Op::Mul => x[k] * y[k],
                        Op::Div => x[k] / y[k],
                        Op::Max => x[k].max(y[k]),
                        _ => x[k].min(y[k]),
                    };
                }
            }
            Op::Abs => {
                let x = t[a];
                for k in 0..l04(i.lanes) {
                    t[d][k] = x[k].abs();
                }
            }
            Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt => {
                let x = t[a];
                for k in 0..l01(i.lanes) {
                    t[d][k] = match i.op {
                        Op::Rsq => 1.0 / libm::sqrtf(x[k]),
                        Op::Rcp => 1.0 / x[k],
                        Op::Sin => shader::back::exec::math::sin(x[k]),
                        Op::Cos => shader::back::exec::math::cos(x[k]),
                        Op::Trunc => libm::truncf(x[k]),
                        _ => libm::sqrtf(x[k]),
                    };
                }
            }
            Op::Floor | Op::Ceil | Op::Fract | Op::RoundEven | Op::Exp2 | Op::Log2 | Op::Sign => {
                let x = t[a];
                for k in 0..l01(i.lanes) {
                    t[d][k] = match i.op {
                        Op::Floor => libm::floorf(x[k]),
                        Op::Ceil => libm::ceilf(x[k]),
                        Op::Fract => x[k] - libm::floorf(x[k]),
                        Op::RoundEven => libm::rintf(x[k]),
                        Op::Exp2 => libm::exp2f(x[k]),
                        Op::Log2 => libm::log2f(x[k]),
                        _ if x[k] > 0.0 => 1.0,
                        _ if x[k] < 0.0 => -1.0,
                        _ => 0.0,
                    };
                }
            }
            Op::IAdd
            | Op::ISub
            | Op::IMul
            | Op::IDiv
            | Op::UDiv
            | Op::IMod
            | Op::UMod
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Not
            | Op::Shl
            | Op::IShr
            | Op::UShr
            | Op::IMin
            | Op::IMax
            | Op::UMin
            | Op::UMax
            | Op::INeg
            | Op::IAbs
            | Op::ISign
            | Op::ICmp
            | Op::UCmp
            | Op::Cvt => {
                // Written from the table in ir/mod.rs, independently of back::exec::ints.
                let (x, y) = (t[a], if b < t.len() { t[b] } else { [0.0; 4] });
                for k in 0..l01(i.lanes) {
                    let (p, q) = (x[k].to_bits(), y[k].to_bits());
                    let (sp, sq) = (p as i32, q as i32);
                    let cmp = |lt: bool, eq: bool| match CmpCode::from_i16(i.aux).unwrap() {
                        CmpCode::Lt => lt,
                        CmpCode::Gt => !lt && !eq,
                        CmpCode::Le => lt || eq,
                        CmpCode::Ge => !lt,
                        CmpCode::Eq => eq,
                        CmpCode::Ne => !eq,
                    };
                    let bits = match i.op {
                        Op::IAdd => p.wrapping_add(q),
                        Op::ISub => p.wrapping_sub(q),
                        Op::IMul => p.wrapping_mul(q),
                        Op::IDiv if q == 0 => 0,
                        Op::IDiv if sp == i32::MIN && sq == -1 => p,
                        Op::IDiv => (sp / sq) as u32,
                        Op::UDiv if q == 0 => u32::MAX,
                        Op::UDiv => p / q,
                        Op::IMod | Op::UMod if q == 0 => u32::MAX,
                        Op::IMod | Op::UMod => p % q,
                        Op::And => p & q,
                        Op::Or => p | q,
                        Op::Xor => p ^ q,
                        Op::Not => !p,
                        Op::Shl => p << (q & 31),
                        Op::IShr => (sp >> (q & 31)) as u32,
                        Op::UShr => p >> (q & 31),
                        Op::IMin => sp.min(sq) as u32,
                        Op::IMax => sp.max(sq) as u32,
                        Op::UMin => p.min(q),
                        Op::UMax => p.max(q),
                        Op::INeg => (0u32).wrapping_sub(p),
                        Op::IAbs => {
                            if sp < 0 {
                                (0u32).wrapping_sub(p)
                            } else {
                                p
                            }
                        }
                        Op::ISign => (sp > 0) as u32 | if sp < 0 { u32::MAX } else { 0 },
                        Op::ICmp => (cmp(sp < sq, p == q) as u8 as f32).to_bits(),
                        Op::UCmp => (cmp(p < q, p == q) as u8 as f32).to_bits(),
                        _ => match i.aux {
                            CVT_I2F => (sp as f32).to_bits(),
                            CVT_U2F => (p as f32).to_bits(),
                            CVT_F2I => f2i(x[k]) as u32,
                            _ => f2u(x[k]),
                        },
                    };
                    t[d][k] = f32::from_bits(bits);
                }
            }
            Op::CmpV => {
                let (x, y) = (t[a], t[b]);
                for k in 0..l01(i.lanes) {
                    let r = match CmpCode::from_i16(i.aux).unwrap() {
                        CmpCode::Lt => x[k] < y[k],
                        CmpCode::Gt => x[k] > y[k],
                        CmpCode::Le => x[k] <= y[k],
                        CmpCode::Ge => x[k] >= y[k],
                        CmpCode::Eq => x[k] == y[k],
                        CmpCode::Ne => x[k] != y[k],
                    };
                    t[d][k] = if r { 1.0 } else { 0.0 };
                }
            }
            Op::Pow => {
                let (x, y) = (t[a], t[b]);
                for k in 0..l01(i.lanes) {
                    t[d][k] = pow(x[k], y[k]);
                }
            }
            Op::Dot => {
                let n = if i.aux == 0 { 3 } else { i.aux as usize };
                let mut s = 0.0f32;
                for k in 0..n {
                    s += t[a][k] * t[b][k];
                }
                t[d][0] = s;
            }
            Op::Cmp => {
                let (x, y) = (t[a][0], t[b][0]);
                let r = match CmpCode::from_i16(i.aux).unwrap() {
                    CmpCode::Lt => x < y,
                    CmpCode::Gt => x > y,
                    CmpCode::Le => x <= y,
                    CmpCode::Ge => x >= y,
                    CmpCode::Eq => x == y,
                    CmpCode::Ne => x != y,
                };
                t[d][0] = if r { 1.0 } else { 0.0 };
            }
            Op::MulMV => {
                let n = if i.aux == 0 { 4 } else { i.aux as usize };
                let vec = t[b];
                let mut v = [0.0f32; 4];
                for k in 0..n {
                    for c in 0..n {
                        v[c] += t[a + k][c] * vec[k];
                    }
                }
                t[d] = v;
            }
            Op::MulMM => {
                let n = i.aux as usize;
                let mut res = [[0.0f32; 4]; 4];
                for j in 0..n {
                    for k in 0..n {
                        for c in 0..n {
                            res[j][c] += t[a + k][c] * t[b + j][k];
                        }
                    }
                }
                for j in 0..n {
                    t[d + j] = res[j];
                }
            }
            Op::Sample => {
                t[d] = match &inp.textures[i.aux as usize] {
                    Some(tex) => tex.sample(t[a][0], t[a][1]),
                    None => [0.0, 0.0, 0.0, 1.0],
                }
            }
            Op::LoadAttr => t[d] = inp.attrs[i.aux as usize],
            Op::LoadVar => t[d] = inp.vars[i.aux as usize],
            Op::LoadUni => {
                for k in 0..i.aux2 as usize {
                    let s = (i.aux as usize + k) * 4;
                    t[d + k] = [
                        inp.uniforms[s],
                        inp.uniforms[s + 1],
                        inp.uniforms[s + 2],
                        inp.uniforms[s + 3],
                    ];
                }
            }
            Op::LoadFcoord => t[d] = inp.fragcoord,
            Op::LoadSysval => t[d] = [inp.fragcoord[i.aux as usize & 1]; 4],
            // One invocation: every lane of its quad is itself (derivatives 0), front-facing.
            Op::Ddx | Op::Ddy => {
                for k in 0..(i.lanes.max(1) as usize).min(4) {
                    t[d][k] = 0.0;
                }
            }
            Op::LoadFace => t[d] = [1.0; 4],
            Op::StorePos => o.position = t[a],
            Op::StoreVar => o.varyings[i.aux as usize] = t[a],
            Op::StoreColor => o.color = t[a],
            Op::Discard => {
                o.discarded = true;
                return o;
            }
            // Profile 2's indirect ops: floor(index) clamped to 0..=len-1, NaN as 0.
            Op::LoadIdx => {
                let k = ref_clamp(t[a][0], i.aux as usize);
                t[d] = t[b + k * i.aux2 as usize + i.c as usize];
            }
            Op::StoreIdx => {
                let k = ref_clamp(t[a][0], i.aux as usize);
                let to = d + k * i.aux2 as usize + i.c as usize;
                let v = t[b];
                for c in 0..l04(i.lanes) {
                    t[to][c] = v[c];
                }
            }
            Op::LoadUniIdx => {
                let k = ref_clamp(t[a][0], i.aux2 as usize);
                let s = (i.aux as usize + k * i.c as usize) * 4;
                t[d] = [
                    inp.uniforms.get(s).copied().unwrap_or(0.0),
                    inp.uniforms.get(s + 1).copied().unwrap_or(0.0),
                    inp.uniforms.get(s + 2).copied().unwrap_or(0.0),
                    inp.uniforms.get(s + 3).copied().unwrap_or(0.0),
                ];
            }
            Op::LoadLane => {
                let k = ref_clamp(t[a][0], i.aux as usize);
                t[d][0] = t[b][k];
            }
            Op::StoreLane => {
                let k = ref_clamp(t[a][0], i.aux as usize);
                t[d][k] = t[b][0];
            }
        }
    }
    o
}

/// The clamped index of the operand table, computed the obvious way.
fn ref_clamp(v: f32, len: usize) -> usize {
    if v.is_nan() {
        return 0;
    }
    let f = v.floor();
    if f < 0.0 {
        0
    } else if f >= (len - 1) as f32 {
        len - 1
    } else {
        f as usize
    }
}

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn value(&mut self) -> f32 {
        const SPECIAL: [f32; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            3.0,
            -2.5,
            1e30,
            f32::INFINITY,
            f32::NAN,
            1e-30,
        ];
        if self.chance(40) {
            SPECIAL[self.below(SPECIAL.len() as u64) as usize]
        } else {
            (self.below(20001) as f32 - 10000.0) / 1000.0
        }
    }
}

/// A random module that passes `verify`: every opcode, matrices, uniforms, samplers, nested
/// IF/ELSE, DISCARD, temps read before any write.
pub fn random_module(seed: u64) -> Module {
    let mut r = Rng(seed | 1);
    let stage = if r.chance(50) {
        Stage::Vertex
    } else {
        Stage::Fragment
    };
    let mut b = B::new(stage);
    let nt = 10 + r.below(20) as u16;
    b.temps(nt);
    b.declare_uniform("u", Type::Vec4, 0);
    b.declare_uniform("m4", Type::Mat4, 1);
    b.declare_uniform("m3", Type::Mat3, 5);
    b.sampler("s0", 0);
    b.sampler("s1", 1);
    for k in 0..4u8 {
        if stage == Stage::Vertex {
            b.m.iface
                .attributes
                .push(Attribute {
                    name: name(&format!("a{}", k)),
                    ty: Type::Vec4,
                    location: k,
                    components: 4,
                })
                .unwrap();
        }
        b.declare_varying(&format!("v{}", k), k, Type::Vec4);
    }
    for _ in 0..12 {
        b.m.imms.push(r.value()).unwrap();
    }
    let n = 10 + r.below(60) as usize;
    let mut depth = 0usize;
    let mut has_else = vec![];
    let t = |r: &mut Rng| r.below(nt as u64) as i16;
    let tm = |r: &mut Rng, cols: u16| r.below((nt - cols + 1) as u64) as i16;
    for _ in 0..n {
        let pick = r.below(40);
        let lanes = r.below(5) as u8;
        let (dst, a, bb) = (t(&mut r), t(&mut r), t(&mut r));
        match pick {
            0..=2 => {
                let l = 1 + r.below(4) as u8;
                let aux = r.below(12 - l as u64 + 1) as i16;
                b.inst(Op::Const, dst, -1, -1, l, aux, 0);
            }
            3 => b.inst(Op::Mov, dst, a, -1, lanes, 0, 0),
            4 => b.inst(
                Op::Swz,
                dst,
                a,
                -1,
                1 + r.below(4) as u8,
                r.below(256) as i16,
                0,
            ),
            5 => b.inst(
                Op::SetLane,
                dst,
                a,
                -1,
                0,
                r.below(4) as i16,
                r.below(4) as i16,
            ),
            6..=12 => {
                let ops = [
                    Op::Add,
                    Op::Sub,
                    Op::Mul,
                    Op::Max,
                    Op::Min,
                    Op::Div,
                    Op::Pow,
                ];
                b.inst(ops[(pick - 6) as usize], dst, a, bb, lanes, 0, 0);
            }
            13..=19 => {
                let ops = [
                    Op::Abs,
                    Op::Rsq,
                    Op::Rcp,
                    Op::Sin,
                    Op::Cos,
                    Op::Trunc,
                    Op::Sqrt,
                ];
                b.inst(ops[(pick - 13) as usize], dst, a, -1, lanes, 0, 0);
            }
            20 => b.inst(Op::Dot, dst, a, bb, 1, [0, 2, 3, 4][r.below(4) as usize], 0),
            21 => b.inst(Op::Cmp, dst, a, bb, 1, 1 + r.below(6) as i16, 0),
            22 => {
                let c = [0u16, 3, 4][r.below(3) as usize];
                let mcols = if c == 0 { 4 } else { c };
                b.inst(Op::MulMV, dst, tm(&mut r, mcols), bb, 4, c as i16, 0);
            }
            23 => {
                let c = 3 + r.below(2) as u16;
                b.inst(
                    Op::MulMM,
                    tm(&mut r, c),
                    tm(&mut r, c),
                    tm(&mut r, c),
                    4,
                    c as i16,
                    0,
                );
            }
            24 => b.inst(Op::Sample, dst, a, -1, 4, r.below(2) as i16, 0),
            25 => {
                if stage == Stage::Vertex {
                    b.inst(Op::LoadAttr, dst, -1, -1, 4, r.below(4) as i16, 0)
                } else {
                    b.inst(Op::LoadVar, dst, -1, -1, 4, r.below(4) as i16, 0)
                }
            }
            26 => {
                let (slot, count) = [(0i16, 1i16), (1, 4), (5, 3), (2, 1)][r.below(4) as usize];
                b.inst(
                    Op::LoadUni,
                    tm(&mut r, count as u16),
                    -1,
                    -1,
                    4,
                    slot,
                    count,
                );
            }
            27 => {
                if stage == Stage::Fragment {
                    b.inst(Op::LoadFcoord, dst, -1, -1, 4, 0, 0)
                }
            }
            28..=29 => match stage {
                Stage::Vertex if pick == 28 => b.inst(Op::StorePos, -1, a, -1, 4, 0, 0),
                Stage::Vertex => b.inst(Op::StoreVar, -1, a, -1, 4, r.below(4) as i16, 0),
                Stage::Fragment => b.inst(Op::StoreColor, -1, a, -1, 4, 0, 0),
            },
            30..=32 => {
                if depth < 6 {
                    b.inst(Op::If, -1, a, -1, 0, 0, 0);
                    depth += 1;
                    has_else.push(false);
                }
            }
            33 => {
                if depth > 0 && !has_else[depth - 1] {
                    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
                    has_else[depth - 1] = true;
                }
            }
            34..=35 => {
                if depth > 0 {
                    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
                    depth -= 1;
                    has_else.pop();
                }
            }
            36 => {
                if stage == Stage::Fragment && r.chance(50) {
                    b.inst(Op::Discard, -1, -1, -1, 0, 0, 0)
                }
            }
            _ => b.inst(Op::Nop, -1, -1, -1, 0, 0, 0),
        }
    }
    while depth > 0 {
        b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
        depth -= 1;
    }
    // Outputs read a few temps at the end.
    match stage {
        Stage::Vertex => {
            b.m.iface.writes_position = true;
            b.inst(Op::StorePos, -1, t(&mut r), -1, 4, 0, 0);
            for s in 0..4 {
                b.inst(Op::StoreVar, -1, t(&mut r), -1, 4, s, 0);
            }
        }
        Stage::Fragment => {
            b.m.iface.color_output = Some(name("c"));
            b.inst(Op::StoreColor, -1, t(&mut r), -1, 4, 0, 0);
        }
    }
    b.done()
}

/// Bitwise equality that treats every NaN as equal.
pub fn same(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}
