//! Profile 2's texture functions for `sampler2DArray` (GLSL 3.30 §8.7; session 6) and
//! `isampler2DArray` / `usampler2DArray` (session 9: the same overloads with ivec4 / uvec4
//! results, GLSL's gsampler2DArray) and their lowering to ARR_LOD .. ARR_SIZE (112..=116):
//!
//! - `texture(s, vec3 P [, float bias])` (P.z the layer), `textureOffset(s, vec3, const ivec2
//!   [, bias])`, `textureLod(s, vec3, float)`, `textureLodOffset(s, vec3, float, const ivec2)`,
//!   `textureGrad(s, vec3, vec2 dPdx, vec2 dPdy)`, `textureGradOffset(..., const ivec2)`,
//!   `texelFetch(s, ivec3, int lod)`, `texelFetchOffset(s, ivec3, int, const ivec2)`,
//!   `textureSize(s, int)` (ivec3: width, height, layers).
//!
//! Every other function on an array sampler (textureProj: GLSL has none for arrays) is an
//! error naming what exists.
//!
//! Must never: allocate or panic.

use super::types::*;
use super::{Sema, R};
use crate::ir::*;

impl<'a> Sema<'a> {
    /// The texture functions of a sampler2DArray; `args[0]` is one.
    pub(super) fn array_builtin(&mut self, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        let s = arg(0);
        let sname = s.1.ty.name();
        if s.1.unit < 0 {
            bail!(
                self,
                s.0,
                "{}() expects a {} uniform as its first argument",
                name,
                sname
            );
        }
        let unit = s.1.unit as i16;
        // An integer array's functions are sampler2DArray's with ivec4/uvec4 results: the
        // same ops, whose layers are integer textures read by `exec::itex` (nearest, level 0).
        let rty = match s.1.ty {
            Type::ISampler2DArray => Type::IVec4,
            Type::USampler2DArray => Type::UVec4,
            _ => Type::Vec4,
        };
        let out = |s: &mut Self, op: Op, a: i16, b: i16, aux2: i16| -> R<Val> {
            let t = s.temp(1)?;
            s.emit(op, rty, 4, t, a, b, unit, aux2)?;
            Ok(Val::temp(rty, t))
        };
        let n = args.len();
        let coord = "coordinate (s, t, layer)";
        match name {
            "texture" | "textureOffset" => {
                let p = self.tex_vec(name, coord, arg(1), 3)?;
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
                out(self, Op::ArrBias, p, b, o)
            }
            "textureLod" | "textureLodOffset" => {
                let p = self.tex_vec(name, coord, arg(1), 3)?;
                let l = self.tex_vec(name, "level of detail", arg(2), 1)?;
                let o = if n == 4 {
                    self.tex_offset(name, arg(3))?
                } else {
                    0
                };
                out(self, Op::ArrLod, p, l, o)
            }
            "textureGrad" | "textureGradOffset" => {
                let p = self.tex_vec(name, coord, arg(1), 3)?;
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
                out(self, Op::ArrGrad, p, g, o)
            }
            "texelFetch" | "texelFetchOffset" => {
                let p = self.tex_int(name, "coordinate (x, y, layer)", arg(1), 3)?;
                let l = self.tex_int(name, "level", arg(2), 1)?;
                let o = if n == 4 {
                    self.tex_offset(name, arg(3))?
                } else {
                    0
                };
                out(self, Op::ArrFetch, p, l, o)
            }
            "textureSize" => {
                // ARR_SIZE gives (width, height, layers) as floats; the ivec3 is its conversion.
                let l = self.tex_int(name, "level", arg(1), 1)?;
                let t = self.temp(1)?;
                self.emit(Op::ArrSize, Type::Vec3, 4, t, l, -1, unit, 0)?;
                self.p2_conv_kind(Val::temp(Type::Vec3, t), Type::IVec3)
            }
            _ => bail!(
                self,
                s.0,
                "{}() has no {} overload; a {} takes texture, textureOffset, textureLod, textureLodOffset, textureGrad, textureGradOffset, texelFetch, texelFetchOffset and textureSize",
                name,
                sname,
                sname
            ),
        }
    }
}
