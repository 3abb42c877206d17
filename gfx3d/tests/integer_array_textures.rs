//! isampler2DArray/usampler2DArray through Gfx3D (session 9): RGBA32I/RGBA32UI array
//! textures (`tex_create_array_format`, `tex_upload_layer_ints`) drawn by the software backend
//! read back the exact words of every texel of every layer (texelFetch, texture() at the layer
//! and at clamped layer coordinates, textureLodOffset, textureGrad) through an RGBA32F target;
//! the misuse errors at draw (array or not, format either way, a filtering sampler, nothing
//! bound), the refused operations, statistics, the mock log and drop_owner.
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, SamplerState, Wrap};
use gfx3d::*;

mod common;
mod iarray_scene;
use iarray_scene::*;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

#[test]
fn software_integer_arrays_read_back_every_layer_exactly() {
    let mut g = boot(BackendMode::Software);
    let got = draw_all(&mut g);
    let mut i = 0;
    for signed in [false, true] {
        for mode in 0..MODES {
            for hi in [true, false] {
                assert_eq!(
                    got[i],
                    expected(signed, hi),
                    "signed {} mode {} hi {}",
                    signed,
                    mode,
                    hi
                );
                i += 1;
            }
        }
    }
    // Texel 0 of layer 0 (the bottom-left pixel): 0xFFFFFFFF's high half is -1 through
    // isampler2DArray, 65535 through usampler2DArray; layer 2's texel 0 is 0xFFFFFFFD.
    let bl = ((H - 1) * W) as usize;
    let per_signed = (MODES * 2) as usize;
    assert_eq!(got[per_signed][bl][0], -1.0);
    assert_eq!(got[0][bl][0], 65535.0);
    // Target row 1 from the top is gl_FragCoord.y 4: layer 2's texel row 0.
    assert_eq!(got[1][W as usize][0], (0xFFFF_FFFDu32 & 0xFFFF) as f32);
}

/// Draws `fs` (its one sampler on unit 0) with `tex` bound (or nothing) into a small target.
fn draw_with(g: &mut G, fs: &str, tex: Option<TextureId>) -> Result<()> {
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, fs, "t").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let m = common::screen_quad(g);
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, tex).unwrap();
    let r = g.draw(0, c, m);
    g.end(0, c).unwrap();
    g.context_destroy(0, c).unwrap();
    g.mesh_destroy(0, m).unwrap();
    r
}

fn fs(sampler: &str, read: &str) -> String {
    format!(
        "#version 330 core
#pragma chrisos profile 2
uniform {sampler} words;
out vec4 color;
void main() {{ color = vec4({read}); }}
"
    )
}

#[test]
fn sampler_and_texture_kinds_must_agree_at_draw() {
    let mut g = boot(BackendMode::Software);
    let ia = array(&mut g, true);
    let ua = array(&mut g, false);
    let i2d = g
        .tex_create_format(0, TW, TH, TextureFormat::Rgba32I)
        .unwrap();
    let rgba_arr = g.tex_create_array(0, TW, TH, LAYERS).unwrap();
    let ifetch = fs("isampler2DArray", "texelFetch(words, ivec3(0), 0)");
    let ufetch = fs("usampler2DArray", "texelFetch(words, ivec3(0), 0)");
    let ffetch = fs("sampler2DArray", "texelFetch(words, ivec3(0), 0)");
    let i2fetch = fs("isampler2D", "texelFetch(words, ivec2(0), 0)");
    // The right pairs draw.
    draw_with(&mut g, &ifetch, Some(ia)).unwrap();
    draw_with(&mut g, &ufetch, Some(ua)).unwrap();
    // An integer array sampler over a 2D integer texture, and a 2D one over an integer array.
    assert_eq!(
        draw_with(&mut g, &ifetch, Some(i2d)),
        Err(Error::ArraySamplerMismatch {
            unit: 0,
            array_sampler: true
        })
    );
    assert_eq!(
        draw_with(&mut g, &i2fetch, Some(ia)),
        Err(Error::ArraySamplerMismatch {
            unit: 0,
            array_sampler: false
        })
    );
    // Formats: signed vs unsigned, integer vs RGBA8, both ways.
    assert_eq!(
        draw_with(&mut g, &ifetch, Some(ua)),
        Err(Error::TextureFormatMismatch {
            unit: 0,
            sampler: "isampler2DArray",
            format: "RGBA32UI"
        })
    );
    assert_eq!(
        draw_with(&mut g, &ufetch, Some(rgba_arr)),
        Err(Error::TextureFormatMismatch {
            unit: 0,
            sampler: "usampler2DArray",
            format: "RGBA8"
        })
    );
    assert_eq!(
        draw_with(&mut g, &ffetch, Some(ia)),
        Err(Error::TextureFormatMismatch {
            unit: 0,
            sampler: "float sampler",
            format: "RGBA32I"
        })
    );
    // Nothing bound under an integer sampler.
    assert_eq!(
        draw_with(&mut g, &ufetch, None),
        Err(Error::IntegerSamplerUnsupported { unit: 0 })
    );
    // A filtering sampler state on an integer array.
    g.tex_sampler(0, ia, SamplerState::new(Filter::Linear, Wrap::Repeat))
        .unwrap();
    assert_eq!(
        draw_with(&mut g, &ifetch, Some(ia)),
        Err(Error::IntegerTextureFilter { unit: 0 })
    );
    let msg = Error::ArraySamplerMismatch {
        unit: 2,
        array_sampler: true,
    }
    .to_string();
    assert!(msg.contains("isampler2DArray"), "{}", msg);
}

#[test]
fn integer_array_create_and_upload_are_validated() {
    let mut g = boot(BackendMode::Software);
    let f = TextureFormat::Rgba32UI;
    assert!(matches!(
        g.tex_create_array_format(0, 4, 4, 0, f),
        Err(Error::BadLayerCount { .. })
    ));
    assert!(matches!(
        g.tex_create_array_format(0, 4, 4, 257, f),
        Err(Error::BadLayerCount { .. })
    ));
    // 1024 x 1024 x 3 layers x 16 bytes is 48 MiB: over TEXTURE_ARRAY_BYTES_MAX (an RGBA8
    // array of that size fits).
    assert!(matches!(
        g.tex_create_array_format(0, 1024, 1024, 3, f),
        Err(Error::BadLayerCount { .. })
    ));
    assert!(matches!(
        g.tex_create_array_format(0, 0, 4, 2, f),
        Err(Error::BadTextureSize { .. })
    ));
    let t = g.tex_create_array_format(0, 2, 2, 3, f).unwrap();
    assert_eq!(g.tex_layers(0, t), Ok(3));
    assert_eq!(g.tex_format(0, t), Ok(f));
    g.tex_upload_layer_ints(0, t, 2, &[1; 16]).unwrap();
    assert_eq!(
        g.tex_upload_layer_ints(0, t, 3, &[1; 16]),
        Err(Error::BadArrayLayer {
            layer: 3,
            layers: 3
        })
    );
    assert_eq!(
        g.tex_upload_layer_ints(0, t, 1, &[1; 15]),
        Err(Error::PixelCount {
            found: 15,
            expected: 16
        })
    );
    assert_eq!(
        g.tex_upload_layer_ints(0, t, 0, &[1; 17]),
        Err(Error::PixelCount {
            found: 17,
            expected: 16
        })
    );
    // 8-bit uploads and mip levels are not an integer array's.
    assert!(matches!(
        g.tex_upload_layer(0, t, 1, &[0; 4]),
        Err(Error::TextureFormatOp { .. })
    ));
    assert!(matches!(
        g.tex_upload_layer(0, t, 0, &[0; 4]),
        Err(Error::TextureFormatOp { .. })
    ));
    assert!(matches!(
        g.tex_layer_levels(0, t, 1, &[&[0]]),
        Err(Error::TextureFormatOp { .. })
    ));
    assert!(matches!(
        g.tex_generate_mipmaps(0, t),
        Err(Error::TextureFormatOp { .. })
    ));
    // Integer layers of an RGBA8 array, or of a texture that is not an array.
    let rgba = g
        .tex_create_array_format(0, 2, 2, 2, TextureFormat::Rgba8)
        .unwrap();
    assert_eq!(g.tex_format(0, rgba), Ok(TextureFormat::Rgba8));
    assert!(matches!(
        g.tex_upload_layer_ints(0, rgba, 1, &[0; 16]),
        Err(Error::TextureFormatOp { .. })
    ));
    let flat = g.tex_create_format(0, 2, 2, f).unwrap();
    assert_eq!(
        g.tex_upload_layer_ints(0, flat, 1, &[0; 16]),
        Err(Error::BadArrayLayer {
            layer: 1,
            layers: 0
        })
    );
    g.tex_destroy(0, t).unwrap();
    assert!(g.tex_upload_layer_ints(0, t, 1, &[1; 16]).is_err());
}

#[test]
fn integer_arrays_in_stats_mock_log_and_drop_owner() {
    let mut g = boot(BackendMode::Mock);
    g.mock_log_clear();
    let base = g.stats().cpu_texture_bytes;
    let t = g
        .tex_create_array_format(7, 3, 2, 4, TextureFormat::Rgba32I)
        .unwrap();
    assert_eq!(g.stats().cpu_texture_bytes, base + 3 * 2 * 4 * 16);
    g.tex_upload_layer_ints(7, t, 0, &[5; 24]).unwrap();
    g.tex_upload_layer_ints(7, t, 3, &[6; 24]).unwrap();
    // Refused calls log nothing.
    assert!(g.tex_upload_layer_ints(7, t, 4, &[6; 24]).is_err());
    assert!(g
        .tex_create_array_format(7, 3, 2, 0, TextureFormat::Rgba32UI)
        .is_err());
    let u = g
        .tex_create_array_format(7, 1, 1, 2, TextureFormat::Rgba32UI)
        .unwrap();
    assert_eq!(
        g.mock_log(),
        "tex-array-format RGBA32I 3x2 4\ntex-ints 6\ntex-layer-ints 3 6\n\
         tex-array-format RGBA32UI 1x1 2\n"
    );
    assert_eq!(g.stats().live_tex, 2);
    g.drop_owner(7);
    assert_eq!(g.stats().live_tex, 0);
    assert_eq!(g.stats().cpu_texture_bytes, base);
    assert!(g.tex_layers(7, t).is_err());
    assert!(g.tex_format(7, u).is_err());
}
