//! `shc render` and `shc link`: compile a vertex/fragment pair, link it, and (render) draw a
//! scene file with the software path into an RGBA PNG whose first row is the top of the picture.
//!
//! Owns: the mapping of the scene format onto the software renderer (interleaved vertex data by
//! location, uniforms by name, textures bound to the unit the program gives each sampler name,
//! viewport/depth/cull state, instances: one draw per instance with the divisor attributes as
//! constants; `"passes"`: each earlier pass drawn into its own buffers with its own program, its
//! rows flipped into GL's texture orientation, row 0 = the bottom = t 0, when a later pass
//! samples it) and the command-line shape and exit codes of both commands. The
//! benchmark includes this file as a module so that it times exactly this path.
//! Must never: interpret a scene differently from `mesa-ref`, which renders the same files
//! through Mesa for the differential tests.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use scene::{Filter, Image, Scene, Wrap};
use shader::back::raster::state::{
    Blend, BlendComponent, BlendFactor, BlendOp, ColorMask, CompareFunc, CullFace, FrontFace,
    Pipeline, Scissor,
};
use shader::back::raster::{
    self, DrawStats, RasterState, SamplerState, Scratch, Serial, Target, TextureRef, VertexAttrib,
    VertexInput, Workers,
};
use shader::limits::SAMPLER_MAX;
use shader::program::compile::{compile_into, CompileOptions, Diagnostics, Shader, Workspace};
use shader::program::link::Program;
use shader::Stage;

/// A failure and the exit code it maps to (1: compile/link/scene/render, 2: usage or I/O).
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
    /// The same diagnostics as `--format json` objects (empty for usage, I/O and scene errors).
    pub diags: Vec<serde_json::Value>,
}

fn failure(code: i32, message: impl Into<String>) -> Failure {
    Failure {
        code,
        message: message.into(),
        diags: Vec::new(),
    }
}

fn read_source(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| failure(2, format!("cannot read {}: {}", path.display(), e)))
}

/// One stage's compile: the shader (None when it failed) and its diagnostics (errors, or the
/// warnings of a successful compile). Boxed: a profile-2 shader is a few hundred KiB.
pub struct Compiled {
    pub shader: Option<Box<Shader>>,
    pub diag: Box<Diagnostics>,
}

/// Compiles one stage with `opts` (the source's `#pragma chrisos profile N` overrides it),
/// keeping the warnings of a successful compile (`compile_into` leaves them in `diag`).
pub fn compile_full(stage: u32, source: &[u8], name: &str, opts: &CompileOptions) -> Compiled {
    let mut ws = Box::new(Workspace::new());
    let mut shader = Box::new(Shader::EMPTY);
    let mut diag = Box::new(Diagnostics::new(name));
    let ok = compile_into(&mut ws, &mut shader, &mut diag, stage, source, name, opts);
    Compiled {
        shader: ok.then_some(shader),
        diag,
    }
}

/// The diagnostics as rendered text (errors, then warnings), without the last newline.
pub fn render_diag(diag: &Diagnostics, source: &[u8]) -> String {
    let mut text = String::new();
    let _ = diag.render(source, &mut text);
    text.trim_end().to_string()
}

/// One JSON object of `--format json`.
pub fn json_diag(
    file: Option<&str>,
    line: Option<u32>,
    column: Option<u32>,
    severity: &str,
    message: &str,
) -> serde_json::Value {
    serde_json::json!({
        "file": file,
        "line": line,
        "column": column,
        "severity": severity,
        "message": message,
        "limit": shader::limits::limit_named_in(message),
    })
}

/// Every kept error and warning of `diag` as `--format json` objects (errors first), and one
/// for the errors past the profile's `errors_reported_max` when there are any.
pub fn json_diags(file: &str, diag: &Diagnostics) -> Vec<serde_json::Value> {
    let mut v = Vec::new();
    for d in diag.errors() {
        v.push(json_diag(
            Some(file),
            Some(d.line),
            Some(d.column),
            "error",
            &d.message,
        ));
    }
    if diag.total() > diag.len() {
        let mut o = json_diag(
            Some(file),
            None,
            None,
            "error",
            &format!(
                "{} more errors not shown (at most {} are kept)",
                diag.total() - diag.len(),
                diag.len()
            ),
        );
        o["limit"] = "errors_reported_max".into();
        v.push(o);
    }
    for d in diag.warnings() {
        v.push(json_diag(
            Some(file),
            Some(d.line),
            Some(d.column),
            "warning",
            &d.message,
        ));
    }
    v
}

/// Compile one stage; diagnostics are rendered with the file name (warnings of a successful
/// compile are returned as rendered text, empty when there are none).
pub fn compile_stage(
    stage: Stage,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
) -> Result<(Box<Shader>, Box<Diagnostics>), Failure> {
    let c = compile_full(stage as u32, source, name, opts);
    match c.shader {
        Some(s) => Ok((s, c.diag)),
        None => Err(Failure {
            code: 1,
            message: render_diag(&c.diag, source),
            diags: json_diags(name, &c.diag),
        }),
    }
}

/// A program and the warnings of its two compiles (rendered text, and as JSON objects).
pub struct Built {
    pub program: Program,
    pub warnings: Vec<String>,
    pub json: Vec<serde_json::Value>,
}

/// Compile both stages and link them; the program log explains a failed link.
pub fn build_program(
    vs_src: &[u8],
    vs_name: &str,
    fs_src: &[u8],
    fs_name: &str,
    opts: &CompileOptions,
) -> Result<Built, Failure> {
    let vs = compile_stage(Stage::Vertex, vs_src, vs_name, opts);
    let fs = compile_stage(Stage::Fragment, fs_src, fs_name, opts);
    let ((vs, vd), (fs, fd)) = match (vs, fs) {
        (Ok(v), Ok(f)) => (v, f),
        (v, f) => {
            let fails: Vec<Failure> = [v.err(), f.err()].into_iter().flatten().collect();
            let message = fails
                .iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let diags = fails.into_iter().flat_map(|e| e.diags).collect();
            return Err(Failure {
                code: 1,
                message,
                diags,
            });
        }
    };
    let mut warnings = Vec::new();
    let mut json = Vec::new();
    for (d, src, name) in [(&vd, vs_src, vs_name), (&fd, fs_src, fs_name)] {
        if d.warnings().next().is_some() {
            warnings.push(render_diag(d, src));
            json.extend(json_diags(name, d));
        }
    }
    let mut program = Program::new();
    if let Err(e) = program.link(Some(&vs.module), Some(&fs.module)) {
        let log = program.log().trim_end();
        let text = if log.is_empty() {
            format!("link error: {}", e)
        } else {
            log.to_string()
        };
        // A link failure is a program's, not one file's: no file, line or column.
        json.extend(
            text.lines()
                .map(|l| json_diag(None, None, None, "error", l)),
        );
        let message = warnings
            .iter()
            .map(String::as_str)
            .chain([text.as_str()])
            .collect::<Vec<_>>()
            .join("\n");
        return Err(Failure {
            code: 1,
            message,
            diags: json,
        });
    }
    Ok(Built {
        program,
        warnings,
        json,
    })
}

struct SceneTexture {
    unit: usize,
    width: u32,
    height: u32,
    texels: Vec<u32>,
    /// Levels 1, 2, ... as 0xAARRGGBB texels.
    levels: Vec<Vec<u32>>,
    sampler: SamplerState,
    /// A cube's 6 faces (texels, levels 1, 2, ...); empty for a 2D texture.
    faces: Vec<(Vec<u32>, Vec<Vec<u32>>)>,
    /// An integer texture's texels (`"format": "rgba32i"`/`"rgba32ui"`); empty for RGBA8.
    ints: Vec<[u32; 4]>,
    /// An array texture's layers (texels, levels 1, 2, ...), layer 0 first; empty otherwise.
    layers: Vec<(Vec<u32>, Vec<Vec<u32>>)>,
    /// An integer array texture's layers' words, layer 0 first; empty otherwise.
    int_layers: Vec<Vec<[u32; 4]>>,
    /// `"pass"`: the texels are an earlier pass's target, drawn before this scene.
    source: Option<scene::PassSource>,
}

/// What one earlier pass left in its target, in texture orientation (row 0 = the bottom of
/// the pass's picture = t 0, GL's): rows flipped from the rasterizer's top-first order.
struct PassOutput {
    width: u32,
    height: u32,
    /// 0xAARRGGBB (an RGBA8 pass; empty for RGBA32F).
    color: Vec<u32>,
    /// (r, g, b, a) floats (an RGBA32F pass; empty for RGBA8).
    colorf: Vec<[f32; 4]>,
    depth: Vec<f32>,
}

/// Rows of a `width`-wide buffer in reverse order (top-first <-> bottom-first).
fn flip_rows<T: Copy>(width: u32, rows: &[T]) -> Vec<T> {
    rows.chunks_exact(width.max(1) as usize)
        .rev()
        .flatten()
        .copied()
        .collect()
}

/// The software sampler state of a scene texture.
fn scene_sampler(t: &scene::Texture) -> SamplerState {
    let filter = |f: Filter| match f {
        Filter::Nearest => raster::Filter::Nearest,
        Filter::Linear => raster::Filter::Linear,
    };
    let wrap = |w: Wrap| match w {
        Wrap::Repeat => raster::Wrap::Repeat,
        Wrap::ClampToEdge => raster::Wrap::ClampToEdge,
        Wrap::MirroredRepeat => raster::Wrap::MirroredRepeat,
    };
    SamplerState {
        filter: filter(t.filter),
        wrap: wrap(t.wrap),
        min_filter: Some(filter(t.min_filter)),
        mip: match t.mip {
            scene::Mip::None => raster::MipFilter::None,
            scene::Mip::Nearest => raster::MipFilter::Nearest,
            scene::Mip::Linear => raster::MipFilter::Linear,
        },
        wrap_t: Some(wrap(t.wrap_t)),
        lod_bias: t.lod_bias,
        min_lod: t.min_lod,
        max_lod: t.max_lod,
        // Validated by the scene model (a depth function name).
        compare: t
            .source
            .as_ref()
            .and_then(|s| s.compare)
            .and_then(CompareFunc::from_gl),
    }
}

/// A linked program with a scene's data in the software renderer's layout, ready to draw.
pub struct SoftScene {
    program: Program,
    data: Vec<f32>,
    stride: u32,
    attribs: Vec<VertexAttrib>,
    count: u32,
    /// Copies drawn (gl_InstanceID 0..instances), one rasterizer call each, in order.
    instances: u32,
    /// The per-instance attributes (`"divisor"` > 0): given to each instance's call as
    /// constants, the value that instance reads.
    per_instance: Vec<scene::Attribute>,
    indices: Option<Vec<u16>>,
    textures: Vec<SceneTexture>,
    state: RasterState,
    pipe: Pipeline,
    pub width: u32,
    pub height: u32,
    clear: u32,
    /// The clear colour unclamped (an RGBA32F pass target's).
    clear_f: [f32; 4],
    /// An RGBA32F target (a pass's `"format"`); the picture is RGBA8.
    float: bool,
    /// `"passes"`: the earlier passes, drawn in order before this scene (see [`load`]).
    passes: Vec<SoftScene>,
    /// Scene uniforms the program does not declare (reported, not fatal: Mesa drops unused ones).
    pub unused_uniforms: Vec<String>,
}

impl SoftScene {
    /// Map `scene` onto `program`: sets its uniforms and prepares vertices and textures.
    pub fn new(mut program: Program, scene: &Scene) -> Result<SoftScene, Failure> {
        let mut unused_uniforms = Vec::new();
        for (name, values) in &scene.uniforms {
            let Some(index) = program.uniform_find(name) else {
                // Profile 2: `"name": [floats]` sets a whole uniform array.
                if program.uniform_array_find::<1>(name).first().is_some() {
                    program
                        .set_uniform_array(name, values)
                        .map_err(|e| failure(1, format!("uniform {}: {}", name, e)))?;
                    continue;
                }
                if program.sampler_find(name).is_some() {
                    return Err(failure(
                        1,
                        format!(
                            "uniform {} is a sampler2D: give it under \"textures\"",
                            name
                        ),
                    ));
                }
                unused_uniforms.push(name.clone());
                continue;
            };
            let ty = program.uniforms().get(index).map(|u| u.ty);
            // Scenes may give a mat3 as three columns padded to vec4 slots (12 floats).
            let unpadded: Vec<f32>;
            let values = if ty == Some(shader::Type::Mat3) && values.len() == 12 {
                unpadded = values
                    .chunks_exact(4)
                    .flat_map(|c| c[..3].to_vec())
                    .collect();
                &unpadded
            } else {
                values
            };
            program
                .set_uniform(index, values)
                .map_err(|e| failure(1, format!("uniform {}: {}", name, e)))?;
        }

        let mut textures = Vec::new();
        for s in program.samplers() {
            let Some((_, t)) = scene
                .textures
                .iter()
                .find(|(n, _)| n.as_str() == s.name.as_str())
            else {
                return Err(failure(
                    1,
                    format!(
                        "the shaders sample {} but the scene has no texture of that name",
                        s.name
                    ),
                ));
            };
            let unit = s.unit as usize;
            if textures.iter().any(|x: &SceneTexture| x.unit == unit) || unit >= SAMPLER_MAX {
                continue;
            }
            let sampler = scene_sampler(t);
            let argb = |b: &[u8]| -> Vec<u32> {
                b.chunks_exact(4)
                    .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
                    .collect()
            };
            textures.push(SceneTexture {
                unit,
                width: t.width,
                height: t.height,
                texels: t.to_argb(),
                levels: t.levels.iter().map(|l| argb(l)).collect(),
                sampler,
                faces: if t.is_cube() {
                    (0..6).map(|f| t.face_argb(f)).collect()
                } else {
                    Vec::new()
                },
                source: t.source.clone(),
                ints: t.ints.clone(),
                int_layers: t.int_layers.clone(),
                layers: t
                    .layers
                    .iter()
                    .enumerate()
                    .map(|(k, l)| {
                        let levels = t
                            .layer_levels
                            .get(k)
                            .map_or(Vec::new(), |ls| ls.iter().map(|x| argb(x)).collect());
                        (argb(l), levels)
                    })
                    .collect(),
            });
        }

        // Interleave every per-vertex attribute of the scene: vertex i starts at i * stride.
        let (per_instance, per_vertex): (Vec<_>, Vec<_>) = scene
            .attributes
            .iter()
            .cloned()
            .partition(|a| a.divisor > 0);
        let stride: u32 = per_vertex.iter().map(|a| a.components).sum();
        let mut attribs = Vec::new();
        let mut offset = 0;
        for a in &per_vertex {
            attribs.push(VertexAttrib {
                location: a.location as u8,
                offset,
                components: a.components as u8,
            });
            offset += a.components;
        }
        let mut data = Vec::with_capacity(stride as usize * scene.vertex_count);
        for v in 0..scene.vertex_count {
            for a in &per_vertex {
                data.extend_from_slice(a.vertex(v));
            }
        }

        let state = RasterState {
            viewport: scene.viewport,
            depth_test: scene.depth,
            depth_write: scene.depth && scene.pipeline.depth_mask,
            // Culling is the pipeline's (which knows the front face).
            cull_back: false,
        };
        let pipe = pipeline_of(&scene.pipeline)?;
        Ok(SoftScene {
            program,
            data,
            stride,
            attribs,
            count: scene.vertex_count as u32,
            instances: scene.instances,
            per_instance,
            indices: scene.indices.clone(),
            textures,
            state,
            pipe,
            width: scene.width,
            height: scene.height,
            clear: scene.clear_argb(),
            clear_f: scene.clear,
            float: false,
            passes: Vec::new(),
            unused_uniforms,
        })
    }

    /// Clear `color`/`depth` (width * height each) and draw the scene into them.
    #[allow(dead_code)] // the bench's one-thread timing
    pub fn draw(
        &self,
        scratch: &mut Scratch,
        color: &mut [u32],
        depth: &mut [f32],
    ) -> Result<DrawStats, Failure> {
        self.draw_parallel(&Serial, std::slice::from_mut(scratch), color, depth)
    }

    /// [`Self::draw`] split into bands over `workers`, one scratch per band (the same picture
    /// for any number).
    pub fn draw_parallel(
        &self,
        workers: &dyn Workers,
        scratches: &mut [Scratch],
        color: &mut [u32],
        depth: &mut [f32],
    ) -> Result<DrawStats, Failure> {
        // The passes first, in order; each may sample the ones before it.
        let mut outputs: Vec<PassOutput> = Vec::new();
        for pass in &self.passes {
            let n = pass.width as usize * pass.height as usize;
            let mut out = PassOutput {
                width: pass.width,
                height: pass.height,
                color: vec![0; if pass.float { 0 } else { n }],
                colorf: vec![[0.0; 4]; if pass.float { n } else { 0 }],
                depth: vec![1.0; n],
            };
            pass.draw_target(
                workers,
                scratches,
                &outputs,
                &mut out.color,
                &mut out.depth,
                &mut out.colorf,
            )?;
            out.color = flip_rows(out.width, &out.color);
            out.colorf = flip_rows(out.width, &out.colorf);
            out.depth = flip_rows(out.width, &out.depth);
            outputs.push(out);
        }
        self.draw_target(workers, scratches, &outputs, color, depth, &mut [])
    }

    /// Clear and draw this scene (one pass) into `color`/`depth`, or into `colorf` (when not
    /// empty: an RGBA32F target), with `outputs` the earlier passes' targets.
    fn draw_target(
        &self,
        workers: &dyn Workers,
        scratches: &mut [Scratch],
        outputs: &[PassOutput],
        color: &mut [u32],
        depth: &mut [f32],
        colorf: &mut [[f32; 4]],
    ) -> Result<DrawStats, Failure> {
        let mut target = Target {
            width: self.width,
            height: self.height,
            color,
            depth,
        };
        // Cleared by the first draw's bands (each job its own rows, see
        // `raster::draw_parallel_cleared`).
        let clear = raster::Clear {
            color: self.clear,
            colorf: self.clear_f,
            depth: 1.0,
        };
        // `"mipmaps": true` on a pass texture: the box chain of the pass's colour, per texture.
        let pass_mips: Vec<Vec<Vec<u32>>> = self
            .textures
            .iter()
            .map(|t| {
                match (
                    &t.source,
                    t.source.as_ref().and_then(|s| outputs.get(s.pass)),
                ) {
                    (Some(src), Some(out)) if src.mipmaps => {
                        let bytes: Vec<u8> = out
                            .color
                            .iter()
                            .flat_map(|p| {
                                let [a, r, g, b] = p.to_be_bytes();
                                [r, g, b, a]
                            })
                            .collect();
                        scene::box_chain(out.width, out.height, &bytes)
                            .iter()
                            .map(|l| {
                                l.chunks_exact(4)
                                    .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
                                    .collect()
                            })
                            .collect()
                    }
                    _ => Vec::new(),
                }
            })
            .collect();
        let pass_mip_refs: Vec<Vec<&[u32]>> = pass_mips
            .iter()
            .map(|ls| ls.iter().map(|l| l.as_slice()).collect())
            .collect();
        let mut units: [Option<TextureRef>; SAMPLER_MAX] = [None; SAMPLER_MAX];
        let levels: Vec<Vec<&[u32]>> = self
            .textures
            .iter()
            .map(|t| t.levels.iter().map(|l| l.as_slice()).collect())
            .collect();
        let face_levels: Vec<Vec<Vec<&[u32]>>> = self
            .textures
            .iter()
            .map(|t| {
                t.faces
                    .iter()
                    .map(|f| f.1.iter().map(|l| l.as_slice()).collect())
                    .collect()
            })
            .collect();
        let faces: Vec<Vec<TextureRef>> = self
            .textures
            .iter()
            .zip(face_levels.iter())
            .map(|(t, fl)| {
                t.faces
                    .iter()
                    .zip(fl.iter())
                    .map(|(f, mips)| TextureRef {
                        layers: &[],
                        faces: &[],
                        mips,
                        depth: None,
                        rgba: None,
                        ints: None,
                        width: t.width,
                        height: t.height,
                        texels: &f.0,
                        sampler: t.sampler,
                    })
                    .collect()
            })
            .collect();
        let layer_levels: Vec<Vec<Vec<&[u32]>>> = self
            .textures
            .iter()
            .map(|t| {
                t.layers
                    .iter()
                    .map(|f| f.1.iter().map(|l| l.as_slice()).collect())
                    .collect()
            })
            .collect();
        let layers: Vec<Vec<TextureRef>> = self
            .textures
            .iter()
            .zip(layer_levels.iter())
            .map(|(t, ll)| {
                let layer = |texels, mips, ints| TextureRef {
                    layers: &[],
                    faces: &[],
                    mips,
                    depth: None,
                    rgba: None,
                    ints,
                    width: t.width,
                    height: t.height,
                    texels,
                    sampler: t.sampler,
                };
                t.layers
                    .iter()
                    .zip(ll.iter())
                    .map(|(f, mips)| layer(&f.0[..], &mips[..], None))
                    // An integer array's layers: level 0 words.
                    .chain(t.int_layers.iter().map(|w| layer(&[], &[], Some(&w[..]))))
                    .collect()
            })
            .collect();
        for ((((t, mips), faces), pass_mips), layers) in self
            .textures
            .iter()
            .zip(levels.iter())
            .zip(faces.iter())
            .zip(pass_mip_refs.iter())
            .zip(layers.iter())
        {
            if let Some(src) = &t.source {
                // The scene model only names earlier passes; `load` built one per name.
                let Some(out) = outputs.get(src.pass) else {
                    return Err(failure(
                        1,
                        "render: a pass texture before its pass is drawn",
                    ));
                };
                let depth = src.attachment == scene::Attachment::Depth;
                if let Some(slot) = units.get_mut(t.unit) {
                    *slot = Some(TextureRef {
                        layers: &[],
                        faces: &[],
                        mips: pass_mips,
                        depth: if depth { Some(&out.depth) } else { None },
                        rgba: if !depth && !out.colorf.is_empty() {
                            Some(&out.colorf)
                        } else {
                            None
                        },
                        ints: None,
                        width: out.width,
                        height: out.height,
                        texels: &out.color,
                        sampler: t.sampler,
                    });
                }
                continue;
            }
            if let Some(slot) = units.get_mut(t.unit) {
                *slot = Some(TextureRef {
                    layers,
                    faces,
                    mips,
                    depth: None,
                    rgba: None,
                    ints: if t.ints.is_empty() {
                        None
                    } else {
                        Some(&t.ints)
                    },
                    width: t.width,
                    height: t.height,
                    texels: &t.texels,
                    sampler: t.sampler,
                });
            }
        }
        let input = VertexInput {
            data: &self.data,
            stride: self.stride,
            attribs: &self.attribs,
            count: self.count,
        };
        // An instanced draw is one call per instance, in instance order (as Gfx3D's software
        // backend draws `draw_instanced`); the statistics are summed.
        let mut total = DrawStats::default();
        for instance in 0..self.instances.max(1) {
            let constants: Vec<(u8, [f32; 4])> = self
                .per_instance
                .iter()
                .filter_map(|a| Some((a.location as u8, a.instance_value(instance)?)))
                .collect();
            let s = raster::draw_parallel_cleared(
                workers,
                scratches,
                &self.program,
                &input,
                &constants,
                instance,
                self.indices.as_deref(),
                &units,
                &self.state,
                &self.pipe,
                &mut target,
                colorf,
                (instance == 0).then_some(&clear),
            )
            .map_err(|e| failure(1, format!("render: {}", e)))?;
            total.triangles = total.triangles.saturating_add(s.triangles);
            total.culled = total.culled.saturating_add(s.culled);
            total.rejected = total.rejected.saturating_add(s.rejected);
            total.clipped = total.clipped.saturating_add(s.clipped);
            total.vertices_shaded = total.vertices_shaded.saturating_add(s.vertices_shaded);
            total.fragments_shaded = total.fragments_shaded.saturating_add(s.fragments_shaded);
            total.pixels_written = total.pixels_written.saturating_add(s.pixels_written);
        }
        Ok(total)
    }

    /// Draw once into a new picture.
    #[allow(dead_code)] // tests
    pub fn render(&self) -> Result<Image, Failure> {
        self.render_threads(1)
    }

    /// [`Self::render`] on `threads` threads (0: one per core).
    pub fn render_threads(&self, threads: usize) -> Result<Image, Failure> {
        self.render_jit(threads, jit())
    }

    /// The programs this scene draws with: its passes' (in order), then its own.
    #[allow(dead_code)] // the tests' (tests/jit_identical.rs)
    pub fn programs(&self) -> Vec<&Program> {
        let mut v: Vec<&Program> = self.passes.iter().flat_map(|p| p.programs()).collect();
        v.push(&self.program);
        v
    }

    /// [`Self::render_threads`] with the stages run through `jit`'s code where it has some
    /// (None: the interpreter only).
    pub fn render_jit(
        &self,
        threads: usize,
        jit: Option<&'static dyn raster::Jit>,
    ) -> Result<Image, Failure> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let n = self.width as usize * self.height as usize;
        let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
        let mut scratches: Vec<Scratch> = (0..threads)
            .map(|_| {
                let mut s = Scratch::new();
                s.set_jit(jit);
                s
            })
            .collect();
        self.draw_parallel(&Pool::new(threads), &mut scratches, &mut color, &mut depth)?;
        Image::from_argb(self.width, self.height, &color).map_err(|e| failure(1, e.to_string()))
    }
}

/// A scratch whose draws run through the compiled form where it applies (`jitmem::jit`:
/// x86-64 with AVX2, and `SHADER_JIT` not `0`); the interpreter otherwise. The pictures are
/// the same either way.
#[allow(dead_code)] // the bench's
pub fn jit_scratch() -> Scratch {
    let mut s = Scratch::new();
    s.set_jit(jit());
    s
}

/// The host's compiled form ([`jit_scratch`]).
pub fn jit() -> Option<&'static dyn raster::Jit> {
    #[cfg(all(target_arch = "x86_64", unix))]
    {
        jitmem::jit()
    }
    #[cfg(not(all(target_arch = "x86_64", unix)))]
    {
        None
    }
}

/// Stack of each [`Pool`] thread: a fixed size, not the 64 MiB that this workspace's
/// `RUST_MIN_STACK` gives every thread under cargo; a band's job does not recurse and keeps its
/// working memory in its scratch.
const POOL_STACK: usize = 8 << 20;

/// Runs back to back: the longest gap between two runs after which a [`Pool`]'s threads wait
/// awake for the next one, and the longest they wait (see [`Pool`]).
const LINGER_MAX: Duration = Duration::from_micros(200);

/// Longest the caller waits awake for the jobs it handed over once its own has ended, before it
/// sleeps until they have: at least this, at most [`JOIN_SPIN_MAX`], and an eighth of its own
/// job's time in between (a long job's ends lie further apart: lights' two groups ~0.5 ms of
/// 7 ms, whose wake-up from the sleep then cost ~60 us; session 18).
const JOIN_SPIN: Duration = Duration::from_micros(300);
const JOIN_SPIN_MAX: Duration = Duration::from_micros(1500);

/// Persistent workers for [`raster::draw_parallel`] (issue 17): `count - 1` threads started once
/// and parked between draws (rayon-core's pool, which keeps the jobs' borrows safe), so that a
/// draw hands its jobs over instead of starting threads; the caller's thread runs the first job.
/// The bands are dealt by the rasterizer's own lock-free queue, so the picture does not depend on
/// which thread runs which job. A pool whose threads cannot be started runs every job here.
///
/// Waking a parked thread costs the caller a system call (about 10 us on this project's VMs)
/// and the thread another 15-25 us before it runs, and the caller woken at the join about 18 us
/// (session 16's `band_cost ... probe`): a lit cube's frame on 2 threads is 0.3 ms. So the
/// caller waits awake (up to [`JOIN_SPIN`]) for its jobs' ends, and while runs come back to back
/// (the next within [`LINGER_MAX`] of the last one's end: the draws of a frame, frames drawn
/// one after the other) the threads wait awake after a run for twice the last gap, at most
/// [`LINGER_MAX`]. Not longer: a thread spinning while the caller draws alone (the bench's
/// one-thread frames between its pool's) slowed that drawing by up to a fifth when the host
/// ran the two virtual CPUs on one physical core.
///
/// The thread that makes a pool is one of its threads (session 18, rayon-core's
/// `use_current_thread`: it is the pool's thread 0 and the scope's jobs wait in its own queue):
/// a job that no thread has started by the time the caller's own job has ended (every band
/// drawn) is then run by the caller at the scope's end, where it finds the queue empty and ends
/// at once, instead of the caller waiting for the scheduler to run a parked thread only to find
/// nothing to do (on a machine with more runnable threads than cores, a textured quad's frame
/// on 2 threads took 3-5x its one-thread time that way). A thread can be one of only one
/// rayon-core pool's threads for its whole life (the pool's registry is then never freed), so
/// each thread keeps its first such pool ([`JOINED`]) and every later [`Pool::new`] of the same
/// count on that thread shares it; a pool of another count, or made on a thread that is already
/// one of another pool's threads, is the caller-outside pool of sessions 10-17
/// ([`Pool::outside`]), as is a run called from another thread than the one that made the pool.
pub struct Pool {
    shared: Option<std::sync::Arc<Shared>>,
    count: usize,
    /// Whether the caller and the threads wait awake as described above (false: session 15's
    /// pool, every wait asleep in rayon-core, for `band_cost ... ab`).
    awake: bool,
}

/// A [`Pool`]'s threads and what its runs share (one per pool, or per thread for a joined one).
struct Shared {
    threads: rayon_core::ThreadPool,
    /// The thread that made it when that thread is the pool's thread 0 (None: outside it).
    joined: Option<std::thread::ThreadId>,
    /// Runs started so far: a thread waiting awake stops when it changes.
    runs: std::sync::Arc<AtomicU64>,
    /// When the last run ended (None: no run yet).
    last_end: std::sync::Mutex<Option<Instant>>,
}

thread_local! {
    /// This thread's joined pool and its count (see [`Pool`]): kept for the thread's life.
    static JOINED: std::cell::RefCell<Option<(usize, std::sync::Arc<Shared>)>> =
        const { std::cell::RefCell::new(None) };
}

impl Pool {
    /// A pool for `count` jobs at once (0 or 1: none started, jobs run on the caller's thread),
    /// whose maker is one of its threads (see [`Pool`]).
    pub fn new(count: usize) -> Pool {
        if count <= 1 {
            return Pool::with_waits(count, true);
        }
        let joined = JOINED.with(|j| {
            let mut j = j.borrow_mut();
            match &*j {
                Some((n, shared)) => (*n == count).then(|| shared.clone()),
                None => {
                    let shared = Pool::threads(count, true)?;
                    *j = Some((count, shared.clone()));
                    Some(shared)
                }
            }
        });
        match joined {
            Some(shared) => Pool {
                shared: Some(shared),
                count,
                awake: true,
            },
            None => Pool::with_waits(count, true),
        }
    }

    /// Sessions 16-17's pool: [`Pool::new`] whose caller is not one of its threads (for
    /// `band_trace ... outside`, which alternates it with [`Pool::new`]'s).
    #[allow(dead_code)] // band_trace's
    pub fn outside(count: usize) -> Pool {
        Pool::with_waits(count, true)
    }

    /// [`Pool::outside`] whose caller and threads wait awake (`awake`) or asleep (session 15's
    /// pool).
    pub fn with_waits(count: usize, awake: bool) -> Pool {
        let shared = if count > 1 {
            Pool::threads(count, false)
        } else {
            None
        };
        let count = if shared.is_some() { count } else { 1 };
        Pool {
            shared,
            count,
            awake,
        }
    }

    /// The threads of a pool of `count` (`join`: this thread one of them); None when they
    /// cannot be started, or this thread cannot join (it already belongs to a pool).
    fn threads(count: usize, join: bool) -> Option<std::sync::Arc<Shared>> {
        let builder = rayon_core::ThreadPoolBuilder::new()
            .stack_size(POOL_STACK)
            .thread_name(|i| format!("shc-band-{}", i));
        let threads = if join {
            builder.num_threads(count).use_current_thread().build()
        } else {
            builder.num_threads(count - 1).build()
        };
        Some(std::sync::Arc::new(Shared {
            threads: threads.ok()?,
            joined: join.then(|| std::thread::current().id()),
            runs: std::sync::Arc::new(AtomicU64::new(0)),
            last_end: std::sync::Mutex::new(None),
        }))
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Threads waiting awake for a next run stop now.
        if let Some(shared) = &self.shared {
            shared.runs.fetch_add(1, Ordering::Release);
        }
    }
}

/// How often [`wait_awake`] yields the core: rarely, since a system call every few microseconds
/// slows a thread running on the same physical core (a host's SMT sibling) by a fifth.
const YIELD_EVERY: Duration = Duration::from_micros(50);

/// Waits awake until `done()` or `limit` has passed (true: done): `pause` between looks (kind to
/// a thread on the same physical core), the core yielded every [`YIELD_EVERY`] so that a thread
/// queued behind this one, or other work, can run.
fn wait_awake(limit: Duration, done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    let mut yielded = start;
    loop {
        for _ in 0..256 {
            if done() {
                return true;
            }
            std::hint::spin_loop();
        }
        let now = Instant::now();
        if now.duration_since(start) >= limit {
            return done();
        }
        if now.duration_since(yielded) >= YIELD_EVERY {
            std::thread::yield_now();
            yielded = now;
        }
    }
}

impl Workers for Pool {
    fn count(&self) -> usize {
        self.count
    }

    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let Some((first, rest)) = jobs.split_first_mut() else {
            return;
        };
        let Some(shared) = &self.shared else {
            first();
            for job in rest.iter_mut() {
                job();
            }
            return;
        };
        // This thread is one of the pool's: the jobs wait in its queue, and one still there
        // when the scope ends runs here.
        let here = shared.joined == Some(std::thread::current().id());
        // A thread still waiting awake from the last run takes its job without being woken.
        shared.runs.fetch_add(1, Ordering::Release);
        let start = Instant::now();
        let gap = shared
            .last_end
            .lock()
            .ok()
            .and_then(|t| *t)
            .map(|t| start.saturating_duration_since(t));
        let spawned = rest.len();
        let left = AtomicUsize::new(spawned);
        let started = AtomicUsize::new(0);
        // The scope returns when every job spawned in it has run.
        shared.threads.in_place_scope(|s| {
            for job in rest.iter_mut() {
                let (left, started) = (&left, &started);
                s.spawn(move |_| {
                    started.fetch_add(1, Ordering::Release);
                    job();
                    left.fetch_sub(1, Ordering::Release);
                });
            }
            let own = Instant::now();
            first();
            let spin = (own.elapsed() / 8).clamp(JOIN_SPIN, JOIN_SPIN_MAX);
            // The other jobs usually end within microseconds of this one: waiting awake
            // spares the wake-up at the scope's end (a job whose thread has not started yet
            // finds no band left and ends at once: on a joined pool the scope's end runs it
            // here, so the wait stops as soon as one has not started).
            if self.awake {
                wait_awake(spin, || {
                    left.load(Ordering::Acquire) == 0
                        || (here && started.load(Ordering::Acquire) < spawned)
                });
            }
        });
        let end = Instant::now();
        if let Ok(mut t) = shared.last_end.lock() {
            *t = Some(end);
        }
        // Runs back to back: the threads wait awake for the next one (not the caller, the
        // joined pool's thread 0, which would run its share at its next scope's end).
        if let Some(gap) = gap.filter(|&g| self.awake && g <= LINGER_MAX) {
            let linger = (gap * 2).min(LINGER_MAX);
            let runs = shared.runs.clone();
            let now = runs.load(Ordering::Acquire);
            let joined = shared.joined.is_some();
            shared.threads.spawn_broadcast(move |ctx| {
                if !(joined && ctx.index() == 0) {
                    wait_awake(linger, || runs.load(Ordering::Acquire) != now);
                }
            });
        }
    }
}

/// The control of the many-thread measurements (the bench's thread table, `band_cost ...
/// probe`): pure arithmetic (no memory traffic, no shared data) as long as a scene's frame, run
/// whole on this thread and split into equal parts on a pool: the scaling the machine allows
/// under its present load. (A dependent multiply chain: it does not notice two virtual CPUs
/// sharing one physical core.)
#[allow(dead_code)] // the bench's and band_cost's
pub struct Control {
    /// Steps of each part.
    part: u64,
    threads: usize,
}

#[allow(dead_code)]
impl Control {
    /// A control as long as `secs` on one thread, split in `threads` parts.
    pub fn new(secs: f64, threads: usize) -> Control {
        let threads = threads.max(1);
        let unit = (0..10)
            .map(|_| {
                let s = Instant::now();
                spin(1 << 20);
                s.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min);
        let part = (secs / unit * (1 << 20) as f64) as u64 / threads as u64;
        Control { part, threads }
    }

    /// One frame whole on this thread, then one split on `pool`: their seconds.
    pub fn frame(&self, pool: &Pool) -> (f64, f64) {
        let part = self.part;
        let s = Instant::now();
        spin(part * self.threads as u64);
        let one = s.elapsed().as_secs_f64();
        let mut jobs: Vec<Box<dyn FnMut() + Send>> = (0..self.threads)
            .map(|_| Box::new(move || spin(part)) as _)
            .collect();
        let mut refs: Vec<&mut (dyn FnMut() + Send)> =
            jobs.iter_mut().map(|j| &mut **j as _).collect();
        let s = Instant::now();
        pool.run(&mut refs);
        (one, s.elapsed().as_secs_f64())
    }
}

/// `n` steps of a dependent multiply chain.
#[allow(dead_code)]
fn spin(n: u64) {
    let mut x = 1u64;
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
    }
    std::hint::black_box(x);
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Compile, link and prepare a scene from files (the common part of `shc render` and the bench).
pub fn load(
    vert: &Path,
    frag: &Path,
    scene: &Path,
    opts: &CompileOptions,
) -> Result<(SoftScene, Vec<String>), Failure> {
    let (vs, fs) = (read_source(vert)?, read_source(frag)?);
    let built = build_program(&vs, &file_name(vert), &fs, &file_name(frag), opts)?;
    let scene = Scene::load(scene).map_err(|e| failure(1, e.to_string()))?;
    let mut warnings = Vec::new();
    let mut passes = Vec::new();
    // Each pass: its own shaders (named by the scene file), program and target.
    for pass in &scene.passes {
        let (pv, pf) = (Path::new(&pass.vertex), Path::new(&pass.fragment));
        let (vs, fs) = (read_source(pv)?, read_source(pf)?);
        let b =
            build_program(&vs, &file_name(pv), &fs, &file_name(pf), opts).map_err(|e| Failure {
                message: format!("pass \"{}\": {}", pass.name, e.message),
                ..e
            })?;
        warnings.extend(b.warnings);
        let mut soft = SoftScene::new(b.program, &pass.scene).map_err(|e| Failure {
            message: format!("pass \"{}\": {}", pass.name, e.message),
            ..e
        })?;
        soft.float = pass.format == scene::ColorFormat::Rgba32f;
        passes.push(soft);
    }
    warnings.extend(built.warnings);
    let mut soft = SoftScene::new(built.program, &scene)?;
    soft.passes = passes;
    Ok((soft, warnings))
}

fn report(r: Result<(), Failure>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("{}", f.message);
            f.code
        }
    }
}

/// `shc render VERT FRAG --scene SCENE.json --out OUT.png`
pub fn render(
    vert: &Path,
    frag: &Path,
    scene: &Path,
    out: &Path,
    threads: usize,
    opts: &CompileOptions,
) -> i32 {
    report((|| {
        let (soft, warnings) = load(vert, frag, scene, opts)?;
        for w in &warnings {
            eprintln!("{}", w);
        }
        for name in &soft.unused_uniforms {
            eprintln!(
                "note: the program has no uniform {} (given by the scene)",
                name
            );
        }
        let image = soft.render_threads(threads)?;
        scene::write_png(out, &image).map_err(|e| failure(2, e.to_string()))
    })())
}

/// `shc link VERT FRAG`: exit 0 when the pair links (with a summary), 1 with the log when not.
/// With `json`, stdout holds only the diagnostics, one JSON object per line.
pub fn link(vert: &Path, frag: &Path, opts: &CompileOptions, json: bool) -> i32 {
    let result = (|| {
        let (vs, fs) = (read_source(vert)?, read_source(frag)?);
        build_program(&vs, &file_name(vert), &fs, &file_name(frag), opts)
    })();
    let built = match result {
        Ok(b) => b,
        Err(f) if json && f.code == 1 => {
            for d in &f.diags {
                println!("{}", d);
            }
            return 1;
        }
        Err(f) => return report(Err(f)),
    };
    if json {
        for d in &built.json {
            println!("{}", d);
        }
        return 0;
    }
    for w in &built.warnings {
        eprintln!("{}", w);
    }
    let program = &built.program;
    let mut s = String::new();
    let _ = writeln!(s, "linked (generation {})", program.generation());
    for a in program.attributes() {
        let _ = writeln!(
            s,
            "attribute {} {} location {}",
            a.ty.name(),
            a.name,
            a.location
        );
    }
    for v in program.varyings() {
        let _ = writeln!(
            s,
            "varying {} {} vertex slot {} fragment slot {}",
            v.ty.name(),
            v.name,
            v.vs_slot,
            v.fs_slot
        );
    }
    for u in program.uniforms() {
        let stages = match (u.vs_slot, u.fs_slot) {
            (Some(_), Some(_)) => "both stages",
            (Some(_), None) => "vertex",
            _ => "fragment",
        };
        let _ = writeln!(s, "uniform {} {} ({})", u.ty.name(), u.name, stages);
    }
    for smp in program.samplers() {
        let _ = writeln!(s, "sampler2D {} unit {}", smp.name, smp.unit);
    }
    print!("{}", s);
    0
}

/// The scene's pipeline state (GL enum values, validated by the scene model) as the
/// rasterizer's.
fn pipeline_of(p: &scene::Pipeline) -> Result<Pipeline, Failure> {
    let bad =
        |what: &str, v: u32| failure(1, format!("scene: {} 0x{:x} is not supported", what, v));
    let factor = |v: u32| BlendFactor::from_gl(v).ok_or_else(|| bad("blend factor", v));
    let op = |v: u32| BlendOp::from_gl(v).ok_or_else(|| bad("blend equation", v));
    let blend = match &p.blend {
        None => None,
        Some(b) => Some(Blend {
            color: BlendComponent {
                src: factor(b.src_rgb)?,
                dst: factor(b.dst_rgb)?,
                op: op(b.eq_rgb)?,
            },
            alpha: BlendComponent {
                src: factor(b.src_alpha)?,
                dst: factor(b.dst_alpha)?,
                op: op(b.eq_alpha)?,
            },
            constant: b.color,
        }),
    };
    let cull = match p.cull_face {
        0 => CullFace::None,
        0x404 => CullFace::Front,
        0x405 => CullFace::Back,
        0x408 => CullFace::FrontAndBack,
        v => return Err(bad("cull face", v)),
    };
    let front_face = match p.front_face {
        0x900 => FrontFace::Cw,
        0x901 => FrontFace::Ccw,
        v => return Err(bad("front face", v)),
    };
    Ok(Pipeline {
        blend,
        depth_func: CompareFunc::from_gl(p.depth_func)
            .ok_or_else(|| bad("depth function", p.depth_func))?,
        color_mask: ColorMask {
            r: p.color_mask[0],
            g: p.color_mask[1],
            b: p.color_mask[2],
            a: p.color_mask[3],
        },
        scissor: p.scissor.map(|[x, y, w, h]| Scissor {
            x,
            y,
            width: w.max(0) as u32,
            height: h.max(0) as u32,
        }),
        offset_factor: p.polygon_offset[0],
        offset_units: p.polygon_offset[1],
        front_face,
        cull,
    })
}
