//! RGBA32I/RGBA32UI textures on the VirGL backend (through vtest against virgl_test_server):
//! resources of PIPE_FORMAT_R32G32B32A32_SINT (200) / _UINT (196), 16-byte-a-texel transfers
//! and a sampler view of that format, read by isampler2D/usampler2D (texelFetch and NEAREST
//! texture()); the float pixels equal the software backend's exactly (the words' high and
//! low halves: values above 2^24, negatives), with no host context errors.
use gfx3d::*;

mod common;
mod itex_scene;
use itex_scene::*;

#[test]
fn virgl_integer_textures_match_software() {
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
        assert_eq!(a, b, "combination {} (signed, fetch, hi order)", i);
    }
    // And both are the words themselves.
    assert_eq!(want[0], expected(false, true));
    assert_eq!(want[5], expected(true, false));
    let st = g.stats();
    assert!(st.bytes_up >= 2 * N as u64 * 16, "{:?}", st.bytes_up);
    let errors = server.host_errors();
    assert!(errors.is_empty(), "host errors: {:?}", errors);
}
