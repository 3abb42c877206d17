//! Textual dump of the IR for people and golden tests: header, interface, then one line per
//! instruction.
//!
//! Owns: the IR dump format (documented in docs/LANGUAGE.md). Must never: change what it prints,
//! allocate, or be parsed back by anything (it is a diagnostic, not an interchange format).
use core::fmt::{self, Write};

use crate::ir::{CmpCode, Inst, Interp, Module, Op, Stage, Type, SYSVAL_INSTANCE_ID};

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

fn ty_name(t: u8) -> &'static str {
    Type::from_u8(t).map(Type::name).unwrap_or("?")
}

/// The IR of a module under `name`.
pub fn dump_module(name: &str, m: &Module, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "shader {}", name)?;
    writeln!(out, "stage {}", m.stage.name())?;
    let live = m.insts.iter().filter(|i| i.op != Op::Nop).count();
    writeln!(
        out,
        "counts: {} instructions ({} live), {} immediates, {} temps",
        m.insts.len(),
        live,
        m.imms.len(),
        m.temps
    )?;
    let f = &m.iface;
    for a in f.attributes.iter() {
        writeln!(
            out,
            "attribute {} {} location {}",
            a.ty.name(),
            a.name,
            a.location
        )?;
    }
    let vdir = if m.stage == Stage::Vertex {
        "output"
    } else {
        "input"
    };
    for v in f.varyings.iter() {
        writeln!(
            out,
            "varying {} {} {} slot {}{}",
            vdir,
            v.ty.name(),
            v.name,
            v.slot,
            match v.interp {
                Interp::Smooth => "",
                Interp::Flat => " flat",
                Interp::NoPerspective => " noperspective",
            }
        )?;
    }
    for u in f.uniforms.iter() {
        writeln!(
            out,
            "uniform {} {} slot {} ({} vec4)",
            u.ty.name(),
            u.name,
            u.slot,
            u.slots
        )?;
    }
    for s in f.samplers.iter() {
        writeln!(out, "{} {} unit {}", s.ty.name(), s.name, s.unit)?;
    }
    if f.frag_outputs.is_empty() {
        if let Some(c) = &f.color_output {
            writeln!(out, "output vec4 {}", c)?;
        }
    }
    // Profile 2: every output with its type and location (location 0 is the colour).
    for o in f.frag_outputs.iter() {
        writeln!(
            out,
            "output {} {} location {}{}",
            o.ty.name(),
            o.name,
            o.location,
            if o.location == 0 {
                " (colour)"
            } else {
                " (not stored)"
            }
        )?;
    }
    if f.writes_position {
        writeln!(out, "writes gl_Position")?;
    }
    if f.reads_fragcoord {
        writeln!(out, "reads gl_FragCoord")?;
    }
    for k in 0..8 {
        if f.clip_distances & (1 << k) != 0 {
            writeln!(out, "writes gl_ClipDistance[{}]", k)?;
        }
    }
    if f.writes_depth {
        writeln!(out, "writes gl_FragDepth")?;
    }
    if f.reads_vertex_id {
        writeln!(out, "reads gl_VertexID")?;
    }
    if f.reads_instance_id {
        writeln!(out, "reads gl_InstanceID")?;
    }
    writeln!(out, "block 0:")?;
    let mut depth = 1usize;
    for (idx, i) in m.insts.iter().enumerate() {
        if i.op == Op::Nop {
            continue;
        }
        if matches!(i.op, Op::Else | Op::Endif | Op::EndLoop) {
            depth = depth.saturating_sub(1).max(1);
        }
        write!(out, "{:4}:", idx)?;
        for _ in 0..depth.min(40) {
            out.write_str("  ")?;
        }
        inst(m, i, out)?;
        out.write_char('\n')?;
        if matches!(i.op, Op::If | Op::Else | Op::Loop) {
            depth += 1;
        }
    }
    Ok(())
}

fn inst(m: &Module, i: &Inst, out: &mut dyn Write) -> fmt::Result {
    if i.dst >= 0 {
        write!(out, "%{} = ", i.dst)?;
    }
    let name = i.op.name();
    let ty = ty_name(i.ty);
    match i.op {
        Op::Const => {
            let int_bits = m.profile == crate::limits::Profile::P2;
            write!(out, "const {} (", ty)?;
            for k in 0..i.lanes.clamp(1, 4) as usize {
                let v = m
                    .imms
                    .get((i.aux as usize).wrapping_add(k))
                    .copied()
                    .unwrap_or(0.0);
                if k > 0 {
                    out.write_str(", ")?;
                }
                // Profile 2's integers are bit patterns.
                match Type::from_u8(i.ty) {
                    Some(t) if int_bits && crate::ir::Type::is_integer(t) => {
                        if matches!(t, Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4) {
                            write!(out, "{}", v.to_bits() as i32)?
                        } else {
                            write!(out, "{}u", v.to_bits())?
                        }
                    }
                    _ => write!(out, "{}", v)?,
                }
            }
            write!(out, ") imm {}", i.aux)
        }
        Op::Swz => {
            write!(out, "swz {} %{}.", ty, i.a)?;
            for k in 0..i.lanes.clamp(1, 4) as usize {
                out.write_char(LANES[((i.aux >> (2 * k)) & 3) as usize])?;
            }
            Ok(())
        }
        Op::SetLane => write!(
            out,
            "lane %{}.{} <- %{}.{}",
            i.dst,
            LANES[(i.aux & 3) as usize],
            i.a,
            LANES[(i.aux2 & 3) as usize]
        ),
        Op::Cvt => {
            let k = match i.aux {
                crate::ir::CVT_I2F => "i2f",
                crate::ir::CVT_U2F => "u2f",
                crate::ir::CVT_F2I => "f2i",
                _ => "f2u",
            };
            write!(out, "cvt {} {}.{} %{}", k, ty, i.lanes, i.a)
        }
        Op::Cmp | Op::CmpV | Op::ICmp | Op::UCmp => {
            let c = match CmpCode::from_i16(i.aux) {
                Some(CmpCode::Lt) => "lt",
                Some(CmpCode::Gt) => "gt",
                Some(CmpCode::Le) => "le",
                Some(CmpCode::Ge) => "ge",
                Some(CmpCode::Eq) => "eq",
                Some(CmpCode::Ne) => "ne",
                None => "?",
            };
            if i.op != Op::Cmp {
                return write!(out, "{} {}.{} %{}, %{}", name, c, i.lanes, i.a, i.b);
            }
            write!(out, "cmp {} %{}, %{}", c, i.a, i.b)
        }
        Op::Dot => write!(out, "dot{} %{}, %{}", i.aux, i.a, i.b),
        Op::MulMV => write!(out, "mul_mv {} %{}[{}] * %{}", ty, i.a, i.aux, i.b),
        Op::MulMM => write!(
            out,
            "mul_mm {} %{}[{}] * %{}[{}]",
            ty, i.a, i.aux, i.b, i.aux
        ),
        Op::Sample => write!(out, "sample2d %{} unit {}", i.a, i.aux),
        op if op.is_texture() => {
            match (i.op, i.b) {
                (Op::TexSize | Op::ArrSize, _) => {
                    write!(out, "{} unit {} lod %{}", name, i.aux, i.a)?
                }
                (
                    Op::SampleBias | Op::CubeBias | Op::ShadowBias | Op::ShadowCube | Op::ArrBias,
                    b,
                ) if b < 0 => write!(out, "{} %{} unit {}", name, i.a, i.aux)?,
                (Op::SampleGrad | Op::CubeGrad | Op::ShadowGrad | Op::ArrGrad, b) => write!(
                    out,
                    "{} %{} unit {} grad %{}, %{}",
                    name,
                    i.a,
                    i.aux,
                    b,
                    b + 1
                )?,
                (_, b) => write!(out, "{} %{} unit {} %{}", name, i.a, i.aux, b)?,
            }
            if i.aux2 != 0 {
                let (x, y) = crate::back::exec::mip::offset_of(i.aux2 as u8);
                write!(out, " offset ({}, {})", x, y)?;
            }
            Ok(())
        }
        Op::LoadAttr => write!(out, "load_attr {} location {}", ty, i.aux),
        Op::LoadVar => write!(out, "load_var {} slot {}", ty, i.aux),
        Op::LoadUni => write!(out, "load_uni {} slot {} count {}", ty, i.aux, i.aux2),
        Op::LoadFcoord => write!(out, "load_fragcoord"),
        Op::LoadSysval if i.aux == SYSVAL_INSTANCE_ID => write!(out, "load_sysval gl_InstanceID"),
        Op::LoadSysval => write!(out, "load_sysval gl_VertexID"),
        Op::StorePos | Op::StoreColor | Op::StoreDepth => write!(out, "{} %{}", name, i.a),
        Op::StoreClip => write!(out, "store_clip gl_ClipDistance[{}] %{}", i.aux, i.a),
        Op::StoreVar => write!(out, "store_var slot {} %{}", i.aux, i.a),
        Op::If => write!(out, "if %{}", i.a),
        Op::Else | Op::Endif | Op::Discard | Op::Nop => out.write_str(name),
        Op::Loop if crate::ir::loop_budgeted(i) => {
            write!(out, "loop bound {} budget", crate::ir::loop_bound(i))
        }
        Op::Loop => write!(out, "loop bound {}", crate::ir::loop_bound(i)),
        Op::Break | Op::Continue | Op::EndLoop => out.write_str(name),
        // Profile 2's indirect ops: the index, then the range (first temp or slot, elements,
        // stride) and the offset in an element.
        Op::LoadIdx => write!(
            out,
            "load_idx %{}[%{} clamp {}] stride {} +{}",
            i.b, i.a, i.aux, i.aux2, i.c
        ),
        Op::StoreIdx => write!(
            out,
            "store_idx.{} %{}[%{} clamp {}] stride {} +{} <- %{}",
            i.lanes, i.dst, i.a, i.aux, i.aux2, i.c, i.b
        ),
        Op::LoadUniIdx => write!(
            out,
            "load_uni_idx slot {}[%{} clamp {}] stride {}",
            i.aux, i.a, i.aux2, i.c
        ),
        Op::LoadLane => write!(out, "load_lane %{}[%{} clamp {}]", i.b, i.a, i.aux),
        Op::StoreLane => write!(
            out,
            "store_lane %{}[%{} clamp {}] <- %{}",
            i.dst, i.a, i.aux, i.b
        ),
        _ => {
            write!(out, "{} {}", name, ty)?;
            if i.lanes > 0 {
                write!(out, ".{}", i.lanes)?;
            }
            if i.a >= 0 {
                write!(out, " %{}", i.a)?;
            }
            if i.b >= 0 {
                write!(out, ", %{}", i.b)?;
            }
            Ok(())
        }
    }
}
