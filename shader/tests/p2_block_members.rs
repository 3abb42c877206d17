//! Profile 2: matrix and array members of in/out interface blocks (issue 13 item 4): a matrix
//! member a varying slot per column (`B.m[c]`, reflected with the matrix type), an array member
//! a slot per element (`B.uv[j]`), integer ones flat; drawn by the software rasterizer, emitted
//! as TGSI, kept by CSIR v2, matched at link by name, type and array size.
mod ircore_util;
use ircore_util::p2::draw_fullscreen;
use shader::back::tgsi::check_tgsi;
use shader::ir::Stage;
use shader::program::compile::{compile, Shader};
use shader::program::csir::{self, Version};
use shader::program::link::{LinkError, Program};

fn build(stage: u32, src: &str) -> Shader {
    match compile(stage, src.as_bytes(), "t") {
        Ok(s) => s,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

fn link(vs: &str, fs: &str) -> Result<Program, (LinkError, String)> {
    let (vs, fs) = (build(0, vs), build(1, fs));
    let mut p = Program::new();
    match p.link(Some(&vs.module), Some(&fs.module)) {
        Ok(_) => Ok(p),
        Err(e) => Err((e, p.log().to_string())),
    }
}

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
out VS_OUT {
    mat3 tbn;
    vec2 uv[2];
    flat ivec2 id[2];
} vs_out;
out Extra { mat2x3 m; float w[3]; };
void main() {
    vs_out.tbn = mat3(0.5, 0.0, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.125);
    vs_out.uv[0] = vec2(0.5, 0.75);
    vs_out.uv[1] = vec2(0.125, 1.0);
    vs_out.id[0] = ivec2(7, -3);
    vs_out.id[1] = ivec2(100000, 5);
    m = mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    w[0] = 0.25;
    w[1] = 0.5;
    w[2] = w[0] + w[1];
    gl_Position = pos;
}";

/// White when every column, element and component arrives where it was written.
const FS: &str = "#pragma chrisos profile 2
in VS_OUT {
    mat3 tbn;
    vec2 uv[2];
    flat ivec2 id[2];
} fs_in;
in Extra { mat2x3 m; float w[3]; };
out vec4 c;
bool near(vec3 a, vec3 b) { return all(lessThan(abs(a - b), vec3(1e-4))); }
void main() {
    bool ok = near(fs_in.tbn * vec3(2.0, 4.0, 8.0), vec3(1.0));
    ok = ok && near(vec3(fs_in.uv[0], fs_in.uv[1].x), vec3(0.5, 0.75, 0.125));
    ok = ok && abs(fs_in.uv[1].y - 1.0) < 1e-4;
    ok = ok && fs_in.id[0] == ivec2(7, -3) && fs_in.id[1] == ivec2(100000, 5);
    ok = ok && near(m[0], vec3(1.0, 2.0, 3.0)) && near(m[1], vec3(4.0, 5.0, 6.0));
    ok = ok && near(vec3(w[0], w[1], w[2]), vec3(0.25, 0.5, 0.75));
    c = ok ? vec4(1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";

fn draw(prog: &Program) -> Vec<u32> {
    draw_fullscreen(prog, 16, 16)
}

#[test]
fn matrix_and_array_block_members_reach_the_fragment_stage() {
    let prog = link(VS, FS).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let color = draw(&prog);
    assert!(
        color.iter().all(|&p| p == 0xffffffff),
        "{:x?}",
        &color[..16]
    );
}

#[test]
fn matrix_and_array_members_are_a_slot_per_column_and_element() {
    let prog = link(VS, FS).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let names: Vec<(&str, &str)> = prog
        .varyings()
        .iter()
        .map(|v| (v.name.as_str(), v.ty.name()))
        .collect();
    assert_eq!(
        names,
        [
            ("VS_OUT.tbn[0]", "mat3"),
            ("VS_OUT.tbn[1]", "mat3"),
            ("VS_OUT.tbn[2]", "mat3"),
            ("VS_OUT.uv[0]", "vec2"),
            ("VS_OUT.uv[1]", "vec2"),
            ("VS_OUT.id[0]", "ivec2"),
            ("VS_OUT.id[1]", "ivec2"),
            ("Extra.m[0]", "mat2x3"),
            ("Extra.m[1]", "mat2x3"),
            ("Extra.w[0]", "float"),
            ("Extra.w[1]", "float"),
            ("Extra.w[2]", "float"),
        ]
    );
}

#[test]
fn tgsi_and_csir_v2_carry_every_slot() {
    let prog = link(VS, FS).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    for stage in [Stage::Vertex, Stage::Fragment] {
        let text = prog.tgsi(stage);
        check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
        // 12 varying slots, each a GENERIC register.
        let generic = text
            .as_str()
            .lines()
            .filter(|l| l.contains("GENERIC["))
            .count();
        assert_eq!(generic, 12, "{}", text);
    }
    for (stage, src) in [(0u32, VS), (1, FS)] {
        let m = build(stage, src).module;
        let mut buf = vec![0u8; 1 << 16];
        let n = csir::save(&m, Version::V2, &mut buf).unwrap();
        let back = csir::load(&buf[..n]).unwrap();
        let key = |v: &shader::ir::Varying| (v.name.clone(), v.ty, v.slot, v.interp);
        let a: Vec<_> = m.iface.varyings.iter().map(key).collect();
        let b: Vec<_> = back.iface.varyings.iter().map(key).collect();
        assert_eq!(a, b);
    }
}

#[test]
fn member_types_and_array_sizes_must_match_at_link() {
    // mat3 against vec3[3]: the same slots, not the same type.
    let fs_arr = FS
        .replace(
            "    mat3 tbn;\n    vec2 uv[2];\n    flat ivec2 id[2];\n} fs_in;",
            "    vec3 tbn[3];\n    vec2 uv[2];\n    flat ivec2 id[2];\n} fs_in;",
        )
        .replace("fs_in.tbn * vec3(2.0, 4.0, 8.0)", "fs_in.tbn[0]");
    let (e, log) = link(VS, &fs_arr).err().expect("mat3 / vec3[3] linked");
    assert_eq!(
        e,
        LinkError::VaryingTypeMismatch("VS_OUT.tbn[0]".try_into().unwrap()),
        "{}",
        log
    );
    // float w[3] against float w[2] and w[4]: the sizes differ.
    for (n, reads) in [(2, "w[1]"), (4, "w[3]")] {
        let fs = FS
            .replace("float w[3]; };", &format!("float w[{}]; }};", n))
            .replace(
                "vec3(w[0], w[1], w[2])",
                &format!("vec3(w[0], {}, 0.75)", reads),
            );
        let (e, log) = link(VS, &fs)
            .err()
            .unwrap_or_else(|| panic!("w[3] / w[{}] linked", n));
        assert_eq!(
            e,
            LinkError::VaryingTypeMismatch("Extra.w".try_into().unwrap()),
            "{}",
            log
        );
        assert!(
            log.contains("an array of 3 in the vertex shader, of"),
            "{}",
            log
        );
    }
}

/// Flat integer array varyings outside a block (GLSL 3.30 §4.3.6), bit for bit above 2^24.
#[test]
fn flat_integer_array_varyings_reach_the_fragment_stage() {
    let vs = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
flat out int ids[2];
flat out uvec2 seeds[2];
void main() {
    ids[0] = 16777217;
    ids[1] = -5;
    seeds[0] = uvec2(4294967295u, 7u);
    seeds[1] = uvec2(2147483649u, 1u);
    gl_Position = pos;
}";
    let fs = "#pragma chrisos profile 2
flat in int ids[2];
flat in uvec2 seeds[2];
out vec4 c;
void main() {
    bool ok = ids[0] == 16777217 && ids[1] == -5 && seeds[0] == uvec2(4294967295u, 7u)
        && seeds[1] == uvec2(2147483649u, 1u);
    c = ok ? vec4(1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    let prog = link(vs, fs).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let color = draw(&prog);
    assert!(
        color.iter().all(|&p| p == 0xffffffff),
        "{:x?}",
        &color[..16]
    );
    let text = prog.tgsi(Stage::Fragment);
    check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
}

/// Matrix varyings outside a block (GLSL 3.30 §4.3.6): a slot per column, `m[c]`, matched by
/// type at link.
#[test]
fn matrix_varyings_reach_the_fragment_stage() {
    let vs = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
out mat3 tbn;
layout(location = 5) out mat2x4 m24;
void main() {
    tbn = mat3(0.5, 0.0, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.125);
    m24 = mat2x4(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
    gl_Position = pos;
}";
    let fs = "#pragma chrisos profile 2
in mat3 tbn;
layout(location = 5) in mat2x4 m24;
out vec4 c;
void main() {
    bool ok = all(lessThan(abs(tbn * vec3(2.0, 4.0, 8.0) - vec3(1.0)), vec3(1e-4)));
    ok = ok && m24[0] == vec4(1.0, 2.0, 3.0, 4.0) && m24[1] == vec4(5.0, 6.0, 7.0, 8.0);
    c = ok ? vec4(1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    let prog = link(vs, fs).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let color = draw(&prog);
    assert!(
        color.iter().all(|&p| p == 0xffffffff),
        "{:x?}",
        &color[..16]
    );
    for stage in [Stage::Vertex, Stage::Fragment] {
        let text = prog.tgsi(stage);
        check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
    }
    // A mat3 does not link with a vec3[3] (the same slots, another type).
    let fs_arr = fs
        .replace("in mat3 tbn;", "in vec3 tbn[3];")
        .replace("tbn * vec3(2.0, 4.0, 8.0)", "tbn[0] * 2.0");
    let (e, log) = link(vs, &fs_arr).err().expect("mat3 / vec3[3] linked");
    assert_eq!(
        e,
        LinkError::VaryingTypeMismatch("tbn[0]".try_into().unwrap()),
        "{}",
        log
    );
}
