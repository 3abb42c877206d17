//! Integer vertex attributes on the VirGL backend (through vtest against virgl_test_server),
//! compared with the software backend bit for bit: I32/U32 elements as R32..R32G32B32A32
//! SINT/UINT vertex formats reach `ivecN`/`uint`/`uvecN` attributes unconverted (values above
//! 2^24, negative, above 2^31), integer operations on them in the vertex shader, flat integer
//! varyings, read back from a float target as bit patterns; no host errors.
use gfx3d::linked::Linked;
use gfx3d::*;
use virtio_gpu::vtest::VtestServer;

mod common;
mod int_attr_data;
use int_attr_data::*;

type G = Gfx3d<Linked>;
const W: u32 = 16;
const H: u32 = 8;
const N: usize = (W * H) as usize;

fn virgl() -> (VtestServer, G) {
    let server = common::vtest_server();
    let g = common::virgl_on(&server);
    assert_eq!(g.backend_name(), "virgl");
    (server, g)
}

fn software() -> G {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    g
}

/// Both pictures (INT_VERT and WIDE_VERT, each with INT_FRAG) into float targets.
fn pictures(g: &mut G) -> [Vec<[f32; 4]>; 2] {
    let c = g.context_create(0).unwrap();
    let mut out = [Vec::new(), Vec::new()];
    let cases: [(&str, VertexLayout, Vec<f32>); 2] = [
        (INT_VERT, int_layout(), int_vertices()),
        (WIDE_VERT, wide_layout(), wide_vertices()),
    ];
    for (k, (vs, l, v)) in cases.iter().enumerate() {
        let t = g
            .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
            .unwrap();
        let linked = Linked::from_glsl(g.compiler(), vs, INT_FRAG, "t").unwrap();
        let p = g.prog_prepare(0, c, linked).unwrap();
        let m = g.mesh_create(0, Usage::Static).unwrap();
        g.mesh_upload_f32(0, m, l, v, None).unwrap();
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, p).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        let mut px = vec![[0.0f32; 4]; N];
        g.target_read_float(0, t, &mut px).unwrap();
        out[k] = px;
    }
    out
}

fn bits(px: &[[f32; 4]]) -> Vec<[u32; 4]> {
    px.iter().map(|p| p.map(f32::to_bits)).collect()
}

#[test]
fn virgl_integer_attributes_match_software_bit_for_bit() {
    let (server, mut g) = virgl();
    let v = pictures(&mut g);
    assert_eq!(g.backend_name(), "virgl", "degraded during the draws");
    let s = pictures(&mut software());
    for k in 0..2 {
        assert_eq!(bits(&v[k]), bits(&s[k]), "picture {}", k);
    }
    // And both are the expected words.
    for p in &v[0] {
        assert_eq!(
            [p[0].to_bits() as i32, p[1].to_bits() as i32],
            A,
            "ivec2 attribute"
        );
        assert_eq!(p[2].to_bits(), B);
    }
    for y in 0..H as usize {
        for x in 0..W as usize {
            let p = v[1][y * W as usize + x];
            let (a, b, c) = wide_expected((x >= W as usize / 2) as i32);
            assert_eq!(
                (p[0].to_bits() as i32, p[1].to_bits() as i32, p[2].to_bits()),
                (a, b, c),
                "pixel {},{}",
                x,
                y
            );
        }
    }
    assert!(
        server.host_errors().is_empty(),
        "host errors: {:?}",
        server.host_errors()
    );
    g.drop_owner(0);
    common::assert_nothing_live(&g.stats(), "after drop_owner");
}
