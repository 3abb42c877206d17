//! Profile 2 matrix vertex inputs (GLSL 3.30 §4.3.4): a column per location, implicit ones in a
//! run of consecutive free locations (as GL assigns a matrix), and a clear error when no run
//! fits.
use shader::limits::Profile;
use shader::program::compile::{compile_with, CompileOptions};

fn locations(src: &str) -> Result<Vec<(String, u8)>, String> {
    match compile_with(
        0,
        src.as_bytes(),
        "m",
        &CompileOptions::profile(Profile::P2),
    ) {
        Ok(s) => Ok(s
            .module
            .iface
            .attributes
            .iter()
            .map(|a| (a.name.as_str().to_string(), a.location))
            .collect()),
        Err(d) => {
            let mut t = String::new();
            d.render(src.as_bytes(), &mut t).unwrap();
            Err(t)
        }
    }
}

fn pairs(p: &[(&str, u8)]) -> Vec<(String, u8)> {
    p.iter().map(|(n, l)| (n.to_string(), *l)).collect()
}

#[test]
fn implicit_matrix_columns_take_consecutive_free_locations() {
    // Location 0 is free but 1 is taken: m's two columns go to 2..3 (not 0 and 2), b takes 0.
    let src = "#version 330\nlayout(location = 1) in vec4 a;\nin mat2 m;\nin vec2 b;\n\
               void main() { gl_Position = a + vec4(m[1], b); }\n";
    assert_eq!(
        locations(src).unwrap(),
        pairs(&[("a", 1), ("m[0]", 2), ("m[1]", 3), ("b", 0)])
    );
}

#[test]
fn a_matrix_that_finds_no_run_of_free_locations_is_an_error() {
    // 16 locations: three mat4 take 0..11, `x` at 13 leaves 12 and 14..15 (no run of four).
    let src = "#version 330\nlayout(location = 13) in float x;\nin mat4 a;\nin mat4 b;\n\
               in mat4 c;\nin mat4 d;\nvoid main() { gl_Position = a[0] + b[0] + c[0] + d[0] + x; }\n";
    let e = locations(src).unwrap_err();
    assert!(
        e.contains(
            "too many attributes: 'd' (4 consecutive locations) does not fit; the limit is 16"
        ),
        "{}",
        e
    );
}
