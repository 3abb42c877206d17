//! RGBA32I/RGBA32UI 2D array textures on the VirGL backend (through vtest against
//! virgl_test_server, session 9): PIPE_TEXTURE_2D_ARRAY resources of
//! R32G32B32A32_SINT/_UINT (16 bytes a texel, one transfer per layer with the layer as the
//! box's z) and a sampler view over every layer, read by isampler2DArray/usampler2DArray
//! (texelFetch, texture() at and outside the layers, textureLodOffset, textureGrad); the
//! float pixels equal the software backend's exactly (the words' high and low halves), with
//! no host context errors.
use gfx3d::*;

mod common;
mod iarray_scene;
use iarray_scene::*;

#[test]
fn virgl_integer_array_textures_match_software() {
    let server = common::vtest_server();
    let mut g = common::virgl_on(&server);
    assert_eq!(g.backend_name(), "virgl");
    let got = draw_all(&mut g);
    assert_eq!(
        g.backend_name(),
        "virgl",
        "the device degraded during the draws"
    );
    let mut s = G::new();
    s.boot(BackendMode::Software, None).unwrap();
    let want = draw_all(&mut s);
    assert_eq!(got.len(), want.len());
    for (i, (a, b)) in got.iter().zip(want.iter()).enumerate() {
        assert_eq!(a, b, "combination {} (signed, mode, hi order)", i);
    }
    assert_eq!(want[0], expected(false, true));
    // Both arrays went up: every layer's words.
    let st = g.stats();
    assert!(
        st.bytes_up >= 2 * LAYERS as u64 * N as u64 * 16,
        "{:?}",
        st.bytes_up
    );
    let errors = server.host_errors();
    assert!(errors.is_empty(), "host errors: {:?}", errors);
}
