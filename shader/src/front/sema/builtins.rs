//! Built-in functions: the table `shc builtins` shows, and the lowering of each.

use super::types::*;
use super::{Sema, R};
use crate::front::ast::*;
use crate::ir::*;

type Builtin = (&'static str, u8, u8, &'static str);

/// The built-in tables in lookup order: a name found in an earlier one hides the later ones
/// (profile 2's texture built-ins, then the common ones, then profile 2's own).
const BUILTIN_TABLES: [&[Builtin]; 3] = [
    super::textures::P2_TEX_BUILTINS,
    BUILTINS,
    super::builtins2::P2_BUILTINS,
];

/// Slots of a built-in name index (more than twice the built-ins of both profiles).
const BUILTIN_SLOTS: usize = 512;

/// Hash of a built-in name (its slot in an index).
const fn builtin_hash(b: &[u8]) -> usize {
    let mut h = 0x811c_9dc5u32;
    let mut i = 0;
    while i < b.len() {
        h = (h ^ b[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    (h >> 7) as usize % BUILTIN_SLOTS
}

/// Entry `e` of an index: table `e >> 8`, row `e & 0xff`.
fn builtin_entry(e: u16) -> Option<&'static Builtin> {
    BUILTIN_TABLES.get(e as usize >> 8)?.get(e as usize & 0xff)
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// An open-addressed index of the first built-in of each name over `BUILTIN_TABLES`, in lookup
/// order: per slot 0 (empty) or 1 + (table << 8 | row). The same answer as searching the tables
/// in order.
const fn builtin_index() -> [u16; BUILTIN_SLOTS] {
    let mut t = [0u16; BUILTIN_SLOTS];
    let mut n = 0;
    let mut k = 0;
    while k < BUILTIN_TABLES.len() {
        let table = BUILTIN_TABLES[k];
        assert!(table.len() <= 256);
        let mut r = 0;
        while r < table.len() {
            let name = table[r].0.as_bytes();
            let mut h = builtin_hash(name);
            loop {
                let e = t[h];
                if e == 0 {
                    t[h] = 1 + ((k << 8) | r) as u16;
                    n += 1;
                    break;
                }
                let (tk, tr) = ((e - 1) as usize >> 8, (e - 1) as usize & 0xff);
                if same(BUILTIN_TABLES[tk][tr].0.as_bytes(), name) {
                    // An earlier entry of this name answers.
                    break;
                }
                h = (h + 1) % BUILTIN_SLOTS;
            }
            r += 1;
        }
        k += 1;
    }
    assert!(2 * n <= BUILTIN_SLOTS);
    t
}

/// The first built-in named `name` in profile 2's tables (`BUILTIN_TABLES` in order), through
/// an index.
fn lookup_p2_builtin(name: &str) -> Option<&'static Builtin> {
    let index = &P2_INDEX;
    let mut h = builtin_hash(name.as_bytes());
    // Bounded by the table size; the table is at most half full, so an empty slot ends it.
    for _ in 0..BUILTIN_SLOTS {
        let e = *index.get(h)?;
        let b = builtin_entry(e.checked_sub(1)?)?;
        if b.0 == name {
            return Some(b);
        }
        h = (h + 1) % BUILTIN_SLOTS;
    }
    None
}

/// Profile 2's built-ins.
static P2_INDEX: [u16; BUILTIN_SLOTS] = builtin_index();

/// Built-in functions: name, accepted argument counts, and the signatures shown by `shc builtins`.
pub const BUILTINS: &[(&str, u8, u8, &str)] = &[
    (
        "texture",
        2,
        2,
        "vec4 texture(sampler2D s, vec2 uv); vec4 texture(sampler2D s, vec3 uv); vec4 texture(sampler2D s, vec4 uv) (samples at uv.xy)",
    ),
    ("dot", 2, 2, "float dot(genType a, genType b)"),
    ("cross", 2, 2, "vec3 cross(vec3 a, vec3 b)"),
    ("length", 1, 1, "float length(genType v)"),
    ("normalize", 1, 1, "genType normalize(genType v)"),
    ("abs", 1, 1, "genType abs(genType x); genIType abs(genIType x)"),
    ("sin", 1, 1, "genType sin(genType radians)"),
    ("cos", 1, 1, "genType cos(genType radians)"),
    ("min", 2, 2, "genType min(genType a, genType b); genType min(genType a, float b)"),
    ("max", 2, 2, "genType max(genType a, genType b); genType max(genType a, float b)"),
    (
        "clamp",
        3,
        3,
        "genType clamp(genType x, genType lo, genType hi); genType clamp(genType x, float lo, float hi)",
    ),
    ("mix", 3, 3, "genType mix(genType a, genType b, genType t); genType mix(genType a, genType b, float t)"),
    ("pow", 2, 2, "genType pow(genType x, genType y)"),
    ("reflect", 2, 2, "genType reflect(genType i, genType n)"),
];

impl<'a> Sema<'a> {
    /// Whether `name` is a built-in function (which a shader can neither redefine nor shadow by
    /// a function of its own).
    #[inline]
    pub(super) fn is_builtin(&self, name: &str) -> bool {
        self.find_builtin(name).is_some()
    }

    /// The built-in `name` of this compile's profile (profile 2 adds `P2_BUILTINS`).
    pub(super) fn find_builtin(
        &self,
        name: &str,
    ) -> Option<&'static (&'static str, u8, u8, &'static str)> {
        if self.toks.profile == crate::limits::Profile::P2 {
            lookup_p2_builtin(name)
        } else {
            // Profile 1's table is short and its common names come first.
            BUILTINS.iter().find(|b| b.0 == name)
        }
    }

    /// Float arguments for a genType built-in: numeric non-matrix, ints converted to float.
    pub(super) fn float_arg(&mut self, name: &str, k: usize, a: (i16, Val)) -> R<Val> {
        let v = a.1;
        if !is_numeric(v.ty) {
            bail!(
                self,
                a.0,
                "argument {} of {}() must be float or a vector; found {}",
                k + 1,
                name,
                v.ty.name()
            );
        }
        self.to_float(v)
    }

    pub(super) fn op1(&mut self, op: Op, v: Val) -> R<Val> {
        let t = self.temp(1)?;
        let src = self.mat(v)?;
        self.emit(op, v.ty, v.ty.components(), t, src, -1, 0, 0)?;
        Ok(Val::temp(v.ty, t))
    }

    pub(super) fn op2(&mut self, op: Op, ty: Type, a: Val, b: Val) -> R<Val> {
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(op, ty, ty.components(), t, ta, tb, 0, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Makes `b` the same size as `a` (a scalar is broadcast); errors name the built-in.
    /// The two arguments of `name()` have the same type.
    pub(super) fn same_type(&mut self, name: &str, at: i16, a: Val, b: Val) -> R<()> {
        if a.ty != b.ty {
            bail!(
                self,
                at,
                "{}() expects two values of the same type; found {} and {}",
                name,
                a.ty.name(),
                b.ty.name()
            );
        }
        Ok(())
    }

    pub(super) fn match_size(&mut self, name: &str, at: i16, a: Val, b: Val) -> R<Val> {
        let (na, nb) = (a.ty.components(), b.ty.components());
        if na == nb {
            return Ok(b);
        }
        if nb == 1 {
            return self.splat(b, na);
        }
        bail!(
            self,
            at,
            "{}() arguments do not match: {} and {}",
            name,
            a.ty.name(),
            b.ty.name()
        );
    }

    pub(super) fn dot(&mut self, a: Val, b: Val) -> R<Val> {
        let n = a.ty.components();
        if n == 1 {
            return self.op2(Op::Mul, Type::Float, a, b);
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(Op::Dot, Type::Float, 1, t, ta, tb, n as i16, 0)?;
        Ok(Val::temp(Type::Float, t))
    }

    pub(super) fn builtin(&mut self, i: i16, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        match name {
            "texture" => {
                let (s, uv) = (arg(0), arg(1));
                if s.1.ty != Type::Sampler2D || s.1.unit < 0 {
                    bail!(
                        self,
                        s.0,
                        "texture() expects a sampler2D uniform as its first argument; found {}",
                        s.1.ty.name()
                    );
                }
                let uv_v = self.float_arg(name, 1, uv)?;
                if uv_v.ty.components() < 2 {
                    bail!(
                        self,
                        uv.0,
                        "texture() expects a vec2, vec3 or vec4 coordinate (it samples at .xy); found {}",
                        uv.1.ty.name()
                    );
                }
                // A longer coordinate is sampled at its .xy (the same temp: no instruction).
                const XY: i32 = 1 << 2;
                let uv_v = self.swizzle(uv.0, uv_v, 2, XY)?;
                let tc = self.mat(uv_v)?;
                let t = self.temp(1)?;
                self.emit(Op::Sample, Type::Vec4, 4, t, tc, -1, s.1.unit as i16, 0)?;
                Ok(Val::temp(Type::Vec4, t))
            }
            "dot" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, a, b)?;
                self.dot(a, b)
            }
            "cross" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                if a.ty != Type::Vec3 || b.ty != Type::Vec3 {
                    bail!(
                        self,
                        i,
                        "cross() expects two vec3 values; found {} and {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                // a.yzx * b.zxy - a.zxy * b.yzx
                const YZX: i32 = 1 | (2 << 2);
                const ZXY: i32 = 2 | (1 << 4);
                let a1 = self.swizzle(i, a, 3, YZX)?;
                let b1 = self.swizzle(i, b, 3, ZXY)?;
                let a2 = self.swizzle(i, a, 3, ZXY)?;
                let b2 = self.swizzle(i, b, 3, YZX)?;
                let p = self.arith(i, Node::new(Kind::Binary, -1), BinOp::Mul, a1, b1)?;
                let q = self.arith(i, Node::new(Kind::Binary, -1), BinOp::Mul, a2, b2)?;
                self.arith(i, Node::new(Kind::Binary, -1), BinOp::Sub, p, q)
            }
            "length" => {
                let v = self.float_arg(name, 0, arg(0))?;
                if v.ty.components() == 1 {
                    return self.op1(Op::Abs, v);
                }
                let d = self.dot(v, v)?;
                self.op1(Op::Sqrt, d)
            }
            "normalize" => {
                let v = self.float_arg(name, 0, arg(0))?;
                let d = self.dot(v, v)?;
                let r = self.op1(Op::Rsq, d)?;
                let s = self.splat(r, v.ty.components())?;
                self.op2(Op::Mul, v.ty, v, s)
            }
            "abs" => {
                let v = arg(0);
                if !is_numeric(v.1.ty) {
                    bail!(
                        self,
                        v.0,
                        "abs() expects a number or vector; found {}",
                        v.1.ty.name()
                    );
                }
                if self.true_ints() && is_int_based(v.1.ty) {
                    return self.int_builtin("abs", v.1, None);
                }
                if self.true_ints() && is_uint_based(v.1.ty) {
                    let f = self.to_float(v.1)?;
                    return self.op1(Op::Abs, f);
                }
                // GLSL has no genUType abs: a uint argument converts to float (profile 2).
                let ty = if is_uint_based(v.1.ty) {
                    float_of(v.1.ty)
                } else {
                    v.1.ty
                };
                if let Some(k) = v.1.k {
                    let mut out = k;
                    for o in out.iter_mut() {
                        *o = libm::fabsf(*o);
                    }
                    return Ok(Val::konst(ty, out));
                }
                self.op1(Op::Abs, Val { ty, ..v.1 })
            }
            "sin" | "cos" => {
                let v = self.float_arg(name, 0, arg(0))?;
                self.op1(if name == "sin" { Op::Sin } else { Op::Cos }, v)
            }
            "min" | "max" => {
                let a = arg(0);
                let b = arg(1);
                for (k, v) in [a, b].iter().enumerate() {
                    if !is_numeric(v.1.ty) {
                        bail!(
                            self,
                            v.0,
                            "argument {} of {}() must be a number or vector; found {}",
                            k + 1,
                            name,
                            v.1.ty.name()
                        );
                    }
                }
                // Profile 2: two uint-based arguments keep their type, as two int-based ones do.
                let int = (is_int_based(a.1.ty) && is_int_based(b.1.ty))
                    || (is_uint_based(a.1.ty) && is_uint_based(b.1.ty));
                let (fa, fb) = if int {
                    (a.1, b.1)
                } else if self.true_ints() {
                    (self.to_float(a.1)?, self.to_float(b.1)?)
                } else {
                    (
                        Val {
                            ty: float_of(a.1.ty),
                            ..a.1
                        },
                        Val {
                            ty: float_of(b.1.ty),
                            ..b.1
                        },
                    )
                };
                if int && self.true_ints() {
                    let fb = self.match_size(name, i, fa, fb)?;
                    return self.int_builtin(name, fa, Some(fb));
                }
                let fb = self.match_size(name, i, fa, fb)?;
                self.op2(if name == "min" { Op::Min } else { Op::Max }, fa.ty, fa, fb)
            }
            "clamp" => {
                // Profile 2: three uint-based arguments keep the uint type (genUType clamp).
                let keep = |v: (i16, Val)| is_uint_based(v.1.ty);
                let uint = keep(arg(0)) && keep(arg(1)) && keep(arg(2));
                let x = self.float_arg(name, 0, arg(0))?;
                let lo = self.float_arg(name, 1, arg(1))?;
                let hi = self.float_arg(name, 2, arg(2))?;
                let ints = [arg(0), arg(1), arg(2)]
                    .iter()
                    .all(|v| is_int_based(v.1.ty));
                if self.true_ints() && (uint || ints) {
                    let (x, lo, hi) = (arg(0).1, arg(1).1, arg(2).1);
                    let lo = self.match_size(name, i, x, lo)?;
                    let hi = self.match_size(name, i, x, hi)?;
                    let m = self.int_builtin("max", x, Some(lo))?;
                    return self.int_builtin("min", m, Some(hi));
                }
                let (x, lo, hi) = if uint {
                    (arg(0).1, arg(1).1, arg(2).1)
                } else {
                    (x, lo, hi)
                };
                let lo = self.match_size(name, i, x, lo)?;
                let hi = self.match_size(name, i, x, hi)?;
                let m = self.op2(Op::Max, x.ty, x, lo)?;
                self.op2(Op::Min, x.ty, m, hi)
            }
            "mix"
                if self.toks.profile == crate::limits::Profile::P2
                    && (arg(2).1.ty == Type::Bool || is_bvec(arg(2).1.ty)) =>
            {
                self.mix_select(i, arg(0), arg(1), arg(2))
            }
            "mix" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                let t = self.float_arg(name, 2, arg(2))?;
                if a.ty != b.ty {
                    bail!(
                        self,
                        i,
                        "mix() expects a and b of the same type; found {} and {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                let t = self.match_size(name, i, a, t)?;
                // a + (b - a) * t
                let d = self.op2(Op::Sub, a.ty, b, a)?;
                let m = self.op2(Op::Mul, a.ty, d, t)?;
                self.op2(Op::Add, a.ty, a, m)
            }
            "pow" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, a, b)?;
                self.op2(Op::Pow, a.ty, a, b)
            }
            "reflect" => {
                let v = self.float_arg(name, 0, arg(0))?;
                let nn = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, v, nn)?;
                // i - 2 * dot(n, i) * n
                let d = self.dot(nn, v)?;
                let d2 = self.op2(Op::Add, Type::Float, d, d)?;
                let s = self.splat(d2, v.ty.components())?;
                let p = self.op2(Op::Mul, v.ty, s, nn)?;
                self.op2(Op::Sub, v.ty, v, p)
            }
            _ if self.toks.profile == crate::limits::Profile::P2 => self.builtin2(i, name, args),
            _ => bail!(self, i, "unknown function '{}'", name),
        }
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// The index gives what searching profile 2's tables in order gives, for every built-in
    /// name and for names that are none.
    #[test]
    fn the_builtin_index_answers_as_the_ordered_search() {
        let names = BUILTIN_TABLES
            .iter()
            .flat_map(|t| t.iter().map(|b| b.0))
            .chain(["", "x", "main", "textures", "textur", "lum", "normalize2"]);
        for name in names {
            let searched = BUILTIN_TABLES
                .iter()
                .find_map(|t| t.iter().find(|b| b.0 == name));
            assert_eq!(
                lookup_p2_builtin(name).copied(),
                searched.copied(),
                "{}",
                name
            );
        }
    }
}
