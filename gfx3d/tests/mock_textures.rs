//! The mock backend's log of texture levels and sampler states: `tex-levels`, `tex-mipmaps` and
//! `tex-sampler` lines (format in gfx3d/src/mock.rs), nothing for a refused call, and nothing on
//! the software backend.
use gfx3d::state::CompareFunc;
use gfx3d::texture::{Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

fn mock() -> Gfx3d {
    let mut g: Gfx3d = Gfx3d::new();
    g.boot(BackendMode::Mock, None).unwrap();
    g.mock_log_clear();
    g
}

#[test]
fn mock_log_records_levels_mipmaps_and_sampler_states() {
    let mut g = mock();
    let t = g.tex_create(1, 8, 4).unwrap();
    // Levels 1 (4x2) and 2 (2x1) given.
    g.tex_levels(1, t, &[&[0; 8], &[0; 2]]).unwrap();
    // 8x4 down to 1x1: 4x2, 2x1, 1x1.
    g.tex_generate_mipmaps(1, t).unwrap();
    g.tex_levels(1, t, &[]).unwrap();
    g.tex_sampler(1, t, SamplerState::default()).unwrap();
    g.tex_sampler(
        1,
        t,
        SamplerState {
            min_filter: Some(Filter::Linear),
            mip: MipFilter::Linear,
            wrap_t: Some(Wrap::MirroredRepeat),
            lod_bias: 0.5,
            min_lod: 0.0,
            max_lod: 2.0,
            ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
        },
    )
    .unwrap();
    g.tex_sampler(
        1,
        t,
        SamplerState {
            mip: MipFilter::Nearest,
            compare: Some(CompareFunc::LessEqual),
            ..SamplerState::new(Filter::Linear, Wrap::Repeat)
        },
    )
    .unwrap();
    let cube = g.tex_create_cube(1, 4, 4).unwrap();
    g.tex_generate_mipmaps(1, cube).unwrap();
    assert_eq!(
        g.mock_log(),
        "tex-levels 8x4 2\ntex-mipmaps 8x4 3\ntex-levels 8x4 0\n\
         tex-sampler 2600,2600 2901,2901 lod 0,-1000,1000 off\n\
         tex-sampler 2600,2703 812f,8370 lod 0.5,0,2 off\n\
         tex-sampler 2601,2701 2901,2901 lod 0,-1000,1000 203\n\
         tex-cube\ntex-mipmaps 4x4 2\n"
    );
    assert_eq!(g.mock_log_dropped(), 0);
}

#[test]
fn refused_texture_calls_log_nothing() {
    let mut g = mock();
    let t = g.tex_create(1, 4, 4).unwrap();
    let cube = g.tex_create_cube(1, 2, 2).unwrap();
    g.mock_log_clear();
    // Wrong level size, too many levels, a cube's levels, another owner's handle.
    assert!(g.tex_levels(1, t, &[&[0; 3]]).is_err());
    assert!(g.tex_levels(1, t, &[&[0; 4], &[0; 1], &[0; 1]]).is_err());
    assert!(g.tex_levels(1, cube, &[&[0; 1]]).is_err());
    assert!(g.tex_levels(2, t, &[]).is_err());
    assert!(g.tex_generate_mipmaps(2, t).is_err());
    let bad = SamplerState {
        min_lod: 2.0,
        max_lod: 1.0,
        ..SamplerState::default()
    };
    assert_eq!(g.tex_sampler(1, t, bad), Err(Error::BadSampler));
    assert!(g.tex_sampler(2, t, SamplerState::default()).is_err());
    assert_eq!(g.mock_log(), "");
}

#[test]
fn the_software_backend_logs_no_texture_calls() {
    let mut g: Gfx3d = Gfx3d::new();
    g.boot(BackendMode::Software, None).unwrap();
    let t = g.tex_create(1, 4, 4).unwrap();
    g.tex_generate_mipmaps(1, t).unwrap();
    g.tex_sampler(1, t, SamplerState::default()).unwrap();
    assert_eq!(g.mock_log(), "");
}
