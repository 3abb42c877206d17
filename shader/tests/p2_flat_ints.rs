//! Profile 2's `flat` integer varyings are bit-exact from the vertex to the fragment stage
//! (issue 14 item 4): patterns that as floats are -0.0 (INT_MIN), an infinity or a signalling
//! NaN, and values above 2^24, arrive unchanged, with and without clipping.
use shader::back::raster::{
    draw_parallel, CompareFunc, Pipeline, RasterState, Scratch, Target, VertexAttrib, VertexInput,
    Workers,
};
use shader::program::compile::{compile, Shader};
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
flat out ivec4 v;
flat out uint u;
void main() {
    v = ivec4(-2147483647 - 1, 2139095041, 2139095040, -8388607);
    u = 4286578689u;
    gl_Position = pos;
}";

const FS: &str = "#pragma chrisos profile 2
flat in ivec4 v;
flat in uint u;
out vec4 c;
void main() {
    bool same = all(equal(v, ivec4(-2147483647 - 1, 2139095041, 2139095040, -8388607)));
    c = (same && u == 4286578689u) ? vec4(1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";

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

struct Bands(usize);

impl Workers for Bands {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut() {
            job();
        }
    }
}

fn render(verts: &[[f32; 4]], bands: usize) -> (Vec<u32>, u32) {
    render_with(VS, FS, verts, bands)
}

fn render_with(vs: &str, fs: &str, verts: &[[f32; 4]], bands: usize) -> (Vec<u32>, u32) {
    let vs = build(0, vs);
    let fs = build(1, fs);
    let mut prog = Program::new();
    prog.link(Some(&vs.module), Some(&fs.module))
        .unwrap_or_else(|e| panic!("{} {}", e, prog.log()));
    let data: Vec<f32> = verts.iter().flatten().copied().collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }];
    let input = VertexInput {
        data: &data,
        stride: 4,
        attribs: &attribs,
        count: verts.len() as u32,
    };
    let (w, h) = (16u32, 16u32);
    let mut color = vec![0u32; (w * h) as usize];
    let mut depth = vec![1.0f32; (w * h) as usize];
    let mut t = Target {
        width: w,
        height: h,
        color: &mut color,
        depth: &mut depth,
    };
    let st = RasterState {
        depth_test: false,
        ..RasterState::new(w, h)
    };
    let pipe = Pipeline {
        depth_func: CompareFunc::Less,
        ..Pipeline::DEFAULT
    };
    let mut scratches: Vec<Scratch> = (0..bands).map(|_| Scratch::new()).collect();
    let stats = draw_parallel(
        &Bands(bands),
        &mut scratches,
        &prog,
        &input,
        &[],
        0,
        None,
        &[None, None, None, None],
        &st,
        &pipe,
        &mut t,
    )
    .expect("drawn");
    (color, stats.clipped)
}

#[test]
fn flat_integers_keep_their_bits() {
    let full = [
        [-1.0, -1.0, 0.0, 1.0],
        [3.0, -1.0, 0.0, 1.0],
        [-1.0, 3.0, 0.0, 1.0],
    ];
    // The same triangle with its last vertex behind the near plane: clipped.
    let clipped = [
        [-1.0, -1.0, 0.0, 1.0],
        [3.0, -1.0, 0.0, 1.0],
        [-1.0, 3.0, -3.0, 1.0],
    ];
    // Two vertices behind it: two of the three corners drawn are made by the clipper.
    let clipped2 = [
        [-1.0, -1.0, -3.0, 1.0],
        [3.0, -1.0, -3.0, 1.0],
        [0.0, 0.9, 0.0, 1.0],
    ];
    for bands in [1, 2] {
        let (img, n) = render(&full, bands);
        assert_eq!(n, 0);
        assert!(img.iter().all(|&p| p == 0xffffffff), "{:x?}", &img[..16]);
        let (img, n) = render(&clipped, bands);
        assert!(n > 0, "the triangle is clipped");
        assert!(img.iter().any(|&p| p != 0), "something is drawn");
        assert!(
            img.iter().all(|&p| p == 0 || p == 0xffffffff),
            "{:x?}",
            &img[..16]
        );
        let (img, n) = render(&clipped2, bands);
        assert!(n > 0, "the triangle is clipped");
        assert!(img.iter().any(|&p| p != 0), "something is drawn");
        assert!(
            img.iter().all(|&p| p == 0 || p == 0xffffffff),
            "{:x?}",
            &img[..16]
        );
    }
}

/// The same integers as members of an interface block (brief F item 2): `flat` on the member
/// or on the whole block, with `centroid` and `invariant` members beside them.
const VS_BLOCK: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
out Ids { flat ivec4 v; centroid vec2 w; invariant float f; } ids;
flat out Raw { uint u; } raw;
void main() {
    ids.v = ivec4(-2147483647 - 1, 2139095041, 2139095040, -8388607);
    ids.w = vec2(0.5);
    ids.f = 0.25;
    raw.u = 4286578689u;
    gl_Position = pos;
}";

const FS_BLOCK: &str = "#pragma chrisos profile 2
in Ids { flat ivec4 v; centroid vec2 w; invariant float f; } fs_ids;
flat in Raw { uint u; };
out vec4 c;
void main() {
    bool same = all(equal(fs_ids.v, ivec4(-2147483647 - 1, 2139095041, 2139095040, -8388607)));
    bool near = abs(fs_ids.w.x - 0.5) < 1e-4 && abs(fs_ids.f - 0.25) < 1e-4;
    c = (same && near && u == 4286578689u) ? vec4(1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";

#[test]
fn flat_integer_members_of_interface_blocks_keep_their_bits() {
    let full = [
        [-1.0, -1.0, 0.0, 1.0],
        [3.0, -1.0, 0.0, 1.0],
        [-1.0, 3.0, 0.0, 1.0],
    ];
    let (img, _) = render_with(VS_BLOCK, FS_BLOCK, &full, 1);
    assert!(img.iter().all(|&p| p == 0xffffffff), "{:x?}", &img[..16]);
}

#[test]
fn an_integer_block_member_must_be_flat() {
    let src = "#pragma chrisos profile 2
out Ids { int id; } ids;
void main() { ids.id = 1; gl_Position = vec4(0.0); }";
    let Err(d) = compile(0, src.as_bytes(), "t") else {
        panic!("an interpolated int member compiled");
    };
    let mut s = String::new();
    d.render(src.as_bytes(), &mut s).unwrap();
    assert!(
        s.contains("integer member 'id' (int) of interface block 'Ids' must be flat"),
        "{}",
        s
    );
}
