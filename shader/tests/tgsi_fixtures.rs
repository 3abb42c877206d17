//! Hand-built IR modules shared by the TGSI and CSIR tests (included with `#[path]`). They
//! mirror the corpus shaders (tri, vary, tex, mvp, light) plus one module that uses every op,
//! so the emitter and the serializer can be tested without the frontend.
#![allow(dead_code)]

use shader::ir::*;

pub fn name(s: &str) -> Name {
    let mut n = Name::new();
    n.push_str(s).unwrap();
    n
}

pub struct B {
    pub m: Module,
}

impl B {
    pub fn new(stage: Stage) -> B {
        B {
            m: Module::new(stage),
        }
    }
    fn push(&mut self, i: Inst) -> &mut Self {
        self.m.insts.push(i).unwrap();
        self
    }
    #[allow(clippy::too_many_arguments)]
    pub fn op(
        &mut self,
        op: Op,
        dst: i16,
        a: i16,
        b: i16,
        aux: i16,
        aux2: i16,
        lanes: u8,
    ) -> &mut Self {
        let mut i = Inst::new(op);
        i.ty = Type::Vec4 as u8;
        i.dst = dst;
        i.a = a;
        i.b = b;
        i.aux = aux;
        i.aux2 = aux2;
        i.lanes = lanes;
        self.push(i)
    }
    /// dst = the given constant vector (appends immediates).
    pub fn konst(&mut self, dst: i16, v: &[f32]) -> &mut Self {
        let base = self.m.imms.len() as i16;
        for &x in v {
            self.m.imms.push(x).unwrap();
        }
        self.op(Op::Const, dst, -1, -1, base, 0, v.len() as u8)
    }
    pub fn attr(&mut self, n: &str, loc: u8, ty: Type) -> &mut Self {
        let a = Attribute {
            name: name(n),
            ty,
            location: loc,
            components: ty.components(),
        };
        self.m.iface.attributes.push(a).unwrap();
        self
    }
    pub fn vary(&mut self, n: &str, slot: u8, ty: Type) -> &mut Self {
        self.m
            .iface
            .varyings
            .push(Varying {
                name: name(n),
                ty,
                slot,
                interp: shader::ir::Interp::Smooth,
            })
            .unwrap();
        self
    }
    pub fn uni(&mut self, n: &str, slot: u8, ty: Type) -> &mut Self {
        let u = Uniform {
            name: name(n),
            ty,
            slot: slot.into(),
            slots: ty.uniform_slots(),
        };
        self.m.iface.uniforms.push(u).unwrap();
        self
    }
    pub fn sampler(&mut self, n: &str, unit: u8) -> &mut Self {
        self.m
            .iface
            .samplers
            .push(Sampler {
                name: name(n),
                unit,
                ty: Type::Sampler2D,
            })
            .unwrap();
        self
    }
    pub fn temps(&mut self, n: u16) -> Module {
        self.m.temps = n;
        self.m.clone()
    }
}

pub fn tri_vert() -> Module {
    let mut b = B::new(Stage::Vertex);
    b.attr("position", 0, Type::Vec4)
        .attr("color", 1, Type::Vec4)
        .vary("vcolor", 0, Type::Vec4);
    b.m.iface.writes_position = true;
    b.op(Op::LoadAttr, 0, -1, -1, 0, 0, 4)
        .op(Op::LoadAttr, 1, -1, -1, 1, 0, 4)
        .op(Op::StoreVar, -1, 1, -1, 0, 0, 4)
        .op(Op::StorePos, -1, 0, -1, 0, 0, 4);
    b.temps(2)
}

pub fn tri_frag() -> Module {
    let mut b = B::new(Stage::Fragment);
    b.vary("vcolor", 0, Type::Vec4);
    b.m.iface.color_output = Some(name("fragColor"));
    b.op(Op::LoadVar, 0, -1, -1, 0, 0, 4)
        .op(Op::StoreColor, -1, 0, -1, 0, 0, 4);
    b.temps(1)
}

/// vec4(color, 1.0) with SETLANEs.
pub fn vary_frag() -> Module {
    let mut b = B::new(Stage::Fragment);
    b.vary("color", 0, Type::Vec3);
    b.m.iface.color_output = Some(name("fragColor"));
    b.op(Op::LoadVar, 0, -1, -1, 0, 0, 3)
        .konst(1, &[1.0])
        .konst(2, &[0.0, 0.0, 0.0, 0.0])
        .op(Op::SetLane, 2, 0, -1, 0, 0, 4)
        .op(Op::SetLane, 2, 0, -1, 1, 1, 4)
        .op(Op::SetLane, 2, 0, -1, 2, 2, 4)
        .op(Op::SetLane, 2, 1, -1, 3, 0, 4)
        .op(Op::StoreColor, -1, 2, -1, 0, 0, 4);
    b.temps(3)
}

pub fn tex_frag() -> Module {
    let mut b = B::new(Stage::Fragment);
    b.vary("fragUV", 0, Type::Vec2).sampler("diffuseTexture", 0);
    b.m.iface.color_output = Some(name("color"));
    b.op(Op::LoadVar, 0, -1, -1, 0, 0, 2)
        .op(Op::Sample, 1, 0, -1, 0, 0, 4)
        .op(Op::StoreColor, -1, 1, -1, 0, 0, 4);
    b.temps(2)
}

/// gl_Position = projection * view * model * position; vcolor = color.
pub fn mvp_vert() -> Module {
    let mut b = B::new(Stage::Vertex);
    b.attr("position", 0, Type::Vec4)
        .attr("color", 1, Type::Vec4)
        .vary("vcolor", 0, Type::Vec4);
    b.uni("model", 0, Type::Mat4)
        .uni("view", 4, Type::Mat4)
        .uni("projection", 8, Type::Mat4);
    b.m.iface.writes_position = true;
    b.op(Op::LoadUni, 0, -1, -1, 0, 4, 4)
        .op(Op::LoadUni, 4, -1, -1, 4, 4, 4)
        .op(Op::LoadUni, 8, -1, -1, 8, 4, 4)
        .op(Op::MulMM, 12, 8, 4, 4, 0, 4)
        .op(Op::MulMM, 16, 12, 0, 4, 0, 4)
        .op(Op::LoadAttr, 20, -1, -1, 0, 0, 4)
        .op(Op::MulMV, 21, 16, 20, 4, 0, 4)
        .op(Op::StorePos, -1, 21, -1, 0, 0, 4)
        .op(Op::LoadAttr, 22, -1, -1, 1, 0, 4)
        .op(Op::StoreVar, -1, 22, -1, 0, 0, 4);
    b.temps(23)
}

/// Lambert: (ambient + max(dot(N, L), 0) * lightColor, 1).
pub fn light_frag() -> Module {
    let mut b = B::new(Stage::Fragment);
    b.vary("vN", 0, Type::Vec3).vary("vP", 1, Type::Vec3);
    b.uni("lightPosition", 0, Type::Vec3)
        .uni("lightColor", 1, Type::Vec3)
        .uni("ambientColor", 2, Type::Vec3);
    b.m.iface.color_output = Some(name("color"));
    b.op(Op::LoadVar, 0, -1, -1, 0, 0, 3)
        .op(Op::LoadVar, 1, -1, -1, 1, 0, 3)
        .op(Op::LoadUni, 2, -1, -1, 0, 3, 4)
        // N = normalize(vN)
        .op(Op::Dot, 5, 0, 0, 3, 0, 1)
        .op(Op::Rsq, 6, 5, -1, 0, 0, 1)
        .op(Op::Swz, 7, 6, -1, 0, 0, 3)
        .op(Op::Mul, 8, 0, 7, 0, 0, 3)
        // L = normalize(lightPosition - vP)
        .op(Op::Sub, 9, 2, 1, 0, 0, 3)
        .op(Op::Dot, 10, 9, 9, 3, 0, 1)
        .op(Op::Rsq, 11, 10, -1, 0, 0, 1)
        .op(Op::Swz, 12, 11, -1, 0, 0, 3)
        .op(Op::Mul, 13, 9, 12, 0, 0, 3)
        .op(Op::Dot, 14, 8, 13, 3, 0, 1)
        .konst(15, &[0.0])
        .op(Op::Max, 16, 14, 15, 0, 0, 1)
        .op(Op::Swz, 17, 16, -1, 0, 0, 3)
        .op(Op::Mul, 18, 17, 3, 0, 0, 3)
        .op(Op::Add, 19, 4, 18, 0, 0, 3)
        .konst(20, &[1.0])
        .op(Op::SetLane, 19, 20, -1, 3, 0, 4)
        .op(Op::StoreColor, -1, 19, -1, 0, 0, 4);
    b.temps(21)
}

/// Every remaining op: gl_FragCoord, comparisons, IF/ELSE/ENDIF, discard, division, pow, sin,
/// cos, abs, trunc, sqrt, min, dot2/dot4, a swizzle, mat3 products with aliasing, rcp.
pub fn ops_frag() -> Module {
    let mut b = B::new(Stage::Fragment);
    b.vary("v", 0, Type::Vec4).vary("w", 2, Type::Vec2);
    b.uni("m3", 0, Type::Mat3)
        .uni("k", 3, Type::Vec4)
        .sampler("t1", 1);
    b.m.iface.color_output = Some(name("c"));
    b.m.iface.reads_fragcoord = true;
    // 0: fragcoord, 1: v, 2: w, 3..5: m3, 6: k
    b.op(Op::LoadFcoord, 0, -1, -1, 0, 0, 4)
        .op(Op::LoadVar, 1, -1, -1, 0, 0, 4)
        .op(Op::LoadVar, 2, -1, -1, 2, 0, 2)
        .op(Op::LoadUni, 3, -1, -1, 0, 3, 4)
        .op(Op::LoadUni, 6, -1, -1, 3, 1, 4)
        .konst(7, &[0.5, -0.25, 0.1, 1e-7])
        .op(Op::Cmp, 8, 1, 7, 1, 0, 1) // <
        .op(Op::Cmp, 9, 1, 7, 2, 0, 1) // >
        .op(Op::Cmp, 10, 1, 7, 3, 0, 1) // <=
        .op(Op::Cmp, 11, 1, 7, 4, 0, 1) // >=
        .op(Op::Cmp, 12, 1, 7, 5, 0, 1) // ==
        .op(Op::Cmp, 13, 1, 7, 6, 0, 1) // !=
        .op(Op::If, -1, 8, -1, 0, 0, 0)
        .op(Op::Discard, -1, -1, -1, 0, 0, 0)
        .op(Op::Else, -1, -1, -1, 0, 0, 0)
        .op(Op::If, -1, 13, -1, 0, 0, 0)
        .op(Op::Div, 14, 1, 7, 0, 0, 4)
        .op(Op::Endif, -1, -1, -1, 0, 0, 0)
        .op(Op::Endif, -1, -1, -1, 0, 0, 0)
        .op(Op::Pow, 15, 1, 7, 0, 0, 2)
        .op(Op::Sin, 16, 1, -1, 0, 0, 1)
        .op(Op::Cos, 17, 1, -1, 0, 0, 3)
        .op(Op::Abs, 18, 7, -1, 0, 0, 4)
        .op(Op::Trunc, 19, 7, -1, 0, 0, 2)
        .op(Op::Sqrt, 20, 18, -1, 0, 0, 4)
        .op(Op::Rcp, 21, 7, -1, 0, 0, 2)
        .op(Op::Min, 22, 1, 0, 0, 0, 4)
        .op(Op::Dot, 23, 1, 2, 2, 0, 1)
        .op(Op::Dot, 24, 1, 0, 4, 0, 1)
        .op(Op::Swz, 25, 1, -1, 0b00_01_10_11, 0, 4) // wzyx
        .op(Op::Swz, 26, 1, -1, 0b10_01, 0, 2) // yz
        .op(Op::Mov, 27, 1, -1, 0, 0, 3)
        .op(Op::MulMV, 6, 3, 6, 3, 0, 4) // aliased: k = m3 * k
        .op(Op::MulMM, 3, 3, 3, 3, 0, 4) // aliased: m3 = m3 * m3
        .op(Op::Sample, 28, 2, -1, 1, 0, 4)
        .op(Op::Nop, -1, -1, -1, 0, 0, 0)
        .op(Op::Add, 29, 28, 6, 0, 0, 4)
        .op(Op::StoreColor, -1, 29, -1, 0, 0, 4);
    b.temps(30)
}

pub fn corpus() -> Vec<(&'static str, Module)> {
    vec![
        ("tri.vert", tri_vert()),
        ("tri.frag", tri_frag()),
        ("vary.frag", vary_frag()),
        ("tex.frag", tex_frag()),
        ("mvp.vert", mvp_vert()),
        ("light.frag", light_frag()),
        ("ops.frag", ops_frag()),
    ]
}

/// Random modules for property tests (mostly valid, so the verifier accepts most of them).
pub mod random {
    use proptest::prelude::*;
    use shader::ir::*;

    /// Random instruction fields, mostly repaired into the operand ranges each op accepts (the
    /// verifier still has the last word), with balanced IF/ELSE/ENDIF blocks inserted.
    pub fn arb_inst(temps: i16) -> impl Strategy<Value = (Inst, u8)> {
        (
            0u8..35,
            0i16..temps,
            0i16..temps,
            0i16..temps,
            0i16..256,
            0i16..5,
            0u8..5,
            0u8..8,
        )
            .prop_map(move |(op, dst, a, b, aux, aux2, lanes, wrap)| {
                let op = Op::from_u8(op).unwrap();
                let mut i = Inst::new(op);
                i.ty = Type::Vec4 as u8;
                (i.dst, i.a, i.b, i.lanes) = (dst, a, b, lanes);
                let pick = |c: &[i16]| c[aux as usize % c.len()];
                match op {
                    Op::Const => {
                        i.lanes = 1 + lanes % 4;
                        i.aux = aux % (9 - i.lanes as i16);
                    }
                    Op::Swz => {
                        i.lanes = 1 + lanes % 4;
                        i.aux = aux;
                    }
                    Op::SetLane => (i.aux, i.aux2) = (aux % 4, aux2 % 4),
                    Op::Dot => i.aux = pick(&[0, 2, 3, 4]),
                    Op::Cmp => i.aux = 1 + aux % 6,
                    Op::MulMV | Op::MulMM => {
                        i.aux = pick(&[3, 4]);
                        let top = temps - i.aux;
                        (i.dst, i.a, i.b) = (dst % top, a % top, b % top);
                    }
                    Op::Sample => i.aux = pick(&[0, 2]),
                    Op::LoadAttr => i.aux = pick(&[0, 1]),
                    Op::LoadVar | Op::StoreVar => i.aux = pick(&[0, 3]),
                    Op::LoadUni => {
                        (i.aux, i.aux2) = [(0, 4), (4, 1), (0, 1), (1, 3)][aux as usize % 4];
                        i.dst = dst % (temps - 4);
                    }
                    Op::If | Op::Else | Op::Endif => i = Inst { op: Op::Mov, ..i },
                    _ => i.aux = aux % 8,
                }
                (shader::program::csir::normalize(i), wrap)
            })
    }

    /// Opens an IF before instructions whose `wrap` is 0 and closes it (with an ELSE half the
    /// time) after the next one.
    pub fn with_blocks(insts: Vec<(Inst, u8)>) -> Vec<Inst> {
        let mut out = Vec::new();
        for (i, wrap) in insts {
            if wrap == 0 {
                let mut c = Inst::new(Op::If);
                c.a = i.a.max(0);
                out.push(c);
                out.push(i);
                out.push(Inst::new(Op::Else));
                out.push(Inst::new(Op::Endif));
            } else if wrap == 1 {
                let mut c = Inst::new(Op::If);
                c.a = i.b.max(0);
                out.push(c);
                out.push(i);
                out.push(Inst::new(Op::Endif));
            } else {
                out.push(i);
            }
        }
        out
    }

    pub fn module(stage: bool, insts: Vec<Inst>) -> Module {
        let stage = if stage {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        let mut b = super::B::new(stage);
        for k in 0..8 {
            b.m.imms.push(k as f32 * 0.5 - 1.0).unwrap();
        }
        match stage {
            Stage::Vertex => {
                b.attr("a0", 0, Type::Vec4).attr("a1", 1, Type::Vec3);
                b.vary("v0", 0, Type::Vec4).vary("v3", 3, Type::Vec2);
                b.m.iface.writes_position = true;
            }
            Stage::Fragment => {
                b.vary("v0", 0, Type::Vec4).vary("v3", 3, Type::Vec2);
                b.m.iface.color_output = Some(super::name("c"));
                b.m.iface.reads_fragcoord = true;
            }
        }
        b.uni("m", 0, Type::Mat4)
            .uni("k", 4, Type::Vec4)
            .sampler("s", 0)
            .sampler("t", 2);
        for mut i in insts {
            let wrong_stage = match stage {
                Stage::Vertex => matches!(
                    i.op,
                    Op::LoadVar | Op::LoadFcoord | Op::StoreColor | Op::Discard
                ),
                Stage::Fragment => matches!(i.op, Op::LoadAttr | Op::StorePos | Op::StoreVar),
            };
            if wrong_stage {
                i = shader::program::csir::normalize(Inst {
                    op: Op::Mov,
                    dst: i.dst.max(0),
                    a: 0,
                    ..i
                });
            }
            b.m.insts.push(i).unwrap();
        }
        b.temps(12)
    }
}
