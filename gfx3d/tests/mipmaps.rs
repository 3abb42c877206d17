//! Mip levels and sampler states of Gfx3D textures (issue 15): validation, the box-filtered
//! chain, statistics, drop_owner, and sampler/level misuse never panicking.
use gfx3d::texture::{box_chain, Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

#[test]
fn sampler_states_are_validated() {
    let mut g: Gfx3d = Gfx3d::new();
    let t = g.tex_create(1, 4, 4).unwrap();
    let good = SamplerState {
        min_filter: Some(Filter::Linear),
        mip: MipFilter::Linear,
        wrap_t: Some(Wrap::MirroredRepeat),
        lod_bias: 0.5,
        min_lod: 0.0,
        max_lod: 2.0,
        ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
    };
    g.tex_sampler(1, t, good).unwrap();
    for (bias, min, max) in [
        (f32::NAN, 0.0, 1.0),
        (0.0, f32::INFINITY, 1000.0),
        (0.0, 2.0, 1.0),
        (1001.0, 0.0, 1.0),
        (0.0, -1000.5, 0.0),
    ] {
        let s = SamplerState {
            lod_bias: bias,
            min_lod: min,
            max_lod: max,
            ..good
        };
        assert_eq!(
            g.tex_sampler(1, t, s),
            Err(Error::BadSampler),
            "{bias} {min} {max}"
        );
    }
}

#[test]
fn levels_are_checked_counted_and_dropped() {
    let mut g: Gfx3d = Gfx3d::new();
    let t = g.tex_create(1, 4, 2).unwrap();
    let base = g.stats().cpu_texture_bytes;
    assert_eq!(base, 4 * 2 * 4);
    // 4x2 has levels 1 (2x1) and 2 (1x1).
    g.tex_levels(1, t, &[&[1, 2], &[3]]).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, (8 + 2 + 1) * 4);
    assert_eq!(
        g.tex_levels(1, t, &[&[1, 2], &[3], &[4]]),
        Err(Error::BadMipLevel { level: 3, max: 2 })
    );
    assert_eq!(
        g.tex_levels(1, t, &[&[1, 2, 3]]),
        Err(Error::PixelCount {
            found: 3,
            expected: 2
        })
    );
    g.tex_levels(1, t, &[]).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, base);
    g.tex_generate_mipmaps(1, t).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, (8 + 2 + 1) * 4);
    g.drop_owner(1);
    assert_eq!(g.stats().cpu_texture_bytes, 0);
    // Another owner's handle is not this owner's.
    let u = g.tex_create(2, 1, 1).unwrap();
    assert!(g.tex_levels(3, u, &[]).is_err());
    assert!(g.tex_generate_mipmaps(3, u).is_err());
}

#[test]
fn box_chain_averages_with_rounding() {
    // 2x2 -> 1x1: each channel the rounded mean.
    let l = box_chain(2, 2, &[0xFF00_0000, 0xFF00_0001, 0xFF00_0001, 0xFF00_0001]);
    assert_eq!(l, vec![vec![0xFF00_0001]]);
    // 4x1 -> 2x1 -> 1x1 averages pairs along x only.
    let l = box_chain(4, 1, &[0x0000_0010, 0x0000_0020, 0x0000_0030, 0x0000_0041]);
    assert_eq!(l, vec![vec![0x18, 0x39], vec![0x29]]);
    // 1x1 has no levels below it.
    assert!(box_chain(1, 1, &[5]).is_empty());
    // Odd sizes: 3x3 -> 1x1 from the top-left 2x2.
    let l = box_chain(3, 3, &[4, 8, 100, 12, 16, 100, 100, 100, 100]);
    assert_eq!(l, vec![vec![10]]);
}

#[test]
fn sampler_and_level_fuzz_never_panics() {
    let mut g: Gfx3d = Gfx3d::new();
    let mut s = 0x2545_F491u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let vals = [
        f32::NAN,
        f32::INFINITY,
        -f32::INFINITY,
        0.0,
        -0.0,
        1e30,
        -5.5,
        999.0,
        1000.0,
    ];
    for _ in 0..400 {
        let (w, h) = (next() % 70, next() % 70);
        let Ok(t) = g.tex_create(1, w, h) else {
            continue;
        };
        let n = next() as usize % 9;
        let st = SamplerState {
            min_filter: [None, Some(Filter::Linear), Some(Filter::Nearest)][n % 3],
            mip: [MipFilter::None, MipFilter::Nearest, MipFilter::Linear][n / 3],
            wrap_t: Some([Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat][n % 3]),
            lod_bias: vals[next() as usize % vals.len()],
            min_lod: vals[next() as usize % vals.len()],
            max_lod: vals[next() as usize % vals.len()],
            ..SamplerState::default()
        };
        let _ = g.tex_sampler(1, t, st);
        let levels: Vec<Vec<u32>> = (0..next() % 9)
            .map(|_| vec![0u32; (next() % 40) as usize])
            .collect();
        let refs: Vec<&[u32]> = levels.iter().map(|l| l.as_slice()).collect();
        let _ = g.tex_levels(1, t, &refs);
        if next() % 2 == 0 {
            g.tex_generate_mipmaps(1, t).unwrap();
        }
        g.tex_destroy(1, t).unwrap();
    }
    assert_eq!(g.stats().cpu_texture_bytes, 0);
}
