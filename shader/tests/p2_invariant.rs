//! Profile 2's `invariant` at link (issue 12): GLSL 3.30 §4.6.1 says "for variables leaving one
//! shader and coming into another shader, the invariant keyword has to be used in both shaders,
//! or a link error will result" (GLSL 4.20 relaxed this; 3.30 did not, and Mesa enforces it for
//! versions below 4.20). Checked for plain varyings, `invariant NAME;` redeclarations, arrays and
//! block members, both directions of the mismatch, CSIR v2's invariant byte, and that
//! `invariant gl_Position` and an invariant output nobody reads link.
use shader::limits::Profile;
use shader::program::compile::{compile_with, CompileOptions};
use shader::program::csir::{self, Version};
use shader::program::link::{LinkError, Program};

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
            panic!("{}\n{}", s, src)
        }
    }
}

fn link(vs: &str, fs: &str) -> (Result<(), LinkError>, String) {
    let (vs, fs) = (module(0, vs), module(1, fs));
    let mut p = Program::new();
    let r = p.link(Some(&vs), Some(&fs));
    (r, p.log().to_string())
}

fn vs(decl: &str) -> String {
    format!(
        "layout(location = 0) in vec4 p;
{}
void main() {{ gl_Position = p; v = p.xyz; }}",
        decl
    )
}

fn fs(decl: &str) -> String {
    format!(
        "{}
out vec4 color;
void main() {{ color = vec4(v, 1.0); }}",
        decl
    )
}

fn mismatch(name: &str) -> LinkError {
    LinkError::VaryingInvariantMismatch(name.try_into().unwrap())
}

#[test]
fn invariant_must_be_on_both_sides_of_a_varying() {
    for (v, f, ok) in [
        ("out vec3 v;", "in vec3 v;", true),
        ("invariant out vec3 v;", "invariant in vec3 v;", true),
        ("invariant out vec3 v;", "in vec3 v;", false),
        ("out vec3 v;", "invariant in vec3 v;", false),
        // A redeclaration makes the declared varying invariant, on either side.
        ("out vec3 v;\ninvariant v;", "invariant in vec3 v;", true),
        ("out vec3 v;\ninvariant v;", "in vec3 v;", false),
        ("invariant out vec3 v;", "in vec3 v;\ninvariant v;", true),
        // Combined with interpolation qualifiers (GLSL's order: invariant first).
        ("invariant smooth out vec3 v;", "invariant in vec3 v;", true),
        ("invariant flat out vec3 v;", "flat in vec3 v;", false),
    ] {
        let (r, log) = link(&vs(v), &fs(f));
        if ok {
            assert_eq!(r, Ok(()), "{} / {}: {}", v, f, log);
        } else {
            assert_eq!(r, Err(mismatch("v")), "{} / {}", v, f);
            assert!(log.contains("varying invariance mismatch v"), "{}", log);
        }
    }
    // The log says which side has it.
    let (_, log) = link(&vs("invariant out vec3 v;"), &fs("in vec3 v;"));
    assert!(
        log.contains("the vertex shader output has the invariant qualifier, the fragment shader input lacks it"),
        "{}",
        log
    );
    let (_, log) = link(&vs("out vec3 v;"), &fs("invariant in vec3 v;"));
    assert!(
        log.contains("the vertex shader output lacks the invariant qualifier, the fragment shader input has it"),
        "{}",
        log
    );
}

#[test]
fn gl_position_and_unread_outputs_do_not_need_a_match() {
    // gl_Position has no fragment input to match.
    let (r, log) = link(
        &vs("out vec3 v;\ninvariant gl_Position;"),
        &fs("in vec3 v;"),
    );
    assert_eq!(r, Ok(()), "{}", log);
    // An invariant output the fragment shader does not read.
    let (r, log) = link(
        &vs("out vec3 v;\ninvariant out float unused;"),
        &fs("in vec3 v;"),
    );
    assert_eq!(r, Ok(()), "{}", log);
}

#[test]
fn arrays_and_block_members_carry_invariance() {
    // Array varyings take no qualifier in their declaration yet: the redeclaration makes every
    // element invariant.
    let avs = "layout(location = 0) in vec4 p;
out float w[2];
invariant w;
void main() { gl_Position = p; w[0] = p.x; w[1] = p.y; }";
    let afs = |q: &str| {
        format!(
            "in float w[2];
{}out vec4 color;
void main() {{ color = vec4(w[0], w[1], 0.0, 1.0); }}",
            q
        )
    };
    assert_eq!(link(avs, &afs("invariant w;\n")).0, Ok(()));
    assert_eq!(link(avs, &afs("")).0, Err(mismatch("w[0]")));
    let bvs = |q: &str| {
        format!(
            "layout(location = 0) in vec4 p;
{}out VS_OUT {{ vec3 n; vec2 uv; }} vs_out;
void main() {{ gl_Position = p; vs_out.n = p.xyz; vs_out.uv = p.xy; }}",
            q
        )
    };
    let bfs = |q: &str| {
        format!(
            "{}in VS_OUT {{ vec3 n; vec2 uv; }} fs_in;
out vec4 color;
void main() {{ color = vec4(fs_in.n + vec3(fs_in.uv, 0.0), 1.0); }}",
            q
        )
    };
    assert_eq!(link(&bvs("invariant "), &bfs("invariant ")).0, Ok(()));
    assert_eq!(link(&bvs(""), &bfs("")).0, Ok(()));
    assert_eq!(
        link(&bvs("invariant "), &bfs("")).0,
        Err(mismatch("VS_OUT.n"))
    );
}

#[test]
fn csir_v2_keeps_invariance() {
    let m = module(0, &vs("invariant out vec3 v;\nout float k;"));
    assert_ne!(m.iface.invariant_slots, 0);
    let mut buf = vec![0u8; 1 << 16];
    let n = csir::save(&m, Version::V2, &mut buf).unwrap();
    let back = csir::load(&buf[..n]).unwrap();
    assert_eq!(back.iface.invariant_slots, m.iface.invariant_slots);
    // Loaded, it still refuses a fragment input without invariant.
    let f = module(1, &fs("in vec3 v;"));
    let mut p = Program::new();
    assert_eq!(p.link(Some(&back), Some(&f)), Err(mismatch("v")));
    // The invariant byte follows the interpolation byte; a value other than 0 or 1 is refused.
    let mut field = vec![1u8, b'v'];
    field.resize(40, 0);
    let at = buf[..n]
        .windows(40)
        .position(|w| w == field.as_slice())
        .expect("entry");
    assert_eq!(buf[at + 64 + 3], 1);
    let mut bad = buf[..n].to_vec();
    bad[at + 64 + 3] = 2;
    assert!(csir::load(&bad).is_err());
    // Without invariant the byte is 0: profile-2 blobs of other shaders are unchanged.
    let plain = module(0, &vs("out vec3 v;"));
    assert_eq!(plain.iface.invariant_slots, 0);
}
