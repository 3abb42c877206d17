//! The check that every SIMD lane path of the executor gives the bits of its scalar reference,
//! run by the in-guest self-tests and on the host.
use super::lanes::{sqrt, LANES};
use super::math::{cos, pow, pow_lanes, sin, trig_lanes};
use super::texel::{pack_lanes, pack_one, unpack_lanes};
use super::texture::{Filter, SamplerState, TextureRef, Wrap};

/// In-guest and host self-test: every SIMD lane path gives the bits of its scalar reference on
/// this machine's build (the kernel target compiles the same SSE2 code): sqrt, pow, sin/cos,
/// colour packing, texel unpacking and packing back, and texture filtering.
pub(crate) fn selftest_simd(w: &mut dyn core::fmt::Write) -> bool {
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    let mut seed = 0x9E37_79B9u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for round in 0..64 {
        let mut x = [0.0f32; LANES];
        let mut y = [0.0f32; LANES];
        for l in 0..LANES {
            // Mostly ordinary magnitudes, some arbitrary bit patterns.
            x[l] = if l % 5 == 0 {
                f32::from_bits(next())
            } else {
                (next() >> 8) as f32 / 65536.0 - 128.0
            };
            y[l] = (next() >> 8) as f32 / 1048576.0 - 4.0;
        }
        let (r, s, c, p) = (
            sqrt(&x),
            trig_lanes(&x, 0),
            trig_lanes(&x, 1),
            pow_lanes(&x, &y),
        );
        for l in 0..LANES {
            let checks = [
                ("sqrt", r[l], libm::sqrtf(x[l])),
                ("sin", s[l], sin(x[l])),
                ("cos", c[l], cos(x[l])),
                ("pow", p[l], pow(x[l], y[l])),
            ];
            for (name, got, want) in checks {
                if !same(got, want) {
                    let _ = write!(w, "{}({:e}) lanes {:e} scalar {:e}", name, x[l], got, want);
                    return false;
                }
            }
        }
        // Colours in and around [0, 1] pack like the per-pixel packer.
        let mut col = [[0.0f32; LANES]; 4];
        for ch in col.iter_mut() {
            for v in ch.iter_mut() {
                *v = (next() >> 8) as f32 / 12582912.0 - 0.25;
            }
        }
        col[round % 4][round % LANES] = f32::NAN;
        let mut px = [0u32; LANES];
        pack_lanes(&col, &mut px);
        for l in 0..LANES {
            let want = pack_one([col[0][l], col[1][l], col[2][l], col[3][l]]);
            if px[l] != want {
                let _ = write!(w, "pack lane {}: {:08x} want {:08x}", l, px[l], want);
                return false;
            }
        }
        // Texels back and forth.
        let mut t = [0u32; LANES];
        for v in t.iter_mut() {
            *v = next();
        }
        let mut f = [[0.0f32; LANES]; 4];
        unpack_lanes(&t, &mut f);
        pack_lanes(&f, &mut px);
        if px != t {
            let _ = write!(w, "unpack then pack changed a texel");
            return false;
        }
    }
    // Texture filtering: the lane path against the per-lane sampler, on power-of-two and
    // other sizes, both filters and wraps, coordinates inside, outside and on texel edges.
    let mut texels = [0u32; 64 * 64];
    for t in texels.iter_mut() {
        *t = next();
    }
    for (width, height) in [(64u32, 64u32), (2, 8), (1, 1), (5, 3)] {
        for filter in [Filter::Nearest, Filter::Linear] {
            for wrap in [Wrap::Repeat, Wrap::ClampToEdge] {
                let tex = TextureRef {
                    layers: &[],
                    faces: &[],
                    mips: &[],
                    depth: None,
                    rgba: None,
                    ints: None,
                    width,
                    height,
                    texels: &texels,
                    sampler: SamplerState::new(filter, wrap),
                };
                for _ in 0..16 {
                    let mut u = [0.0f32; LANES];
                    let mut v = [0.0f32; LANES];
                    for l in 0..LANES {
                        let edge = (next() % 9) as f32 / 8.0;
                        u[l] = if l % 3 == 0 {
                            edge
                        } else {
                            (next() >> 8) as f32 / 4194304.0 - 1.5
                        };
                        v[l] = (next() >> 8) as f32 / 4194304.0 - 1.5;
                    }
                    let got = tex.texel_lanes(&u, &v);
                    for l in 0..LANES {
                        let want = tex.sample_texel(u[l], v[l]);
                        if got[l] != want {
                            let _ = write!(
                                w,
                                "{}x{} {:?} {:?} at ({}, {}): {:08x} want {:08x}",
                                width, height, filter, wrap, u[l], v[l], got[l], want
                            );
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}
