//! Sixteen texture units (brief E, session 4): `TEXTURE_UNITS` is 16 (profile 2's sampler limit
//! and virglrenderer's PIPE_MAX_SAMPLERS per stage). Unit 15 binds and is sampled identically
//! by the software backend and by VirGL through vtest; unit 16 is a clear error.
use gfx3d::compare::compare;
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::layout;

const VS: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
";

/// Sixteen samplers, each read: unit k holds a solid texel of value 8k + 8 in red, so the sum
/// (divided by 16 * 255 / 255) shows every unit, and green is unit 15's own texel.
fn fs() -> String {
    let mut s = String::from("#version 330 core\n#pragma chrisos profile 2\nout vec4 o;\n");
    for k in 0..16 {
        s.push_str(&format!("uniform sampler2D t{};\n", k));
    }
    s.push_str("void main() {\n    vec4 sum = vec4(0.0);\n");
    for k in 0..16 {
        s.push_str(&format!("    sum += texture(t{}, vec2(0.5));\n", k));
    }
    s.push_str("    o = vec4(sum.r / 16.0, texture(t15, vec2(0.5)).g, 0.0, 1.0);\n}\n");
    s
}

fn draw(g: &mut Gfx3d<Linked>) -> Vec<u32> {
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (3.0, -1.0), (-1.0, 3.0)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0]);
    }
    g.mesh_upload_f32(0, m, &layout(16, &[(0, 4, 0)]), &v, None)
        .unwrap();
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, 8, 8).unwrap();
    let linked = Linked::from_glsl(g.compiler(), VS, &fs(), "units").unwrap();
    let units: Vec<(String, u8)> = linked
        .program()
        .samplers()
        .iter()
        .map(|s| (s.name.as_str().to_string(), s.unit))
        .collect();
    assert_eq!(units.len(), 16, "{:?}", units);
    let p = g.prog_prepare(0, c, linked).unwrap();
    let mut texs = Vec::new();
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    for (name, unit) in &units {
        let k: u32 = name.trim_start_matches('t').parse().unwrap();
        let t = g
            .tex_solid(0, 0xFF00_0000 | (8 * k + 8) << 16 | (16 * k) << 8)
            .unwrap();
        g.bind_texture(0, c, *unit as u32, Some(t)).unwrap();
        texs.push(t);
    }
    assert!(
        units.iter().any(|u| u.1 == 15),
        "a sampler on unit 15: {:?}",
        units
    );
    assert!(matches!(
        g.bind_texture(0, c, 16, Some(texs[0])),
        Err(Error::TextureUnit { unit: 16 })
    ));
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; 64];
    g.target_read(0, tg, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    for t in texs {
        g.tex_destroy(0, t).unwrap();
    }
    g.mesh_destroy(0, m).unwrap();
    px
}

#[test]
fn sixteen_units_agree_between_software_and_virgl() {
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let a = draw(&mut sw);
    // Red: the mean of 8k + 8 over k = 0..16 is 68; green: unit 15's texel, 240.
    let (r, gr) = ((a[0] >> 16) & 255, (a[0] >> 8) & 255);
    assert!((67..=69).contains(&r) && gr == 240, "{:#010x}", a[0]);
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let b = draw(&mut hw);
    assert_eq!(hw.backend_name(), "virgl");
    let c = compare(&a, &b, 8, 8);
    assert!(c.agrees(), "{:?} sw {:#010x} virgl {:#010x}", c, a[0], b[0]);
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
