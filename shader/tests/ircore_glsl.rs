//! The software path from GLSL source: the spec's reference checks done right (column-major
//! MVP, BGRA texel order, lighting, exact constant/loop/function results, discard), and every
//! pair of the differential corpus compiling, linking and rendering.
mod ircore_util;
use ircore_util::scene as scene_render;
use shader::back::raster::*;
use shader::ir::Stage;
use shader::program::link::Program;

fn compile(stage: Stage, src: &str) -> shader::ir::Module {
    match shader::program::compile::compile(stage as u32, src.as_bytes(), "test") {
        Ok(s) => s.module,
        Err(d) => panic!("compile failed: {:?}\n{}", d, src),
    }
}

fn program(vs: &str, fs: &str) -> Program {
    let mut p = Program::new();
    p.link(
        Some(&compile(Stage::Vertex, vs)),
        Some(&compile(Stage::Fragment, fs)),
    )
    .unwrap_or_else(|e| panic!("link: {}\n{}", e, p.log()));
    p
}

const RED_FS: &str = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0, 0.0, 0.0, 1.0); }\n";
const NO_TEX: [Option<TextureRef>; 4] = [None, None, None, None];

fn set(p: &mut Program, name: &str, v: &[f32]) {
    let i = p
        .uniform_find(name)
        .unwrap_or_else(|| panic!("no uniform {}", name));
    p.set_uniform(i, v).unwrap();
}

const ID: [f32; 16] = [
    1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.,
];

#[test]
fn constant_position_is_exact() {
    let p = program(
        "#version 330\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
        RED_FS,
    );
    assert_eq!(soft_vs(&p, &[]).unwrap().position, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn mvp_is_column_major() {
    let vs = "#version 330
layout(location = 0) in vec4 position;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
void main() { gl_Position = projection * view * model * position; }
";
    let mut p = program(vs, RED_FS);
    assert_eq!(p.uniform_find("model"), Some(0));
    set(
        &mut p,
        "model",
        &[
            2.0, 0., 0., 0., 0., 3., 0., 0., 0., 0., 4., 0., 5., 6., 7., 1.,
        ],
    );
    set(&mut p, "view", &ID);
    set(&mut p, "projection", &ID);
    assert_eq!(
        soft_vs(&p, &[1.0, 1.0, 1.0, 1.0]).unwrap().position,
        [7.0, 9.0, 11.0, 1.0]
    );
}

#[test]
fn texture_reads_bgra_texels() {
    let vs = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
out vec2 v_uv;
void main() { v_uv = uv; gl_Position = position; }
";
    let fs = "#version 330
in vec2 v_uv;
uniform sampler2D diffuseTexture;
out vec4 c;
void main() { c = texture(diffuseTexture, v_uv); }
";
    let p = program(vs, fs);
    let unit = p.sampler_find("diffuseTexture").unwrap();
    let out = soft_vs(&p, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]).unwrap();
    let texels = [u32::from_le_bytes([0, 0, 255, 255]), 0, 0, 0];
    let mut tex = NO_TEX;
    tex[unit as usize] = Some(TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 2,
        height: 2,
        texels: &texels,
        sampler: SamplerState::default(),
    });
    let r = soft_fs(&p, &out.varyings, [0.5, 0.5, 0.5, 1.0], &tex).unwrap();
    assert_eq!(r.color, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn lighting_reference() {
    let vs = "#version 330
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec3 v_normal;
out vec3 v_pos;
void main() {
    vec4 world = model * vec4(position, 1.0);
    v_pos = world.xyz;
    v_normal = normal;
    gl_Position = projection * view * world;
}
";
    let fs = "#version 330
in vec3 v_normal;
in vec3 v_pos;
uniform vec3 lightPos;
uniform vec3 lightColor;
uniform float ambient;
out vec4 c;
void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(lightPos - v_pos);
    float d = max(dot(n, l), 0.0);
    c = vec4(lightColor * (ambient + d), 1.0);
}
";
    let mut p = program(vs, fs);
    for m in ["model", "view", "projection"] {
        set(&mut p, m, &ID);
    }
    set(&mut p, "lightPos", &[0.0, 0.0, 2.0]);
    set(&mut p, "lightColor", &[1.0, 0.0, 0.0]);
    set(&mut p, "ambient", &[0.1]);
    for (normal, lo, hi) in [([0.0, 0.0, 1.0], 0.8, 2.0), ([0.0, 0.0, -1.0], 0.05, 0.4)] {
        let a = [0.0, 0.0, 0.0, 1.0, normal[0], normal[1], normal[2], 0.0];
        let out = soft_vs(&p, &a).unwrap();
        let c = soft_fs(&p, &out.varyings, [0.0; 4], &NO_TEX).unwrap().color;
        assert!(c[0] > lo && c[0] < hi && c[1] < 0.3, "{:?}", c);
    }
}

fn vs_result(body: &str) -> [f32; 4] {
    let vs = format!("#version 330\n{}\n", body);
    soft_vs(&program(&vs, RED_FS), &[]).unwrap().position
}

#[test]
fn constants_branches_loops_and_functions_are_exact() {
    // The else branch runs for a known constant 0.2 > 0.5 == false.
    let p = vs_result("void main() { float x = 0.2; if (x > 0.5) { gl_Position = vec4(1.0, 0.0, 0.0, 1.0); } else { gl_Position = vec4(0.0, 1.0, 0.0, 1.0); } }");
    assert_eq!(p, [0.0, 1.0, 0.0, 1.0]);
    let p = vs_result("void main() { float s = 0.0; for (int i = 0; i < 4; i++) { s = s + 1.0; } gl_Position = vec4(s, 0.0, 0.0, 1.0); }");
    assert_eq!(p, [4.0, 0.0, 0.0, 1.0]);
    let p = vs_result("float saturate(float x) { return clamp(x, 0.0, 1.0); }\nvoid main() { gl_Position = vec4(saturate(-2.0), saturate(0.25), saturate(7.0), 1.0); }");
    assert_eq!(p, [0.0, 0.25, 1.0, 1.0]);
    // A constant known on one branch does not leak past the if.
    let p = vs_result("layout(location = 0) in vec4 a;\nvoid main() { float x = 1.0; if (a.x > 0.0) { x = 2.0; } gl_Position = vec4(x, 0.0, 0.0, 1.0); }");
    assert_eq!(p, [1.0, 0.0, 0.0, 1.0]);
    // Constructed matrices keep every column.
    let p = vs_result("void main() { mat4 m = mat4(2.0); mat4 n = m; gl_Position = n * vec4(1.0, 2.0, 3.0, 0.5); }");
    assert_eq!(p, [2.0, 4.0, 6.0, 1.0]);
    // Integer conversion truncates and division is true division.
    let p = vs_result("void main() { int i = int(2.7); float f = float(i); gl_Position = vec4(f, 1.0 / 4.0, 7.0 / 2.0, 1.0); }");
    assert_eq!(p, [2.0, 0.25, 3.5, 1.0]);
}

#[test]
fn discard_and_sin_of_a_uniform() {
    let vs = "#version 330\nout float a;\nvoid main() { a = 0.2; gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
    let fs = "#version 330\nin float a;\nout vec4 c;\nvoid main() { if (a < 0.5) { discard; } c = vec4(1.0); }\n";
    let p = program(vs, fs);
    let out = soft_vs(&p, &[]).unwrap();
    assert!(
        soft_fs(&p, &out.varyings, [0.0; 4], &NO_TEX)
            .unwrap()
            .discarded
    );
    let fs = "#version 330\nuniform float time;\nout vec4 c;\nvoid main() { c = vec4(0.5 + 0.5 * sin(time), 0.0, 0.0, 1.0); }\n";
    let mut p = program(
        "#version 330\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
        fs,
    );
    set(&mut p, "time", &[0.0]);
    assert_eq!(
        soft_fs(&p, &[[0.0; 4]; 8], [0.0; 4], &NO_TEX)
            .unwrap()
            .color,
        [0.5, 0.0, 0.0, 1.0]
    );
}

#[test]
fn reference_triangle_from_glsl() {
    let vs = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
out vec4 v_color;
void main() { v_color = color; gl_Position = position; }
";
    let fs = "#version 330\nin vec4 v_color;\nout vec4 c;\nvoid main() { c = v_color; }\n";
    let p = program(vs, fs);
    let mut color = vec![0u32; 32 * 32];
    let mut depth = vec![1.0f32; 32 * 32];
    let mut t = Target {
        width: 32,
        height: 32,
        color: &mut color,
        depth: &mut depth,
    };
    let red = [1.0, 0.0, 0.0, 1.0];
    let v = |x: f32, y: f32| [x, y, 0.0, 1.0, red[0], red[1], red[2], red[3]];
    let (a, b, c) = (v(-0.8, -0.8), v(0.8, -0.8), v(0.0, 0.8));
    soft_triangle(&p, [&a, &b, &c], &NO_TEX, &mut t).unwrap();
    assert!(color.iter().filter(|&&px| (px >> 16) & 255 > 200).count() > 20);
}

/// Every pair of the differential corpus (and the bench scenes) compiles, links and renders
/// (the one-pass scenes; a multi-pass scene's final pass needs its earlier passes).
#[test]
fn corpus_renders() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/shc");
    let mut pairs = scene_render::one_pass_diff_corpus();
    pairs.push((
        format!("{}/tests/diff/textured.vert", root),
        format!("{}/benches/scenes/tex_quad.frag", root),
        format!("{}/benches/scenes/textured_quad.json", root),
    ));
    let mut scratch = Box::new(Scratch::new());
    for (vs, fs, sc) in pairs {
        let p = scene_render::prepare(&vs, &fs, &sc);
        let n = (p.scene.width * p.scene.height) as usize;
        let mut color = vec![0u32; n];
        let mut depth = vec![1.0f32; n];
        let stats = scene_render::render(&p, &mut scratch, &mut color, &mut depth);
        assert!(
            stats.pixels_written > 0,
            "{}: nothing drawn ({:?})",
            sc,
            stats
        );
    }
}

/// Every shader of the frontend's accepted corpus decodes and runs on the executor (after the
/// frontend's own opt + verify), with the optimiser idempotent on it.
#[test]
fn frontend_corpus_runs_on_the_executor() {
    use shader::back::exec::lanes::{ALL_LANES, LANES};
    use shader::back::exec::*;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/in");
    let mut ran = 0;
    for entry in std::fs::read_dir(dir).expect("tests/in") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let stage = if name.ends_with(".vert") {
            Stage::Vertex
        } else if name.ends_with(".frag") {
            Stage::Fragment
        } else {
            continue;
        };
        let src = std::fs::read(&path).unwrap();
        let Ok(s) = shader::program::compile::compile(stage as u32, &src, &name) else {
            continue;
        };
        let mut m = s.module.clone();
        shader::ir::opt::optimize(&mut m);
        assert_eq!(
            m.insts, s.module.insts,
            "{}: optimiser not idempotent on compiled output",
            name
        );
        let exe = Executable::new(&s.module, None).unwrap_or_else(|e| panic!("{}: {}", name, e));
        let inputs = [[[0.5f32; LANES]; 4]; 16];
        let fc = [[0.5f32; LANES]; 4];
        let texels = [0xFF80_8080u32; 4];
        let t = TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: 2,
            height: 2,
            texels: &texels,
            sampler: SamplerState::default(),
        };
        let tex = [Some(t), Some(t), Some(t), Some(t)];
        let uniforms = [0.25f32; 128];
        let inv = Invocation {
            uniforms: &uniforms,
            textures: &tex,
            inputs: &inputs,
            fragcoord: &fc,
        };
        let mut out = Outputs::new();
        exe.run(&mut Regs::new(), &inv, &mut out, ALL_LANES);
        ran += 1;
    }
    assert!(ran > 40, "only {} shaders ran", ran);
}
