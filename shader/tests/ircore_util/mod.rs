//! Hand-built IR modules for the IR-core tests (used until, and alongside, the frontend).
#![allow(dead_code)]
pub mod p2;
pub mod reference;
pub mod scene;
use shader::ir::*;
use shader::program::link::Program;

/// The next state of a xorshift64 generator (the random program generators' source).
pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

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
    pub fn temps(&mut self, n: u16) -> i16 {
        let t = self.m.temps;
        self.m.temps += n;
        t as i16
    }
    pub fn temp(&mut self) -> i16 {
        self.temps(1)
    }
    pub fn push(&mut self, i: Inst) {
        self.m.insts.push(i).unwrap();
    }
    pub fn inst(&mut self, op: Op, dst: i16, a: i16, b: i16, lanes: u8, aux: i16, aux2: i16) {
        self.push(Inst {
            op,
            ty: Type::Vec4 as u8,
            lanes,
            dst,
            a,
            b,
            c: -1,
            aux,
            aux2,
        });
    }
    /// CONST into a new temp.
    pub fn konst(&mut self, v: &[f32]) -> i16 {
        let base = self.m.imms.len() as i16;
        for x in v {
            self.m.imms.push(*x).unwrap();
        }
        let t = self.temp();
        self.inst(Op::Const, t, -1, -1, v.len() as u8, base, 0);
        t
    }
    pub fn bin(&mut self, op: Op, a: i16, b: i16, lanes: u8) -> i16 {
        let t = self.temp();
        self.inst(op, t, a, b, lanes, 0, 0);
        t
    }
    pub fn un(&mut self, op: Op, a: i16, lanes: u8) -> i16 {
        let t = self.temp();
        self.inst(op, t, a, -1, lanes, 0, 0);
        t
    }
    pub fn attribute(&mut self, n: &str, location: u8, ty: Type) -> i16 {
        self.m
            .iface
            .attributes
            .push(Attribute {
                name: name(n),
                ty,
                location,
                components: ty.components(),
            })
            .unwrap();
        let t = self.temp();
        self.inst(Op::LoadAttr, t, -1, -1, 4, location as i16, 0);
        t
    }
    pub fn declare_varying(&mut self, n: &str, slot: u8, ty: Type) {
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
    }
    pub fn load_varying(&mut self, n: &str, slot: u8, ty: Type) -> i16 {
        self.declare_varying(n, slot, ty);
        let t = self.temp();
        self.inst(Op::LoadVar, t, -1, -1, 4, slot as i16, 0);
        t
    }
    pub fn store_varying(&mut self, n: &str, slot: u8, ty: Type, a: i16) {
        self.declare_varying(n, slot, ty);
        self.inst(Op::StoreVar, -1, a, -1, 4, slot as i16, 0);
    }
    pub fn declare_uniform(&mut self, n: &str, ty: Type, slot: u8) {
        self.m
            .iface
            .uniforms
            .push(Uniform {
                name: name(n),
                ty,
                slot: slot.into(),
                slots: ty.uniform_slots(),
            })
            .unwrap();
    }
    pub fn uniform(&mut self, n: &str, ty: Type, slot: u8) -> i16 {
        self.declare_uniform(n, ty, slot);
        let count = ty.uniform_slots();
        let t = self.temps(count as u16);
        self.inst(Op::LoadUni, t, -1, -1, 4, slot as i16, count as i16);
        t
    }
    pub fn sampler(&mut self, n: &str, unit: u8) {
        self.m
            .iface
            .samplers
            .push(Sampler {
                name: name(n),
                unit,
                ty: Type::Sampler2D,
            })
            .unwrap();
    }
    pub fn sample(&mut self, unit: u8, coord: i16) -> i16 {
        let t = self.temp();
        self.inst(Op::Sample, t, coord, -1, 4, unit as i16, 0);
        t
    }
    pub fn position(&mut self, a: i16) {
        self.m.iface.writes_position = true;
        self.inst(Op::StorePos, -1, a, -1, 4, 0, 0);
    }
    pub fn color(&mut self, a: i16) {
        self.m.iface.color_output = Some(name("fragColor"));
        self.inst(Op::StoreColor, -1, a, -1, 4, 0, 0);
    }
    pub fn fragcoord(&mut self) -> i16 {
        self.m.iface.reads_fragcoord = true;
        let t = self.temp();
        self.inst(Op::LoadFcoord, t, -1, -1, 4, 0, 0);
        t
    }
    pub fn done(self) -> Module {
        self.m
    }
}

/// VS: gl_Position = attribute 0; varying "v" (vec4, slot 0) = attribute 1.
pub fn passthrough_vs() -> Module {
    let mut b = B::new(Stage::Vertex);
    let p = b.attribute("pos", 0, Type::Vec4);
    let c = b.attribute("col", 1, Type::Vec4);
    b.position(p);
    b.store_varying("v", 0, Type::Vec4, c);
    b.done()
}

/// FS: colour = varying "v".
pub fn passthrough_fs() -> Module {
    let mut b = B::new(Stage::Fragment);
    let v = b.load_varying("v", 0, Type::Vec4);
    b.color(v);
    b.done()
}

pub fn link(vs: &Module, fs: &Module) -> Program {
    let mut p = Program::new();
    p.link(Some(vs), Some(fs))
        .unwrap_or_else(|e| panic!("link failed: {} / {}", e, p.log()));
    p
}
