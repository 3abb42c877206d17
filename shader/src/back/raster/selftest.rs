//! In-guest self-tests of the IR core (verifier, optimiser, executor, link, rasterizer), listed
//! in `crate::selftest::TESTS`. Pure, deterministic, quick, no heap: modules are built by hand.
use core::fmt::Write;

use crate::limits::{SAMPLER_CAP, VARYING_CAP};

use super::{draw, soft_fs, soft_vs, RasterState, Target, TextureRef, VertexAttrib, VertexInput};
use crate::ir::opt::optimize;
use crate::ir::verify::verify;
use crate::ir::{Attribute, Inst, Module, Name, Op, Sampler, Stage, Type, Uniform, Varying};
use crate::program::link::Program;

fn name(s: &str) -> Name {
    let mut n = Name::new();
    let _ = n.push_str(s);
    n
}

fn inst(op: Op, dst: i16, a: i16, b: i16, lanes: u8, aux: i16, aux2: i16) -> Inst {
    Inst {
        op,
        ty: Type::Vec4 as u8,
        lanes,
        dst,
        a,
        b,
        c: -1,
        aux,
        aux2,
    }
}

fn push(m: &mut Module, i: Inst) -> bool {
    m.insts.push(i).is_ok()
}

/// VS: gl_Position = attribute 0; varying "v" (slot 0) = attribute 1.
fn passthrough_vs() -> Module {
    let mut m = Module::new(Stage::Vertex);
    m.temps = 2;
    for (loc, n) in [(0u8, "pos"), (1, "col")] {
        let _ = m.iface.attributes.push(Attribute {
            name: name(n),
            ty: Type::Vec4,
            location: loc,
            components: 4,
        });
        push(
            &mut m,
            inst(Op::LoadAttr, loc as i16, -1, -1, 4, loc as i16, 0),
        );
    }
    let _ = m.iface.varyings.push(Varying {
        name: name("v"),
        ty: Type::Vec4,
        slot: 0,
        interp: crate::ir::Interp::Smooth,
    });
    push(&mut m, inst(Op::StorePos, -1, 0, -1, 4, 0, 0));
    push(&mut m, inst(Op::StoreVar, -1, 1, -1, 4, 0, 0));
    m.iface.writes_position = true;
    m
}

/// FS: colour = varying "v".
fn passthrough_fs() -> Module {
    let mut m = Module::new(Stage::Fragment);
    m.temps = 1;
    let _ = m.iface.varyings.push(Varying {
        name: name("v"),
        ty: Type::Vec4,
        slot: 0,
        interp: crate::ir::Interp::Smooth,
    });
    push(&mut m, inst(Op::LoadVar, 0, -1, -1, 4, 0, 0));
    push(&mut m, inst(Op::StoreColor, -1, 0, -1, 4, 0, 0));
    m.iface.color_output = Some(name("c"));
    m
}

pub(crate) fn verify_checks_matrix_columns(w: &mut dyn Write) -> bool {
    let mut m = passthrough_vs();
    m.temps = 4;
    push(&mut m, inst(Op::MulMV, 0, 1, 0, 4, 4, 0)); // columns 1..=4, temp 4 does not exist
    match verify(&m) {
        Err(e) if e.message.contains("MULMV matrix column") => true,
        other => {
            let _ = write!(w, "expected a MULMV column error, got {:?}", other);
            false
        }
    }
}

pub(crate) fn opt_keeps_constructed_matrix(w: &mut dyn Write) -> bool {
    // Columns 1..=4 filled by MOVs from temp 0, then position = M * temp 0.
    let mut m = passthrough_vs();
    m.temps = 6;
    for k in 0..4 {
        push(&mut m, inst(Op::Mov, 2 + k, 0, -1, 4, 0, 0));
    }
    push(&mut m, inst(Op::MulMV, 1, 2, 0, 4, 4, 0));
    push(&mut m, inst(Op::StorePos, -1, 1, -1, 4, 0, 0));
    let before = m.insts.iter().filter(|i| i.op != Op::Nop).count();
    optimize(&mut m);
    let after = m.insts.iter().filter(|i| i.op != Op::Nop).count();
    if after != before {
        let _ = write!(
            w,
            "matrix column MOVs were removed ({} -> {} instructions)",
            before, after
        );
        return false;
    }
    true
}

pub(crate) fn mvp_is_column_major(w: &mut dyn Write) -> bool {
    let mut vs = Module::new(Stage::Vertex);
    vs.temps = 6;
    let _ = vs.iface.attributes.push(Attribute {
        name: name("position"),
        ty: Type::Vec4,
        location: 0,
        components: 4,
    });
    let _ = vs.iface.uniforms.push(Uniform {
        name: name("model"),
        ty: Type::Mat4,
        slot: 0,
        slots: 4,
    });
    vs.iface.writes_position = true;
    push(&mut vs, inst(Op::LoadAttr, 0, -1, -1, 4, 0, 0));
    push(&mut vs, inst(Op::LoadUni, 1, -1, -1, 4, 0, 4));
    push(&mut vs, inst(Op::MulMV, 5, 1, 0, 4, 4, 0));
    push(&mut vs, inst(Op::StorePos, -1, 5, -1, 4, 0, 0));
    let mut fs = passthrough_fs();
    fs.iface.varyings.clear();
    fs.insts.clear();
    let _ = fs.imms.push(1.0);
    push(&mut fs, inst(Op::Const, 0, -1, -1, 1, 0, 0));
    push(&mut fs, inst(Op::StoreColor, -1, 0, -1, 4, 0, 0));
    let mut p = Program::new();
    if let Err(e) = p.link(Some(&vs), Some(&fs)) {
        let _ = write!(w, "link failed: {}", e);
        return false;
    }
    let m = [
        2.0, 0., 0., 0., 0., 3., 0., 0., 0., 0., 4., 0., 5., 6., 7., 1.,
    ];
    if p.set_uniform(0, &m).is_err() {
        let _ = write!(w, "set_uniform failed");
        return false;
    }
    match soft_vs(&p, &[1.0, 1.0, 1.0, 1.0]) {
        Ok(r) if r.position == [7.0, 9.0, 11.0, 1.0] => true,
        other => {
            let _ = write!(
                w,
                "expected (7, 9, 11, 1), got {:?}",
                other.map(|r| r.position)
            );
            false
        }
    }
}

pub(crate) fn texel_order_is_bgra(w: &mut dyn Write) -> bool {
    let mut fs = Module::new(Stage::Fragment);
    fs.temps = 2;
    let _ = fs.iface.samplers.push(Sampler {
        name: name("tex"),
        unit: 0,
        ty: Type::Sampler2D,
    });
    fs.iface.color_output = Some(name("c"));
    let _ = fs.imms.push(0.0);
    let _ = fs.imms.push(0.0);
    push(&mut fs, inst(Op::Const, 0, -1, -1, 2, 0, 0));
    push(&mut fs, inst(Op::Sample, 1, 0, -1, 4, 0, 0));
    push(&mut fs, inst(Op::StoreColor, -1, 1, -1, 4, 0, 0));
    let mut vs = passthrough_vs();
    vs.iface.varyings.clear();
    vs.insts.truncate(3);
    let mut p = Program::new();
    if let Err(e) = p.link(Some(&vs), Some(&fs)) {
        let _ = write!(w, "link failed: {}", e);
        return false;
    }
    // Bytes B, G, R, A = 0, 0, 255, 255 in memory.
    let texels = [u32::from_le_bytes([0, 0, 255, 255]), 0, 0, 0];
    let mut tex = [None; SAMPLER_CAP];
    tex[0] = Some(TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 2,
        height: 2,
        texels: &texels,
        sampler: Default::default(),
    });
    match soft_fs(&p, &[[0.0; 4]; VARYING_CAP], [0.5, 0.5, 0.5, 1.0], &tex) {
        Ok(r) if r.color == [1.0, 0.0, 0.0, 1.0] => true,
        other => {
            let _ = write!(w, "expected opaque red, got {:?}", other);
            false
        }
    }
}

pub(crate) fn quad_covers_each_pixel_once(w: &mut dyn Write) -> bool {
    let mut p = Program::new();
    if p.link(Some(&passthrough_vs()), Some(&passthrough_fs()))
        .is_err()
    {
        let _ = write!(w, "link failed: {}", p.log());
        return false;
    }
    let r = [1.0, 0.0, 0.0, 1.0];
    let data = [
        -1.0, -1.0, 0.0, 1.0, r[0], r[1], r[2], r[3], 1.0, -1.0, 0.0, 1.0, r[0], r[1], r[2], r[3],
        1.0, 1.0, 0.0, 1.0, r[0], r[1], r[2], r[3], -1.0, 1.0, 0.0, 1.0, r[0], r[1], r[2], r[3],
    ];
    let attribs = [
        VertexAttrib {
            location: 0,
            offset: 0,
            components: 4,
        },
        VertexAttrib {
            location: 1,
            offset: 4,
            components: 4,
        },
    ];
    let input = VertexInput {
        data: &data,
        stride: 8,
        attribs: &attribs,
        count: 4,
    };
    let mut color = [0u32; 13 * 11];
    let mut depth = [1.0f32; 13 * 11];
    let mut t = Target {
        width: 13,
        height: 11,
        color: &mut color,
        depth: &mut depth,
    };
    let state = RasterState {
        depth_test: false,
        ..RasterState::new(13, 11)
    };
    let mut written = 0;
    for idx in [[0u16, 1, 2], [0, 2, 3]] {
        match draw(&p, &input, Some(&idx), &[None; SAMPLER_CAP], &state, &mut t) {
            Ok(s) => written += s.pixels_written,
            Err(e) => {
                let _ = write!(w, "draw failed: {}", e);
                return false;
            }
        }
    }
    let covered = t.color.iter().filter(|&&c| c == 0xFFFF_0000).count();
    if written != 13 * 11 || covered != 13 * 11 {
        let _ = write!(
            w,
            "{} writes, {} pixels covered, expected 143 each",
            written, covered
        );
        return false;
    }
    true
}

pub(crate) fn failed_relink_keeps_program(w: &mut dyn Write) -> bool {
    let mut p = Program::new();
    let (vs, fs) = (passthrough_vs(), passthrough_fs());
    if p.link(Some(&vs), Some(&fs)).is_err() || p.generation() != 1 {
        let _ = write!(w, "first link failed: {}", p.log());
        return false;
    }
    let mut bad = passthrough_fs();
    bad.iface.varyings[0].name = name("other");
    let failed = p.link(Some(&vs), Some(&bad)).is_err();
    let ok = failed
        && p.is_linked()
        && p.generation() == 1
        && p.log().contains("missing varying other")
        && p.log().contains("kept previous program")
        && p.module(Stage::Fragment) == Some(&fs);
    if !ok {
        let _ = write!(
            w,
            "relink did not keep the previous program: log {:?}",
            p.log()
        );
    }
    ok
}
