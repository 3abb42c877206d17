//! CSIR v1 cannot hold everything a module may need (issue 11, items 4 and 5): it stores no
//! interface names, so a v1-loaded pair must not link by made-up varying names, and it has no
//! opcodes past 32, so a module with DIV or SQRT must not be saved as v1.
use shader::back::raster::{draw, RasterState, Target, VertexAttrib, VertexInput};
use shader::ir::{Module, Op};
use shader::program::compile::compile;
use shader::program::csir::{self, CsirError, Version, CSIR_MAX};
use shader::program::link::{LinkError, Program};

const VS: &str = "#version 330 core
layout(location = 0) in vec4 p;
out vec4 a;
out vec4 b;
void main() {
    a = vec4(1.0, 0.0, 0.0, 1.0);
    b = vec4(0.0, 1.0, 0.0, 1.0);
    gl_Position = p;
}
";
const FS: &str = "#version 330 core
in vec4 b;
out vec4 o;
void main() { o = b; }
";

fn compiled(stage: u32, src: &str) -> Module {
    compile(stage, src.as_bytes(), "t")
        .unwrap_or_else(|_| panic!("does not compile:\n{}", src))
        .module
}

fn round_trip(m: &Module, v: Version) -> Module {
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(m, v, &mut buf).unwrap();
    csir::load(&buf[..n]).unwrap()
}

/// The colour of a 4x4 target fully covered by one triangle.
fn render(vs: &Module, fs: &Module) -> Result<u32, LinkError> {
    let mut p = Program::new();
    p.link(Some(vs), Some(fs))?;
    let data = [
        -1.0f32, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
    ];
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }];
    let input = VertexInput {
        data: &data,
        stride: 4,
        attribs: &attribs,
        count: 3,
    };
    let (mut color, mut depth) = (vec![0u32; 16], vec![1.0f32; 16]);
    let mut target = Target {
        width: 4,
        height: 4,
        color: &mut color,
        depth: &mut depth,
    };
    draw(
        &p,
        &input,
        None,
        &[None, None, None, None],
        &RasterState::new(4, 4),
        &mut target,
    )
    .unwrap();
    assert!(color.iter().all(|&c| c == color[0]));
    Ok(color[0])
}

const GREEN: u32 = 0xFF00_FF00;

#[test]
fn the_issue_example_is_green_compiled_and_after_v2_and_refused_after_v1() {
    let (vs, fs) = (compiled(0, VS), compiled(1, FS));
    assert_eq!(render(&vs, &fs), Ok(GREEN));
    let (v2s, v2f) = (round_trip(&vs, Version::V2), round_trip(&fs, Version::V2));
    assert_eq!(render(&v2s, &v2f), Ok(GREEN));
    // v1: the fragment stage's only varying is slot 0, the vertex stage's slot 0 is `a` (red).
    // Linking slot to slot rendered red; the link must refuse instead.
    let (v1s, v1f) = (round_trip(&vs, Version::V1), round_trip(&fs, Version::V1));
    let e = render(&v1s, &v1f).unwrap_err();
    assert_eq!(e, LinkError::UnnamedVaryings(shader::ir::Stage::Vertex));
    let text = e.to_string();
    assert!(
        text.contains("loaded from CSIR v1") && text.contains("save it as CSIR v2"),
        "{}",
        text
    );
    // Either stage alone loaded from v1 is refused too (the other's real names cannot match
    // made-up ones by anything but chance).
    assert!(matches!(
        render(&vs, &v1f),
        Err(LinkError::UnnamedVaryings(shader::ir::Stage::Fragment))
    ));
    assert!(matches!(
        render(&v1s, &fs),
        Err(LinkError::UnnamedVaryings(shader::ir::Stage::Vertex))
    ));
    // A v1 module converted to v2 still has no real names: still refused.
    let converted = round_trip(&v1s, Version::V2);
    assert!(converted.iface.derived_names);
    assert!(render(&converted, &v2f).is_err());
}

#[test]
fn v1_modules_without_varyings_still_link() {
    let vs = compiled(
        0,
        "#version 330 core\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n",
    );
    let fs = compiled(
        1,
        "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n",
    );
    let (v1s, v1f) = (round_trip(&vs, Version::V1), round_trip(&fs, Version::V1));
    assert_eq!(render(&v1s, &v1f), Ok(GREEN));
}

#[test]
fn v1_save_refuses_div_and_sqrt_naming_the_opcode() {
    for (src, op) in [
        (
            "#version 330 core\nuniform vec4 u;\nvoid main() { gl_Position = u / u.x; }\n",
            Op::Div,
        ),
        (
            "#version 330 core\nuniform vec4 u;\nvoid main() { gl_Position = vec4(length(u)); }\n",
            Op::Sqrt,
        ),
    ] {
        let m = compiled(0, src);
        let mut buf = vec![0u8; CSIR_MAX];
        let e = csir::save(&m, Version::V1, &mut buf).unwrap_err();
        let CsirError::NotInV1 { inst, op: found } = e else {
            panic!("{}: {:?}", src, e)
        };
        assert_eq!(found, op, "{}", src);
        assert_eq!(m.insts[inst].op, op);
        let text = e.to_string();
        let name = if op == Op::Div { "33 (DIV" } else { "34 (SQRT" };
        assert!(
            text.contains(&format!("CSIR v1 has no opcode {}", name)) && text.contains("--v2"),
            "{}",
            text
        );
        // v2 holds it.
        assert!(csir::save(&m, Version::V2, &mut buf).is_ok());
    }
}
