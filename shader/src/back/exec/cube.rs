//! Cube-map sampling (`samplerCube`, issue 15) and depth comparison (`sampler2DShadow`,
//! `samplerCubeShadow`): the face choice and face coordinates of GL 3.3 §3.8.10 (table 3.19),
//! each face sampled on its own with clamp-to-edge (GL 3.3 without seamless filtering, as
//! llvmpipe does it then), the level of detail from the derivatives of the face coordinates,
//! and the compare of a reference against depth texels (per texel, then the four results of
//! a linear filter weighted bilinearly: percentage-closer filtering, as llvmpipe does it).
//!
//! It must never: panic on any direction (zero, NaN and infinite ones pick some face and read
//! a valid texel), or read outside a face.
#![allow(clippy::needless_range_loop)]

use super::lanes::{Lanes, Vec4x, LANES};
use super::math::floor_i32;
use super::texture::{wrap_index, CompareFunc, Filter, TextureRef, Wrap};
use super::{DInst, REG_MASK};
use crate::ir::{Op, Stage};

/// The face (0..6: +X, -X, +Y, -Y, +Z, -Z) of direction (x, y, z), the face's (sc, tc) and
/// the major axis magnitude |ma|, as GL 3.3 table 3.19. Ties go as llvmpipe resolves them: z
/// wins when |z| >= max(|x|, |y|), then x when |x| > |y|, else y (so (1, 1, 0) is a +Y face
/// and (1, 1, 1) a +Z face). NaN components read as 0.
pub fn cube_face(x: f32, y: f32, z: f32) -> (usize, f32, f32, f32) {
    let n = |v: f32| if v.is_nan() { 0.0 } else { v };
    let (x, y, z) = (n(x), n(y), n(z));
    let (ax, ay, az) = (libm::fabsf(x), libm::fabsf(y), libm::fabsf(z));
    if az >= ax.max(ay) {
        if z >= 0.0 && !z.is_sign_negative() {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        }
    } else if ax > ay {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if y >= 0.0 {
        (2, x, z, ay)
    } else {
        (3, x, -z, ay)
    }
}

/// The face and its (s, t) in [0, 1] for direction (x, y, z): s = (sc / |ma| + 1) / 2, t
/// likewise. A zero direction gives the centre of face +Z's... some valid coordinate.
pub fn cube_coords(x: f32, y: f32, z: f32) -> (usize, f32, f32) {
    let (f, sc, tc, ma) = cube_face(x, y, z);
    let inv = if ma > 0.0 { 0.5 / ma } else { 0.0 };
    (f, sc * inv + 0.5, tc * inv + 0.5)
}

/// The derivatives (ds, dt) along one screen axis of the face coordinates of direction
/// (x, y, z), from the direction's derivative (dx, dy, dz): the quotient rule on
/// s = (sc / |ma| + 1) / 2 with the face held (sc, tc, ma taken from the same table).
fn face_derivs(p: [f32; 3], d: [f32; 3]) -> (f32, f32) {
    let (f, sc, tc, ma) = cube_face(p[0], p[1], p[2]);
    // The same table applied to the derivative (signed major axis component).
    let (dsc, dtc, dma) = match f {
        0 => (-d[2], -d[1], d[0]),
        1 => (d[2], -d[1], -d[0]),
        2 => (d[0], d[2], d[1]),
        3 => (d[0], -d[2], -d[1]),
        4 => (d[0], -d[1], d[2]),
        _ => (-d[0], -d[1], -d[2]),
    };
    if !(ma > 0.0) {
        return (0.0, 0.0);
    }
    let inv = 0.5 / (ma * ma);
    ((dsc * ma - sc * dma) * inv, (dtc * ma - tc * dma) * inv)
}

impl<'a> TextureRef<'a> {
    /// Whether this is a cube texture (6 faces).
    #[inline(always)]
    pub fn is_cube(&self) -> bool {
        self.faces.len() == 6
    }

    /// Face `f` of a cube as a 2D texture sampled with clamp-to-edge on both axes (the
    /// cube's sampler otherwise), None when not a cube.
    pub fn face(&self, f: usize) -> Option<TextureRef<'a>> {
        let t = self.faces.get(f)?;
        let mut t = TextureRef { faces: &[], ..*t };
        t.sampler = self.sampler;
        t.sampler.wrap = Wrap::ClampToEdge;
        t.sampler.wrap_t = Some(Wrap::ClampToEdge);
        Some(t)
    }

    /// The filtered (r, g, b, a) of direction (x, y, z) at `lambda` (before the sampler's bias
    /// and clamp); not a cube: opaque black (GL's incomplete texture).
    pub fn sample_cube(&self, p: [f32; 3], lambda: f32) -> [f32; 4] {
        let (f, s, t) = cube_coords(p[0], p[1], p[2]);
        match self.face(f) {
            Some(face) => face.sample_lambda_offset(s, t, lambda, (0, 0)),
            None => [0.0, 0.0, 0.0, 1.0],
        }
    }

    /// Lambda of a cube sample at direction `p` with direction derivatives `dx`, `dy`.
    pub fn cube_lambda(&self, p: [f32; 3], dx: [f32; 3], dy: [f32; 3]) -> f32 {
        let (dsx, dtx) = face_derivs(p, dx);
        let (dsy, dty) = face_derivs(p, dy);
        self.lambda(dsx, dtx, dsy, dty)
    }

    /// The compare result 0 or 1 of reference `r` against depth `d` by the sampler's function
    /// (no function: the depth itself).
    #[inline(always)]
    fn compare(&self, r: f32, d: f32) -> f32 {
        let pass = match self.sampler.compare {
            None => return d,
            Some(CompareFunc::Never) => false,
            Some(CompareFunc::Less) => r < d,
            Some(CompareFunc::Equal) => r == d,
            Some(CompareFunc::LessEqual) => r <= d,
            Some(CompareFunc::Greater) => r > d,
            Some(CompareFunc::NotEqual) => r != d,
            Some(CompareFunc::GreaterEqual) => r >= d,
            Some(CompareFunc::Always) => true,
        };
        if pass {
            1.0
        } else {
            0.0
        }
    }

    /// The depth compare of reference `r` at (u, v) moved by `off` texels, at `lambda`: each
    /// depth texel compared, the results of a linear filter blended with its bilinear weights
    /// (PCF). A texture that is not a depth texture compares its red channel.
    pub fn sample_compare(&self, u: f32, v: f32, r: f32, lambda: f32, off: (i32, i32)) -> f32 {
        // Depth textures have one level: the level of detail only picks the filter.
        let l = lambda + self.sampler.lod_bias;
        let l = l.clamp(self.sampler.min_lod, self.sampler.max_lod);
        let f = if l > 0.0 {
            self.sampler.min()
        } else {
            self.sampler.filter
        };
        let (w, h) = (self.width, self.height);
        let at = |x: i32, y: i32| -> f32 {
            let x = wrap_index(self.sampler.wrap, x, w);
            let y = wrap_index(self.sampler.wrap_t(), y, h);
            let i = y * w as usize + x;
            let d = match self.depth {
                Some(d) => d.get(i).copied().unwrap_or(1.0),
                None => match self.rgba {
                    Some(c) => c.get(i).map(|p| p[0]).unwrap_or(1.0),
                    None => super::texture::unpack(self.texels.get(i).copied().unwrap_or(0))[0],
                },
            };
            self.compare(r, d)
        };
        let (fw, fh) = (w as f32, h as f32);
        match f {
            Filter::Nearest => at(
                floor_i32(u * fw).saturating_add(off.0),
                floor_i32(v * fh).saturating_add(off.1),
            ),
            Filter::Linear => {
                let fx = u * fw - 0.5;
                let fy = v * fh - 0.5;
                let (x0, y0) = (floor_i32(fx), floor_i32(fy));
                let ax = (fx - x0 as f32).clamp(0.0, 1.0);
                let ay = (fy - y0 as f32).clamp(0.0, 1.0);
                let (x0, y0) = (x0.saturating_add(off.0), y0.saturating_add(off.1));
                let (x1, y1) = (x0.saturating_add(1), y0.saturating_add(1));
                let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * ax;
                let bot = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * ax;
                top + (bot - top) * ay
            }
        }
    }
}

/// The quad's lower-left lane of lane `l` (where coarse derivatives are taken, as
/// `mip::quad_lambda`).
#[inline(always)]
fn lower_left(l: usize) -> usize {
    (l & !7) | (l & 2)
}

/// Per lane: the implicit lambda of a fragment-stage sample whose face coordinates come from
/// the 3 (x, y, z) lanes `p`; coarse, per quad, from the lower-left lane.
fn quad_cube_lambda(tex: &TextureRef, p: &[Lanes; 3]) -> Lanes {
    let dx = [
        super::quad::ddx(&p[0]),
        super::quad::ddx(&p[1]),
        super::quad::ddx(&p[2]),
    ];
    let dy = [
        super::quad::ddy(&p[0]),
        super::quad::ddy(&p[1]),
        super::quad::ddy(&p[2]),
    ];
    let mut lambda = [0.0f32; LANES];
    for l in 0..LANES {
        let ll = lower_left(l);
        lambda[l] = tex.cube_lambda(
            [p[0][ll], p[1][ll], p[2][ll]],
            [dx[0][ll], dx[1][ll], dx[2][ll]],
            [dy[0][ll], dy[1][ll], dy[2][ll]],
        );
    }
    lambda
}

/// Per lane: the implicit lambda of a 2D sample at (u, v) (0 when the sample does not depend
/// on it or outside the fragment stage).
fn implicit_2d(stage: Stage, tex: &TextureRef, u: &Lanes, v: &Lanes) -> Lanes {
    if stage == Stage::Fragment && tex.sampler.min() != tex.sampler.filter {
        super::mip::quad_lambda(tex, u, v)
    } else {
        [0.0; LANES]
    }
}

/// The cube and shadow opcodes (CUBE_LOD .. SHADOW_CUBE) for every lane into `out`. An unbound
/// unit, or a texture of the wrong kind (2D for a cube op, ...), reads as GL's incomplete
/// texture: opaque black.
pub(super) fn cube_op(
    d: &DInst,
    stage: Stage,
    tex: Option<&TextureRef>,
    r: &[Vec4x],
    a: usize,
    b: usize,
    out: &mut Vec4x,
) {
    let reg = |i: usize| r.get(i & REG_MASK);
    let (Some(ra), Some(rb)) = (reg(a), reg(b)) else {
        return;
    };
    let cube_op = matches!(
        d.op,
        Op::CubeLod | Op::CubeBias | Op::CubeGrad | Op::ShadowCube
    );
    let tex = match tex {
        Some(t) if t.is_cube() == cube_op && t.layers.is_empty() => t,
        _ => {
            out[3] = [1.0; LANES];
            return;
        }
    };
    let bias = |lambda: &mut Lanes| {
        if d.n == 1 {
            for l in 0..LANES {
                lambda[l] += rb[0][l];
            }
        }
    };
    let p = [ra[0], ra[1], ra[2]];
    match d.op {
        Op::CubeLod | Op::CubeBias | Op::CubeGrad => {
            let mut lambda = [0.0f32; LANES];
            match d.op {
                Op::CubeLod => lambda = rb[0],
                Op::CubeGrad => {
                    let Some(ry) = reg(b + 1) else { return };
                    for l in 0..LANES {
                        lambda[l] = tex.cube_lambda(
                            [p[0][l], p[1][l], p[2][l]],
                            [rb[0][l], rb[1][l], rb[2][l]],
                            [ry[0][l], ry[1][l], ry[2][l]],
                        );
                    }
                }
                _ => {
                    if stage == Stage::Fragment && tex.needs_lod() {
                        lambda = quad_cube_lambda(tex, &p);
                    }
                    bias(&mut lambda);
                }
            }
            for l in 0..LANES {
                let c = tex.sample_cube([p[0][l], p[1][l], p[2][l]], lambda[l]);
                for k in 0..4 {
                    out[k][l] = c[k];
                }
            }
        }
        Op::ShadowLod | Op::ShadowBias | Op::ShadowGrad => {
            let off = super::mip::offset_of(d.y);
            let mut lambda = match d.op {
                Op::ShadowLod => rb[0],
                Op::ShadowGrad => {
                    // textureGrad: lambda from the given (s, t) derivatives, as SAMPLE_GRAD.
                    let Some(ry) = reg(b + 1) else { return };
                    let mut lambda = [0.0f32; LANES];
                    for l in 0..LANES {
                        lambda[l] = tex.lambda(rb[0][l], rb[1][l], ry[0][l], ry[1][l]);
                    }
                    lambda
                }
                _ => implicit_2d(stage, tex, &p[0], &p[1]),
            };
            if d.op == Op::ShadowBias {
                bias(&mut lambda);
            }
            for l in 0..LANES {
                out[0][l] = tex.sample_compare(p[0][l], p[1][l], p[2][l], lambda[l], off);
                out[3][l] = 1.0;
            }
        }
        _ => {
            // SHADOW_CUBE: the reference in lane 3.
            let mut lambda = if stage == Stage::Fragment && tex.needs_lod() {
                quad_cube_lambda(tex, &p)
            } else {
                [0.0; LANES]
            };
            bias(&mut lambda);
            for l in 0..LANES {
                let (f, s, t) = cube_coords(p[0][l], p[1][l], p[2][l]);
                out[0][l] = match tex.face(f) {
                    Some(face) => face.sample_compare(s, t, ra[3][l], lambda[l], (0, 0)),
                    None => 0.0,
                };
                out[3][l] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::texture::SamplerState;
    use super::*;

    #[test]
    fn face_selection_follows_gl_table() {
        // Major axis and sign pick the face; (sc, tc) per GL 3.3 table 3.19.
        assert_eq!(cube_face(1.0, 0.2, 0.3), (0, -0.3, -0.2, 1.0));
        assert_eq!(cube_face(-1.0, 0.2, 0.3), (1, 0.3, -0.2, 1.0));
        assert_eq!(cube_face(0.2, 1.0, 0.3), (2, 0.2, 0.3, 1.0));
        assert_eq!(cube_face(0.2, -1.0, 0.3), (3, 0.2, -0.3, 1.0));
        assert_eq!(cube_face(0.2, 0.3, 1.0), (4, 0.2, -0.3, 1.0));
        assert_eq!(cube_face(0.2, 0.3, -1.0), (5, -0.2, -0.3, 1.0));
        // Ties: z over x and y, then y over x.
        assert_eq!(cube_face(1.0, 1.0, 1.0).0, 4);
        assert_eq!(cube_face(1.0, 0.0, -1.0).0, 5);
        assert_eq!(cube_face(1.0, 1.0, 0.0).0, 2);
        assert_eq!(cube_face(-1.0, -1.0, 0.5).0, 3);
        // Degenerate directions pick some face and stay finite.
        for p in [
            [0.0, 0.0, 0.0],
            [f32::NAN, 1.0, 0.0],
            [f32::INFINITY, 0.0, 0.0],
            [-0.0, -0.0, -0.0],
        ] {
            let (f, s, t) = cube_coords(p[0], p[1], p[2]);
            assert!(f < 6);
            assert!(!s.is_infinite() && !t.is_infinite());
        }
        // s, t in [0, 1] across a face.
        let (f, s, t) = cube_coords(1.0, -1.0 + 1e-3, -1.0 + 1e-3);
        assert_eq!(f, 0);
        assert!(s > 0.99 && t > 0.99, "{s} {t}");
    }

    fn faces_of(texels: &'static [[u32; 4]; 6]) -> [TextureRef<'static>; 6] {
        core::array::from_fn(|i| TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: 2,
            height: 2,
            texels: &texels[i],
            sampler: SamplerState::default(),
        })
    }

    #[test]
    fn cube_samples_each_face_clamped() {
        static T: [[u32; 4]; 6] = [
            [0xFF00_0001, 0xFF00_0002, 0xFF00_0003, 0xFF00_0004],
            [0xFF00_0011, 0xFF00_0012, 0xFF00_0013, 0xFF00_0014],
            [0xFF00_0021, 0xFF00_0022, 0xFF00_0023, 0xFF00_0024],
            [0xFF00_0031, 0xFF00_0032, 0xFF00_0033, 0xFF00_0034],
            [0xFF00_0041, 0xFF00_0042, 0xFF00_0043, 0xFF00_0044],
            [0xFF00_0051, 0xFF00_0052, 0xFF00_0053, 0xFF00_0054],
        ];
        let faces = faces_of(&T);
        let cube = TextureRef {
            layers: &[],
            faces: &faces,
            ..faces[0]
        };
        assert!(cube.is_cube());
        let b = |c: [f32; 4]| (c[2] * 255.0 + 0.5) as u32;
        // +X at sc = -z, tc = -y: direction (1, 0.5, 0.5) is s = 0.25, t = 0.25 (texel 0).
        assert_eq!(b(cube.sample_cube([1.0, 0.5, 0.5], 0.0)), 0x01);
        assert_eq!(b(cube.sample_cube([1.0, -0.5, -0.5], 0.0)), 0x04);
        // -Z at sc = -x, tc = -y: s = 0.45, t = 0.4 (texel 0).
        assert_eq!(b(cube.sample_cube([0.1, 0.2, -1.0], 0.0)), 0x51);
        assert_eq!(b(cube.sample_cube([-0.1, -0.2, -1.0], 0.0)), 0x54);
        // Linear filtering clamps at the face edge: the edge texel, not the next face's (or a
        // repeat's wrap to the other side).
        let mut lin = cube;
        lin.sampler = SamplerState::new(Filter::Linear, Wrap::Repeat);
        assert_eq!(b(lin.sample_cube([1.0, -0.999, -0.999], 0.0)), 0x04);
        assert_eq!(b(lin.sample_cube([1.0, 0.999, 0.999], 0.0)), 0x01);
        // A 2D texture under a cube op reads as incomplete in `cube_op`; sample_cube of a
        // non-cube is opaque black.
        assert_eq!(
            faces[0].sample_cube([1.0, 0.0, 0.0], 0.0),
            [0.0, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn cube_lambda_from_face_derivatives() {
        static T: [[u32; 4]; 6] = [[0; 4]; 6];
        let faces = faces_of(&T);
        let cube = TextureRef {
            layers: &[],
            faces: &faces,
            ..faces[0]
        };
        // At the centre of +Z, moving x by 0.5 moves s by 0.25: half a texel of 2.
        let l = cube.cube_lambda([0.0, 0.0, 1.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.0]);
        assert_eq!(l, -1.0);
        // Moving along the major axis changes nothing at the centre.
        let l = cube.cube_lambda([0.0, 0.0, 1.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]);
        assert!(l <= -999.0);
    }

    #[test]
    fn compare_functions_and_pcf() {
        let depth = [0.25f32, 0.75, 0.25, 0.75];
        let mut t = TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: Some(&depth),
            rgba: None,
            ints: None,
            width: 2,
            height: 2,
            texels: &[],
            sampler: SamplerState::new(Filter::Nearest, Wrap::ClampToEdge),
        };
        let cases = [
            (CompareFunc::Never, [0.0, 0.0]),
            (CompareFunc::Less, [0.0, 1.0]),
            (CompareFunc::Equal, [0.0, 0.0]),
            (CompareFunc::LessEqual, [0.0, 1.0]),
            (CompareFunc::Greater, [1.0, 0.0]),
            (CompareFunc::NotEqual, [1.0, 1.0]),
            (CompareFunc::GreaterEqual, [1.0, 0.0]),
            (CompareFunc::Always, [1.0, 1.0]),
        ];
        for (f, want) in cases {
            t.sampler.compare = Some(f);
            // Left texel depth 0.25, right 0.75; reference 0.5.
            assert_eq!(
                t.sample_compare(0.25, 0.5, 0.5, 0.0, (0, 0)),
                want[0],
                "{f:?}"
            );
            assert_eq!(
                t.sample_compare(0.75, 0.5, 0.5, 0.0, (0, 0)),
                want[1],
                "{f:?}"
            );
        }
        // Equal on an exact depth.
        t.sampler.compare = Some(CompareFunc::Equal);
        assert_eq!(t.sample_compare(0.25, 0.5, 0.25, 0.0, (0, 0)), 1.0);
        // PCF: half way between the two columns, LEQUAL with reference 0.5 -> 0 and 1
        // weighted 1/2 each.
        t.sampler.compare = Some(CompareFunc::LessEqual);
        t.sampler.filter = Filter::Linear;
        assert_eq!(t.sample_compare(0.5, 0.5, 0.5, 0.0, (0, 0)), 0.5);
        assert_eq!(t.sample_compare(0.375, 0.5, 0.5, 0.0, (0, 0)), 0.25);
        // An offset moves whole texels.
        t.sampler.filter = Filter::Nearest;
        assert_eq!(t.sample_compare(0.25, 0.5, 0.5, 0.0, (1, 0)), 1.0);
        // Any reference, NaN included, gives 0 or 1.
        for r in [f32::NAN, f32::INFINITY, -1e30, 2.0] {
            let c = t.sample_compare(0.3, 0.3, r, 0.0, (0, 0));
            assert!(c == 0.0 || c == 1.0);
        }
    }
}
