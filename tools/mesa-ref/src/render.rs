//! Drawing a scene with GL: program, vertex arrays, uniforms, textures, an off-screen target,
//! readback, and the primitive-id pass that marks triangle edges.
//!
//! Owns: the mapping of the scene format onto GL state (attribute locations, uniforms by name,
//! textures per unit with row 0 = v 0, viewport, depth LESS on a float depth buffer, CCW front
//! faces with back-face culling, no blending or dithering, attribute divisors and instanced
//! draws; `"passes"` into FBOs of colour and depth textures that later passes sample, with no
//! flip) and the flip of GL's bottom-up
//! readback into row 0 = top. Must never: leave a GL error unreported or draw with state a
//! previous scene left behind (every [`Prepared`] sets all of it).

use std::time::{Duration, Instant};

use glow::HasContext;
use scene::{Filter, Image, Mip, Scene, TexFormat, Wrap};

use crate::{fail, source, MesaError, MesaRenderer};

const ID_FRAGMENT_SHADER: &str = "#version 330 core\nout uint id_out;\n\
    void main() { id_out = uint(gl_PrimitiveID) + 1u; }\n";

/// A rendering of a scene and the triangle-edge flags for comparisons (both row 0 = top).
pub struct Frame {
    pub image: Image,
    pub edges: Vec<bool>,
}

/// GL objects for one scene, ready to draw any number of times.
pub struct Prepared {
    program: glow::Program,
    id_program: glow::Program,
    shaders: Vec<glow::Shader>,
    vao: glow::VertexArray,
    buffers: Vec<glow::Buffer>,
    textures: Vec<glow::Texture>,
    fbo: glow::Framebuffer,
    id_fbo: glow::Framebuffer,
    renderbuffers: Vec<glow::Renderbuffer>,
    /// A pass's target (see [`MesaRenderer::draw_passes`]): its colour and depth textures,
    /// which later passes and the picture sample; None for the picture's renderbuffers.
    outputs: Option<(glow::Texture, glow::Texture)>,
    width: u32,
    height: u32,
    viewport: [i32; 4],
    clear: [f32; 4],
    depth: bool,
    /// Blending, depth function and mask, colour mask, scissor, faces, polygon offset.
    pipeline: scene::Pipeline,
    indexed: bool,
    count: i32,
    /// `"instances"`: glDraw*Instanced with this count (1 for a plain scene, drawn as one
    /// instance, which is the same draw).
    instances: i32,
    /// User clip planes enabled (GL_CLIP_DISTANCE0..n): the distances the vertex shader
    /// writes (`source::clip_planes`).
    clip_planes: u32,
    /// Scene uniforms the linked program does not have (absent or removed as unused by Mesa).
    pub inactive_uniforms: Vec<String>,
}

fn compile(
    gl: &glow::Context,
    stage: u32,
    label: &str,
    text: &str,
) -> Result<glow::Shader, MesaError> {
    // SAFETY (all GL calls in this module): the renderer's context is current on this thread and
    // every object passed was created on it; slices outlive the calls that read them.
    unsafe {
        let sh = gl
            .create_shader(stage)
            .map_err(|e| MesaError(format!("glCreateShader: {}", e)))?;
        gl.shader_source(sh, text);
        gl.compile_shader(sh);
        if !gl.get_shader_compile_status(sh) {
            let log = gl.get_shader_info_log(sh);
            gl.delete_shader(sh);
            return fail(format!(
                "Mesa rejected the {} shader:\n{}",
                label,
                log.trim_end()
            ));
        }
        Ok(sh)
    }
}

fn link(
    gl: &glow::Context,
    label: &str,
    vs: glow::Shader,
    fs: glow::Shader,
    attribs: &[(String, u32)],
) -> Result<glow::Program, MesaError> {
    unsafe {
        let p = gl
            .create_program()
            .map_err(|e| MesaError(format!("glCreateProgram: {}", e)))?;
        gl.attach_shader(p, vs);
        gl.attach_shader(p, fs);
        for (name, loc) in attribs {
            gl.bind_attrib_location(p, *loc, name);
        }
        gl.link_program(p);
        if !gl.get_program_link_status(p) {
            let log = gl.get_program_info_log(p);
            gl.delete_program(p);
            return fail(format!(
                "Mesa could not link the {}:\n{}",
                label,
                log.trim_end()
            ));
        }
        Ok(p)
    }
}

/// Set every scene uniform the program has; return the names it does not have.
fn set_uniforms(
    gl: &glow::Context,
    program: glow::Program,
    scene: &Scene,
) -> Result<Vec<String>, MesaError> {
    unsafe {
        gl.use_program(Some(program));
        let mut active = Vec::new();
        // Uniform-block members are set by `set_block_uniforms` (into a buffer).
        let mut in_blocks = Vec::new();
        for i in 0..gl.get_active_uniforms(program) {
            if let Some(u) = gl.get_active_uniform(program, i) {
                let block = gl
                    .get_active_uniforms_parameter(program, &[i], glow::UNIFORM_BLOCK_INDEX)
                    .first()
                    .copied()
                    .unwrap_or(-1);
                if block >= 0 {
                    in_blocks.push(u.name.clone());
                    if let Some(whole) = u.name.strip_suffix("[0]") {
                        in_blocks.push(whole.to_string());
                    }
                } else {
                    active.push(u);
                }
            }
        }
        let mut inactive = Vec::new();
        for (name, values) in &scene.uniforms {
            if in_blocks.contains(name) || in_blocks.contains(&block_family_name(name)) {
                continue;
            }
            // `"name": [floats]` of a uniform array sets all of it (GL lists it as `name[0]`).
            let whole = format!("{}[0]", name);
            let Some(u) = active
                .iter()
                .find(|u| &u.name == name || (u.name == whole && !name.ends_with(']')))
            else {
                inactive.push(name.clone());
                continue;
            };
            let elems = if u.name == whole {
                u.size.max(1) as usize
            } else {
                1
            };
            let loc = gl.get_uniform_location(program, name);
            let loc = loc.as_ref();
            let want = |n: usize, ty: &str| -> Result<(), MesaError> {
                let n = n * elems;
                if values.len() == n {
                    Ok(())
                } else {
                    fail(format!(
                        "uniform {} is a {} ({} floats); the scene gives {}",
                        name,
                        ty,
                        n,
                        values.len()
                    ))
                }
            };
            let ints = || values.iter().map(|v| *v as i32).collect::<Vec<i32>>();
            match u.utype {
                glow::FLOAT => {
                    want(1, "float")?;
                    gl.uniform_1_f32_slice(loc, values)
                }
                glow::FLOAT_VEC2 => {
                    want(2, "vec2")?;
                    gl.uniform_2_f32_slice(loc, values)
                }
                glow::FLOAT_VEC3 => {
                    want(3, "vec3")?;
                    gl.uniform_3_f32_slice(loc, values)
                }
                glow::FLOAT_VEC4 => {
                    want(4, "vec4")?;
                    gl.uniform_4_f32_slice(loc, values)
                }
                glow::INT | glow::BOOL => {
                    want(1, "int/bool")?;
                    gl.uniform_1_i32_slice(loc, &ints())
                }
                glow::INT_VEC2 | glow::BOOL_VEC2 => {
                    want(2, "ivec2")?;
                    gl.uniform_2_i32_slice(loc, &ints())
                }
                glow::INT_VEC3 | glow::BOOL_VEC3 => {
                    want(3, "ivec3")?;
                    gl.uniform_3_i32_slice(loc, &ints())
                }
                glow::INT_VEC4 | glow::BOOL_VEC4 => {
                    want(4, "ivec4")?;
                    gl.uniform_4_i32_slice(loc, &ints())
                }
                glow::FLOAT_MAT3 => {
                    // Column-major; 12 floats means three columns padded to vec4 slots.
                    let m: Vec<f32> = match values.len() {
                        9 => values.clone(),
                        12 => values
                            .chunks_exact(4)
                            .flat_map(|c| c[..3].to_vec())
                            .collect(),
                        n => {
                            return fail(format!(
                                "uniform {} is a mat3 (9 floats, or 12 padded); the scene gives {}",
                                name, n
                            ))
                        }
                    };
                    gl.uniform_matrix_3_f32_slice(loc, false, &m)
                }
                glow::FLOAT_MAT4 => {
                    want(16, "mat4")?;
                    gl.uniform_matrix_4_f32_slice(loc, false, values)
                }
                glow::SAMPLER_2D => {
                    return fail(format!(
                        "uniform {} is a sampler2D: give it under \"textures\", not \"uniforms\"",
                        name
                    ))
                }
                t => {
                    return fail(format!(
                        "uniform {} has GL type 0x{:x}, which scenes cannot set",
                        name, t
                    ))
                }
            }
        }
        // Samplers: the scene names the unit of each sampler's texture (every sampler type: a
        // samplerCube left unset would read unit 0).
        for u in &active {
            let sampler = matches!(
                u.utype,
                glow::SAMPLER_2D
                    | glow::SAMPLER_CUBE
                    | glow::SAMPLER_2D_SHADOW
                    | glow::SAMPLER_CUBE_SHADOW
                    | glow::INT_SAMPLER_2D
                    | glow::UNSIGNED_INT_SAMPLER_2D
                    | glow::SAMPLER_2D_ARRAY
                    | glow::INT_SAMPLER_2D_ARRAY
                    | glow::UNSIGNED_INT_SAMPLER_2D_ARRAY
            );
            if !sampler {
                continue;
            }
            let Some((_, tex)) = scene.textures.iter().find(|(n, _)| n == &u.name) else {
                return fail(format!(
                    "the shaders sample {} but the scene has no texture of that name",
                    u.name
                ));
            };
            gl.uniform_1_i32(
                gl.get_uniform_location(program, &u.name).as_ref(),
                tex.unit as i32,
            );
        }
        Ok(inactive)
    }
}

/// `Light.pos` for a uniform block array element's member `Light[2].pos` (the name GL gives
/// the member of every element); the name itself otherwise.
fn block_family_name(name: &str) -> String {
    let Some((head, rest)) = name.split_once('.') else {
        return name.to_string();
    };
    match head.strip_suffix(']').and_then(|h| h.rsplit_once('[')) {
        Some((f, k)) if k.parse::<u32>().is_ok() => format!("{}.{}", f, rest),
        _ => name.to_string(),
    }
}

/// Scene values of uniform-block members (`Block.member` with an instance name, `member`
/// without, as GL names them): each active block gets a buffer, its members written at GL's
/// offsets and strides. A value's floats are in buffer order: a matrix member is given as its
/// columns, or, with `row_major`, as its rows (chunk k of the floats at `offset + k * stride`),
/// as the compiler under test reads them (docs/LANGUAGE.md, "Uniform blocks"). Block k binds
/// to binding point `base + k`; the buffers are returned to be deleted with the scene.
fn set_block_uniforms(
    gl: &glow::Context,
    program: glow::Program,
    scene: &Scene,
    base: u32,
) -> Result<Vec<glow::Buffer>, MesaError> {
    unsafe {
        let count = gl
            .get_program_parameter_i32(program, glow::ACTIVE_UNIFORM_BLOCKS)
            .max(0) as u32;
        if count == 0 {
            return Ok(Vec::new());
        }
        let mut data: Vec<Vec<u8>> = (0..count)
            .map(|b| {
                let size = gl.get_active_uniform_block_parameter_i32(
                    program,
                    b,
                    glow::UNIFORM_BLOCK_DATA_SIZE,
                );
                vec![0u8; size.max(0) as usize]
            })
            .collect();
        // A uniform block array (`uniform Light { .. } lights[3];`) is one active block per
        // element, named `Light[k]`; GL reports each member once (`Light.pos`, in the first
        // element's block, the same offsets in every element), and the scene names it per
        // element as the compiler under test does (`Light[k].pos`): one buffer, and one
        // binding point, per element.
        let block_names: Vec<String> = (0..count)
            .map(|b| gl.get_active_uniform_block_name(program, b))
            .collect();
        let n = gl.get_active_uniforms(program);
        for i in 0..n {
            let Some(u) = gl.get_active_uniform(program, i) else {
                continue;
            };
            let param = |p: u32| {
                gl.get_active_uniforms_parameter(program, &[i], p)
                    .first()
                    .copied()
                    .unwrap_or(-1)
            };
            let block = param(glow::UNIFORM_BLOCK_INDEX);
            if block < 0 {
                continue;
            }
            // (block, scene name) pairs this member is written to.
            let mut targets: Vec<(usize, String)> = vec![(block as usize, u.name.clone())];
            let family = block_names
                .get(block as usize)
                .and_then(|b| b.strip_suffix(']'))
                .and_then(|b| b.rsplit_once('['))
                .map(|(f, _)| f.to_string());
            if let Some(rest) = family
                .as_deref()
                .and_then(|f| u.name.strip_prefix(f))
                .and_then(|r| r.strip_prefix('.'))
            {
                let f = family.as_deref().unwrap_or("");
                targets = block_names
                    .iter()
                    .enumerate()
                    .filter_map(|(b, bn)| {
                        let k = bn.strip_prefix(f)?.strip_prefix('[')?.strip_suffix(']')?;
                        k.parse::<u32>().ok()?;
                        Some((b, format!("{}[{}].{}", f, k, rest)))
                    })
                    .collect();
            }
            for (block, uname) in targets {
                let whole = uname.strip_suffix("[0]").unwrap_or(&uname);
                let Some(values) = scene
                    .uniforms
                    .iter()
                    .find(|(name, _)| name == &uname || name == whole)
                    .map(|(_, v)| v)
                else {
                    continue;
                };
                let offset = param(glow::UNIFORM_OFFSET).max(0) as usize;
                let mstride = param(glow::UNIFORM_MATRIX_STRIDE).max(0) as usize;
                let astride = param(glow::UNIFORM_ARRAY_STRIDE).max(0) as usize;
                let (chunk, chunks, int) = match u.utype {
                    glow::FLOAT => (1, 1, false),
                    glow::FLOAT_VEC2 => (2, 1, false),
                    glow::FLOAT_VEC3 => (3, 1, false),
                    glow::FLOAT_VEC4 => (4, 1, false),
                    glow::INT | glow::BOOL => (1, 1, true),
                    glow::INT_VEC2 | glow::BOOL_VEC2 => (2, 1, true),
                    glow::INT_VEC3 | glow::BOOL_VEC3 => (3, 1, true),
                    glow::INT_VEC4 | glow::BOOL_VEC4 => (4, 1, true),
                    glow::FLOAT_MAT2 => (2, 2, false),
                    glow::FLOAT_MAT3 => (3, 3, false),
                    glow::FLOAT_MAT4 => (4, 4, false),
                    t => {
                        return fail(format!(
                            "uniform-block member {} has GL type 0x{:x}, which scenes cannot set",
                            u.name, t
                        ))
                    }
                };
                let per = chunk * chunks;
                let elems = u.size.max(1) as usize;
                if values.len() != per && values.len() != per * elems {
                    return fail(format!(
                    "uniform-block member {} takes {} floats per element ({} elements); the scene gives {}",
                    u.name,
                    per,
                    elems,
                    values.len()
                ));
                }
                let buf = &mut data[block];
                for (k, v) in values.iter().enumerate() {
                    let (e, rest) = (k / per, k % per);
                    let (c, j) = (rest / chunk, rest % chunk);
                    let at = offset + e * astride + c * mstride + j * 4;
                    let bytes = if int {
                        (*v as i32).to_ne_bytes()
                    } else {
                        v.to_ne_bytes()
                    };
                    let Some(dst) = buf.get_mut(at..at + 4) else {
                        return fail(format!(
                            "uniform-block member {}: offset {} is outside the block",
                            u.name, at
                        ));
                    };
                    dst.copy_from_slice(&bytes);
                }
            }
        }
        let mut buffers = Vec::new();
        for (b, bytes) in data.iter().enumerate() {
            let buf = gl
                .create_buffer()
                .map_err(|e| MesaError(format!("glGenBuffers: {}", e)))?;
            buffers.push(buf);
            gl.bind_buffer(glow::UNIFORM_BUFFER, Some(buf));
            gl.buffer_data_u8_slice(glow::UNIFORM_BUFFER, bytes, glow::STATIC_DRAW);
            gl.uniform_block_binding(program, b as u32, base + b as u32);
            gl.bind_buffer_base(glow::UNIFORM_BUFFER, base + b as u32, Some(buf));
        }
        gl.bind_buffer(glow::UNIFORM_BUFFER, None);
        check_error(gl, "uniform blocks")?;
        Ok(buffers)
    }
}

fn check_error(gl: &glow::Context, what: &str) -> Result<(), MesaError> {
    let e = unsafe { gl.get_error() };
    if e == glow::NO_ERROR {
        Ok(())
    } else {
        fail(format!("GL error 0x{:x} during {}", e, what))
    }
}

fn target(
    gl: &glow::Context,
    color_format: u32,
    width: i32,
    height: i32,
    rbs: &mut Vec<glow::Renderbuffer>,
) -> Result<glow::Framebuffer, MesaError> {
    unsafe {
        let fbo = gl
            .create_framebuffer()
            .map_err(|e| MesaError(format!("glGenFramebuffers: {}", e)))?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        for (format, attachment) in [
            (color_format, glow::COLOR_ATTACHMENT0),
            (glow::DEPTH_COMPONENT32F, glow::DEPTH_ATTACHMENT),
        ] {
            let rb = gl
                .create_renderbuffer()
                .map_err(|e| MesaError(format!("glGenRenderbuffers: {}", e)))?;
            rbs.push(rb);
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
            gl.renderbuffer_storage(glow::RENDERBUFFER, format, width, height);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                attachment,
                glow::RENDERBUFFER,
                Some(rb),
            );
        }
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return fail(format!(
                "off-screen target {}x{} is incomplete (status 0x{:x})",
                width, height, status
            ));
        }
        Ok(fbo)
    }
}

/// A pass's target: a framebuffer with a colour texture (RGBA8 or RGBA32F) and a
/// DEPTH_COMPONENT32F texture, both one level. GL draws window row 0 into texel row 0 (t = 0).
fn pass_target(
    gl: &glow::Context,
    format: scene::ColorFormat,
    width: i32,
    height: i32,
) -> Result<(glow::Framebuffer, glow::Texture, glow::Texture), MesaError> {
    unsafe {
        let fbo = gl
            .create_framebuffer()
            .map_err(|e| MesaError(format!("glGenFramebuffers: {}", e)))?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        let (internal, pixel) = match format {
            scene::ColorFormat::Rgba8 => (glow::RGBA8, glow::UNSIGNED_BYTE),
            scene::ColorFormat::Rgba32f => (glow::RGBA32F, glow::FLOAT),
        };
        let mut made = Vec::new();
        for (internal, fmt, pixel, attachment) in [
            (internal, glow::RGBA, pixel, glow::COLOR_ATTACHMENT0),
            (
                glow::DEPTH_COMPONENT32F,
                glow::DEPTH_COMPONENT,
                glow::FLOAT,
                glow::DEPTH_ATTACHMENT,
            ),
        ] {
            let tex = gl
                .create_texture()
                .map_err(|e| MesaError(format!("glGenTextures: {}", e)))?;
            made.push(tex);
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                internal as i32,
                width,
                height,
                0,
                fmt,
                pixel,
                glow::PixelUnpackData::Slice(None),
            );
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, 0);
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                attachment,
                glow::TEXTURE_2D,
                Some(tex),
                0,
            );
        }
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return fail(format!(
                "pass target {}x{} is incomplete (status 0x{:x})",
                width, height, status
            ));
        }
        Ok((fbo, made[0], made[1]))
    }
}

impl MesaRenderer {
    /// Compile and link the shaders, upload the scene's vertices, textures and uniforms and
    /// create its off-screen targets.
    pub fn prepare(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
    ) -> Result<Prepared, MesaError> {
        self.prepare_in(vertex_source, fragment_source, scene, None, &[])
    }

    /// Draw the scene's `"passes"` in order, each into its own texture target (each
    /// sampling the earlier ones' textures); the result is passed to [`Self::prepare_in`] for
    /// the picture and released with [`Self::release`] after it.
    pub fn draw_passes(&mut self, scene: &Scene) -> Result<Vec<Prepared>, MesaError> {
        let mut done: Vec<Prepared> = Vec::new();
        let result = (|| {
            for pass in &scene.passes {
                let read = |p: &str| {
                    std::fs::read_to_string(p)
                        .map_err(|e| MesaError(format!("cannot read {}: {}", p, e)))
                };
                let (vs, fs) = (read(&pass.vertex)?, read(&pass.fragment)?);
                let outputs: Vec<(glow::Texture, glow::Texture)> =
                    done.iter().filter_map(|p| p.outputs).collect();
                let p = self
                    .prepare_in(&vs, &fs, &pass.scene, Some(pass.format), &outputs)
                    .map_err(|e| MesaError(format!("pass \"{}\": {}", pass.name, e.0)))?;
                let drawn = self.draw(&p);
                done.push(p);
                drawn?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(done),
            Err(e) => {
                for p in done {
                    self.release(p);
                }
                Err(e)
            }
        }
    }

    /// [`Self::prepare`] for a pass (`format`: its target is a colour and a depth texture) or
    /// the picture (None), with `earlier` the (colour, depth) textures of the passes drawn
    /// before, which `"pass"` textures bind.
    pub fn prepare_in(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
        format: Option<scene::ColorFormat>,
        earlier: &[(glow::Texture, glow::Texture)],
    ) -> Result<Prepared, MesaError> {
        let gl = &self.gl;
        let vs = compile(
            gl,
            glow::VERTEX_SHADER,
            "vertex",
            &source::adapt_version(vertex_source),
        )?;
        let fs = match compile(
            gl,
            glow::FRAGMENT_SHADER,
            "fragment",
            &source::adapt_version(fragment_source),
        ) {
            Ok(s) => s,
            Err(e) => {
                unsafe { gl.delete_shader(vs) };
                return Err(e);
            }
        };
        let ids = compile(
            gl,
            glow::FRAGMENT_SHADER,
            "primitive-id fragment",
            ID_FRAGMENT_SHADER,
        )?;
        let attribs = source::attribute_locations(vertex_source, scene::model::ATTRIBUTE_LOCATIONS);
        // Programs and shaders are deleted again when linking or a scene uniform fails, so a
        // long-lived renderer does not collect objects from rejected scenes.
        let linked = (|| {
            let program = link(gl, "program", vs, fs, &attribs)?;
            let id_program = match link(gl, "primitive-id program", vs, ids, &attribs) {
                Ok(p) => p,
                Err(e) => {
                    unsafe { gl.delete_program(program) };
                    return Err(e);
                }
            };
            let uniforms = set_uniforms(gl, program, scene)
                .and_then(|inactive| set_uniforms(gl, id_program, scene).map(|_| inactive))
                .and_then(|inactive| {
                    let mut ubos = set_block_uniforms(gl, program, scene, 0)?;
                    ubos.extend(set_block_uniforms(gl, id_program, scene, 16)?);
                    Ok((inactive, ubos))
                });
            match uniforms {
                Ok(inactive) => Ok((program, id_program, inactive)),
                Err(e) => {
                    unsafe {
                        gl.delete_program(program);
                        gl.delete_program(id_program);
                    }
                    Err(e)
                }
            }
        })();
        let (program, id_program, (inactive_uniforms, ubos)) = match linked {
            Ok(l) => l,
            Err(e) => {
                unsafe {
                    for s in [vs, fs, ids] {
                        gl.delete_shader(s);
                    }
                }
                return Err(e);
            }
        };

        unsafe {
            let vao = gl
                .create_vertex_array()
                .map_err(|e| MesaError(format!("glGenVertexArrays: {}", e)))?;
            gl.bind_vertex_array(Some(vao));
            let mut buffers = ubos;
            for a in &scene.attributes {
                let b = gl
                    .create_buffer()
                    .map_err(|e| MesaError(format!("glGenBuffers: {}", e)))?;
                buffers.push(b);
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(b));
                let bytes: Vec<u8> = a.data.iter().flat_map(|f| f.to_ne_bytes()).collect();
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
                // Integer attributes take glVertexAttribIPointer (the words unconverted).
                match a.kind {
                    scene::AttrKind::Float => gl.vertex_attrib_pointer_f32(
                        a.location,
                        a.components as i32,
                        glow::FLOAT,
                        false,
                        0,
                        0,
                    ),
                    scene::AttrKind::Int => gl.vertex_attrib_pointer_i32(
                        a.location,
                        a.components as i32,
                        glow::INT,
                        0,
                        0,
                    ),
                    scene::AttrKind::Uint => gl.vertex_attrib_pointer_i32(
                        a.location,
                        a.components as i32,
                        glow::UNSIGNED_INT,
                        0,
                        0,
                    ),
                }
                gl.enable_vertex_attrib_array(a.location);
                // 0 (per vertex) is GL's default; a VAO starts with it on every attribute.
                gl.vertex_attrib_divisor(a.location, a.divisor);
            }
            let (indexed, count) = match &scene.indices {
                Some(ix) => {
                    let b = gl
                        .create_buffer()
                        .map_err(|e| MesaError(format!("glGenBuffers: {}", e)))?;
                    buffers.push(b);
                    gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(b));
                    let bytes: Vec<u8> = ix.iter().flat_map(|i| i.to_ne_bytes()).collect();
                    gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
                    (true, ix.len() as i32)
                }
                None => (false, scene.vertex_count as i32),
            };

            let mut textures = Vec::new();
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            for (_, t) in &scene.textures {
                if let Some(src) = &t.source {
                    let Some(&(color, depth)) = earlier.get(src.pass) else {
                        return fail(format!("texture of pass {} before it is drawn", src.pass));
                    };
                    let is_depth = src.attachment == scene::Attachment::Depth;
                    let tex = if is_depth { depth } else { color };
                    gl.active_texture(glow::TEXTURE0 + t.unit);
                    gl.bind_texture(glow::TEXTURE_2D, Some(tex));
                    let tt = glow::TEXTURE_2D;
                    let f = |f: Filter| {
                        (match f {
                            Filter::Nearest => glow::NEAREST,
                            Filter::Linear => glow::LINEAR,
                        }) as i32
                    };
                    let w = |w: Wrap| {
                        (match w {
                            Wrap::Repeat => glow::REPEAT,
                            Wrap::ClampToEdge => glow::CLAMP_TO_EDGE,
                            Wrap::MirroredRepeat => glow::MIRRORED_REPEAT,
                        }) as i32
                    };
                    let min = match (t.min_filter, t.mip) {
                        (m, Mip::None) => f(m),
                        (Filter::Nearest, Mip::Nearest) => glow::NEAREST_MIPMAP_NEAREST as i32,
                        (Filter::Linear, Mip::Nearest) => glow::LINEAR_MIPMAP_NEAREST as i32,
                        (Filter::Nearest, Mip::Linear) => glow::NEAREST_MIPMAP_LINEAR as i32,
                        (Filter::Linear, Mip::Linear) => glow::LINEAR_MIPMAP_LINEAR as i32,
                    };
                    // `"mipmaps": true`: GL generates the chain of what the pass drew.
                    let max_level = if src.mipmaps {
                        gl.tex_parameter_i32(tt, glow::TEXTURE_MAX_LEVEL, 1000);
                        gl.generate_mipmap(tt);
                        31 - t.width.max(t.height).max(1).leading_zeros() as i32
                    } else {
                        0
                    };
                    gl.tex_parameter_i32(tt, glow::TEXTURE_MAX_LEVEL, max_level);
                    gl.tex_parameter_i32(tt, glow::TEXTURE_MIN_FILTER, min);
                    gl.tex_parameter_i32(tt, glow::TEXTURE_MAG_FILTER, f(t.filter));
                    gl.tex_parameter_i32(tt, glow::TEXTURE_WRAP_S, w(t.wrap));
                    gl.tex_parameter_i32(tt, glow::TEXTURE_WRAP_T, w(t.wrap_t));
                    gl.tex_parameter_f32(tt, glow::TEXTURE_LOD_BIAS, t.lod_bias);
                    gl.tex_parameter_f32(tt, glow::TEXTURE_MIN_LOD, t.min_lod);
                    gl.tex_parameter_f32(tt, glow::TEXTURE_MAX_LOD, t.max_lod);
                    // A depth texture reads (d, d, d, 1) as the software path's does (core
                    // GL's default is (d, 0, 0, 1)).
                    let (g, b) = if is_depth {
                        (glow::RED, glow::RED)
                    } else {
                        (glow::GREEN, glow::BLUE)
                    };
                    gl.tex_parameter_i32(tt, glow::TEXTURE_SWIZZLE_G, g as i32);
                    gl.tex_parameter_i32(tt, glow::TEXTURE_SWIZZLE_B, b as i32);
                    match src.compare {
                        Some(func) => {
                            gl.tex_parameter_i32(
                                tt,
                                glow::TEXTURE_COMPARE_MODE,
                                glow::COMPARE_REF_TO_TEXTURE as i32,
                            );
                            gl.tex_parameter_i32(tt, glow::TEXTURE_COMPARE_FUNC, func as i32);
                        }
                        None => {
                            gl.tex_parameter_i32(tt, glow::TEXTURE_COMPARE_MODE, glow::NONE as i32)
                        }
                    }
                    continue;
                }
                let tex = gl
                    .create_texture()
                    .map_err(|e| MesaError(format!("glGenTextures: {}", e)))?;
                textures.push(tex);
                gl.active_texture(glow::TEXTURE0 + t.unit);
                // A cube (`"cube"`): TEXTURE_CUBE_MAP with its 6 faces, each with its levels.
                let tt = if t.is_cube() {
                    glow::TEXTURE_CUBE_MAP
                } else if t.is_array() {
                    glow::TEXTURE_2D_ARRAY
                } else {
                    glow::TEXTURE_2D
                };
                gl.bind_texture(tt, Some(tex));
                let faces: Vec<(u32, Vec<u8>, Vec<Vec<u8>>)> = if t.is_cube() {
                    let mut v = vec![(
                        glow::TEXTURE_CUBE_MAP_POSITIVE_X,
                        t.rgba8.clone(),
                        t.levels.clone(),
                    )];
                    for f in 0..5 {
                        v.push((
                            glow::TEXTURE_CUBE_MAP_POSITIVE_X + 1 + f as u32,
                            t.faces[f].clone(),
                            t.face_levels.get(f).cloned().unwrap_or_default(),
                        ));
                    }
                    v
                } else {
                    vec![(glow::TEXTURE_2D, t.rgba8.clone(), t.levels.clone())]
                };
                // An integer texture (`"format"`): RGBA32I/RGBA32UI from its words, level 0.
                let int_format = match t.format {
                    TexFormat::Rgba8 => None,
                    TexFormat::Rgba32I => Some((glow::RGBA32I, glow::INT)),
                    TexFormat::Rgba32UI => Some((glow::RGBA32UI, glow::UNSIGNED_INT)),
                };
                if let (Some((internal, ty)), false) = (int_format, t.int_layers.is_empty()) {
                    // An integer array: one glTexImage3D of every layer's words (layer 0 first).
                    let bytes: Vec<u8> = t
                        .int_layers
                        .iter()
                        .flatten()
                        .flatten()
                        .flat_map(|w| w.to_ne_bytes())
                        .collect();
                    gl.tex_image_3d(
                        glow::TEXTURE_2D_ARRAY,
                        0,
                        internal as i32,
                        t.width as i32,
                        t.height as i32,
                        t.int_layers.len() as i32,
                        0,
                        glow::RGBA_INTEGER,
                        ty,
                        glow::PixelUnpackData::Slice(Some(&bytes)),
                    );
                } else if let Some((internal, ty)) = int_format {
                    let bytes: Vec<u8> = t
                        .ints
                        .iter()
                        .flatten()
                        .flat_map(|w| w.to_ne_bytes())
                        .collect();
                    gl.tex_image_2d(
                        glow::TEXTURE_2D,
                        0,
                        internal as i32,
                        t.width as i32,
                        t.height as i32,
                        0,
                        glow::RGBA_INTEGER,
                        ty,
                        glow::PixelUnpackData::Slice(Some(&bytes)),
                    );
                }
                // An array (`"layers"`): TEXTURE_2D_ARRAY, each level one glTexImage3D of
                // every layer (layer 0 first).
                if t.is_array() && int_format.is_none() {
                    let n = t.layers.len() as i32;
                    let mut level = 0usize;
                    loop {
                        let s = level as u32;
                        let mut bytes: Vec<u8> = Vec::new();
                        for (k, l) in t.layers.iter().enumerate() {
                            if level == 0 {
                                bytes.extend_from_slice(l);
                            } else if let Some(x) =
                                t.layer_levels.get(k).and_then(|ls| ls.get(level - 1))
                            {
                                bytes.extend_from_slice(x);
                            }
                        }
                        gl.tex_image_3d(
                            glow::TEXTURE_2D_ARRAY,
                            level as i32,
                            glow::RGBA8 as i32,
                            (t.width >> s).max(1) as i32,
                            (t.height >> s).max(1) as i32,
                            n,
                            0,
                            glow::RGBA,
                            glow::UNSIGNED_BYTE,
                            glow::PixelUnpackData::Slice(Some(&bytes)),
                        );
                        level += 1;
                        if level > t.levels.len() {
                            break;
                        }
                    }
                }
                let faces = if int_format.is_some() || t.is_array() {
                    Vec::new()
                } else {
                    faces
                };
                for (target, rgba8, levels) in &faces {
                    // Rows go up in memory order: GL's first row is t = 0, the scene's is v = 0.
                    gl.tex_image_2d(
                        *target,
                        0,
                        glow::RGBA8 as i32,
                        t.width as i32,
                        t.height as i32,
                        0,
                        glow::RGBA,
                        glow::UNSIGNED_BYTE,
                        glow::PixelUnpackData::Slice(Some(rgba8)),
                    );
                    for (i, level) in levels.iter().enumerate() {
                        let s = i as u32 + 1;
                        gl.tex_image_2d(
                            *target,
                            s as i32,
                            glow::RGBA8 as i32,
                            (t.width >> s).max(1) as i32,
                            (t.height >> s).max(1) as i32,
                            0,
                            glow::RGBA,
                            glow::UNSIGNED_BYTE,
                            glow::PixelUnpackData::Slice(Some(level)),
                        );
                    }
                }
                let filter = |f: Filter| match f {
                    Filter::Nearest => glow::NEAREST,
                    Filter::Linear => glow::LINEAR,
                };
                let min = match (t.min_filter, t.mip) {
                    (f, Mip::None) => filter(f),
                    (Filter::Nearest, Mip::Nearest) => glow::NEAREST_MIPMAP_NEAREST,
                    (Filter::Linear, Mip::Nearest) => glow::LINEAR_MIPMAP_NEAREST,
                    (Filter::Nearest, Mip::Linear) => glow::NEAREST_MIPMAP_LINEAR,
                    (Filter::Linear, Mip::Linear) => glow::LINEAR_MIPMAP_LINEAR,
                } as i32;
                let wrap = |w: Wrap| {
                    (match w {
                        Wrap::Repeat => glow::REPEAT,
                        Wrap::ClampToEdge => glow::CLAMP_TO_EDGE,
                        Wrap::MirroredRepeat => glow::MIRRORED_REPEAT,
                    }) as i32
                };
                gl.tex_parameter_i32(tt, glow::TEXTURE_MIN_FILTER, min);
                gl.tex_parameter_i32(tt, glow::TEXTURE_MAG_FILTER, filter(t.filter) as i32);
                gl.tex_parameter_i32(tt, glow::TEXTURE_WRAP_S, wrap(t.wrap));
                gl.tex_parameter_i32(tt, glow::TEXTURE_WRAP_T, wrap(t.wrap_t));
                gl.tex_parameter_i32(tt, glow::TEXTURE_MAX_LEVEL, t.levels.len() as i32);
                gl.tex_parameter_f32(tt, glow::TEXTURE_LOD_BIAS, t.lod_bias);
                gl.tex_parameter_f32(tt, glow::TEXTURE_MIN_LOD, t.min_lod);
                gl.tex_parameter_f32(tt, glow::TEXTURE_MAX_LOD, t.max_lod);
            }

            let mut renderbuffers = Vec::new();
            let (w, h) = (scene.width as i32, scene.height as i32);
            let (fbo, outputs) = match format {
                None => (target(gl, glow::RGBA8, w, h, &mut renderbuffers)?, None),
                Some(f) => {
                    let (fbo, color, depth) = pass_target(gl, f, w, h)?;
                    (fbo, Some((color, depth)))
                }
            };
            let id_fbo = target(gl, glow::R32UI, w, h, &mut renderbuffers)?;
            check_error(gl, "scene upload")?;
            Ok(Prepared {
                program,
                id_program,
                shaders: vec![vs, fs, ids],
                vao,
                buffers,
                textures,
                fbo,
                id_fbo,
                renderbuffers,
                outputs,
                width: scene.width,
                height: scene.height,
                viewport: scene.viewport,
                clear: scene.clear,
                depth: scene.depth,
                pipeline: scene.pipeline.clone(),
                indexed,
                count,
                instances: scene.instances as i32,
                clip_planes: source::clip_planes(vertex_source),
                inactive_uniforms,
            })
        }
    }

    fn draw_pass(&self, p: &Prepared, ids: bool) {
        let gl = &self.gl;
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(if ids { p.id_fbo } else { p.fbo }));
            gl.use_program(Some(if ids { p.id_program } else { p.program }));
            gl.bind_vertex_array(Some(p.vao));
            gl.disable(glow::BLEND);
            gl.disable(glow::DITHER);
            gl.disable(glow::SCISSOR_TEST);
            gl.disable(glow::STENCIL_TEST);
            gl.disable(glow::MULTISAMPLE);
            gl.color_mask(true, true, true, true);
            gl.depth_mask(true);
            gl.viewport(p.viewport[0], p.viewport[1], p.viewport[2], p.viewport[3]);
            gl.depth_range_f64(0.0, 1.0);
            if ids {
                gl.clear_buffer_u32_slice(glow::COLOR, 0, &[0, 0, 0, 0]);
            } else {
                gl.clear_buffer_f32_slice(glow::COLOR, 0, &p.clear);
            }
            gl.clear_buffer_f32_slice(glow::DEPTH, 0, &[1.0]);
            let s = &p.pipeline;
            if p.depth {
                gl.enable(glow::DEPTH_TEST);
                gl.depth_func(s.depth_func);
                gl.depth_mask(s.depth_mask);
            } else {
                gl.disable(glow::DEPTH_TEST);
            }
            gl.front_face(s.front_face);
            if s.cull_face != 0 {
                gl.enable(glow::CULL_FACE);
                gl.cull_face(s.cull_face);
            } else {
                gl.disable(glow::CULL_FACE);
            }
            if let Some([x, y, w, h]) = s.scissor {
                gl.enable(glow::SCISSOR_TEST);
                gl.scissor(x, y, w, h);
            }
            if s.polygon_offset != [0.0, 0.0] {
                gl.enable(glow::POLYGON_OFFSET_FILL);
                gl.polygon_offset(s.polygon_offset[0], s.polygon_offset[1]);
            } else {
                gl.disable(glow::POLYGON_OFFSET_FILL);
            }
            // The primitive-id pass records coverage: no blending and every channel there.
            if !ids {
                if let Some(b) = &s.blend {
                    gl.enable(glow::BLEND);
                    gl.blend_func_separate(b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha);
                    gl.blend_equation_separate(b.eq_rgb, b.eq_alpha);
                    gl.blend_color(b.color[0], b.color[1], b.color[2], b.color[3]);
                }
                let [r, g, b, a] = s.color_mask;
                gl.color_mask(r, g, b, a);
            }
            for i in 0..8 {
                if i < p.clip_planes {
                    gl.enable(glow::CLIP_DISTANCE0 + i);
                } else {
                    gl.disable(glow::CLIP_DISTANCE0 + i);
                }
            }
            if p.indexed {
                gl.draw_elements_instanced(
                    glow::TRIANGLES,
                    p.count,
                    glow::UNSIGNED_SHORT,
                    0,
                    p.instances,
                );
            } else {
                gl.draw_arrays_instanced(glow::TRIANGLES, 0, p.count, p.instances);
            }
        }
    }

    /// Clear and draw the scene once (not waited for; see [`MesaRenderer::finish`]).
    pub fn draw(&mut self, p: &Prepared) -> Result<(), MesaError> {
        self.draw_pass(p, false);
        check_error(&self.gl, "draw")
    }

    /// Wait until every submitted GL command has completed.
    pub fn finish(&mut self) {
        unsafe { self.gl.finish() }
    }

    /// Read the last drawn picture, row 0 = top.
    pub fn read_image(&mut self, p: &Prepared) -> Result<Image, MesaError> {
        let gl = &self.gl;
        let mut bytes = vec![0u8; p.width as usize * p.height as usize * 4];
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(p.fbo));
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                p.width as i32,
                p.height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut bytes)),
            );
        }
        check_error(gl, "colour readback")?;
        Image::from_rgba_bottom_up(p.width, p.height, &bytes).map_err(|e| MesaError(e.to_string()))
    }

    /// Draw the primitive-id pass and return the triangle id (1-based, 0 = none) that won each
    /// pixel, row 0 = top.
    pub fn primitive_ids(&mut self, p: &Prepared) -> Result<Vec<u32>, MesaError> {
        self.draw_pass(p, true);
        let gl = &self.gl;
        let (w, h) = (p.width as usize, p.height as usize);
        let mut bytes = vec![0u8; w * h * 4];
        unsafe {
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                w as i32,
                h as i32,
                glow::RED_INTEGER,
                glow::UNSIGNED_INT,
                glow::PixelPackData::Slice(Some(&mut bytes)),
            );
        }
        check_error(gl, "primitive-id pass")?;
        let bottom_up: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(bottom_up.chunks_exact(w).rev().flatten().copied().collect())
    }

    /// Delete the GL objects of a prepared scene.
    pub fn release(&mut self, p: Prepared) {
        let gl = &self.gl;
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.delete_framebuffer(p.fbo);
            gl.delete_framebuffer(p.id_fbo);
            for rb in p.renderbuffers {
                gl.delete_renderbuffer(rb);
            }
            for t in p.textures {
                gl.delete_texture(t);
            }
            if let Some((color, depth)) = p.outputs {
                gl.delete_texture(color);
                gl.delete_texture(depth);
            }
            for b in p.buffers {
                gl.delete_buffer(b);
            }
            gl.delete_vertex_array(p.vao);
            gl.delete_program(p.program);
            gl.delete_program(p.id_program);
            for s in p.shaders {
                gl.delete_shader(s);
            }
        }
    }

    /// Render a scene once and read the picture back.
    pub fn render(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
    ) -> Result<Image, MesaError> {
        let (passes, p) = self.prepare_all(vertex_source, fragment_source, scene)?;
        let result = self.draw(&p).and_then(|_| self.read_image(&p));
        self.release_all(passes, p);
        result
    }

    /// The scene's passes drawn ([`Self::draw_passes`]) and the picture prepared.
    fn prepare_all(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
    ) -> Result<(Vec<Prepared>, Prepared), MesaError> {
        let passes = self.draw_passes(scene)?;
        let outputs: Vec<(glow::Texture, glow::Texture)> =
            passes.iter().filter_map(|p| p.outputs).collect();
        match self.prepare_in(vertex_source, fragment_source, scene, None, &outputs) {
            Ok(p) => Ok((passes, p)),
            Err(e) => {
                for p in passes {
                    self.release(p);
                }
                Err(e)
            }
        }
    }

    fn release_all(&mut self, passes: Vec<Prepared>, p: Prepared) {
        self.release(p);
        for p in passes {
            self.release(p);
        }
    }

    /// Render a scene and its triangle-edge flags for a differential comparison.
    pub fn render_frame(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
    ) -> Result<Frame, MesaError> {
        let (passes, p) = self.prepare_all(vertex_source, fragment_source, scene)?;
        let result = (|| {
            self.draw(&p)?;
            let image = self.read_image(&p)?;
            let ids = self.primitive_ids(&p)?;
            let edges = scene::edge_mask_from_ids(p.width, p.height, &ids)
                .map_err(|e| MesaError(e.to_string()))?;
            Ok(Frame { image, edges })
        })();
        self.release_all(passes, p);
        result
    }

    /// Average wall time of one frame (clear + draw, waited for with glFinish) over `frames`
    /// frames, after one untimed frame that lets the driver compile its code.
    pub fn time_frames(
        &mut self,
        vertex_source: &str,
        fragment_source: &str,
        scene: &Scene,
        frames: u32,
    ) -> Result<Duration, MesaError> {
        // The passes are drawn once, untimed: the time is the picture's pass.
        let (passes, p) = self.prepare_all(vertex_source, fragment_source, scene)?;
        let result = (|| {
            self.draw(&p)?;
            self.finish();
            let start = Instant::now();
            for _ in 0..frames.max(1) {
                self.draw(&p)?;
                self.finish();
            }
            Ok(start.elapsed() / frames.max(1))
        })();
        self.release_all(passes, p);
        result
    }
}
