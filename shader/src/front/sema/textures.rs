//! Profile 2's texture functions for `sampler2D` (GLSL 3.30 §8.7, issue 15): `texture` with a
//! bias, `textureLod`, `textureOffset`, `textureLodOffset`, `textureProj`, `textureProjOffset`,
//! `textureGrad`, `textureGradOffset`, `texelFetch`, `texelFetchOffset`, `textureSize`, and
//! their lowering to the texture opcodes SAMPLE_LOD .. TEXSIZE (88..=92).
//!
//! Must never: be reached in profile 1 (whose `texture` stays builtins.rs'), allocate, or panic.

use super::types::*;
use super::{Sema, R};
use crate::ir::*;

/// The texture functions of profile 2: name, argument counts, signatures.
pub const P2_TEX_BUILTINS: &[(&str, u8, u8, &str)] = &[
    (
        "texture",
        2,
        3,
        "vec4 texture(sampler2D s, vec2 P [, float bias]) (bias: fragment shaders only; a vec3/vec4 P samples at P.xy, as in profile 1)",
    ),
    ("textureLod", 3, 3, "vec4 textureLod(sampler2D s, vec2 P, float lod)"),
    (
        "textureOffset",
        3,
        4,
        "vec4 textureOffset(sampler2D s, vec2 P, const ivec2 offset [, float bias])",
    ),
    (
        "textureLodOffset",
        4,
        4,
        "vec4 textureLodOffset(sampler2D s, vec2 P, float lod, const ivec2 offset)",
    ),
    (
        "textureProj",
        2,
        3,
        "vec4 textureProj(sampler2D s, vec3 P [, float bias]); vec4 textureProj(sampler2D s, vec4 P [, float bias])",
    ),
    (
        "textureProjOffset",
        3,
        4,
        "vec4 textureProjOffset(sampler2D s, vec3 P, const ivec2 offset [, float bias]); vec4 textureProjOffset(sampler2D s, vec4 P, const ivec2 offset [, float bias])",
    ),
    (
        "textureGrad",
        4,
        4,
        "vec4 textureGrad(sampler2D s, vec2 P, vec2 dPdx, vec2 dPdy)",
    ),
    (
        "textureGradOffset",
        5,
        5,
        "vec4 textureGradOffset(sampler2D s, vec2 P, vec2 dPdx, vec2 dPdy, const ivec2 offset)",
    ),
    ("texelFetch", 3, 3, "vec4 texelFetch(sampler2D s, ivec2 P, int lod)"),
    (
        "texelFetchOffset",
        4,
        4,
        "vec4 texelFetchOffset(sampler2D s, ivec2 P, int lod, const ivec2 offset)",
    ),
    ("textureSize", 2, 2, "ivec2 textureSize(sampler2D s, int lod)"),
];

/// GLSL 3.30's gl_MinProgramTexelOffset and gl_MaxProgramTexelOffset (Mesa's values).
const OFFSET_MIN: f32 = -8.0;
const OFFSET_MAX: f32 = 7.0;

impl<'a> Sema<'a> {
    /// Whether `name` is one of profile 2's texture functions.
    pub(super) fn find_tex_builtin(
        name: &str,
    ) -> Option<&'static (&'static str, u8, u8, &'static str)> {
        P2_TEX_BUILTINS.iter().find(|b| b.0 == name)
    }

    /// The sampler argument's texture unit.
    fn tex_unit(&mut self, name: &str, s: (i16, Val)) -> R<i16> {
        let ok = matches!(
            s.1.ty,
            Type::Sampler2D | Type::ISampler2D | Type::USampler2D
        );
        if !ok || s.1.unit < 0 {
            bail!(
                self,
                s.0,
                "{}() expects a sampler2D uniform as its first argument; found {}",
                name,
                s.1.ty.name()
            );
        }
        Ok(s.1.unit as i16)
    }

    /// A float vector argument of exactly `n` components (ints are not converted: GLSL has no
    /// implicit conversion to a texture coordinate of another type... except int -> float,
    /// which 3.30 allows, so ivecN is taken as vecN).
    pub(super) fn tex_vec(&mut self, name: &str, what: &str, a: (i16, Val), n: u8) -> R<i16> {
        let want = match n {
            1 => Type::Float,
            2 => Type::Vec2,
            3 => Type::Vec3,
            _ => Type::Vec4,
        };
        let ok = a.1.ty == want || (is_int_based(a.1.ty) && a.1.ty.components() == n);
        if !ok {
            bail!(
                self,
                a.0,
                "{}() expects a {} as its {}; found {}",
                name,
                want.name(),
                what,
                a.1.ty.name()
            );
        }
        let v = self.float_arg(name, 0, a)?;
        self.mat(v)
    }

    /// An int (or ivecN) argument of `n` components, converted to the floats the texture ops
    /// read (profile 2's integers are 32-bit patterns: CVT I2F).
    pub(super) fn tex_int(&mut self, name: &str, what: &str, a: (i16, Val), n: u8) -> R<i16> {
        if !is_int_based(a.1.ty) || a.1.ty.components() != n {
            bail!(
                self,
                a.0,
                "{}() expects {} as its {}; found {}",
                name,
                match n {
                    1 => "an int",
                    2 => "an ivec2",
                    _ => "an ivec3",
                },
                what,
                a.1.ty.name()
            );
        }
        let v = self.to_float(a.1)?;
        self.mat(v)
    }

    /// A constant ivec2 offset in GLSL's range, as its `aux2` code.
    pub(super) fn tex_offset(&mut self, name: &str, a: (i16, Val)) -> R<i16> {
        let Some(k) = a.1.k.filter(|_| a.1.ty == Type::IVec2) else {
            bail!(
                self,
                a.0,
                "{}() expects a constant ivec2 offset; found {}{}",
                name,
                if a.1.ty == Type::IVec2 {
                    "a non-constant "
                } else {
                    ""
                },
                a.1.ty.name()
            );
        };
        let k = [self.knum(a.1.ty, &k, 0), self.knum(a.1.ty, &k, 1)];
        for c in &k[..2] {
            if !(OFFSET_MIN..=OFFSET_MAX).contains(c) {
                bail!(
                    self,
                    a.0,
                    "{}() offset {} is outside the texel offset range {}..={}",
                    name,
                    *c as i32,
                    OFFSET_MIN as i32,
                    OFFSET_MAX as i32
                );
            }
        }
        Ok(crate::back::exec::mip::offset_code(
            k[0] as i32,
            k[1] as i32,
        ))
    }

    /// A bias argument: a float, in a fragment shader only.
    pub(super) fn tex_bias(&mut self, name: &str, a: (i16, Val)) -> R<i16> {
        if self.module.stage != Stage::Fragment {
            bail!(
                self,
                a.0,
                "{}() takes a bias only in fragment shaders (there is no implicit level of detail here)",
                name
            );
        }
        self.tex_vec(name, "bias", a, 1)
    }

    /// Profile 2's texture functions; the arguments are already counted.
    pub(super) fn tex_builtin(&mut self, i: i16, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        let sty = arg(0).1.ty;
        let int = matches!(sty, Type::ISampler2D | Type::USampler2D);
        if sty.is_array_sampler() {
            return self.array_builtin(name, args);
        }
        if sty.is_sampler() && sty != Type::Sampler2D && !int {
            return self.cube_shadow_builtin(name, args);
        }
        let unit = self.tex_unit(name, arg(0))?;
        // An integer sampler's functions are sampler2D's with ivec4/uvec4 results: the same
        // ops, which read an integer texture's words into the integer lanes (`exec::itex`).
        let rty = match sty {
            Type::ISampler2D => Type::IVec4,
            Type::USampler2D => Type::UVec4,
            _ => Type::Vec4,
        };
        let out = |s: &mut Self, op: Op, ty: Type, a: i16, b: i16, aux2: i16| -> R<Val> {
            let t = s.temp(1)?;
            s.emit(op, ty, 4, t, a, b, unit, aux2)?;
            Ok(Val::temp(ty, t))
        };
        match name {
            "texture" if args.len() == 2 && int => {
                let p = self.tex_vec(name, "coordinate", arg(1), 2)?;
                out(self, Op::SampleBias, rty, p, -1, 0)
            }
            "texture" if args.len() == 2 => self.builtin(i, name, args),
            "texture" => {
                let p = self.tex_vec(name, "coordinate", arg(1), 2)?;
                let b = self.tex_bias(name, arg(2))?;
                out(self, Op::SampleBias, rty, p, b, 0)
            }
            "textureOffset" => {
                let p = self.tex_vec(name, "coordinate", arg(1), 2)?;
                let o = self.tex_offset(name, arg(2))?;
                let b = if args.len() == 4 {
                    self.tex_bias(name, arg(3))?
                } else {
                    -1
                };
                out(self, Op::SampleBias, rty, p, b, o)
            }
            "textureLod" | "textureLodOffset" => {
                let p = self.tex_vec(name, "coordinate", arg(1), 2)?;
                let l = self.tex_vec(name, "level of detail", arg(2), 1)?;
                let o = if args.len() == 4 {
                    self.tex_offset(name, arg(3))?
                } else {
                    0
                };
                out(self, Op::SampleLod, rty, p, l, o)
            }
            "textureProj" | "textureProjOffset" => {
                let q = arg(1);
                let n = q.1.ty.components();
                if !matches!(q.1.ty, Type::Vec3 | Type::Vec4) {
                    bail!(
                        self,
                        q.0,
                        "{}() expects a vec3 or vec4 coordinate (P.xy / P.{}); found {}",
                        name,
                        if n == 4 { "w" } else { "z or .w" },
                        q.1.ty.name()
                    );
                }
                // P.xy divided by the last component.
                let pv = self.float_arg(name, 1, q)?;
                let last = self.swizzle(q.0, pv, 1, n as i32 - 1)?;
                let xy = self.swizzle(q.0, pv, 2, 1 << 2)?;
                let w2 = self.splat(last, 2)?;
                let p = self.op2(Op::Div, Type::Vec2, xy, w2)?;
                let p = self.mat(p)?;
                let with_offset = name == "textureProjOffset";
                let o = if with_offset {
                    self.tex_offset(name, arg(2))?
                } else {
                    0
                };
                let bias_at = if with_offset { 3 } else { 2 };
                let b = if args.len() > bias_at {
                    self.tex_bias(name, arg(bias_at))?
                } else {
                    -1
                };
                out(self, Op::SampleBias, rty, p, b, o)
            }
            "textureGrad" | "textureGradOffset" => {
                let p = self.tex_vec(name, "coordinate", arg(1), 2)?;
                let dx = self.tex_vec(name, "dPdx", arg(2), 2)?;
                let dy = self.tex_vec(name, "dPdy", arg(3), 2)?;
                let o = if args.len() == 5 {
                    self.tex_offset(name, arg(4))?
                } else {
                    0
                };
                // The two derivatives in consecutive temps.
                let g = self.temp(2)?;
                self.emit(Op::Mov, Type::Vec2, 4, g, dx, -1, 0, 0)?;
                self.emit(Op::Mov, Type::Vec2, 4, g + 1, dy, -1, 0, 0)?;
                out(self, Op::SampleGrad, rty, p, g, o)
            }
            "texelFetch" | "texelFetchOffset" => {
                let p = self.tex_int(name, "coordinate", arg(1), 2)?;
                let l = self.tex_int(name, "level", arg(2), 1)?;
                let o = if args.len() == 4 {
                    self.tex_offset(name, arg(3))?
                } else {
                    0
                };
                out(self, Op::TexFetch, rty, p, l, o)
            }
            _ => {
                // textureSize
                // TEXSIZE gives the size as floats; the ivec2 result is its conversion.
                let l = self.tex_int(name, "level", arg(1), 1)?;
                let size = out(self, Op::TexSize, Type::Vec2, l, -1, 0)?;
                self.p2_conv_kind(size, Type::IVec2)
            }
        }
    }
}
