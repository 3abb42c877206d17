//! Profile 2: arrays of in/out interface blocks (issue 13): a varying per element and member,
//! named `Block[k].member` as GL reflects them, matched at link by block name, member names and
//! array size, and drawn by the software rasterizer.
mod ircore_util;
use ircore_util::p2::draw_fullscreen;
use shader::program::compile::{compile, Shader};
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
out VS_OUT { vec3 n; float f; } vs_out[2];
void main() {
    vs_out[0].n = vec3(1.0, 0.0, 0.0);
    vs_out[0].f = 0.25;
    vs_out[1].n = vec3(0.0, 1.0, 1.0);
    vs_out[1].f = 0.75;
    gl_Position = pos;
}";

/// White when both elements arrive and mix to (0.5, 0.5, 0.5) at 0.5: each element's members
/// in their own slots.
const FS: &str = "#pragma chrisos profile 2
in VS_OUT { vec3 n; float f; } fs_in[2];
out vec4 c;
void main() {
    vec3 m = mix(fs_in[0].n, fs_in[1].n, 0.5) * 2.0;
    bool ok = abs(fs_in[0].f - 0.25) < 1e-4 && abs(fs_in[1].f - 0.75) < 1e-4;
    c = ok ? vec4(m, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";

#[test]
fn both_elements_of_a_block_array_reach_the_fragment_stage() {
    let prog = link(VS, FS).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let color = draw_fullscreen(&prog, 16, 16);
    assert!(
        color.iter().all(|&p| p == 0xffffffff),
        "{:x?}",
        &color[..16]
    );
}

#[test]
fn block_array_varyings_are_named_per_element_as_gl_names_them() {
    let prog = link(VS, FS).unwrap_or_else(|(e, log)| panic!("{} {}", e, log));
    let names: Vec<&str> = prog.varyings().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        ["VS_OUT[0].n", "VS_OUT[0].f", "VS_OUT[1].n", "VS_OUT[1].f"]
    );
}

#[test]
fn a_block_array_size_mismatch_fails_the_link() {
    let fs3 = FS.replace("fs_in[2]", "fs_in[3]");
    let fs1 = FS
        .replace("fs_in[2]", "fs_in")
        .replace("fs_in[0]", "fs_in")
        .replace("fs_in[1]", "fs_in");
    let vs3 = VS.replace("vs_out[2]", "vs_out[3]");
    for (vs, fs, v, f) in [
        (VS, fs3.as_str(), 2, 3),
        (vs3.as_str(), FS, 3, 2),
        (VS, fs1.as_str(), 2, 0),
    ] {
        let Err((e, log)) = link(vs, fs) else {
            panic!("linked {} / {}", v, f);
        };
        assert_eq!(
            e,
            LinkError::BlockArraySizeMismatch("VS_OUT".try_into().unwrap(), v, f),
            "{}",
            log
        );
        assert!(
            log.contains("interface block VS_OUT is an array of"),
            "{}",
            log
        );
    }
}
