//! Same-name samplers in both stages are one program sampler with one texture unit, whatever
//! order each stage declares them in (issue 11, item 3): the vertex stage's units are remapped
//! to the program's, in the software executor and in the TGSI.
use shader::back::raster::{
    draw, Filter, RasterState, SamplerState, Target, TextureRef, VertexAttrib, VertexInput, Wrap,
};
use shader::ir::Stage;
use shader::program::compile::compile;
use shader::program::link::Program;

const VS: &str = "#version 330 core
layout(location = 0) in vec4 p;
uniform sampler2D a;
uniform sampler2D b;
out vec4 c;
void main() {
    c = texture(b, vec2(0.5, 0.5)) * 0.5 + texture(a, vec2(0.5, 0.5)) * 0.25;
    gl_Position = p;
}
";
const FS: &str = "#version 330 core
uniform sampler2D b;
in vec4 c;
out vec4 o;
void main() {
    o = vec4(c.rgb, 1.0) + vec4(0.0, 0.0, texture(b, vec2(0.5, 0.5)).g, 0.0);
}
";

fn program() -> Program {
    let v = compile(0, VS.as_bytes(), "s.vert").unwrap_or_else(|_| panic!("vs"));
    let f = compile(1, FS.as_bytes(), "s.frag").unwrap_or_else(|_| panic!("fs"));
    let mut p = Program::new();
    p.link(Some(&v.module), Some(&f.module))
        .unwrap_or_else(|e| panic!("{}: {}", e, p.log()));
    p
}

#[test]
fn the_issue_example_links_with_one_unit_per_name() {
    let p = program();
    // The fragment stage keeps its unit 0 for b; the vertex stage's a moves to unit 1.
    assert_eq!(p.sampler_find("b"), Some(0));
    assert_eq!(p.sampler_find("a"), Some(1));
    assert_eq!(p.sampler_units(), 0b11);
    let vs = p.module(Stage::Vertex).unwrap();
    let units: Vec<(&str, u8)> = vs
        .iface
        .samplers
        .iter()
        .map(|s| (s.name.as_str(), s.unit))
        .collect();
    assert_eq!(units, [("a", 1), ("b", 0)]);
    // The vertex TGSI samples b on the program's unit 0 and a on unit 1.
    let t = p.tgsi(Stage::Vertex);
    assert!(
        t.as_str().contains("DCL SAMP[0]") && t.as_str().contains("DCL SAMP[1]"),
        "{}",
        t
    );
    let tex: Vec<&str> = t
        .as_str()
        .lines()
        .filter(|l| l.starts_with("TEX"))
        .collect();
    assert_eq!(tex.len(), 2, "{}", t);
    assert!(
        tex[0].ends_with("SAMP[0], 2D") && tex[1].ends_with("SAMP[1], 2D"),
        "{}",
        t
    );
    shader::back::tgsi::check_tgsi(t).unwrap();
}

#[test]
fn the_issue_example_renders_with_the_right_textures() {
    let p = program();
    let tex = |texels: &'static [u32; 1]| TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 1,
        height: 1,
        texels,
        sampler: SamplerState::new(Filter::Nearest, Wrap::Repeat),
    };
    static RED: [u32; 1] = [0xFFFF_0000];
    static GREEN: [u32; 1] = [0xFF00_FF00];
    let mut textures = [None, None, None, None];
    textures[p.sampler_find("a").unwrap() as usize] = Some(tex(&RED));
    textures[p.sampler_find("b").unwrap() as usize] = Some(tex(&GREEN));
    // One triangle covering the whole 4x4 target.
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
    let state = RasterState::new(4, 4);
    draw(&p, &input, None, &textures, &state, &mut target).unwrap();
    // c = green * 0.5 + red * 0.25 = (0.25, 0.5, 0, 0.75); o = (0.25, 0.5, 1.0, 1.0).
    assert!(color.iter().all(|&px| px == 0xFF40_80FF), "{:08x?}", color);
}

#[test]
fn more_names_than_units_fail_the_link() {
    let vs = "#version 330 core\nuniform sampler2D a;\nuniform sampler2D b;\nuniform sampler2D c;\nvoid main() { gl_Position = texture(a, vec2(0.0)) + texture(b, vec2(0.0)) + texture(c, vec2(0.0)); }\n";
    let fs = "#version 330 core\nuniform sampler2D d;\nuniform sampler2D e;\nout vec4 o;\nvoid main() { o = texture(d, vec2(0.0)) + texture(e, vec2(0.0)); }\n";
    let v = compile(0, vs.as_bytes(), "v").unwrap_or_else(|_| panic!("vs"));
    let f = compile(1, fs.as_bytes(), "f").unwrap_or_else(|_| panic!("fs"));
    let mut p = Program::new();
    let e = p.link(Some(&v.module), Some(&f.module)).unwrap_err();
    assert!(
        e.to_string()
            .contains("too many samplers: 'c' finds no free texture unit; the limit is 4"),
        "{}",
        e
    );
}
