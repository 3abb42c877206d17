//! 2D array textures in Gfx3D (issue 15, session 8) on the software and mock backends:
//! `tex_create_array` / `tex_upload_layer` / `tex_layer_levels` validation (bad layer counts,
//! layer indices and sizes are errors), statistics, the mock log, drop_owner, stale handles,
//! sampler2DArray draws reading the right layer and level (texelFetch exact, textureSize's
//! layer count, a layer coordinate outside the array clamped as GL does), and sampler/texture
//! mismatches refused.
use gfx3d::glsl::PASS_VERT;
use gfx3d::limits::{TEXTURE_ARRAY_BYTES_MAX, TEXTURE_LAYERS_MAX};
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, SamplerState, Wrap};
use gfx3d::*;

mod common;
use common::screen_quad;

type G = Gfx3d<Linked>;
const SIZE: u32 = 32;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

/// Texel (x, y) of layer z: red from the layer, green from x, blue from y, all distinct.
fn texel(z: u32, x: u32, y: u32) -> u32 {
    0xFF00_0000 | (0x20 + z * 0x30) << 16 | (x * 0x20) << 8 | (y * 0x20)
}

fn layer(z: u32, w: u32, h: u32) -> Vec<u32> {
    (0..w * h).map(|i| texel(z, i % w, i / w)).collect()
}

/// A 4-layer 8x8 array with every layer's box chain.
fn array(g: &mut G, sampler: SamplerState) -> TextureId {
    let t = g.tex_create_array(0, 8, 8, 4).unwrap();
    for z in 0..4 {
        g.tex_upload_layer(0, t, z, &layer(z, 8, 8)).unwrap();
    }
    g.tex_generate_mipmaps(0, t).unwrap();
    g.tex_sampler(0, t, sampler).unwrap();
    t
}

/// texelFetch of every texel of every layer: the target's rows in 4 bands of 8, band z shows
/// layer z (x from the column / 4, y from the row % 8); textureSize's layer count in alpha.
const FETCH_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DArray layers;
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec3 size = textureSize(layers, 0);
    vec4 c = texelFetch(layers, ivec3(p.x / 4, p.y % 8, p.y / 8), 0);
    color = vec4(c.rgb, float(size.z) / 4.0);
}
";

/// Filtered sampling across the layers: the layer coordinate runs from -1.5 to 5.5 across the
/// target, so the left and right columns read layers clamped to 0 and 3.
const FILTER_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DArray layers;
out vec4 color;
void main() {
    vec4 a = texture(layers, vec3(fragUV * 1.3, fragUV.x * 7.0 - 1.5));
    vec4 b = textureLod(layers, vec3(fragUV.yx, fragUV.y * 4.0), 1.5);
    color = fragUV.y < 0.5 ? a : b;
}
";

fn draw(g: &mut G, fs: &str, tex: TextureId) -> Result<Vec<u32>> {
    let c = g.context_create(0)?;
    let tg = g.target_create(0, c, SIZE, SIZE)?;
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, fs, "t").unwrap();
    let p = g.prog_prepare(0, c, linked)?;
    let quad = screen_quad(g);
    g.begin(0, c, tg)?;
    g.clear(0, c, [0.0; 4], true)?;
    g.use_program(0, c, p)?;
    g.bind_texture(0, c, 0, Some(tex))?;
    let r = g.draw(0, c, quad);
    g.end(0, c)?;
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, tg, &mut px)?;
    g.context_destroy(0, c)?;
    g.mesh_destroy(0, quad)?;
    r.map(|_| px)
}

#[test]
fn bad_array_values_are_errors() {
    let mut g = boot(BackendMode::Software);
    assert!(matches!(
        g.tex_create_array(0, 8, 8, 0),
        Err(Error::BadLayerCount { layers: 0, .. })
    ));
    assert!(matches!(
        g.tex_create_array(0, 8, 8, TEXTURE_LAYERS_MAX + 1),
        Err(Error::BadLayerCount { .. })
    ));
    // 1024 x 1024 x 9 x 4 bytes is past the byte bound, 8 layers fit it exactly.
    assert_eq!(TEXTURE_ARRAY_BYTES_MAX, 1024 * 1024 * 8 * 4);
    assert!(matches!(
        g.tex_create_array(0, 1024, 1024, 9),
        Err(Error::BadLayerCount { layers: 9, .. })
    ));
    assert!(matches!(
        g.tex_create_array(0, 0, 8, 2),
        Err(Error::BadTextureSize { .. })
    ));
    let t = g.tex_create_array(0, 4, 2, 3).unwrap();
    assert_eq!(g.tex_layers(0, t).unwrap(), 3);
    assert_eq!(g.tex_size(0, t).unwrap(), (4, 2));
    assert!(matches!(
        g.tex_upload_layer(0, t, 3, &[0; 8]),
        Err(Error::BadArrayLayer {
            layer: 3,
            layers: 3
        })
    ));
    assert!(matches!(
        g.tex_upload_layer(0, t, 1, &[0; 7]),
        Err(Error::PixelCount {
            found: 7,
            expected: 8
        })
    ));
    assert!(matches!(
        g.tex_layer_levels(0, t, 2, &[&[0; 3]]),
        Err(Error::PixelCount {
            found: 3,
            expected: 2
        })
    ));
    assert!(matches!(
        g.tex_layer_levels(0, t, 1, &[&[0; 2], &[0; 1], &[0; 1]]),
        Err(Error::BadMipLevel { .. })
    ));
    assert!(matches!(
        g.tex_layer_levels(0, t, 9, &[]),
        Err(Error::BadArrayLayer { layer: 9, .. })
    ));
    // A 2D texture has no layers (not even 0 through this call).
    let flat = g.tex_create(0, 4, 2).unwrap();
    assert_eq!(g.tex_layers(0, flat).unwrap(), 0);
    let e = g.tex_upload_layer(0, flat, 0, &[0; 8]).unwrap_err();
    assert!(matches!(
        e,
        Error::BadArrayLayer {
            layer: 0,
            layers: 0
        }
    ));
    assert!(e.to_string().contains("not an array"), "{}", e);
    // Destroyed: its handle is stale, a new texture in the slot does not answer to it.
    g.tex_destroy(0, t).unwrap();
    assert!(g.tex_upload_layer(0, t, 0, &[0; 8]).is_err());
    let again = g.tex_create_array(0, 4, 2, 3).unwrap();
    assert!(g.tex_layers(0, t).is_err());
    assert_eq!(g.tex_layers(0, again).unwrap(), 3);
}

#[test]
fn array_memory_is_counted_and_dropped_with_the_owner() {
    let mut g = boot(BackendMode::Software);
    let before = g.stats().cpu_texture_bytes;
    let t = g.tex_create_array(5, 8, 4, 3).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes - before, 8 * 4 * 3 * 4);
    // Levels 4x2, 2x1, 1x1 of every layer.
    g.tex_generate_mipmaps(5, t).unwrap();
    assert_eq!(
        g.stats().cpu_texture_bytes - before,
        (8 * 4 + 4 * 2 + 2 + 1) * 3 * 4
    );
    assert_eq!(g.stats().live_tex, 1);
    g.drop_owner(5);
    assert_eq!(g.stats().live_tex, 0);
    assert_eq!(g.stats().cpu_texture_bytes, before);
    assert!(g.tex_layers(5, t).is_err());
}

#[test]
fn mock_log_records_array_creation_layers_and_levels() {
    let mut g = boot(BackendMode::Mock);
    g.mock_log_clear();
    let t = g.tex_create_array(0, 4, 4, 2).unwrap();
    g.tex_upload_layer(0, t, 0, &[0; 16]).unwrap();
    g.tex_upload_layer(0, t, 1, &[0; 16]).unwrap();
    g.tex_layer_levels(0, t, 1, &[&[0; 4], &[0; 1]]).unwrap();
    g.tex_levels(0, t, &[&[0; 4]]).unwrap();
    g.tex_generate_mipmaps(0, t).unwrap();
    // Refused calls log nothing.
    assert!(g.tex_upload_layer(0, t, 2, &[0; 16]).is_err());
    assert!(g.tex_create_array(0, 4, 4, 0).is_err());
    assert_eq!(
        g.mock_log(),
        "tex-array 4x4 2\ntex-layer 1\ntex-layer-levels 1 4x4 2\ntex-levels 4x4 1\n\
         tex-mipmaps 4x4 2\n"
    );
}

#[test]
fn texel_fetch_reads_every_texel_of_every_layer() {
    let mut g = boot(BackendMode::Software);
    let t = array(&mut g, SamplerState::new(Filter::Nearest, Wrap::Repeat));
    let px = draw(&mut g, FETCH_FRAG, t).unwrap();
    for y in 0..SIZE {
        for x in 0..SIZE {
            // Row 0 of the target is its top; gl_FragCoord.y counts from the bottom.
            let fy = SIZE - 1 - y;
            let want = texel(fy / 8, x / 4, fy % 8);
            assert_eq!(px[(y * SIZE + x) as usize], want, "pixel ({}, {})", x, y);
        }
    }
}

#[test]
fn a_layer_coordinate_outside_the_array_is_clamped() {
    let mut g = boot(BackendMode::Software);
    let t = array(&mut g, SamplerState::new(Filter::Nearest, Wrap::Repeat));
    let px = draw(&mut g, FILTER_FRAG, t).unwrap();
    let red = |p: u32| (p >> 16) & 0xFF;
    // Bottom half of the picture (fragUV.y < 0.5: the quad's uv is GL's, v = 0 at the bottom,
    // and row 0 of the readback is the top): the leftmost column's layer is -1.4 (layer 0),
    // the rightmost's 5.4 (layer 3).
    for y in SIZE / 2..SIZE {
        assert_eq!(red(px[(y * SIZE) as usize]), 0x20, "row {}", y);
        assert_eq!(red(px[(y * SIZE + SIZE - 1) as usize]), 0x20 + 3 * 0x30);
    }
}

#[test]
fn sampler_and_texture_must_agree_on_arrays() {
    let mut g = boot(BackendMode::Software);
    let flat = g.tex_create(0, 8, 8).unwrap();
    let e = draw(&mut g, FETCH_FRAG, flat).unwrap_err();
    assert!(
        matches!(
            e,
            Error::ArraySamplerMismatch {
                unit: 0,
                array_sampler: true
            }
        ),
        "{:?}",
        e
    );
    let t = array(&mut g, SamplerState::default());
    let e = draw(&mut g, gfx3d::glsl::POST_FRAG, t).unwrap_err();
    assert!(
        matches!(
            e,
            Error::ArraySamplerMismatch {
                unit: 0,
                array_sampler: false
            }
        ),
        "{:?}",
        e
    );
    // Layers with different level counts cannot be drawn.
    let odd = g.tex_create_array(0, 4, 4, 2).unwrap();
    g.tex_layer_levels(0, odd, 1, &[&[0; 4]]).unwrap();
    let e = draw(&mut g, FETCH_FRAG, odd).unwrap_err();
    assert!(
        matches!(
            e,
            Error::ArrayLevelMismatch {
                layer: 1,
                levels: 2,
                expected: 1
            }
        ),
        "{:?}",
        e
    );
    g.tex_levels(0, odd, &[&[0; 4]]).unwrap();
    assert!(draw(&mut g, FETCH_FRAG, odd).is_ok());
}

/// Random array sizes, layer counts, layer indices, texel counts and level lists through the
/// API (and draws of what survives) never panic; every refusal is an error value.
#[test]
fn random_array_calls_never_panic() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    let mut g = boot(BackendMode::Software);
    let mut live = Vec::new();
    let mut drawn = 0u32;
    for _ in 0..400 {
        match next(6) {
            0 => {
                let (w, h) = (next(20) as u32, next(20) as u32);
                let layers = [0, 1, 2, 7, 255, 256, 257, u32::MAX][next(8) as usize];
                if let Ok(t) = g.tex_create_array(0, w, h, layers) {
                    live.push(t);
                }
            }
            1 | 2 => {
                if let Some(&t) = live.get(next(live.len() as u64 + 1) as usize) {
                    let layer = [0, 1, 3, 300, u32::MAX][next(5) as usize];
                    let n = next(420) as usize;
                    let _ = g.tex_upload_layer(0, t, layer, &vec![0xFF12_3456; n]);
                    let levels: Vec<Vec<u32>> =
                        (0..next(6)).map(|_| vec![0; next(100) as usize]).collect();
                    let refs: Vec<&[u32]> = levels.iter().map(|l| l.as_slice()).collect();
                    let _ = g.tex_layer_levels(0, t, layer, &refs);
                }
            }
            3 => {
                if let Some(&t) = live.get(next(live.len() as u64 + 1) as usize) {
                    let _ = g.tex_generate_mipmaps(0, t);
                    let _ = g.tex_levels(0, t, &[]);
                }
            }
            4 => {
                if let Some(&t) = live.get(next(live.len() as u64 + 1) as usize) {
                    if draw(&mut g, FETCH_FRAG, t).is_ok() {
                        drawn += 1;
                    }
                    let _ = draw(&mut g, FILTER_FRAG, t);
                }
            }
            _ => {
                if !live.is_empty() {
                    let t = live.swap_remove(next(live.len() as u64) as usize);
                    g.tex_destroy(0, t).unwrap();
                    assert!(g.tex_upload_layer(0, t, 0, &[]).is_err());
                }
            }
        }
    }
    g.drop_owner(0);
    assert_eq!(g.stats().live_tex, 0);
    // The sequences reach real array draws, not only refusals.
    assert!(drawn > 0, "no random array was drawn");
}
