//! Profile 2's aggregates at link (issue 13 items 2-4): interface blocks matched by block and
//! member name whatever the instance names, the reflected names of struct, array and uniform
//! block uniforms, and the whole-array uniform setter.
use shader::limits::Profile;
use shader::program::compile::{compile_with, CompileOptions};
use shader::program::link::{Program, UniformError};

fn module(stage: u32, src: &str) -> shader::ir::Module {
    match compile_with(
        stage,
        src.as_bytes(),
        "t",
        &CompileOptions::profile(Profile::P2),
    ) {
        Ok(s) => s.module,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

fn link(vs: &str, fs: &str) -> Result<Program, String> {
    let (vs, fs) = (module(0, vs), module(1, fs));
    let mut p = Program::new();
    match p.link(Some(&vs), Some(&fs)) {
        Ok(_) => Ok(p),
        Err(e) => Err(format!("{} ({})", e, p.log())),
    }
}

const VS_BLOCK: &str = "in vec3 pos;
out VS_OUT { vec3 n; vec2 uv; } vs_out;
out Plain { float f; };
void main() { vs_out.n = pos; vs_out.uv = pos.xy; f = 1.0; gl_Position = vec4(pos, 1.0); }";

#[test]
fn interface_blocks_match_by_block_name_whatever_the_instance_names() {
    let fs = "in VS_OUT { vec3 n; vec2 uv; } fs_in;
in Plain { float f; };
out vec4 c;
void main() { c = vec4(fs_in.n * f, fs_in.uv.x); }";
    let p = link(VS_BLOCK, fs).unwrap();
    let names: Vec<&str> = p.varyings().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["VS_OUT.n", "VS_OUT.uv", "Plain.f"]);
    // Without an instance name on one side and with one on the other: still the same block.
    let fs2 = "in VS_OUT { vec3 n; vec2 uv; };
in Plain { float f; } plain;
out vec4 c;
void main() { c = vec4(n * plain.f, uv.x); }";
    let p = link(VS_BLOCK, fs2).unwrap();
    let names: Vec<&str> = p.varyings().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["VS_OUT.n", "VS_OUT.uv", "Plain.f"]);
}

#[test]
fn a_block_member_missing_in_the_vertex_stage_fails_the_link() {
    let fs = "in VS_OUT { vec3 n; vec2 uv; vec3 extra; } fs_in;
in Plain { float f; };
out vec4 c;
void main() { c = vec4(fs_in.extra, 1.0); }";
    let err = match link(VS_BLOCK, fs) {
        Ok(_) => panic!("linked"),
        Err(e) => e,
    };
    assert!(err.contains("VS_OUT.extra"), "{}", err);
}

const FS_UNIFORMS: &str = "struct Light { vec3 pos; vec3 color; float k; };
struct Mat { vec3 albedo; Light rim; };
uniform Light lights[3];
uniform Mat mat;
uniform vec3 offsets[2];
layout(std140) uniform Matrices { mat4 projection; layout(row_major) mat4 view; };
layout(std140) uniform Extra { vec4 tint; } extra;
out vec4 c;
void main() {
    vec3 s = vec3(0.0);
    for (int i = 0; i < 3; i++) s += lights[i].color * lights[i].k;
    c = vec4(s + mat.albedo + mat.rim.color + offsets[0] + offsets[1], 1.0)
        + projection[0] + view[1] + extra.tint;
}";

#[test]
fn aggregate_uniforms_are_reflected_per_leaf_with_glsl_names() {
    let vs = "in vec3 pos; void main() { gl_Position = vec4(pos, 1.0); }";
    let p = link(vs, FS_UNIFORMS).unwrap();
    let names: Vec<&str> = p.uniforms().iter().map(|u| u.name.as_str()).collect();
    for want in [
        "lights[0].pos",
        "lights[0].color",
        "lights[2].k",
        "mat.albedo",
        "mat.rim.color",
        "offsets[0]",
        "offsets[1]",
        "projection",
        "view",
        "Extra.tint",
    ] {
        assert!(names.contains(&want), "{} missing from {:?}", want, names);
    }
    assert!(!names.contains(&"extra.tint"), "{:?}", names);
    assert_eq!(p.uniform_array_find::<8>("offsets").len(), 2);
    assert_eq!(p.uniform_array_find::<8>("lights").len(), 0); // struct elements
}

#[test]
fn a_whole_uniform_array_is_set_at_once_or_refused_with_the_count() {
    let vs = "in vec3 pos; void main() { gl_Position = vec4(pos, 1.0); }";
    let mut p = link(vs, FS_UNIFORMS).unwrap();
    assert_eq!(
        p.set_uniform_array("offsets", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        Ok(2)
    );
    let i = p.uniform_find("offsets[1]").unwrap();
    let mut out = [0.0; 3];
    p.uniform_value(i, &mut out).unwrap();
    assert_eq!(out, [4.0, 5.0, 6.0]);
    assert_eq!(
        p.set_uniform_array("offsets", &[1.0, 2.0, 3.0]),
        Err(UniformError::WrongCount {
            expected: 6,
            found: 3
        })
    );
    assert!(matches!(
        p.set_uniform_array("nothing", &[1.0]),
        Err(UniformError::NoSuchUniform { .. })
    ));
}

/// Issue 13 (brief F item 1): samplers as struct members. Each sampler member of a uniform
/// struct (plain, array element, nested) is its own unit, reflected by its GL name, and is
/// sampled through an `in` parameter of the struct type too.
#[test]
fn samplers_in_uniform_structs_get_their_own_units_named_as_gl_names_them() {
    let vs = "in vec3 pos; out vec2 uv; void main() { uv = pos.xy; gl_Position = vec4(pos, 1.0); }";
    let fs = "struct Mat { sampler2D albedo; vec3 tint; };
struct Pair { float w; Mat m; sampler2D extra[2]; };
uniform Mat m;
uniform Mat mats[2];
uniform Pair pr;
in vec2 uv;
out vec4 color;
vec4 shade(Mat q) { return texture(q.albedo, uv) * vec4(q.tint, 1.0); }
void main() {
    color = texture(m.albedo, uv) + shade(mats[1]) + shade(pr.m) * pr.w + texture(pr.extra[1], uv);
}";
    let p = link(vs, fs).unwrap();
    let units: Vec<(&str, u8)> = p
        .samplers()
        .iter()
        .map(|s| (s.name.as_str(), s.unit))
        .collect();
    assert_eq!(
        units,
        [
            ("m.albedo", 0),
            ("mats[0].albedo", 1),
            ("mats[1].albedo", 2),
            ("pr.m.albedo", 3),
            ("pr.extra[0]", 4),
            ("pr.extra[1]", 5),
        ]
    );
    assert_eq!(p.sampler_find("mats[1].albedo"), Some(2));
    // The non-sampler members stay uniforms, in consecutive slots.
    let names: Vec<&str> = p.uniforms().iter().map(|u| u.name.as_str()).collect();
    for want in [
        "m.tint",
        "mats[0].tint",
        "mats[1].tint",
        "pr.w",
        "pr.m.tint",
    ] {
        assert!(names.contains(&want), "{} missing from {:?}", want, names);
    }
    assert!(!names.iter().any(|n| n.contains("albedo")), "{:?}", names);
    // The program's six units.
    assert_eq!(p.sampler_units(), 0b11_1111);
}

/// Brief F item 2: a uniform block array, each element its own block with GL's names
/// (`Light[1].color`), set through the uniform API like any uniform.
#[test]
fn uniform_block_arrays_name_each_element_as_gl_does() {
    let vs = "in vec3 pos; void main() { gl_Position = vec4(pos, 1.0); }";
    let fs = "layout(std140) uniform Light { vec3 color; float k; } lights[3];
out vec4 c;
void main() { c = vec4(lights[0].color * lights[2].k + lights[1].color, 1.0); }";
    let p = link(vs, fs).unwrap();
    let names: Vec<&str> = p.uniforms().iter().map(|u| u.name.as_str()).collect();
    for want in [
        "Light[0].color",
        "Light[1].color",
        "Light[2].color",
        "Light[0].k",
        "Light[2].k",
    ] {
        assert!(names.contains(&want), "{} missing from {:?}", want, names);
    }
    assert!(
        !names.iter().any(|n| n.starts_with("lights")),
        "{:?}",
        names
    );
    let a = p.uniform_find("Light[2].k").unwrap();
    let b = p.uniform_find("Light[0].k").unwrap();
    assert_ne!(p.uniforms()[a].fs_slot, p.uniforms()[b].fs_slot);
}
