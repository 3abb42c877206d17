//! `texture()` takes a vec2, vec3 or vec4 coordinate and samples at its `.xy` (spec 000,
//! "texture()": "a vector coordinate with at least two components"): drawn by the software
//! rasterizer, the picture of each longer coordinate equals the picture of its `.xy`.
use shader::back::raster::*;
use shader::program::compile::compile;
use shader::program::link::Program;

const SIZE: u32 = 24;

const VS: &str = "layout(location = 0) in vec4 p;
out vec4 uvwq;
void main() {
    gl_Position = p;
    uvwq = vec4(p.x * 1.7 + 0.3, p.y * 1.3 - 0.2, p.x * 5.0 - 2.0, 3.0 - p.y);
}";

fn module(stage: u32, src: &str) -> shader::ir::Module {
    match compile(stage, src.as_bytes(), "t") {
        Ok(s) => s.module,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

/// The picture of a full-target quad whose fragment shader samples `expr` (of `uvwq`).
fn picture(expr: &str) -> Vec<u32> {
    let fs = format!(
        "uniform sampler2D s;\nin vec4 uvwq;\nout vec4 c;\nvoid main() {{\n    vec3 uvw = uvwq.xyz;\n    c = texture(s, {});\n}}",
        expr
    );
    let (vs, fs) = (module(0, VS), module(1, &fs));
    let mut program = Program::new();
    program
        .link(Some(&vs), Some(&fs))
        .unwrap_or_else(|e| panic!("link: {}", e));
    // A 4x4 texture with a different colour in every texel.
    let texels: Vec<u32> = (0..16u32)
        .map(|i| 0xFF00_0000 | (i * 16) << 16 | (255 - i * 16) << 8 | (i * 37 % 256))
        .collect();
    let tex = TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 4,
        height: 4,
        texels: &texels,
        sampler: SamplerState::new(Filter::Nearest, Wrap::Repeat),
    };
    let textures = [Some(tex), None, None, None];
    let quad: [f32; 16] = [
        -1.0, -1.0, 0.0, 1.0, 1.0, -1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0,
    ];
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }];
    let input = VertexInput {
        data: &quad,
        stride: 4,
        attribs: &attribs,
        count: 4,
    };
    let mut color = vec![0u32; (SIZE * SIZE) as usize];
    let mut depth = vec![1.0f32; (SIZE * SIZE) as usize];
    let mut target = Target {
        width: SIZE,
        height: SIZE,
        color: &mut color,
        depth: &mut depth,
    };
    let state = RasterState {
        depth_test: false,
        ..RasterState::new(SIZE, SIZE)
    };
    draw(
        &program,
        &input,
        Some(&[0, 1, 2, 0, 2, 3]),
        &textures,
        &state,
        &mut target,
    )
    .unwrap();
    color
}

#[test]
fn longer_coordinates_sample_at_their_xy() {
    let xy = picture("uvwq.xy");
    // The picture is not trivial: every pixel is drawn and many texels show.
    assert!(xy.iter().all(|&c| c != 0));
    let mut distinct = xy.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 8, "{} colours", distinct.len());
    assert_eq!(picture("uvw"), xy, "vec3 coordinate");
    assert_eq!(picture("uvwq"), xy, "vec4 coordinate");
    assert_eq!(picture("vec4(uvwq.xy, 7.0, -3.0)"), xy, "vec4 constructor");
}

#[test]
fn a_scalar_coordinate_is_still_an_error() {
    let src = "uniform sampler2D s;\nin float u;\nout vec4 c;\nvoid main() { c = texture(s, u); }";
    let Err(d) = compile(1, src.as_bytes(), "t") else {
        panic!("a float coordinate compiled");
    };
    let e = d.errors().next().unwrap();
    assert!(e.message.contains("vec2, vec3 or vec4"), "{}", e.message);
}
