//! Profile 2's additions to the built-in library (GLSL 3.30 §8, issue 13 item 5): the table
//! `shc builtins --profile 2` adds to profile 1's, and the lowering of each.
//!
//! Owns: the profile-2 names (profile 1 neither knows nor reserves them) and their lowering to
//! IR, including profile 2's lane-wise opcodes FLOOR..CMPV. Where GLSL leaves a result
//! undefined the lowering follows Mesa's (see docs/LANGUAGE.md, "Built-in functions (profile 2)").
//! Must never: be reached in profile 1, allocate, or panic.

use super::types::*;
use super::{Sema, R};
use crate::ir::*;

/// Profile 2's built-in functions beyond profile 1's: name, argument counts, signatures.
pub const P2_BUILTINS: &[(&str, u8, u8, &str)] = &[
    ("radians", 1, 1, "genType radians(genType degrees)"),
    ("degrees", 1, 1, "genType degrees(genType radians)"),
    ("tan", 1, 1, "genType tan(genType angle)"),
    ("asin", 1, 1, "genType asin(genType x)"),
    ("acos", 1, 1, "genType acos(genType x)"),
    (
        "atan",
        1,
        2,
        "genType atan(genType y, genType x); genType atan(genType y_over_x)",
    ),
    ("sinh", 1, 1, "genType sinh(genType x)"),
    ("cosh", 1, 1, "genType cosh(genType x)"),
    ("tanh", 1, 1, "genType tanh(genType x)"),
    ("asinh", 1, 1, "genType asinh(genType x)"),
    ("acosh", 1, 1, "genType acosh(genType x)"),
    ("atanh", 1, 1, "genType atanh(genType x)"),
    ("exp", 1, 1, "genType exp(genType x)"),
    ("log", 1, 1, "genType log(genType x)"),
    ("exp2", 1, 1, "genType exp2(genType x)"),
    ("log2", 1, 1, "genType log2(genType x)"),
    ("sqrt", 1, 1, "genType sqrt(genType x)"),
    ("inversesqrt", 1, 1, "genType inversesqrt(genType x)"),
    (
        "sign",
        1,
        1,
        "genType sign(genType x); genIType sign(genIType x)",
    ),
    ("floor", 1, 1, "genType floor(genType x)"),
    ("dFdx", 1, 1, "genType dFdx(genType p) (fragment shaders only)"),
    ("dFdy", 1, 1, "genType dFdy(genType p) (fragment shaders only)"),
    (
        "fwidth",
        1,
        1,
        "genType fwidth(genType p) (fragment shaders only)",
    ),
    ("trunc", 1, 1, "genType trunc(genType x)"),
    ("round", 1, 1, "genType round(genType x)"),
    ("roundEven", 1, 1, "genType roundEven(genType x)"),
    ("ceil", 1, 1, "genType ceil(genType x)"),
    ("fract", 1, 1, "genType fract(genType x)"),
    ("modf", 2, 2, "genType modf(genType x, out genType i)"),
    (
        "mod",
        2,
        2,
        "genType mod(genType x, genType y); genType mod(genType x, float y)",
    ),
    (
        "step",
        2,
        2,
        "genType step(genType edge, genType x); genType step(float edge, genType x)",
    ),
    (
        "smoothstep",
        3,
        3,
        "genType smoothstep(genType e0, genType e1, genType x); genType smoothstep(float e0, float e1, genType x)",
    ),
    (
        "mix",
        3,
        3,
        "genType mix(genType a, genType b, genBType sel); genIType mix(genIType a, genIType b, genBType sel); genUType mix(genUType a, genUType b, genBType sel); genBType mix(genBType a, genBType b, genBType sel) (profile 2's overloads; the float ones are profile 1's)",
    ),
    ("isnan", 1, 1, "genBType isnan(genType x)"),
    ("isinf", 1, 1, "genBType isinf(genType x)"),
    ("distance", 2, 2, "float distance(genType p0, genType p1)"),
    (
        "faceforward",
        3,
        3,
        "genType faceforward(genType N, genType I, genType Nref)",
    ),
    ("refract", 3, 3, "genType refract(genType I, genType N, float eta)"),
    ("matrixCompMult", 2, 2, "mat matrixCompMult(mat x, mat y)"),
    (
        "inverse",
        1,
        1,
        "mat2 inverse(mat2 m); mat3 inverse(mat3 m); mat4 inverse(mat4 m)",
    ),
    (
        "outerProduct",
        2,
        2,
        "mat2 outerProduct(vec2 c, vec2 r); mat3 outerProduct(vec3 c, vec3 r); mat4 outerProduct(vec4 c, vec4 r); mat2x3 outerProduct(vec3 c, vec2 r); mat3x2 outerProduct(vec2 c, vec3 r); mat2x4 outerProduct(vec4 c, vec2 r); mat4x2 outerProduct(vec2 c, vec4 r); mat3x4 outerProduct(vec4 c, vec3 r); mat4x3 outerProduct(vec3 c, vec4 r)",
    ),
    (
        "transpose",
        1,
        1,
        "mat2 transpose(mat2 m); mat3 transpose(mat3 m); mat4 transpose(mat4 m); mat2x3 transpose(mat3x2 m); mat3x2 transpose(mat2x3 m); mat2x4 transpose(mat4x2 m); mat4x2 transpose(mat2x4 m); mat3x4 transpose(mat4x3 m); mat4x3 transpose(mat3x4 m)",
    ),
    (
        "determinant",
        1,
        1,
        "float determinant(mat2 m); float determinant(mat3 m); float determinant(mat4 m)",
    ),
    (
        "lessThan",
        2,
        2,
        "bvec lessThan(vec x, vec y); bvec lessThan(ivec x, ivec y); bvec lessThan(uvec x, uvec y)",
    ),
    (
        "lessThanEqual",
        2,
        2,
        "bvec lessThanEqual(vec x, vec y); bvec lessThanEqual(ivec x, ivec y); bvec lessThanEqual(uvec x, uvec y)",
    ),
    (
        "greaterThan",
        2,
        2,
        "bvec greaterThan(vec x, vec y); bvec greaterThan(ivec x, ivec y); bvec greaterThan(uvec x, uvec y)",
    ),
    (
        "greaterThanEqual",
        2,
        2,
        "bvec greaterThanEqual(vec x, vec y); bvec greaterThanEqual(ivec x, ivec y); bvec greaterThanEqual(uvec x, uvec y)",
    ),
    (
        "equal",
        2,
        2,
        "bvec equal(vec x, vec y); bvec equal(ivec x, ivec y); bvec equal(uvec x, uvec y); bvec equal(bvec x, bvec y)",
    ),
    (
        "notEqual",
        2,
        2,
        "bvec notEqual(vec x, vec y); bvec notEqual(ivec x, ivec y); bvec notEqual(uvec x, uvec y); bvec notEqual(bvec x, bvec y)",
    ),
    ("any", 1, 1, "bool any(bvec x)"),
    ("all", 1, 1, "bool all(bvec x)"),
    ("not", 1, 1, "bvec not(bvec x)"),
    (
        "floatBitsToInt",
        1,
        1,
        "genIType floatBitsToInt(genType value)",
    ),
    (
        "floatBitsToUint",
        1,
        1,
        "genUType floatBitsToUint(genType value)",
    ),
    (
        "intBitsToFloat",
        1,
        1,
        "genType intBitsToFloat(genIType value)",
    ),
    (
        "uintBitsToFloat",
        1,
        1,
        "genType uintBitsToFloat(genUType value)",
    ),
];

/// Mesa's minimax polynomial for atan on [0, 1] (odd powers, u^1..u^11).
const ATAN_P: [f32; 6] = [
    0.999_979_3,
    -0.332_675_64,
    0.193_892_5,
    -0.117_350_32,
    0.053_681_38,
    -0.012_132_321,
];
/// asin(x) = pi/2 - sqrt(1 - x) p(x) for x in [0, 1], p(x) = pi/2 + x (pi/4 - 1 + x (p0 + x p1)):
/// the form Mesa's GLSL front end lowers asin to (first-order exact at 0 and 1), with its fitted
/// p0, p1 (so the software path and TGSI agree with llvmpipe to rounding). Coefficients of p,
/// constant term first.
const ASIN_P: [f32; 4] = [
    core::f32::consts::FRAC_PI_2,
    core::f32::consts::FRAC_PI_4 - 1.0,
    0.086_566_724,
    -0.031_029_55,
];
/// The same form with the coefficients Mesa fits for acos (acos = pi/2 - that).
const ACOS_P: [f32; 4] = [
    core::f32::consts::FRAC_PI_2,
    core::f32::consts::FRAC_PI_4 - 1.0,
    0.081_324_63,
    -0.023_633_18,
];

const LOG2_E: f32 = core::f32::consts::LOG2_E;
const LN_2: f32 = core::f32::consts::LN_2;

impl<'a> Sema<'a> {
    /// `v * k` (k broadcast).
    fn mul_k(&mut self, v: Val, k: f32) -> R<Val> {
        let s = self.splat(
            Val::konst(Type::Float, [k, 0.0, 0.0, 0.0]),
            v.ty.components(),
        )?;
        self.op2(Op::Mul, v.ty, v, s)
    }

    /// `v + k` (k broadcast).
    fn add_k(&mut self, v: Val, k: f32) -> R<Val> {
        let s = self.splat(
            Val::konst(Type::Float, [k, 0.0, 0.0, 0.0]),
            v.ty.components(),
        )?;
        self.op2(Op::Add, v.ty, v, s)
    }

    fn exp_e(&mut self, x: Val) -> R<Val> {
        let y = self.mul_k(x, LOG2_E)?;
        self.op1(Op::Exp2, y)
    }

    fn log_e(&mut self, x: Val) -> R<Val> {
        let y = self.op1(Op::Log2, x)?;
        self.mul_k(y, LN_2)
    }

    /// Lane-wise comparison into a bool vector (or bool) of `a`'s size.
    fn cmpv(&mut self, a: Val, b: Val, code: CmpCode) -> R<Val> {
        let n = a.ty.components().max(1);
        if self.true_ints() && is_whole(a.ty) && is_whole(b.ty) {
            return self.int_compare(code, a, b, n);
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let ty = vec_of(Sk::Bool, n);
        self.emit(Op::CmpV, ty, n, t, ta, tb, code as i16, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Two vectors of one type for a relational built-in (float, int, uint or, for equal and
    /// notEqual, bool vectors).
    fn rel_args(&mut self, name: &str, i: i16, a: Val, b: Val, bools: bool) -> R<()> {
        let ok = |t: Type| {
            t.components() > 1 && !is_matrix(t) && (is_numeric(t) || (bools && is_bvec(t)))
        };
        if !ok(a.ty) || a.ty != b.ty {
            bail!(
                self,
                i,
                "{}() expects two vectors of one type{}; found {} and {}",
                name,
                if bools { "" } else { " (float, int or uint)" },
                a.ty.name(),
                b.ty.name()
            );
        }
        Ok(())
    }

    fn bvec_arg(&mut self, name: &str, a: (i16, Val)) -> R<Val> {
        if !is_bvec(a.1.ty) {
            bail!(
                self,
                a.0,
                "{}() expects a bool vector (bvec2, bvec3 or bvec4); found {}",
                name,
                a.1.ty.name()
            );
        }
        Ok(a.1)
    }

    fn matrix_arg(&mut self, name: &str, a: (i16, Val)) -> R<Val> {
        if !is_matrix(a.1.ty) {
            bail!(
                self,
                a.0,
                "{}() expects a matrix; found {}",
                name,
                a.1.ty.name()
            );
        }
        Ok(a.1)
    }

    /// Lane `k` of `v` as a float scalar temp.
    fn lane_of(&mut self, v: i16, k: u8) -> R<Val> {
        let t = self.temp(1)?;
        self.emit(Op::Swz, Type::Float, 1, t, v, -1, k as i16, 0)?;
        Ok(Val::temp(Type::Float, t))
    }

    /// Horner: `c[0] + x (c[1] + x (...))`.
    fn poly(&mut self, x: Val, c: &[f32]) -> R<Val> {
        let n = x.ty.components();
        let mut acc = self.splat(
            Val::konst(
                Type::Float,
                [c.last().copied().unwrap_or(0.0), 0.0, 0.0, 0.0],
            ),
            n,
        )?;
        for &k in c.iter().rev().skip(1) {
            let m = self.op2(Op::Mul, x.ty, acc, x)?;
            acc = self.add_k(m, k)?;
        }
        Ok(acc)
    }

    /// atan(x) for genType x: the polynomial on min(|x|, 1) / max(|x|, 1), reflected about
    /// pi/4 above 1, with x's sign.
    fn atan1(&mut self, x: Val) -> R<Val> {
        let n = x.ty.components();
        let one = self.splat(Val::konst(Type::Float, [1.0, 0.0, 0.0, 0.0]), n)?;
        let a = self.op1(Op::Abs, x)?;
        let lo = self.op2(Op::Min, x.ty, a, one)?;
        let hi = self.op2(Op::Max, x.ty, a, one)?;
        let u = self.op2(Op::Div, x.ty, lo, hi)?;
        let u2 = self.op2(Op::Mul, x.ty, u, u)?;
        let p = self.poly(u2, &ATAN_P)?;
        let t = self.op2(Op::Mul, x.ty, u, p)?;
        // above 1: pi/2 - t, as t + b (pi/2 - 2t)
        let b = self.cmpv(a, one, CmpCode::Gt)?;
        let b = Val { ty: x.ty, ..b };
        let m2 = self.mul_k(t, -2.0)?;
        let c = self.add_k(m2, core::f32::consts::FRAC_PI_2)?;
        let bc = self.op2(Op::Mul, x.ty, b, c)?;
        let r = self.op2(Op::Add, x.ty, t, bc)?;
        let sg = self.op1(Op::Sign, x)?;
        self.op2(Op::Mul, x.ty, sg, r)
    }

    /// `modf(x, out i)`: `i = trunc(x)`, the result `x - i` (Mesa's lowering: an infinite x
    /// gives NaN). The second argument must be an l-value of x's float type.
    pub(super) fn modf(&mut self, i: i16, args: &[(i16, Val)]) -> R<Val> {
        let (Some(&a0), Some(&(n1, v1))) = (args.first(), args.get(1)) else {
            return Err(());
        };
        let x = self.float_arg("modf", 0, a0)?;
        if !self.is_lvalue_shape(n1) {
            bail!(
                self,
                n1,
                "argument 2 of modf() must be an l-value (a variable, or a swizzle or index of one): it is an out parameter"
            );
        }
        if v1.ty != x.ty || v1.agg.is_agg() {
            bail!(
                self,
                n1,
                "argument 2 of modf() must be a {} like argument 1 (genType modf(genType x, out genType i)); found {}",
                x.ty.name(),
                self.val_name(&v1)
            );
        }
        let lv = self.lvalue(n1)?;
        self.cur_node = i;
        let t = self.op1(Op::Trunc, x)?;
        let f = self.op2(Op::Sub, x.ty, x, t)?;
        self.write_lvalue(lv, t)?;
        Ok(f)
    }

    /// A vec4 swizzle of temp `v` (`sel`: two bits per lane, lane 0 lowest).
    fn swz4(&mut self, v: i16, sel: i16) -> R<Val> {
        let t = self.temp(1)?;
        self.emit(Op::Swz, Type::Vec4, 4, t, v, -1, sel, 0)?;
        Ok(Val::temp(Type::Vec4, t))
    }

    /// `inverse(mat4)` by cofactors: row i of the adjugate is (-1)^i times the 4-D cross
    /// product of the other three columns (lane j: (-1)^j times the 3x3 determinant of their
    /// rows other than j, each lane's three rows picked by swizzles), the determinant is
    /// dot(column 0, adjugate row 0), and the rows over it are transposed into columns.
    fn inverse4(&mut self, m: Val) -> R<Val> {
        // rows other than lane j, as (P, Q, R) per lane: (1,2,3) (0,2,3) (0,1,3) (0,1,2)
        const P: i16 = 1;
        const Q: i16 = 2 | (2 << 2) | (1 << 4) | (1 << 6);
        const RR: i16 = 3 | (3 << 2) | (3 << 4) | (2 << 6);
        let v4 = Type::Vec4;
        let mut rows = [Val::konst(v4, [0.0; 4]); 4];
        for (i, row) in rows.iter_mut().enumerate() {
            let mut others = [0i16; 3];
            let mut k = 0;
            for c in 0..4i16 {
                if c as usize != i {
                    if let Some(o) = others.get_mut(k) {
                        *o = m.tmp + c;
                    }
                    k += 1;
                }
            }
            let [a, b, c] = others;
            let (ap, aq, ar) = (self.swz4(a, P)?, self.swz4(a, Q)?, self.swz4(a, RR)?);
            let (bp, bq, br) = (self.swz4(b, P)?, self.swz4(b, Q)?, self.swz4(b, RR)?);
            let (cp, cq, cr) = (self.swz4(c, P)?, self.swz4(c, Q)?, self.swz4(c, RR)?);
            // a.P (b.Q c.R - b.R c.Q) - a.Q (b.P c.R - b.R c.P) + a.R (b.P c.Q - b.Q c.P)
            let x = self.op2(Op::Mul, v4, bq, cr)?;
            let y = self.op2(Op::Mul, v4, br, cq)?;
            let m0 = self.op2(Op::Sub, v4, x, y)?;
            let x = self.op2(Op::Mul, v4, bp, cr)?;
            let y = self.op2(Op::Mul, v4, br, cp)?;
            let m1 = self.op2(Op::Sub, v4, x, y)?;
            let x = self.op2(Op::Mul, v4, bp, cq)?;
            let y = self.op2(Op::Mul, v4, bq, cp)?;
            let m2 = self.op2(Op::Sub, v4, x, y)?;
            let t0 = self.op2(Op::Mul, v4, ap, m0)?;
            let t1 = self.op2(Op::Mul, v4, aq, m1)?;
            let t2 = self.op2(Op::Mul, v4, ar, m2)?;
            let d = self.op2(Op::Sub, v4, t0, t1)?;
            let d = self.op2(Op::Add, v4, d, t2)?;
            let s = if i % 2 == 0 {
                [1.0, -1.0, 1.0, -1.0]
            } else {
                [-1.0, 1.0, -1.0, 1.0]
            };
            *row = self.op2(Op::Mul, v4, d, Val::konst(v4, s))?;
        }
        let det = self.dot(Val::temp(v4, m.tmp), rows[0])?;
        let one = Val::konst(Type::Float, [1.0, 0.0, 0.0, 0.0]);
        let rd = self.op2(Op::Div, Type::Float, one, det)?;
        let rds = self.splat(rd, 4)?;
        let mut scaled = rows;
        for (s, r) in scaled.iter_mut().zip(rows.iter()) {
            *s = self.op2(Op::Mul, v4, *r, rds)?;
        }
        let t = self.temp(4)?;
        for j in 0..4i16 {
            self.zero(t + j)?;
            for (k, r) in scaled.iter().enumerate() {
                let tr = self.mat(*r)?;
                self.emit(Op::SetLane, v4, 1, t + j, tr, -1, k as i16, j)?;
            }
        }
        Ok(Val::temp(Type::Mat4, t))
    }

    /// `mix(a, b, sel)` with a bool or bvec selector: lane k is b[k] where sel[k] is true and
    /// a[k] otherwise, exactly (no arithmetic: infinities and NaN pass through), one IF per lane.
    pub(super) fn mix_select(
        &mut self,
        i: i16,
        a: (i16, Val),
        b: (i16, Val),
        s: (i16, Val),
    ) -> R<Val> {
        let (a, b, s) = (a.1, b.1, s.1);
        let n = a.ty.components();
        let ok = (is_numeric(a.ty) || is_bvec(a.ty) || a.ty == Type::Bool)
            && !is_matrix(a.ty)
            && a.ty == b.ty
            && s.ty.components() == n;
        if !ok {
            bail!(
                self,
                i,
                "mix() with a bool selector expects a and b of one type and a selector of their size; found {}, {} and {}",
                a.ty.name(),
                b.ty.name(),
                s.ty.name()
            );
        }
        if let (Some(x), Some(y), Some(c)) = (a.k, b.k, s.k) {
            let mut out = [0.0f32; 4];
            for (k, o) in out.iter_mut().enumerate().take(n as usize) {
                *o = if lane(&c, k) != 0.0 {
                    lane(&y, k)
                } else {
                    lane(&x, k)
                };
            }
            return Ok(Val::konst(a.ty, out));
        }
        if self.if_depth >= crate::limits::IF_DEPTH_MAX {
            bail!(
                self,
                i,
                "if statements are nested too deeply: the limit is {}",
                crate::limits::IF_DEPTH_MAX
            );
        }
        let (ta, tb, ts) = (self.mat(a)?, self.mat(b)?, self.mat(s)?);
        let r = self.temp(1)?;
        self.emit(Op::Mov, a.ty, 4, r, ta, -1, 0, 0)?;
        let c = self.temp(1)?;
        for k in 0..n as i16 {
            self.emit(Op::Swz, Type::Bool, 1, c, ts, -1, k, 0)?;
            self.emit(Op::If, Type::None, 0, -1, c, -1, 0, 0)?;
            self.emit(Op::SetLane, a.ty, 1, r, tb, -1, k, k)?;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        }
        Ok(Val::temp(a.ty, r))
    }

    /// Profile 2's built-ins (`P2_BUILTINS`); the arguments are already counted.
    pub(super) fn builtin2(&mut self, i: i16, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        match name {
            "radians" | "degrees" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let k = if name == "radians" {
                    core::f32::consts::PI / 180.0
                } else {
                    180.0 / core::f32::consts::PI
                };
                self.mul_k(x, k)
            }
            "tan" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let s = self.op1(Op::Sin, x)?;
                let c = self.op1(Op::Cos, x)?;
                self.op2(Op::Div, x.ty, s, c)
            }
            "exp" => {
                let x = self.float_arg(name, 0, arg(0))?;
                self.exp_e(x)
            }
            "atan" if args.len() == 1 => {
                let x = self.float_arg(name, 0, arg(0))?;
                self.atan1(x)
            }
            "atan" => {
                // atan(y / x), plus pi with y's sign (y >= 0: +pi) when x < 0.
                let y = self.float_arg(name, 0, arg(0))?;
                let x = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, y, x)?;
                let z = self.splat(Val::konst(Type::Float, [0.0; 4]), x.ty.components())?;
                // x = -0 divides as +0 (x + 0 is +0 for -0, x otherwise), so atan(y, -0) is
                // sign(y) pi/2 as for +0 (and as Mesa gives), not -sign(y) pi/2.
                let xp = self.add_k(x, 0.0)?;
                let q = self.op2(Op::Div, x.ty, y, xp)?;
                let t = self.atan1(q)?;
                let neg = self.cmpv(x, z, CmpCode::Lt)?;
                let up = self.cmpv(y, z, CmpCode::Ge)?;
                let up = Val { ty: x.ty, ..up };
                let s2 = self.mul_k(up, 2.0 * core::f32::consts::PI)?;
                let s = self.add_k(s2, -core::f32::consts::PI)?;
                let c = self.op2(Op::Mul, x.ty, Val { ty: x.ty, ..neg }, s)?;
                self.op2(Op::Add, x.ty, t, c)
            }
            "asin" | "acos" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let a = self.op1(Op::Abs, x)?;
                let na = self.mul_k(a, -1.0)?;
                let om = self.add_k(na, 1.0)?;
                let r = self.op1(Op::Sqrt, om)?;
                let p = self.poly(a, if name == "asin" { &ASIN_P } else { &ACOS_P })?;
                let rp = self.op2(Op::Mul, x.ty, r, p)?;
                let nrp = self.mul_k(rp, -1.0)?;
                let h = self.add_k(nrp, core::f32::consts::FRAC_PI_2)?;
                let sg = self.op1(Op::Sign, x)?;
                let asin = self.op2(Op::Mul, x.ty, sg, h)?;
                if name == "asin" {
                    return Ok(asin);
                }
                let n = self.mul_k(asin, -1.0)?;
                self.add_k(n, core::f32::consts::FRAC_PI_2)
            }
            "inverse" => {
                let m = self.matrix_arg(name, arg(0))?;
                match m.ty {
                    Type::Mat2 => {
                        // (1 / det) (d, -b, -c, a)
                        let det = self.builtin2(i, "determinant", &[(i, m)])?;
                        let one = Val::konst(Type::Float, [1.0, 0.0, 0.0, 0.0]);
                        let r = self.op2(Op::Div, Type::Float, one, det)?;
                        let t = self.temp(2)?;
                        self.zero(t)?;
                        self.zero(t + 1)?;
                        self.emit(Op::SetLane, Type::Vec2, 1, t, m.tmp + 1, -1, 0, 1)?;
                        self.emit(Op::SetLane, Type::Vec2, 1, t, m.tmp, -1, 1, 1)?;
                        self.emit(Op::SetLane, Type::Vec2, 1, t + 1, m.tmp + 1, -1, 0, 0)?;
                        self.emit(Op::SetLane, Type::Vec2, 1, t + 1, m.tmp, -1, 1, 0)?;
                        let sgn = self.mat(Val::konst(Type::Vec2, [1.0, -1.0, 0.0, 0.0]))?;
                        let nsg = self.mat(Val::konst(Type::Vec2, [-1.0, 1.0, 0.0, 0.0]))?;
                        let rs = self.splat(r, 2)?;
                        let rs = self.mat(rs)?;
                        self.emit(Op::Mul, Type::Vec2, 2, t, t, sgn, 0, 0)?;
                        self.emit(Op::Mul, Type::Vec2, 2, t + 1, t + 1, nsg, 0, 0)?;
                        self.emit(Op::Mul, Type::Vec2, 2, t, t, rs, 0, 0)?;
                        self.emit(Op::Mul, Type::Vec2, 2, t + 1, t + 1, rs, 0, 0)?;
                        Ok(Val::temp(Type::Mat2, t))
                    }
                    Type::Mat3 => {
                        // rows of the inverse: cross(c1, c2), cross(c2, c0), cross(c0, c1) / det
                        let c = [
                            Val::temp(Type::Vec3, m.tmp),
                            Val::temp(Type::Vec3, m.tmp + 1),
                            Val::temp(Type::Vec3, m.tmp + 2),
                        ];
                        let r0 = self.builtin(i, "cross", &[(i, c[1]), (i, c[2])])?;
                        let r1 = self.builtin(i, "cross", &[(i, c[2]), (i, c[0])])?;
                        let r2 = self.builtin(i, "cross", &[(i, c[0]), (i, c[1])])?;
                        let det = self.dot(c[0], r0)?;
                        let one = Val::konst(Type::Float, [1.0, 0.0, 0.0, 0.0]);
                        let rd = self.op2(Op::Div, Type::Float, one, det)?;
                        let rds = self.splat(rd, 3)?;
                        let rows = [r0, r1, r2];
                        let mut scaled = [r0; 3];
                        for (k, r) in rows.iter().enumerate() {
                            if let Some(s) = scaled.get_mut(k) {
                                *s = self.op2(Op::Mul, Type::Vec3, *r, rds)?;
                            }
                        }
                        let t = self.temp(3)?;
                        for j in 0..3i16 {
                            self.zero(t + j)?;
                            for (k, r) in scaled.iter().enumerate() {
                                self.emit(
                                    Op::SetLane,
                                    Type::Vec3,
                                    1,
                                    t + j,
                                    r.tmp,
                                    -1,
                                    k as i16,
                                    j,
                                )?;
                            }
                        }
                        Ok(Val::temp(Type::Mat3, t))
                    }
                    Type::Mat4 => self.inverse4(m),
                    t => bail!(
                        self,
                        arg(0).0,
                        "inverse() expects a square matrix (mat2, mat3 or mat4); found {}",
                        t.name()
                    ),
                }
            }
            "log" => {
                let x = self.float_arg(name, 0, arg(0))?;
                self.log_e(x)
            }
            "sinh" | "cosh" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let e = self.exp_e(x)?;
                let nx = self.mul_k(x, -1.0)?;
                let ei = self.exp_e(nx)?;
                let op = if name == "sinh" { Op::Sub } else { Op::Add };
                let d = self.op2(op, x.ty, e, ei)?;
                self.mul_k(d, 0.5)
            }
            "tanh" => {
                // Mesa: (e^2x - 1) / (e^2x + 1) with x clamped to [-10, 10] (no inf / inf).
                let x = self.float_arg(name, 0, arg(0))?;
                let n = x.ty.components();
                let lo = self.splat(Val::konst(Type::Float, [-10.0, 0.0, 0.0, 0.0]), n)?;
                let hi = self.splat(Val::konst(Type::Float, [10.0, 0.0, 0.0, 0.0]), n)?;
                let c = self.op2(Op::Max, x.ty, x, lo)?;
                let c = self.op2(Op::Min, x.ty, c, hi)?;
                let c2 = self.mul_k(c, 2.0)?;
                let e = self.exp_e(c2)?;
                let num = self.add_k(e, -1.0)?;
                let den = self.add_k(e, 1.0)?;
                self.op2(Op::Div, x.ty, num, den)
            }
            "asinh" => {
                // sign(x) * log(|x| + sqrt(x^2 + 1))
                let x = self.float_arg(name, 0, arg(0))?;
                let a = self.op1(Op::Abs, x)?;
                let x2 = self.op2(Op::Mul, x.ty, x, x)?;
                let x21 = self.add_k(x2, 1.0)?;
                let r = self.op1(Op::Sqrt, x21)?;
                let s = self.op2(Op::Add, x.ty, a, r)?;
                let l = self.log_e(s)?;
                let sg = self.op1(Op::Sign, x)?;
                self.op2(Op::Mul, x.ty, sg, l)
            }
            "acosh" => {
                // log(x + sqrt(x^2 - 1)); NaN below 1, as Mesa
                let x = self.float_arg(name, 0, arg(0))?;
                let x2 = self.op2(Op::Mul, x.ty, x, x)?;
                let x21 = self.add_k(x2, -1.0)?;
                let r = self.op1(Op::Sqrt, x21)?;
                let s = self.op2(Op::Add, x.ty, x, r)?;
                self.log_e(s)
            }
            "atanh" => {
                // 0.5 * log((1 + x) / (1 - x))
                let x = self.float_arg(name, 0, arg(0))?;
                let p = self.add_k(x, 1.0)?;
                let nx = self.mul_k(x, -1.0)?;
                let q = self.add_k(nx, 1.0)?;
                let d = self.op2(Op::Div, x.ty, p, q)?;
                let l = self.log_e(d)?;
                self.mul_k(l, 0.5)
            }
            "exp2" | "log2" | "sqrt" | "inversesqrt" | "floor" | "trunc" | "round"
            | "roundEven" | "ceil" | "fract" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let op = match name {
                    "exp2" => Op::Exp2,
                    "log2" => Op::Log2,
                    "sqrt" => Op::Sqrt,
                    "inversesqrt" => Op::Rsq,
                    "floor" => Op::Floor,
                    "trunc" => Op::Trunc,
                    "ceil" => Op::Ceil,
                    "fract" => Op::Fract,
                    // round: GLSL lets halves go either way; Mesa rounds them to even.
                    _ => Op::RoundEven,
                };
                self.op1(op, x)
            }
            "dFdx" | "dFdy" | "fwidth" => {
                if self.stage != crate::ir::Stage::Fragment {
                    bail!(
                        self,
                        i,
                        "{}() is only available in a fragment shader (derivatives need 2x2 pixel quads)",
                        name
                    );
                }
                let x = self.float_arg(name, 0, arg(0))?;
                match name {
                    "dFdx" => self.op1(Op::Ddx, x),
                    "dFdy" => self.op1(Op::Ddy, x),
                    _ => {
                        // abs(dFdx(p)) + abs(dFdy(p)), as GLSL defines it.
                        let dx = self.op1(Op::Ddx, x)?;
                        let dy = self.op1(Op::Ddy, x)?;
                        let ax = self.op1(Op::Abs, dx)?;
                        let ay = self.op1(Op::Abs, dy)?;
                        self.op2(Op::Add, x.ty, ax, ay)
                    }
                }
            }
            "sign" => {
                let v = arg(0);
                if !is_numeric(v.1.ty) || is_uint_based(v.1.ty) {
                    bail!(
                        self,
                        v.0,
                        "sign() expects a float or int scalar or vector; found {}",
                        v.1.ty.name()
                    );
                }
                if self.true_ints() && is_int_based(v.1.ty) {
                    return self.int_builtin("sign", v.1, None);
                }
                self.op1(Op::Sign, v.1)
            }
            "mod" => {
                // x - y * floor(x / y), as GLSL defines it.
                let x = self.float_arg(name, 0, arg(0))?;
                let y = self.float_arg(name, 1, arg(1))?;
                let y = self.match_size(name, i, x, y)?;
                let q = self.op2(Op::Div, x.ty, x, y)?;
                let f = self.op1(Op::Floor, q)?;
                let p = self.op2(Op::Mul, x.ty, y, f)?;
                self.op2(Op::Sub, x.ty, x, p)
            }
            "step" => {
                let e = self.float_arg(name, 0, arg(0))?;
                let x = self.float_arg(name, 1, arg(1))?;
                let e = self.match_size(name, i, x, e)?;
                let c = self.cmpv(x, e, CmpCode::Ge)?;
                Ok(Val { ty: x.ty, ..c })
            }
            "smoothstep" => {
                let e0 = self.float_arg(name, 0, arg(0))?;
                let e1 = self.float_arg(name, 1, arg(1))?;
                let x = self.float_arg(name, 2, arg(2))?;
                let e0 = self.match_size(name, i, x, e0)?;
                let e1 = self.match_size(name, i, x, e1)?;
                let n = x.ty.components();
                let num = self.op2(Op::Sub, x.ty, x, e0)?;
                let den = self.op2(Op::Sub, x.ty, e1, e0)?;
                let t = self.op2(Op::Div, x.ty, num, den)?;
                let z = self.splat(Val::konst(Type::Float, [0.0; 4]), n)?;
                let one = self.splat(Val::konst(Type::Float, [1.0, 0.0, 0.0, 0.0]), n)?;
                let t = self.op2(Op::Max, x.ty, t, z)?;
                let t = self.op2(Op::Min, x.ty, t, one)?;
                // t * t * (3 - 2t)
                let m2 = self.mul_k(t, -2.0)?;
                let s = self.add_k(m2, 3.0)?;
                let tt = self.op2(Op::Mul, x.ty, t, t)?;
                self.op2(Op::Mul, x.ty, tt, s)
            }
            "isnan" => {
                let x = self.float_arg(name, 0, arg(0))?;
                self.cmpv(x, x, CmpCode::Ne)
            }
            "isinf" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let a = self.op1(Op::Abs, x)?;
                let inf = self.splat(
                    Val::konst(Type::Float, [f32::INFINITY, 0.0, 0.0, 0.0]),
                    x.ty.components(),
                )?;
                self.cmpv(a, inf, CmpCode::Eq)
            }
            "distance" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, a, b)?;
                let d = self.op2(Op::Sub, a.ty, a, b)?;
                self.builtin(i, "length", &[(arg(0).0, d)])
            }
            "faceforward" => {
                let nn = self.float_arg(name, 0, arg(0))?;
                let ii = self.float_arg(name, 1, arg(1))?;
                let nr = self.float_arg(name, 2, arg(2))?;
                self.same_type(name, i, nn, ii)?;
                self.same_type(name, i, nn, nr)?;
                // dot(Nref, I) < 0 ? N : -N, as N * (2 * (dot < 0) - 1)
                let d = self.dot(nr, ii)?;
                let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                let f = self.temp(1)?;
                self.emit(Op::Cmp, Type::Float, 1, f, d.tmp, z, CmpCode::Lt as i16, 0)?;
                let f = Val::temp(Type::Float, f);
                let f2 = self.mul_k(f, 2.0)?;
                let s = self.add_k(f2, -1.0)?;
                let s = self.splat(s, nn.ty.components())?;
                self.op2(Op::Mul, nn.ty, nn, s)
            }
            "refract" => {
                let ii = self.float_arg(name, 0, arg(0))?;
                let nn = self.float_arg(name, 1, arg(1))?;
                let eta = self.float_arg(name, 2, arg(2))?;
                self.same_type(name, i, ii, nn)?;
                if eta.ty != Type::Float {
                    bail!(
                        self,
                        arg(2).0,
                        "argument 3 of refract() must be a float; found {}",
                        eta.ty.name()
                    );
                }
                // k = 1 - eta^2 (1 - d^2); k < 0 ? 0 : eta I - (eta d + sqrt(k)) N
                let d = self.dot(nn, ii)?;
                let d2 = self.op2(Op::Mul, Type::Float, d, d)?;
                let nd2 = self.mul_k(d2, -1.0)?;
                let one_m = self.add_k(nd2, 1.0)?;
                let e2 = self.op2(Op::Mul, Type::Float, eta, eta)?;
                let p = self.op2(Op::Mul, Type::Float, e2, one_m)?;
                let np = self.mul_k(p, -1.0)?;
                let k = self.add_k(np, 1.0)?;
                let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                let ok = self.temp(1)?;
                self.emit(Op::Cmp, Type::Float, 1, ok, k.tmp, z, CmpCode::Ge as i16, 0)?;
                let kk = self.op2(Op::Max, Type::Float, k, Val::temp(Type::Float, z))?;
                let sq = self.op1(Op::Sqrt, kk)?;
                let ed = self.op2(Op::Mul, Type::Float, eta, d)?;
                let c = self.op2(Op::Add, Type::Float, ed, sq)?;
                let n = ii.ty.components();
                let es = self.splat(eta, n)?;
                let ei = self.op2(Op::Mul, ii.ty, es, ii)?;
                let cs = self.splat(c, n)?;
                let cn = self.op2(Op::Mul, ii.ty, cs, nn)?;
                let r = self.op2(Op::Sub, ii.ty, ei, cn)?;
                let oks = self.splat(Val::temp(Type::Float, ok), n)?;
                self.op2(Op::Mul, ii.ty, r, oks)
            }
            "matrixCompMult" => {
                let a = self.matrix_arg(name, arg(0))?;
                let b = self.matrix_arg(name, arg(1))?;
                self.same_type(name, i, a, b)?;
                let (cols, rows) = (a.ty.columns(), a.ty.components());
                let t = self.temp(cols as u16)?;
                for c in 0..cols as i16 {
                    let col = vec_type(false, rows);
                    self.emit(Op::Mul, col, rows, t + c, a.tmp + c, b.tmp + c, 0, 0)?;
                }
                Ok(Val::temp(a.ty, t))
            }
            "outerProduct" => {
                let c = self.float_arg(name, 0, arg(0))?;
                let r = self.float_arg(name, 1, arg(1))?;
                let (nr, nc) = (c.ty.components(), r.ty.components());
                let Some(ty) = Type::matrix(nc, nr) else {
                    bail!(
                        self,
                        i,
                        "outerProduct() expects two vectors of 2 to 4 components; found {} and {}",
                        c.ty.name(),
                        r.ty.name()
                    );
                };
                let (tc, tr) = (self.mat(c)?, self.mat(r)?);
                let t = self.temp(nc as u16)?;
                let s = self.temp(1)?;
                let col = vec_type(false, nr);
                for j in 0..nc {
                    let sel = (j as i16) * 0b0101_0101;
                    self.emit(Op::Swz, col, nr, s, tr, -1, sel, 0)?;
                    self.emit(Op::Mul, col, nr, t + j as i16, tc, s, 0, 0)?;
                }
                Ok(Val::temp(ty, t))
            }
            "transpose" => {
                let m = self.matrix_arg(name, arg(0))?;
                let (cols, rows) = (m.ty.columns(), m.ty.components());
                let Some(ty) = Type::matrix(rows, cols) else {
                    return Err(());
                };
                let t = self.temp(rows as u16)?;
                for j in 0..rows as i16 {
                    self.zero(t + j)?;
                    for k in 0..cols as i16 {
                        self.emit(
                            Op::SetLane,
                            vec_type(false, cols),
                            1,
                            t + j,
                            m.tmp + k,
                            -1,
                            k,
                            j,
                        )?;
                    }
                }
                Ok(Val::temp(ty, t))
            }
            "determinant" => {
                let m = self.matrix_arg(name, arg(0))?;
                match m.ty {
                    Type::Mat2 => {
                        // a.x * b.y - b.x * a.y
                        let (ax, ay) = (self.lane_of(m.tmp, 0)?, self.lane_of(m.tmp, 1)?);
                        let (bx, by) = (self.lane_of(m.tmp + 1, 0)?, self.lane_of(m.tmp + 1, 1)?);
                        let p = self.op2(Op::Mul, Type::Float, ax, by)?;
                        let q = self.op2(Op::Mul, Type::Float, bx, ay)?;
                        self.op2(Op::Sub, Type::Float, p, q)
                    }
                    Type::Mat3 => {
                        // dot(c0, cross(c1, c2))
                        let c0 = Val::temp(Type::Vec3, m.tmp);
                        let c1 = Val::temp(Type::Vec3, m.tmp + 1);
                        let c2 = Val::temp(Type::Vec3, m.tmp + 2);
                        let x = self.builtin(i, "cross", &[(i, c1), (i, c2)])?;
                        self.dot(c0, x)
                    }
                    Type::Mat4 => {
                        // Laplace along column 0 with the 3x3 minors of columns 1..3.
                        let mut acc: Option<Val> = None;
                        for r in 0..4u8 {
                            // Rows other than r of columns 1..3, as three vec3s.
                            let mut cols3 = [Val::konst(Type::Vec3, [0.0; 4]); 3];
                            for (c, slot) in cols3.iter_mut().enumerate() {
                                let t = self.temp(1)?;
                                let mut sel = 0i16;
                                let mut k = 0;
                                for row in 0..4i16 {
                                    if row as u8 != r {
                                        sel |= row << (2 * k);
                                        k += 1;
                                    }
                                }
                                self.emit(
                                    Op::Swz,
                                    Type::Vec3,
                                    3,
                                    t,
                                    m.tmp + 1 + c as i16,
                                    -1,
                                    sel,
                                    0,
                                )?;
                                *slot = Val::temp(Type::Vec3, t);
                            }
                            let x = self.builtin(i, "cross", &[(i, cols3[1]), (i, cols3[2])])?;
                            let minor = self.dot(cols3[0], x)?;
                            let a = self.lane_of(m.tmp, r)?;
                            let mut term = self.op2(Op::Mul, Type::Float, a, minor)?;
                            if r % 2 == 1 {
                                term = self.mul_k(term, -1.0)?;
                            }
                            acc = Some(match acc {
                                None => term,
                                Some(s) => self.op2(Op::Add, Type::Float, s, term)?,
                            });
                        }
                        acc.ok_or(())
                    }
                    t => bail!(
                        self,
                        arg(0).0,
                        "determinant() expects a square matrix (mat2, mat3 or mat4); found {}",
                        t.name()
                    ),
                }
            }
            "lessThan" | "lessThanEqual" | "greaterThan" | "greaterThanEqual" | "equal"
            | "notEqual" => {
                let (a, b) = (arg(0).1, arg(1).1);
                let bools = matches!(name, "equal" | "notEqual");
                self.rel_args(name, i, a, b, bools)?;
                let code = match name {
                    "lessThan" => CmpCode::Lt,
                    "lessThanEqual" => CmpCode::Le,
                    "greaterThan" => CmpCode::Gt,
                    "greaterThanEqual" => CmpCode::Ge,
                    "equal" => CmpCode::Eq,
                    _ => CmpCode::Ne,
                };
                self.cmpv(a, b, code)
            }
            "any" | "all" => {
                let b = self.bvec_arg(name, arg(0))?;
                let n = b.ty.components();
                let tb = self.mat(b)?;
                let d = self.temp(1)?;
                self.emit(Op::Dot, Type::Float, 1, d, tb, tb, n as i16, 0)?;
                let (code, k) = if name == "any" {
                    (CmpCode::Gt, 0.0)
                } else {
                    (CmpCode::Eq, n as f32)
                };
                let tk = self.mat(Val::konst(Type::Float, [k, 0.0, 0.0, 0.0]))?;
                let t = self.temp(1)?;
                self.emit(Op::Cmp, Type::Bool, 1, t, d, tk, code as i16, 0)?;
                Ok(Val::temp(Type::Bool, t))
            }
            "not" => {
                let b = self.bvec_arg(name, arg(0))?;
                let z = Val::konst(Type::Float, [0.0; 4]);
                let z = self.splat(z, b.ty.components())?;
                self.cmpv(b, z, CmpCode::Eq)
            }
            "floatBitsToInt" | "floatBitsToUint" | "intBitsToFloat" | "uintBitsToFloat" => {
                // Bit casts (profile 2's integers are bit patterns): the lanes are kept.
                let (at, v) = arg(0);
                let (want, to) = match name {
                    "floatBitsToInt" => (Sk::Float, Sk::Int),
                    "floatBitsToUint" => (Sk::Float, Sk::Uint),
                    "intBitsToFloat" => (Sk::Int, Sk::Float),
                    _ => (Sk::Uint, Sk::Float),
                };
                if !is_numeric(v.ty) || sk(v.ty) != want {
                    bail!(
                        self,
                        at,
                        "{}() expects a {} scalar or vector; found {}",
                        name,
                        vec_of(want, 1).name(),
                        v.ty.name()
                    );
                }
                Ok(self.bit_cast(v, to))
            }
            _ => bail!(self, i, "unknown function '{}'", name),
        }
    }
}
