//! Profile 2's texture functions for `samplerCube`, `sampler2DShadow` and `samplerCubeShadow`
//! (GLSL 3.30 §8.7, issue 15) and their lowering to CUBE_LOD .. SHADOW_CUBE (96..=101) and
//! TEXSIZE:
//!
//! - samplerCube: `texture(s, vec3 P [, float bias])`, `textureLod(s, vec3, float)`,
//!   `textureGrad(s, vec3, vec3 dPdx, vec3 dPdy)`, `textureSize(s, int)` (ivec2).
//! - sampler2DShadow (float results): `texture(s, vec3 P [, bias])` (P.z the reference),
//!   `textureLod(s, vec3, float)`, `textureOffset(s, vec3, const ivec2 [, bias])`,
//!   `textureLodOffset(s, vec3, float, const ivec2)`, `textureProj(s, vec4 [, bias])`,
//!   `textureProjOffset(s, vec4, const ivec2 [, bias])`, `textureGrad(s, vec3, vec2 dPdx,
//!   vec2 dPdy)`, `textureGradOffset(s, vec3, vec2, vec2, const ivec2)` (SHADOW_GRAD, 108),
//!   `textureSize(s, int)`.
//! - samplerCubeShadow: `texture(s, vec4 P [, bias])` (P.w the reference), `textureSize`.
//!
//! Every other function on these samplers is an error naming what exists.
//!
//! Must never: allocate or panic.

use super::types::*;
use super::{Sema, R};
use crate::ir::*;

impl<'a> Sema<'a> {
    /// The texture functions of the cube and shadow samplers; `args[0]` is such a sampler.
    pub(super) fn cube_shadow_builtin(&mut self, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        let s = arg(0);
        let sty = s.1.ty;
        if s.1.unit < 0 {
            bail!(
                self,
                s.0,
                "{}() expects a {} uniform as its first argument",
                name,
                sty.name()
            );
        }
        let unit = s.1.unit as i16;
        let shadow = sty != Type::SamplerCube;
        let ty = if shadow { Type::Float } else { Type::Vec4 };
        let out = |s: &mut Self, op: Op, a: i16, b: i16, aux2: i16| -> R<Val> {
            let t = s.temp(1)?;
            s.emit(op, Type::Vec4, 4, t, a, b, unit, aux2)?;
            Ok(Val::temp(ty, t))
        };
        let n = args.len();
        match (sty, name) {
            (_, "textureSize") => {
                let l = self.tex_int(name, "level", arg(1), 1)?;
                let t = self.temp(1)?;
                self.emit(Op::TexSize, Type::Vec2, 4, t, l, -1, unit, 0)?;
                self.p2_conv_kind(Val::temp(Type::Vec2, t), Type::IVec2)
            }
            (Type::SamplerCube, "texture") => {
                let p = self.tex_vec(name, "direction", arg(1), 3)?;
                let b = if n == 3 {
                    self.tex_bias(name, arg(2))?
                } else {
                    -1
                };
                out(self, Op::CubeBias, p, b, 0)
            }
            (Type::SamplerCube, "textureLod") => {
                let p = self.tex_vec(name, "direction", arg(1), 3)?;
                let l = self.tex_vec(name, "level of detail", arg(2), 1)?;
                out(self, Op::CubeLod, p, l, 0)
            }
            (Type::SamplerCube, "textureGrad") => {
                let p = self.tex_vec(name, "direction", arg(1), 3)?;
                let dx = self.tex_vec(name, "dPdx", arg(2), 3)?;
                let dy = self.tex_vec(name, "dPdy", arg(3), 3)?;
                let g = self.temp(2)?;
                self.emit(Op::Mov, Type::Vec3, 4, g, dx, -1, 0, 0)?;
                self.emit(Op::Mov, Type::Vec3, 4, g + 1, dy, -1, 0, 0)?;
                out(self, Op::CubeGrad, p, g, 0)
            }
            (Type::Sampler2DShadow, "texture" | "textureOffset") => {
                let p = self.tex_vec(name, "coordinate (s, t, reference)", arg(1), 3)?;
                let (o, bias_at) = if name == "textureOffset" {
                    (self.tex_offset(name, arg(2))?, 3)
                } else {
                    (0, 2)
                };
                let b = if n > bias_at {
                    self.tex_bias(name, arg(bias_at))?
                } else {
                    -1
                };
                out(self, Op::ShadowBias, p, b, o)
            }
            (Type::Sampler2DShadow, "textureLod" | "textureLodOffset") => {
                let p = self.tex_vec(name, "coordinate (s, t, reference)", arg(1), 3)?;
                let l = self.tex_vec(name, "level of detail", arg(2), 1)?;
                let o = if n == 4 {
                    self.tex_offset(name, arg(3))?
                } else {
                    0
                };
                out(self, Op::ShadowLod, p, l, o)
            }
            (Type::Sampler2DShadow, "textureProj" | "textureProjOffset") => {
                let q = arg(1);
                if q.1.ty != Type::Vec4 {
                    bail!(
                        self,
                        q.0,
                        "{}() on a sampler2DShadow expects a vec4 coordinate (P.xyz / P.w); found {}",
                        name,
                        q.1.ty.name()
                    );
                }
                // P.xyz divided by P.w (the reference too, as GL projects it).
                let pv = self.float_arg(name, 1, q)?;
                let w = self.swizzle(q.0, pv, 1, 3)?;
                let xyz = self.swizzle(q.0, pv, 3, 1 << 2 | 2 << 4)?;
                let w3 = self.splat(w, 3)?;
                let p = self.op2(Op::Div, Type::Vec3, xyz, w3)?;
                let p = self.mat(p)?;
                let (o, bias_at) = if name == "textureProjOffset" {
                    (self.tex_offset(name, arg(2))?, 3)
                } else {
                    (0, 2)
                };
                let b = if n > bias_at {
                    self.tex_bias(name, arg(bias_at))?
                } else {
                    -1
                };
                out(self, Op::ShadowBias, p, b, o)
            }
            (Type::Sampler2DShadow, "textureGrad" | "textureGradOffset") => {
                let p = self.tex_vec(name, "coordinate (s, t, reference)", arg(1), 3)?;
                let dx = self.tex_vec(name, "dPdx", arg(2), 2)?;
                let dy = self.tex_vec(name, "dPdy", arg(3), 2)?;
                let o = if n == 5 {
                    self.tex_offset(name, arg(4))?
                } else {
                    0
                };
                // The two derivatives in consecutive temps, as SAMPLE_GRAD.
                let g = self.temp(2)?;
                self.emit(Op::Mov, Type::Vec2, 4, g, dx, -1, 0, 0)?;
                self.emit(Op::Mov, Type::Vec2, 4, g + 1, dy, -1, 0, 0)?;
                out(self, Op::ShadowGrad, p, g, o)
            }
            (Type::SamplerCubeShadow, "texture") => {
                let p = self.tex_vec(name, "coordinate (direction, reference)", arg(1), 4)?;
                let b = if n == 3 {
                    self.tex_bias(name, arg(2))?
                } else {
                    -1
                };
                out(self, Op::ShadowCube, p, b, 0)
            }
            _ => {
                let has = match sty {
                    Type::SamplerCube => "texture, textureLod, textureGrad and textureSize",
                    Type::Sampler2DShadow => {
                        "texture, textureOffset, textureLod, textureLodOffset, textureProj, textureProjOffset, textureGrad, textureGradOffset and textureSize"
                    }
                    _ => "texture and textureSize",
                };
                bail!(
                    self,
                    s.0,
                    "{}() has no {} overload here; a {} takes {}",
                    name,
                    sty.name(),
                    sty.name(),
                    has
                )
            }
        }
    }
}
