//! Mesa renders known scenes with the scene format's conventions (needs libEGL + llvmpipe; a
//! missing driver fails these tests with the reason).
//!
//! One test function: a process initialises Mesa once and the checks share one context.

use mesa_ref::{Driver, DriverConfig, MesaRenderer};
use scene::Scene;

const VS: &str = "#version 330
layout(location = 0) in vec4 a_pos;
in vec4 a_color;
out vec4 v_color;
uniform vec2 u_offset;
void main() { v_color = a_color; gl_Position = a_pos + vec4(u_offset, 0.0, 0.0); }
";
const FS: &str = "#version 330
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
";

fn scene(text: &str) -> Scene {
    Scene::parse(text).unwrap()
}

fn check_triangle_orientation_and_colours(mesa: &mut MesaRenderer) {
    // A red triangle in the upper-left half of an 8x8 target (NDC y up), blue clear colour.
    let s = scene(
        r#"{"size": [8, 8], "clear": [0, 0, 1, 1],
        "attributes": [{"location": 0, "components": 2, "data": [-1,-1, 1,1, -1,1]},
                       {"location": 1, "components": 4, "data": [1,0,0,1, 1,0,0,1, 1,0,0,1]}]}"#,
    );
    let img = mesa.render(VS, FS, &s).unwrap();
    // Row 0 is the top: the top-left corner is inside, the bottom-right corner is clear.
    assert_eq!(img.pixel(0, 0), [255, 0, 0, 255]);
    assert_eq!(img.pixel(7, 7), [0, 0, 255, 255]);
    assert_eq!(img.pixel(5, 1), [255, 0, 0, 255]);
    assert_eq!(
        img.pixel(0, 6),
        [255, 0, 0, 255],
        "a_color, declared without a location, took location 1"
    );
    assert_eq!(img.pixel(6, 5), [0, 0, 255, 255]);
}

fn check_uniform_viewport_and_depth(mesa: &mut MesaRenderer) {
    // Two overlapping full-viewport quads; the nearer (z = 0) green one wins over the far red one
    // although it is drawn first. The viewport is the left half; u_offset = 0.
    let s = scene(
        r#"{"size": [8, 4], "clear": [0, 0, 0, 0], "depth": true, "viewport": [0, 0, 4, 4],
        "attributes": [{"location": 0, "components": 3, "data": [
            -1,-1,0, 1,-1,0, 1,1,0, -1,1,0,  -1,-1,0.5, 1,-1,0.5, 1,1,0.5, -1,1,0.5]},
          {"location": 1, "components": 4, "data": [0,1,0,1, 0,1,0,1, 0,1,0,1, 0,1,0,1,
                                                    1,0,0,1, 1,0,0,1, 1,0,0,1, 1,0,0,1]}],
        "indices": [0,1,2, 0,2,3, 4,5,6, 4,6,7],
        "uniforms": {"u_offset": [0, 0]}}"#,
    );
    let frame = mesa.render_frame(VS, FS, &s).unwrap();
    assert_eq!(frame.image.pixel(1, 1), [0, 255, 0, 255]);
    assert_eq!(
        frame.image.pixel(6, 1),
        [0, 0, 0, 0],
        "outside the viewport stays clear"
    );
    // Edge flags: the viewport boundary and the quad's diagonal (bottom-left to top-right) are
    // edges; the top-left pixel, far from both, is not.
    let w = 8;
    assert!(
        frame.edges[w + 3] && frame.edges[w + 4],
        "viewport boundary"
    );
    assert!(frame.edges[w + 2] && frame.edges[3 * w], "diagonal");
    assert!(!frame.edges[0] && !frame.edges[7]);

    // The uniform moves the picture: shift right by a full viewport width.
    let mut shifted = s.clone();
    shifted.uniforms = vec![("u_offset".into(), vec![2.0, 0.0])];
    let img = mesa.render(VS, FS, &shifted).unwrap();
    assert_eq!(img.pixel(1, 1), [0, 0, 0, 0]);
}

fn check_culling(mesa: &mut MesaRenderer) {
    // A clockwise triangle is culled when "cull" is on and drawn when it is off.
    let text = |cull: bool| {
        format!(
            r#"{{"size": [4, 4], "cull": {},
            "attributes": [{{"location": 0, "components": 2, "data": [-1,-1, -1,1, 1,-1]}},
                           {{"location": 1, "components": 4, "data": [1,1,1,1, 1,1,1,1, 1,1,1,1]}}]}}"#,
            cull
        )
    };
    assert_eq!(
        mesa.render(VS, FS, &scene(&text(false)))
            .unwrap()
            .pixel(0, 3),
        [255; 4]
    );
    assert_eq!(
        mesa.render(VS, FS, &scene(&text(true)))
            .unwrap()
            .pixel(0, 3),
        [0, 0, 0, 255]
    );
}

fn check_texture_rows_and_filter(mesa: &mut MesaRenderer) {
    // A 1x2 texture: row 0 (v = 0) red, row 1 green; the quad's v goes up with NDC y, so the
    // bottom of the picture samples row 0.
    let vs = "#version 330
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos, 0.0, 1.0); }";
    let fs = "#version 330
in vec2 v_uv;
uniform sampler2D tex;
out vec4 frag;
void main() { frag = texture(tex, v_uv); }";
    let s = scene(
        r#"{"size": [2, 4],
        "attributes": [{"location": 0, "components": 2, "data": [-1,-1, 1,-1, 1,1, -1,-1, 1,1, -1,1]}],
        "textures": {"tex": {"unit": 2, "width": 1, "height": 2, "rgba8": [255,0,0,128, 0,255,0,255]}}}"#,
    );
    let img = mesa.render(vs, fs, &s).unwrap();
    assert_eq!(
        img.pixel(0, 3),
        [255, 0, 0, 128],
        "bottom samples row 0, alpha kept"
    );
    assert_eq!(img.pixel(1, 0), [0, 255, 0, 255]);
}

fn check_errors_are_reported(mesa: &mut MesaRenderer) {
    let s = scene(
        r#"{"size": [2, 2], "attributes": [{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}]}"#,
    );
    let e = mesa
        .render(
            VS,
            "#version 330\nout vec4 f;\nvoid main() { f = undefined_name; }",
            &s,
        )
        .unwrap_err();
    assert!(e.0.contains("Mesa rejected the fragment shader"), "{}", e);
    let mut bad = s.clone();
    bad.uniforms = vec![("u_offset".into(), vec![1.0, 2.0, 3.0])];
    let e = mesa.render(VS, FS, &bad).unwrap_err();
    assert!(
        e.0.contains("uniform u_offset is a vec2 (2 floats); the scene gives 3"),
        "{}",
        e
    );
    let fs_tex = "#version 330\nuniform sampler2D t;\nout vec4 f;\nvoid main() { f = texture(t, vec2(0.0)); }";
    let e = mesa.render(VS, fs_tex, &s).unwrap_err();
    assert!(
        e.0.contains("sample t but the scene has no texture"),
        "{}",
        e
    );
}

#[test]
fn llvmpipe_renders_scenes_with_gl_conventions() {
    let mut mesa =
        MesaRenderer::new(DriverConfig::new(Driver::Llvmpipe)).unwrap_or_else(|e| panic!("{}", e));
    assert!(mesa.renderer().contains("llvmpipe"), "{}", mesa.renderer());
    check_triangle_orientation_and_colours(&mut mesa);
    check_uniform_viewport_and_depth(&mut mesa);
    check_culling(&mut mesa);
    check_texture_rows_and_filter(&mut mesa);
    check_errors_are_reported(&mut mesa);
    check_uniform_blocks(&mut mesa);
}

fn check_uniform_blocks(mesa: &mut MesaRenderer) {
    // Uniform-block members by their GL names: an anonymous block's `offset` and an instance
    // block's `Colors.tint`, and a row_major mat2 given row by row (buffer order): rows (0, 1)
    // and (1, 0) swap x and y, so (0.25, 0.75) becomes (0.75, 0.25).
    let vs = "#version 330
layout(location = 0) in vec4 a_pos;
layout(std140) uniform Shift { vec2 offset; };
void main() { gl_Position = a_pos + vec4(offset, 0.0, 0.0); }
";
    let fs = "#version 330
layout(std140) uniform Colors { vec4 tint; layout(row_major) mat2 swap; float half_; } colors;
out vec4 frag;
void main() { frag = vec4(colors.swap * vec2(0.25, 0.75), colors.tint.b, colors.half_); }
";
    // A quad over the right half of the target, moved onto the left half by `offset`.
    let s = scene(
        r#"{"size": [8, 4], "clear": [0, 0, 0, 0],
        "attributes": [{"location": 0, "components": 2, "data": [0,-1, 1,-1, 1,1, 0,1]}],
        "indices": [0,1,2, 0,2,3],
        "uniforms": {"offset": [-1, 0], "Colors.tint": [0, 0, 1, 0],
                     "Colors.swap": [0, 1, 1, 0], "Colors.half_": [0.5]}}"#,
    );
    let img = mesa.render(vs, fs, &s).unwrap();
    assert_eq!(
        img.pixel(1, 1),
        [191, 64, 255, 128],
        "left half: the moved quad"
    );
    assert_eq!(img.pixel(6, 1), [0, 0, 0, 0], "right half: cleared");
}
