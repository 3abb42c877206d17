//! Optimiser: matrix columns, read-modify-write and partial lanes are respected; random IR
//! keeps its meaning and no result a later instruction reads is ever removed.
mod ircore_util;
use ircore_util::reference::*;
use ircore_util::*;
use proptest::prelude::*;
use shader::ir::opt::optimize;
use shader::ir::verify::verify;
use shader::ir::*;

fn live_ops(m: &Module) -> Vec<Op> {
    m.insts
        .iter()
        .map(|i| i.op)
        .filter(|&o| o != Op::Nop)
        .collect()
}

#[test]
fn constructed_matrix_columns_stay() {
    // mat4 m = mat4(c0, c1, c2, c3) built by MOVs into 4 temps; gl_Position = m * v.
    let mut b = B::new(Stage::Vertex);
    let cols: Vec<i16> = (0..4)
        .map(|k| b.konst(&[k as f32, 1.0, 2.0, 3.0]))
        .collect();
    let m = b.temps(4);
    for k in 0..4 {
        b.inst(Op::Mov, m + k, cols[k as usize], -1, 4, 0, 0);
    }
    let v = b.konst(&[1.0, 1.0, 1.0, 1.0]);
    let r = b.temp();
    b.inst(Op::MulMV, r, m, v, 4, 4, 0);
    b.position(r);
    // A matrix product whose right operand's last column is the only one built late.
    let mut module = b.done();
    let before = module.insts.len();
    optimize(&mut module);
    assert_eq!(live_ops(&module).len(), before, "{:?}", module.insts);
}

#[test]
fn mulmm_columns_of_both_operands_stay() {
    let mut b = B::new(Stage::Vertex);
    let a = b.temps(3);
    let c = b.temps(3);
    for k in 0..3 {
        let x = b.konst(&[1.0, k as f32, 0.0]);
        b.inst(Op::Mov, a + k, x, -1, 3, 0, 0);
        b.inst(Op::Mov, c + k, x, -1, 3, 0, 0);
    }
    let d = b.temps(3);
    b.inst(Op::MulMM, d, a, c, 4, 3, 0);
    b.position(d + 2); // only the last result column is stored
    let mut m = b.done();
    let before = live_ops(&m).len();
    optimize(&mut m);
    assert_eq!(live_ops(&m).len(), before);
}

#[test]
fn setlane_and_partial_writes_keep_earlier_lanes() {
    let mut b = B::new(Stage::Fragment);
    let x = b.konst(&[5.0]);
    let v = b.konst(&[0.0, 0.0, 0.0, 1.0]); // keeps lane 3 = 1
    b.inst(Op::SetLane, v, x, -1, 0, 0, 0);
    b.inst(Op::SetLane, v, x, -1, 0, 1, 0);
    let y = b.konst(&[7.0, 7.0]);
    b.inst(Op::Mov, v, y, -1, 2, 0, 0); // overwrites lanes 0, 1 only
    b.color(v);
    let mut m = b.done();
    let before = live_ops(&m).len();
    optimize(&mut m);
    // Liveness is per lane but never killed by later writes: everything here stays.
    assert_eq!(live_ops(&m).len(), before);
}

#[test]
fn dead_chains_and_unread_lanes_go() {
    let mut b = B::new(Stage::Fragment);
    let a = b.konst(&[1.0, 2.0, 3.0, 4.0]);
    let s = b.un(Op::Sin, a, 1);
    let _dead = b.bin(Op::Add, s, a, 4); // chain a -> sin -> add, nothing reads add
    let v = b.konst(&[0.0, 0.0, 0.5, 1.0]);
    let w = b.konst(&[9.0, 9.0]);
    let t = b.temp();
    b.inst(Op::Mov, t, v, -1, 4, 0, 0);
    b.inst(Op::Mov, t, w, -1, 2, 0, 0); // writes lanes x, y of t
    let out = b.temp();
    b.inst(Op::Swz, out, t, -1, 4, 0b10_10_11_10, 0); // reads only z and w of t
    b.color(out);
    let mut m = b.done();
    optimize(&mut m);
    assert_eq!(
        live_ops(&m),
        vec![Op::Const, Op::Mov, Op::Swz, Op::StoreColor]
    );
}

#[test]
fn impure_instructions_stay() {
    let mut b = B::new(Stage::Fragment);
    let c = b.konst(&[1.0]);
    b.inst(Op::If, -1, c, -1, 0, 0, 0);
    b.inst(Op::Discard, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    b.color(c);
    let mut m = b.done();
    let before = live_ops(&m);
    optimize(&mut m);
    assert_eq!(live_ops(&m), before);
}

/// Lanes an instruction reads, straight from the operand table (independent of opt.rs).
fn reads(i: &Inst) -> Vec<(i16, u8)> {
    let n04 = |l: u8| if l == 0 { 4 } else { l };
    let n01 = |l: u8| if l == 0 { 1 } else { l };
    let m = |n: u8| ((1u16 << n) - 1) as u8;
    match i.op {
        Op::Mov | Op::Abs => vec![(i.a, m(n04(i.lanes)))],
        Op::Swz => vec![(
            i.a,
            (0..i.lanes).fold(0, |acc, k| acc | 1 << ((i.aux >> (2 * k)) & 3)),
        )],
        Op::SetLane => vec![(i.a, 1 << i.aux2)],
        Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div => {
            vec![(i.a, m(n04(i.lanes))), (i.b, m(n04(i.lanes)))]
        }
        Op::Pow => vec![(i.a, m(n01(i.lanes))), (i.b, m(n01(i.lanes)))],
        Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt => {
            vec![(i.a, m(n01(i.lanes)))]
        }
        Op::Dot => {
            let n = if i.aux == 0 { 3 } else { i.aux as u8 };
            vec![(i.a, m(n)), (i.b, m(n))]
        }
        Op::Cmp => vec![(i.a, 1), (i.b, 1)],
        Op::MulMV => {
            let n = if i.aux == 0 { 4 } else { i.aux };
            let mut v: Vec<_> = (0..n).map(|k| (i.a + k, m(n as u8))).collect();
            v.push((i.b, m(n as u8)));
            v
        }
        Op::MulMM => (0..i.aux)
            .flat_map(|k| [(i.a + k, m(i.aux as u8)), (i.b + k, m(i.aux as u8))])
            .collect(),
        Op::Sample => vec![(i.a, 3)],
        Op::StorePos | Op::StoreVar | Op::StoreColor => vec![(i.a, 15)],
        Op::If => vec![(i.a, 1)],
        _ => vec![],
    }
}

fn writes(i: &Inst) -> Vec<(i16, u8)> {
    let n04 = |l: u8| if l == 0 { 4 } else { l };
    let n01 = |l: u8| if l == 0 { 1 } else { l };
    let m = |n: u8| ((1u16 << n) - 1) as u8;
    match i.op {
        Op::Mov | Op::Abs | Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div => {
            vec![(i.dst, m(n04(i.lanes)))]
        }
        Op::Pow | Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt => {
            vec![(i.dst, m(n01(i.lanes)))]
        }
        Op::SetLane => vec![(i.dst, 1 << i.aux)],
        Op::Dot | Op::Cmp => vec![(i.dst, 1)],
        Op::MulMM => (0..i.aux).map(|k| (i.dst + k, 15)).collect(),
        Op::LoadUni => (0..i.aux2).map(|k| (i.dst + k, 15)).collect(),
        Op::Const
        | Op::Swz
        | Op::MulMV
        | Op::Sample
        | Op::LoadAttr
        | Op::LoadVar
        | Op::LoadFcoord => vec![(i.dst, 15)],
        _ => vec![],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn never_removes_a_read_result_and_keeps_meaning(seed in any::<u64>(), input in any::<u64>()) {
        let original = random_module(seed);
        let mut m = original.clone();
        optimize(&mut m);
        prop_assert!(verify(&m).is_ok());
        for (i, (o, n)) in original.insts.iter().zip(m.insts.iter()).enumerate() {
            if n.op == Op::Nop && o.op != Op::Nop {
                prop_assert!(o.op.is_pure(), "impure {:?} removed", o.op);
                for later in m.insts.iter().skip(i + 1) {
                    for (rt, rl) in reads(later) {
                        for (wt, wl) in writes(o) {
                            prop_assert!(!(rt == wt && rl & wl != 0), "removed inst {} ({:?}) is read by {:?}", i, o, later);
                        }
                    }
                }
            } else {
                prop_assert_eq!(o, n);
            }
        }
        // Idempotent.
        let mut again = m.clone();
        optimize(&mut again);
        prop_assert_eq!(&again.insts, &m.insts);
        // Same results on random inputs.
        let mut r = Rng(input | 1);
        let mut uniforms = [0.0f32; 128];
        uniforms.iter_mut().for_each(|u| *u = r.value());
        let tex = [0xFF11_2233u32, 0x4455_6677, 0x8899_AABB, 0xCCDD_EEFF];
        let textures = [Some(shader::back::exec::texture::TextureRef { faces: &[], layers: &[], mips: &[], depth: None, rgba: None, ints: None, width: 2, height: 2, texels: &tex, sampler: Default::default() }), None, None, None];
        let mut ri = RefIn { attrs: [[0.0; 4]; 8], vars: [[0.0; 4]; 8], fragcoord: [r.value(), r.value(), 0.5, 1.0], uniforms: &uniforms, textures: &textures };
        for s in 0..8 {
            for c in 0..4 {
                ri.attrs[s][c] = r.value();
                ri.vars[s][c] = r.value();
            }
        }
        let (a, b) = (reference(&original, &ri), reference(&m, &ri));
        prop_assert_eq!(a.discarded, b.discarded);
        let flat = |o: &RefOut| {
            let mut v = o.position.to_vec();
            v.extend(o.varyings.iter().flatten());
            if !o.discarded { v.extend(o.color); }
            v
        };
        for (x, y) in flat(&a).iter().zip(flat(&b).iter()) {
            prop_assert!(same(*x, *y), "{} vs {}", x, y);
        }
    }
}
