//! The shader crate's linked program as a Gfx3D program: reflection, uniforms by name, the
//! generation stamp, TGSI with the link's varying remap, constant-buffer words, and software
//! execution through `shader::back::raster` (with one reusable rasterizer scratch per program, so a
//! draw needs no large stack frame).
//!
//! This module must never change program state except uniforms, and never panic.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use shader::back::raster::{
    self, DrawError, RasterState, Scratch, Target, TextureRef, VertexAttrib, VertexInput,
};
use shader::ir::Stage as IrStage;
use shader::limits::SAMPLER_CAP;
use shader::program::cache::Compiler;
use shader::program::compile::CompileOptions;
use shader::program::link::{LinkError, Program};

use crate::layout::fetch;
use crate::program::*;
use crate::texture::SamplerState;

/// A linked program ready for `Gfx3d::prog_prepare`.
pub struct Linked {
    /// Boxed: a linked program at profile-2 capacity is about 2 MiB.
    program: Box<Program>,
    /// One rasterizer scratch per band of a draw (grown to the workers' count at a draw).
    scratches: Vec<Scratch>,
}

/// Why building a program from GLSL failed (the rendered diagnostics or link log).
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    Compile { stage: &'static str, log: String },
    Link { log: String },
}

impl core::fmt::Display for BuildError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BuildError::Compile { stage, log } => {
                write!(f, "{} shader did not compile: {}", stage, log)
            }
            BuildError::Link { log } => write!(f, "program did not link: {}", log),
        }
    }
}

/// A draw's working memory; with the `std` feature on an x86-64 host its draws run through the
/// compiled form of the shaders where it applies (`jitmem::jit`, `SHADER_JIT=0` turns it off).
fn new_scratch() -> Scratch {
    #[allow(unused_mut)]
    let mut s = Scratch::new();
    #[cfg(all(feature = "std", target_arch = "x86_64", unix))]
    s.set_jit(jitmem::jit());
    s
}

impl Linked {
    pub fn new(program: Program) -> Linked {
        Linked::from_box(Box::new(program))
    }

    /// [`Linked::new`] for a program already on the heap (no copy through the stack).
    pub fn from_box(program: Box<Program>) -> Linked {
        Linked {
            program,
            scratches: alloc::vec![new_scratch()],
        }
    }

    /// Compiles a vertex and a fragment source through `compiler` (the compile cache: a source
    /// compiled before is not compiled again; see `Gfx3d::compiler`) and links them.
    pub fn from_glsl(
        compiler: &mut Compiler,
        vs: &str,
        fs: &str,
        name: &str,
    ) -> Result<Linked, BuildError> {
        Linked::from_glsl_with(compiler, vs, fs, name, &CompileOptions::default())
    }

    /// [`Linked::from_glsl`] with compile options: `CompileOptions::profile(Profile::P2)`
    /// builds a profile-2 program (a source's own `#pragma chrisos profile N` still overrides
    /// the option). The options are part of the compile cache's key.
    pub fn from_glsl_with(
        compiler: &mut Compiler,
        vs: &str,
        fs: &str,
        name: &str,
        opts: &CompileOptions,
    ) -> Result<Linked, BuildError> {
        use core::fmt::Write;
        let v = compiler
            .compile_with(0, vs.as_bytes(), name, opts)
            .map_err(|d| {
                let mut log = String::new();
                let _ = d.render(vs.as_bytes(), &mut log);
                BuildError::Compile {
                    stage: "vertex",
                    log,
                }
            })?;
        let f = compiler
            .compile_with(1, fs.as_bytes(), name, opts)
            .map_err(|d| {
                let mut log = String::new();
                let _ = d.render(fs.as_bytes(), &mut log);
                BuildError::Compile {
                    stage: "fragment",
                    log,
                }
            })?;
        let mut p = Box::new(Program::new());
        p.link(Some(&v.module), Some(&f.module))
            .map_err(|e: LinkError| {
                let mut log = String::new();
                let _ = write!(log, "{}: {}", e, p.log());
                BuildError::Link { log }
            })?;
        Ok(Linked::from_box(p))
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// For relinking (Gfx3D notices the new generation at the next use or draw).
    pub fn program_mut(&mut self) -> &mut Program {
        &mut self.program
    }
}

fn stage(s: Stage) -> IrStage {
    match s {
        Stage::Vertex => IrStage::Vertex,
        Stage::Fragment => IrStage::Fragment,
    }
}

fn sampler(s: SamplerState) -> raster::SamplerState {
    s
}

fn draw_error(e: DrawError) -> &'static str {
    match e {
        DrawError::NotLinked => "program is not linked",
        DrawError::TargetSize { .. } => "target size out of range",
        DrawError::TargetBuffers { .. } => "target buffers too small",
        DrawError::Viewport { .. } => "viewport out of range (edges 1..=8192, |x|, |y| <= 8192)",
        DrawError::Attribute { .. } => "vertex attribute out of range",
        DrawError::VertexData { .. } => "vertex data too short for the layout",
        DrawError::Index { .. } => "index out of range",
        DrawError::Texture { .. } => "texture unusable",
        DrawError::Scissor { .. } => "scissor out of range (edges 0..=8192, |x|, |y| <= 8192)",
        DrawError::PolygonOffset => "polygon offset not finite",
    }
}

impl ShaderProgram for Linked {
    fn is_linked(&self) -> bool {
        self.program.is_linked()
    }

    fn generation(&self) -> u32 {
        self.program.generation()
    }

    fn attributes(&self) -> Attributes {
        let mut a = Attributes::new();
        for at in self.program.attributes() {
            let _ = a.push(AttributeReq {
                location: at.location,
                components: at.components,
            });
        }
        a
    }

    fn attribute_kind(&self, location: u8) -> crate::layout::ElementKind {
        self.program
            .attributes()
            .iter()
            .find(|a| a.location == location)
            .map_or(crate::layout::ElementKind::F32, |a| {
                crate::layout::ElementKind::of_type(a.ty)
            })
    }

    fn has_uniform(&self, name: &str) -> bool {
        self.program.uniform_find(name).is_some()
            || !self.program.uniform_array_find::<1>(name).is_empty()
    }

    fn set_uniform(&mut self, name: &str, values: &[f32]) -> Result<(), UniformError> {
        if self.program.uniform_find(name).is_none()
            && !self.program.uniform_array_find::<1>(name).is_empty()
        {
            // Profile 2: a whole uniform array (`name[0]`, `name[1]`, ...).
            return self
                .program
                .set_uniform_array(name, values)
                .map(|_| ())
                .map_err(|e| match e {
                    shader::program::link::UniformError::WrongCount { found, .. } => {
                        UniformError::Size { found }
                    }
                    _ => UniformError::NoSuchUniform,
                });
        }
        let i = self
            .program
            .uniform_find(name)
            .ok_or(UniformError::NoSuchUniform)?;
        self.program.set_uniform(i, values).map_err(|e| match e {
            shader::program::link::UniformError::WrongCount { found, .. } => {
                UniformError::Size { found }
            }
            _ => UniformError::NoSuchUniform,
        })
    }

    fn draw_software(
        &mut self,
        d: &SoftDraw<'_>,
        t: &mut SoftTarget<'_>,
    ) -> Result<u32, &'static str> {
        let mut attribs = [VertexAttrib {
            location: 0,
            offset: 0,
            components: 1,
        }; 8];
        // Per-vertex elements are vertex attributes; per-instance ones are constants of each
        // instance (below).
        let mut n = 0usize;
        for e in d.layout.elements.iter() {
            if d.layout.divisor(e.location) != 0 {
                continue;
            }
            if let Some(a) = attribs.get_mut(n) {
                *a = VertexAttrib {
                    location: e.location,
                    offset: e.offset / 4,
                    components: e.components,
                };
                n += 1;
            }
        }
        let stride = (d.layout.stride / 4).max(1);
        let input = VertexInput {
            data: d.vertices,
            stride,
            attribs: &attribs[..n],
            count: (d.vertices.len() / stride as usize) as u32,
        };
        // A cube's 6 faces as textures of their own (face 0 is the texture's own texels).
        let faces: [Vec<TextureRef<'_>>; SAMPLER_CAP] =
            core::array::from_fn(|u| match d.textures.get(u).copied().flatten() {
                Some(x) if x.faces.len() == 5 => {
                    let face = |texels, mips| TextureRef {
                        layers: &[],
                        faces: &[],
                        mips,
                        depth: None,
                        rgba: None,
                        ints: None,
                        width: x.width,
                        height: x.height,
                        texels,
                        sampler: sampler(x.sampler),
                    };
                    let mut v = Vec::with_capacity(6);
                    v.push(face(x.texels, x.mips));
                    for f in x.faces {
                        v.push(face(f.0, f.1));
                    }
                    v
                }
                _ => Vec::new(),
            });
        // An array's layers as textures of their own (layer 0 first).
        let layers: [Vec<TextureRef<'_>>; SAMPLER_CAP] =
            core::array::from_fn(|u| match d.textures.get(u).copied().flatten() {
                Some(x) if !x.layers.is_empty() => x
                    .layers
                    .iter()
                    .map(|&(texels, mips)| TextureRef {
                        layers: &[],
                        faces: &[],
                        mips,
                        depth: None,
                        rgba: None,
                        ints: None,
                        width: x.width,
                        height: x.height,
                        texels,
                        sampler: sampler(x.sampler),
                    })
                    .collect(),
                // An integer array's layers: level 0 words only.
                Some(x) if !x.int_layers.is_empty() => x
                    .int_layers
                    .iter()
                    .map(|&ints| TextureRef {
                        layers: &[],
                        faces: &[],
                        mips: &[],
                        depth: None,
                        rgba: None,
                        ints: Some(ints),
                        width: x.width,
                        height: x.height,
                        texels: &[],
                        sampler: sampler(x.sampler),
                    })
                    .collect(),
                _ => Vec::new(),
            });
        let mut textures: [Option<TextureRef<'_>>; SAMPLER_CAP] = [None; SAMPLER_CAP];
        for (((slot, tx), faces), layers) in textures
            .iter_mut()
            .zip(d.textures.iter())
            .zip(faces.iter())
            .zip(layers.iter())
        {
            *slot = tx.map(|x| TextureRef {
                layers,
                faces,
                mips: x.mips,
                depth: x.depth,
                rgba: x.rgba,
                ints: x.ints,
                width: x.width,
                height: x.height,
                texels: x.texels,
                sampler: sampler(x.sampler),
            });
        }
        let vp = d.viewport;
        let state = RasterState {
            viewport: [
                vp.x,
                vp.y,
                vp.width.min(i32::MAX as u32) as i32,
                vp.height.min(i32::MAX as u32) as i32,
            ],
            depth_test: d.depth_test,
            depth_write: d.depth_write,
            // Culling comes from the pipeline (which also knows the front face).
            cull_back: false,
        };
        let mut target = Target {
            width: t.width,
            height: t.height,
            color: t.color,
            depth: t.depth,
        };
        let bands = d.workers.count().clamp(1, shader::limits::RASTER_BANDS_MAX);
        while self.scratches.len() < bands {
            self.scratches.push(new_scratch());
        }
        let scratches = self.scratches.get_mut(..bands).unwrap_or(&mut []);
        if d.instances <= 1 && !d.layout.has_instanced() {
            let stats = raster::draw_parallel_float(
                d.workers,
                scratches,
                &self.program,
                &input,
                &[],
                0,
                d.indices,
                &textures,
                &state,
                &d.pipeline,
                &mut target,
                &mut *t.colorf,
            )
            .map_err(draw_error)?;
            return Ok(stats
                .triangles
                .saturating_sub(stats.culled + stats.rejected));
        }
        // One rasterizer call per instance, in instance order (as a device draws them).
        let mut drawn = 0u32;
        for instance in 0..d.instances.max(1) {
            let mut constants = [(0u8, [0.0f32; 4]); 8];
            let mut k = 0usize;
            for e in d.layout.elements.iter() {
                let div = d.layout.divisor(e.location);
                if div == 0 {
                    continue;
                }
                let row = (instance / div) as usize;
                if let Some(c) = constants.get_mut(k) {
                    *c = (e.location, fetch(d.layout, d.vertices, row, e));
                    k += 1;
                }
            }
            let stats = raster::draw_parallel_float(
                d.workers,
                &mut *scratches,
                &self.program,
                &input,
                &constants[..k],
                instance,
                d.indices,
                &textures,
                &state,
                &d.pipeline,
                &mut target,
                &mut *t.colorf,
            )
            .map_err(draw_error)?;
            drawn = drawn.saturating_add(
                stats
                    .triangles
                    .saturating_sub(stats.culled + stats.rejected),
            );
        }
        Ok(drawn)
    }

    fn tgsi(&self, s: Stage, out: &mut String) -> Result<u32, &'static str> {
        if !self.program.is_linked() {
            return Err("program is not linked");
        }
        // A link emits both stages (the fragment stage with its varying remap) and fails when
        // either cannot be emitted, so a linked program always has its text.
        let text = self.program.tgsi(stage(s));
        if text.is_empty() {
            return Err("TGSI emission failed");
        }
        // The VirGL backend draws every target GL-native (row 0 = window y 0, a positive
        // viewport y-scale; see `virgl`): a fragment stage whose text depends on that (reads
        // gl_FragCoord, or takes dFdy) is emitted again for it (`tgsi::Framebuffer`); the
        // link's text is the emitter's default (upright).
        let has = |what: &[u8]| text.as_bytes().windows(what.len()).any(|w| w == what);
        if s == Stage::Fragment && (has(b"PROPERTY FS_COORD_ORIGIN") || has(b"DDY ")) {
            if let Some(fs) = self.program.module(IrStage::Fragment) {
                let opts = shader::back::tgsi::EmitOptions {
                    framebuffer: shader::back::tgsi::Framebuffer::GlNative,
                };
                let mut native = shader::back::tgsi::TgsiText::new();
                shader::back::tgsi::emit_with(
                    fs,
                    Some(self.program.varying_remap()),
                    opts,
                    &mut native,
                )
                .map_err(|_| "TGSI emission failed")?;
                // The device interface carries text: the bytes are checked once per upload.
                out.push_str(native.as_str());
                return Ok(shader::back::tgsi::token_bound(&native));
            }
        }
        let tokens = shader::back::tgsi::token_bound(text);
        out.push_str(text.as_str());
        Ok(tokens)
    }

    fn constants(&self, s: Stage) -> &[f32] {
        let words = self.program.uniform_words(stage(s));
        let n = (self.program.uniform_vec4s(stage(s)) * 4).min(words.len());
        words.get(..n).unwrap_or(&[])
    }

    fn sampler_units(&self) -> u16 {
        self.program
            .samplers()
            .iter()
            .fold(0u16, |acc, s| acc | (1u16 << (s.unit & 15)))
    }

    fn integer_sampler_units(&self) -> u16 {
        self.program
            .samplers()
            .iter()
            .filter(|s| {
                matches!(
                    s.ty,
                    shader::ir::Type::ISampler2D
                        | shader::ir::Type::USampler2D
                        | shader::ir::Type::ISampler2DArray
                        | shader::ir::Type::USampler2DArray
                )
            })
            .fold(0u16, |acc, s| acc | (1u16 << (s.unit & 15)))
    }

    fn array_sampler_units(&self) -> u16 {
        self.program
            .samplers()
            .iter()
            .filter(|s| s.ty.is_array_sampler())
            .fold(0u16, |acc, s| acc | (1u16 << (s.unit & 15)))
    }

    fn unsigned_sampler_units(&self) -> u16 {
        self.program
            .samplers()
            .iter()
            .filter(|s| {
                matches!(
                    s.ty,
                    shader::ir::Type::USampler2D | shader::ir::Type::USampler2DArray
                )
            })
            .fold(0u16, |acc, s| acc | (1u16 << (s.unit & 15)))
    }
}
