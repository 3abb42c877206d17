//! isampler2D/usampler2D through Gfx3D (issue 15): RGBA32I/RGBA32UI textures
//! (`tex_create_format`, `tex_upload_ints`) drawn by the software backend read back the exact
//! words (above 2^24, negatives) through an RGBA32F target; the misuse errors at draw (format
//! mismatch either way, a non-NEAREST filter, an integer sampler with no integer texture),
//! the integer texture's refused operations, statistics, the mock log and drop_owner.
use gfx3d::glsl::{PASS_VERT, TEX_FRAG};
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
mod itex_scene;
use itex_scene::*;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

#[test]
fn software_integer_textures_read_back_the_exact_words() {
    let mut g = boot(BackendMode::Software);
    let got = draw_all(&mut g);
    let mut i = 0;
    for signed in [false, true] {
        for fetch in [true, false] {
            for hi in [true, false] {
                assert_eq!(
                    got[i],
                    expected(signed, hi),
                    "signed {} fetch {} hi {}",
                    signed,
                    fetch,
                    hi
                );
                i += 1;
            }
        }
    }
    // Texel 0 (the bottom-left pixel, read back at index 4): 0xFFFFFFFF's high half is
    // -1 through isampler2D, 65535 through usampler2D; 0x01000001 (2^24 + 1) is (256, 1).
    let bl = ((H - 1) * W) as usize;
    assert_eq!(got[4][bl][0], -1.0);
    assert_eq!(got[0][bl][0], 65535.0);
    assert_eq!((got[0][bl][2], got[1][bl][2]), (256.0, 1.0));
}

/// Draws `fs` (its one sampler on unit 0) with `tex` bound (or nothing) into a 4x2 target.
fn draw_with(g: &mut G, fs: &str, tex: Option<TextureId>) -> Result<()> {
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, fs, "t").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let m = quad(g);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, tex).unwrap();
    let r = g.draw(0, c, m);
    g.end(0, c).unwrap();
    r
}

#[test]
fn a_sampler_and_texture_format_mismatch_is_refused_at_draw() {
    let mut g = boot(BackendMode::Software);
    let rgba8 = g.tex_create(0, W, H).unwrap();
    let ut = g
        .tex_create_format(0, W, H, TextureFormat::Rgba32UI)
        .unwrap();
    let it = g
        .tex_create_format(0, W, H, TextureFormat::Rgba32I)
        .unwrap();
    let e = draw_with(&mut g, &frag(false, true, true), Some(rgba8)).unwrap_err();
    assert_eq!(
        e,
        Error::TextureFormatMismatch {
            unit: 0,
            sampler: "usampler2D",
            format: "RGBA8"
        }
    );
    assert!(e.to_string().contains("unit 0"), "{}", e);
    let e = draw_with(&mut g, &frag(true, true, true), Some(ut)).unwrap_err();
    assert_eq!(
        e,
        Error::TextureFormatMismatch {
            unit: 0,
            sampler: "isampler2D",
            format: "RGBA32UI"
        }
    );
    let e = draw_with(&mut g, &frag(false, false, false), Some(it)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TextureFormatMismatch {
                format: "RGBA32I",
                ..
            }
        ),
        "{:?}",
        e
    );
    // A float sampler over an integer texture.
    let e = draw_with(&mut g, TEX_FRAG, Some(it)).unwrap_err();
    assert_eq!(
        e,
        Error::TextureFormatMismatch {
            unit: 0,
            sampler: "float sampler",
            format: "RGBA32I"
        }
    );
    // An integer sampler with nothing bound.
    let e = draw_with(&mut g, &frag(true, true, true), None).unwrap_err();
    assert_eq!(e, Error::IntegerSamplerUnsupported { unit: 0 });
    assert!(e.to_string().contains("unit 0"), "{}", e);
    // The matching pairs draw.
    draw_with(&mut g, &frag(false, true, true), Some(ut)).unwrap();
    draw_with(&mut g, &frag(true, false, true), Some(it)).unwrap();
    draw_with(&mut g, TEX_FRAG, Some(rgba8)).unwrap();
}

#[test]
fn an_integer_texture_with_a_filtering_sampler_is_refused_at_draw() {
    let mut g = boot(BackendMode::Software);
    let ut = g
        .tex_create_format(0, W, H, TextureFormat::Rgba32UI)
        .unwrap();
    let fs = frag(false, false, true);
    for s in [
        SamplerState::new(Filter::Linear, Wrap::Repeat),
        SamplerState {
            min_filter: Some(Filter::Linear),
            ..SamplerState::default()
        },
        SamplerState {
            mip: gfx3d::texture::MipFilter::Nearest,
            ..SamplerState::default()
        },
    ] {
        g.tex_sampler(0, ut, s).unwrap();
        let e = draw_with(&mut g, &fs, Some(ut)).unwrap_err();
        assert_eq!(e, Error::IntegerTextureFilter { unit: 0 });
        assert!(e.to_string().contains("NEAREST"), "{}", e);
    }
    g.tex_sampler(0, ut, SamplerState::new(Filter::Nearest, Wrap::ClampToEdge))
        .unwrap();
    draw_with(&mut g, &fs, Some(ut)).unwrap();
}

#[test]
fn integer_texture_create_and_upload_are_validated() {
    let mut g = boot(BackendMode::Software);
    assert_eq!(
        g.tex_create_format(0, 0, 2, TextureFormat::Rgba32I),
        Err(Error::BadTextureSize {
            width: 0,
            height: 2
        })
    );
    assert!(g
        .tex_create_format(0, 2, 2000, TextureFormat::Rgba32UI)
        .is_err());
    let it = g
        .tex_create_format(0, 2, 2, TextureFormat::Rgba32I)
        .unwrap();
    assert_eq!(g.tex_format(0, it), Ok(TextureFormat::Rgba32I));
    assert_eq!(g.tex_size(0, it), Ok((2, 2)));
    // 4 words a texel, exactly.
    assert_eq!(
        g.tex_upload_ints(0, it, &[1; 15]),
        Err(Error::PixelCount {
            found: 15,
            expected: 16
        })
    );
    assert!(g.tex_upload_ints(0, it, &[1; 4]).is_err());
    g.tex_upload_ints(0, it, &[1; 16]).unwrap();
    // 8-bit ops and levels are not an integer texture's.
    for e in [
        g.tex_upload(0, it, &[0; 4]).unwrap_err(),
        g.tex_upload_face(0, it, 0, &[0; 4]).unwrap_err(),
        g.tex_levels(0, it, &[&[0]]).unwrap_err(),
        g.tex_generate_mipmaps(0, it).unwrap_err(),
    ] {
        assert!(matches!(e, Error::TextureFormatOp { .. }), "{:?}", e);
    }
    let rgba8 = g.tex_create_format(0, 2, 2, TextureFormat::Rgba8).unwrap();
    assert_eq!(g.tex_format(0, rgba8), Ok(TextureFormat::Rgba8));
    assert!(matches!(
        g.tex_upload_ints(0, rgba8, &[0; 16]),
        Err(Error::TextureFormatOp { .. })
    ));
}

#[test]
fn integer_textures_in_stats_mock_log_and_drop_owner() {
    let mut g = boot(BackendMode::Mock);
    let base = g.stats().cpu_texture_bytes;
    let ut = g
        .tex_create_format(7, 3, 2, TextureFormat::Rgba32UI)
        .unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, base + 3 * 2 * 16);
    let _rgba8 = g.tex_create(7, 3, 2).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, base + 3 * 2 * 16 + 3 * 2 * 4);
    g.tex_upload_ints(7, ut, &[5; 24]).unwrap();
    let it = g
        .tex_create_format(7, 1, 1, TextureFormat::Rgba32I)
        .unwrap();
    let log = g.mock_log().to_string();
    assert!(log.contains("tex-format RGBA32UI 3x2"), "{}", log);
    assert!(log.contains("tex-ints 6"), "{}", log);
    assert!(log.contains("tex-format RGBA32I 1x1"), "{}", log);
    assert_eq!(g.stats().live_tex, 3);
    g.drop_owner(7);
    assert_eq!(g.stats().live_tex, 0);
    assert_eq!(g.stats().cpu_texture_bytes, base);
    assert!(g.tex_format(7, it).is_err());
}
