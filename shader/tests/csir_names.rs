//! CSIR v2 keeps profile 2's reflected names (issue 13 item 3 and 4 with issue 12 item 2): the
//! uniforms, varyings and samplers of struct members, array elements and block members are
//! named `u.m`, `a[i]`, `lights[2].color`, `Block.m`; a saved module with such names loads back
//! equal (before, the loader refused every one of them as "name is not an identifier"), and a
//! malformed path is still refused.
use shader::ir::Module;
use shader::limits::Profile;
use shader::program::compile::{compile_with, CompileOptions};
use shader::program::csir::{self, CsirError, Version, CSIR_MAX};

fn compile2(stage: u32, src: &str) -> Module {
    match compile_with(
        stage,
        src.as_bytes(),
        "p2",
        &CompileOptions::profile(Profile::P2),
    ) {
        Ok(s) => s.module,
        Err(d) => {
            let mut t = String::new();
            d.render(src.as_bytes(), &mut t).unwrap();
            panic!("{}", t)
        }
    }
}

fn save(m: &Module) -> Vec<u8> {
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(m, Version::V2, &mut buf).unwrap_or_else(|e| panic!("save: {}", e));
    buf.truncate(n);
    buf
}

fn fix(b: &mut [u8]) {
    let len = b.len() as u32;
    b[44..48].copy_from_slice(&len.to_le_bytes());
    let h = csir::fnv1a64(csir::fnv1a64(csir::FNV64_OFFSET, &b[..48]), &b[56..]);
    b[48..56].copy_from_slice(&h.to_le_bytes());
}

const FRAG: &str = "#version 330 core
struct Light { vec3 position; vec3 color; };
struct Material { vec3 diffuse; float shininess; };
uniform Light u_lights[3];
uniform Material u_material;
uniform vec3 u_offsets[2];
uniform sampler2D u_tex[2];
layout(std140) uniform Matrices { mat4 view; vec4 tint; } mats;
in VS_OUT { vec3 normal; vec2 uv; } fs_in;
in vec3 v_extra[2];
out vec4 frag_color;
void main() {
    vec3 c = u_lights[0].color + u_lights[2].position + u_material.diffuse * u_material.shininess;
    c += u_offsets[1] + v_extra[1] + fs_in.normal + (mats.view * mats.tint).xyz;
    frag_color = vec4(c, 1.0) + texture(u_tex[1], fs_in.uv) + texture(u_tex[0], v_extra[0].xy);
}
";

#[test]
fn reflected_member_and_element_names_round_trip_through_v2() {
    let m = compile2(1, FRAG);
    let i = &m.iface;
    let unis: Vec<&str> = i.uniforms.iter().map(|u| u.name.as_str()).collect();
    let samps: Vec<&str> = i.samplers.iter().map(|u| u.name.as_str()).collect();
    let vars: Vec<&str> = i.varyings.iter().map(|u| u.name.as_str()).collect();
    for n in [
        "u_lights[2].position",
        "u_lights[0].color",
        "u_material.diffuse",
        "u_offsets[1]",
        "Matrices.view",
    ] {
        assert!(unis.contains(&n), "uniform {} in {:?}", n, unis);
    }
    assert!(samps.contains(&"u_tex[1]"), "{:?}", samps);
    assert!(vars.contains(&"VS_OUT.normal"), "{:?}", vars);
    assert!(vars.contains(&"v_extra[1]"), "{:?}", vars);
    let blob = save(&m);
    let back = csir::load(&blob).unwrap_or_else(|e| panic!("load: {}", e));
    assert_eq!(back, m, "the loaded module equals the saved one");
    assert_eq!(save(&back), blob, "and saves to the same bytes");
}

#[test]
fn malformed_reflected_paths_are_refused() {
    for good in ["a", "a.b", "a[0]", "a[10].b_2", "B.m[3]", "_x[7]._y"] {
        assert!(csir::is_reflected_path(good.as_bytes()), "{}", good);
    }
    for bad in [
        "", ".a", "a.", "a..b", "a[", "a[]", "a[x]", "a[01]", "a[0]b", "a[0][1]", "[0]", "1a",
        "a b", "a[-1]", "a.1",
    ] {
        assert!(!csir::is_reflected_path(bad.as_bytes()), "{:?}", bad);
    }
    // In a blob: the first uniform's name edited to a malformed path of the same length.
    let m = compile2(1, FRAG);
    let blob = save(&m);
    let name = m.iface.uniforms[0].name.as_str().to_string();
    let at = blob
        .windows(name.len() + 1)
        .position(|w| w[0] as usize == name.len() && &w[1..] == name.as_bytes())
        .expect("the name field");
    let mut b = blob.clone();
    b[at + 1] = b'.';
    fix(&mut b);
    match csir::load(&b) {
        Err(CsirError::BadEntry { what, reason, .. }) => {
            assert_eq!(what, "uniform");
            assert!(reason.contains("reflected"), "{}", reason);
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}
