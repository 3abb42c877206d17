//! Renders scene files (the `scene` crate's model) with GLSL sources through the software path:
//! shared by the GLSL tests and the render benchmark.
#![allow(dead_code)]
use scene::{Filter as SFilter, Scene, Wrap as SWrap};
use shader::back::raster::*;
use shader::program::link::Program;

/// Everything a frame needs, prepared once.
pub struct Prepared {
    pub program: Program,
    pub scene: Scene,
    pub data: Vec<f32>,
    pub stride: u32,
    pub attribs: Vec<VertexAttrib>,
    /// Per unit: texels, width, height, sampler state.
    pub textures: Vec<Option<(Vec<u32>, u32, u32, SamplerState)>>,
    pub state: RasterState,
}

/// The pairs of the differential corpus (`tools/shc/tests/diff/corpus.txt`) this one-pass helper
/// can draw, as (vertex, fragment, scene) paths: every pair but the multi-pass scenes, whose
/// final pass samples earlier passes' targets (shc's differential test, against Mesa, and gfx3d's
/// passes_vtest draw those).
pub fn one_pass_diff_corpus() -> Vec<(String, String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/shc/tests/diff");
    let corpus = std::fs::read_to_string(format!("{}/corpus.txt", dir)).expect("corpus.txt");
    let mut pairs = Vec::new();
    for line in corpus.lines().filter(|l| !l.starts_with('#')) {
        if let [sc, vs, fs] = line.split_whitespace().collect::<Vec<_>>()[..] {
            let p = |x: &str| format!("{}/{}", dir, x);
            let multi_pass =
                Scene::load(std::path::Path::new(&p(sc))).map_or(false, |s| !s.passes.is_empty());
            if !multi_pass {
                pairs.push((p(vs), p(fs), p(sc)));
            }
        }
    }
    assert!(
        pairs.len() >= 12,
        "corpus has {} one-pass pairs",
        pairs.len()
    );
    pairs
}

pub fn compile(stage: u32, path: &str) -> shader::ir::Module {
    let src = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    match shader::program::compile::compile(stage, &src, path) {
        Ok(s) => s.module,
        Err(d) => panic!("{} does not compile: {:?}", path, d),
    }
}

pub fn prepare(vs_path: &str, fs_path: &str, scene_path: &str) -> Prepared {
    let scene = Scene::load(std::path::Path::new(scene_path))
        .unwrap_or_else(|e| panic!("{}: {:?}", scene_path, e));
    let vs = compile(0, vs_path);
    let fs = compile(1, fs_path);
    let mut program = Program::new();
    program
        .link(Some(&vs), Some(&fs))
        .unwrap_or_else(|e| panic!("link: {} / {}", e, program.log()));
    for (name, values) in &scene.uniforms {
        if let Some(i) = program.uniform_find(name) {
            program
                .set_uniform(i, values)
                .unwrap_or_else(|e| panic!("uniform {}: {}", name, e));
        }
    }
    // Per-vertex attributes interleaved; per-instance ones (`"divisor"`) are each instance's
    // constants in `render_parallel`.
    let per_vertex: Vec<_> = scene.attributes.iter().filter(|a| a.divisor == 0).collect();
    let stride: u32 = per_vertex.iter().map(|a| a.components).sum();
    let mut attribs = vec![];
    let mut offset = 0;
    for a in &per_vertex {
        attribs.push(VertexAttrib {
            location: a.location as u8,
            offset,
            components: a.components as u8,
        });
        offset += a.components;
    }
    let mut data = vec![];
    for v in 0..scene.vertex_count {
        for a in &per_vertex {
            data.extend_from_slice(a.vertex(v));
        }
    }
    let mut textures = vec![None, None, None, None];
    for (name, t) in &scene.textures {
        if let Some(unit) = program.sampler_find(name) {
            let sampler = SamplerState {
                filter: if t.filter == SFilter::Linear {
                    Filter::Linear
                } else {
                    Filter::Nearest
                },
                wrap: if t.wrap == SWrap::ClampToEdge {
                    Wrap::ClampToEdge
                } else {
                    Wrap::Repeat
                },
                ..SamplerState::default()
            };
            textures[unit as usize] = Some((t.to_argb(), t.width, t.height, sampler));
        }
    }
    let state = RasterState {
        viewport: scene.viewport,
        depth_test: scene.depth,
        depth_write: true,
        cull_back: scene.cull,
    };
    Prepared {
        program,
        scene,
        data,
        stride,
        attribs,
        textures,
        state,
    }
}

/// Clears and draws one frame into `color`/`depth`.
pub fn render(
    p: &Prepared,
    scratch: &mut Scratch,
    color: &mut [u32],
    depth: &mut [f32],
) -> DrawStats {
    render_parallel(p, &Serial, std::slice::from_mut(scratch), color, depth)
}

/// [`render`] split into bands over `workers`, one scratch per band (`draw_parallel`).
pub fn render_parallel(
    p: &Prepared,
    workers: &dyn Workers,
    scratches: &mut [Scratch],
    color: &mut [u32],
    depth: &mut [f32],
) -> DrawStats {
    let mut t = Target {
        width: p.scene.width,
        height: p.scene.height,
        color,
        depth,
    };
    t.clear(p.scene.clear_argb(), 1.0);
    let tex: Vec<Option<TextureRef>> = p
        .textures
        .iter()
        .map(|t| {
            t.as_ref().map(|(texels, w, h, s)| TextureRef {
                layers: &[],
                faces: &[],
                mips: &[],
                depth: None,
                rgba: None,
                ints: None,
                width: *w,
                height: *h,
                texels,
                sampler: *s,
            })
        })
        .collect();
    let tex = [tex[0], tex[1], tex[2], tex[3]];
    let input = VertexInput {
        data: &p.data,
        stride: p.stride,
        attribs: &p.attribs,
        count: p.scene.vertex_count as u32,
    };
    // One call per instance, in order (`"instances"`); the statistics are summed.
    let mut total = DrawStats::default();
    for instance in 0..p.scene.instances.max(1) {
        let constants: Vec<(u8, [f32; 4])> = p
            .scene
            .attributes
            .iter()
            .filter_map(|a| Some((a.location as u8, a.instance_value(instance)?)))
            .collect();
        let s = draw_parallel(
            workers,
            scratches,
            &p.program,
            &input,
            &constants,
            instance,
            p.scene.indices.as_deref(),
            &tex,
            &p.state,
            &Pipeline::DEFAULT,
            &mut t,
        )
        .unwrap_or_else(|e| panic!("draw: {}", e));
        total.triangles += s.triangles;
        total.culled += s.culled;
        total.rejected += s.rejected;
        total.clipped += s.clipped;
        total.vertices_shaded += s.vertices_shaded;
        total.fragments_shaded += s.fragments_shaded;
        total.pixels_written += s.pixels_written;
    }
    total
}
