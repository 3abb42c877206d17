//! The software rasterizer: one pipeline behind both the spec's reference call
//! [`soft_triangle`] (targets up to 128x128) and the general [`draw`] used by Gfx3D's software
//! backend and `shc render` (targets up to 1920x1080). It also has the single-invocation helpers
//! [`soft_vs`] and [`soft_fs`].
//!
//! Pipeline (GL conventions, see DESIGN §3): vertex fetch and shading in SoA batches of
//! [`LANES`]; homogeneous clipping against near (z >= -w), far (z <= w), a w > 0 guard and a
//! guard band (|x|, |y| <= 64 w) that keeps window coordinates inside the fixed-point range, so a
//! triangle crossing w = 0 is clipped, never dropped whole; viewport transform with NDC y up;
//! back-face culling (counter-clockwise front faces in GL window space); edge functions in 24.8
//! fixed point (i64) with the top-left fill rule applied in target memory orientation (row 0 =
//! top of the picture); scissor to the viewport rectangle; 4x2 pixel blocks, up to
//! [`LANES`]/8 of them from one triangle queued and shaded as one SoA dispatch; early depth
//! test (against the target's float buffer; exact before shading unless the shader writes
//! gl_FragDepth, which is then clamped to [0, 1] and tested and written after shading, see
//! `late_depth`) with the write after shading for the lanes that did not DISCARD;
//! perspective-correct varyings (attribute/w and 1/w interpolated linearly in screen space,
//! with planes set up from the unsnapped float positions as llvmpipe does, so texel choices at
//! texture-coordinate boundaries agree with it); window depth z_ndc*0.5+0.5 interpolated
//! linearly; gl_FragCoord = (x + .5, y + .5 from the bottom, window z, 1/w_clip); colours
//! clamped (NaN -> 0) and rounded to nearest even into 0xAARRGGBB.
//!
//! Vertex memory without a heap: triangles are processed in chunks of [`CHUNK_TRIANGLES`]; the
//! chunk's distinct vertex indices (at most 3 per triangle) are gathered in a fixed cache,
//! shaded [`LANES`] at a time, and the chunk's triangles are then rasterized in order. An
//! indexed draw may reference any vertex; sharing within a chunk (a cube's corners, a
//! strip-like mesh) is exploited, re-shading across chunks costs at most one VS run per
//! corner, and memory stays fixed (the [`Scratch`] value, which callers with a heap can box
//! and reuse).
//!
//! It must never: panic or read out of bounds on any input (sizes, indices, strides, viewport,
//! NaN/inf positions), allocate, or keep state between calls other than the target's buffers.
// Lane loops index several arrays in lockstep on purpose (that is the form that vectorizes),
// and negated float comparisons send NaN down the rejecting path.
#![allow(
    clippy::needless_range_loop,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::too_many_arguments,
    clippy::manual_memcpy
)]
pub use crate::back::exec::jit::{CompiledStage, Jit};
use crate::back::exec::jit::{Frame, GROUPS, STAGE_FRAMES};
use crate::back::exec::lanes::{Lanes, Mask, Vec4x, ALL_LANES, LANES};
pub use crate::back::exec::texture::{
    Filter, MipFilter, SamplerState, TextureError, TextureRef, Wrap,
};
use crate::back::exec::{Executable, Invocation, Outputs, Regs};
use crate::ir::{Interp as Mode, Stage};
use crate::limits::{
    ATTR_CAP, CLIP_DISTANCE_MAX, RASTER_BANDS_MAX, SAMPLER_CAP, SOFT_TRIANGLE_MAX, VARYING_CAP,
};
use crate::program::link::Program;

pub mod parallel;
pub use parallel::{Serial, Workers};
pub mod state;
pub use state::{
    Blend, BlendComponent, BlendFactor, BlendOp, ColorMask, CompareFunc, CullFace, FrontFace,
    Pipeline, Scissor,
};

/// Largest target of [`draw`].
pub const TARGET_MAX_WIDTH: u32 = 1920;
pub const TARGET_MAX_HEIGHT: u32 = 1080;
/// Largest viewport edge and offset magnitude accepted.
pub const VIEWPORT_MAX: i32 = 8192;
/// Groups of bands a many-worker draw is dealt in, per worker (see [`draw_parallel`]).
const GROUPS_PER_WORKER: usize = 1;
/// Most bands of one group (each group shades every vertex and sets up every triangle once;
/// each of its bands walks the triangle's block rows inside it).
const BANDS_PER_GROUP: usize = 8;
/// Bands per group of a draw of at least `MANY_TRIANGLES` triangles: each band edge costs
/// every triangle crossing it a second set-up and its straddling blocks a second dispatch
/// (see [`draw_parallel`]), which a mesh of many small triangles pays often.
const MANY_BANDS_PER_GROUP: usize = 4;
const MANY_TRIANGLES: usize = 256;
/// Fewest rows of a band.
const BAND_ROWS_MIN: usize = 16;
/// Rows of each cell of the band-edge hint (`Scratch::odd_rows`), and the cells of the
/// tallest target.
const HINT_ROWS: usize = 8;
const HINT_CELLS: usize = TARGET_MAX_HEIGHT as usize / HINT_ROWS + 1;
/// Bands per worker of a draw whose passes are cheap (its corners fit one vertex dispatch),
/// taken in shrinking shares (see [`draw_parallel`]).
const SINGLE_BANDS_PER_WORKER: usize = 16;
/// Triangles whose vertices are shaded together (see the module doc).
pub const CHUNK_TRIANGLES: usize = 16;
const CACHE: usize = CHUNK_TRIANGLES * 3;
/// Guard band in clip space: |x|, |y| <= GUARD * w.
const GUARD: f32 = 64.0;
/// Smallest clip w kept (the w > 0 plane).
const W_MIN: f32 = 1e-6;
const SUBPIXEL_BITS: u32 = 8;
const ONE: i64 = 1 << SUBPIXEL_BITS;
/// Floats of varying data carried per vertex (8 slots of 4).
const VARY_FLOATS: usize = VARYING_CAP * 4;
/// The frustum and guard planes (near, far, w > 0, four guard-band planes).
const FRUSTUM_PLANES: usize = 7;
/// Those and the user planes of gl_ClipDistance; clipping adds at most one vertex per plane.
const CLIP_PLANES: usize = FRUSTUM_PLANES + CLIP_DISTANCE_MAX;
const CLIP_VERTS: usize = 3 + CLIP_PLANES;

/// A colour + depth render target; row 0 is the top of the picture. Depth is owned here, so
/// the LESS test works across draws.
pub struct Target<'a> {
    pub width: u32,
    pub height: u32,
    /// `width * height` pixels 0xAARRGGBB.
    pub color: &'a mut [u32],
    /// `width * height` window depths (clear to 1.0).
    pub depth: &'a mut [f32],
}

impl Target<'_> {
    /// Fills colour and depth.
    pub fn clear(&mut self, color: u32, depth: f32) {
        self.color.iter_mut().for_each(|p| *p = color);
        self.depth.iter_mut().for_each(|d| *d = depth);
    }

    /// [`Self::clear`] with the buffers cut into one run of whole rows per worker (the same
    /// values; a frame's clear is then not a serial part of it).
    pub fn clear_parallel(&mut self, workers: &dyn Workers, color: u32, depth: f32) {
        let n = workers.count().clamp(1, RASTER_BANDS_MAX);
        let width = (self.width as usize).max(1);
        let len = self.color.len().max(self.depth.len());
        if n == 1 || len < width * 2 {
            self.clear(color, depth);
            return;
        }
        let part = (len.div_ceil(width).div_ceil(n)) * width;
        let mut colors = self.color.chunks_mut(part);
        let mut jobs = heapless::Vec::<_, RASTER_BANDS_MAX>::new();
        for d in self.depth.chunks_mut(part) {
            let c = colors.next().unwrap_or_default();
            let job = move || {
                c.iter_mut().for_each(|p| *p = color);
                d.iter_mut().for_each(|x| *x = depth);
            };
            if jobs.push(job).is_err() {
                break;
            }
        }
        run_jobs(workers, &mut jobs);
        drop(jobs);
        // Colour rows past the depth buffer's end (a longer colour buffer).
        for c in colors {
            c.iter_mut().for_each(|p| *p = color);
        }
    }
}

/// The rows `row0..row1` of a target that one band of a draw owns (see [`parallel`]): `color`
/// and `depth` hold exactly those rows, row `row0` first.
struct Band<'a> {
    width: u32,
    row0: i64,
    row1: i64,
    color: &'a mut [u32],
    depth: &'a mut [f32],
    /// A float colour target's rows instead of `color` (empty for a 0xAARRGGBB target).
    colorf: &'a mut [[f32; 4]],
}

/// One vertex attribute stream: `components` floats at `offset` within each vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexAttrib {
    pub location: u8,
    /// In floats.
    pub offset: u32,
    pub components: u8,
}

/// Interleaved vertex data: vertex i starts at float `i * stride`.
#[derive(Clone, Copy, Debug)]
pub struct VertexInput<'a> {
    pub data: &'a [f32],
    /// In floats.
    pub stride: u32,
    pub attribs: &'a [VertexAttrib],
    pub count: u32,
}

/// Fixed-function state of a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RasterState {
    /// x, y (from the bottom), width, height in pixels.
    pub viewport: [i32; 4],
    /// LESS test against the target depth; when off, depth is neither tested nor written.
    pub depth_test: bool,
    /// With the test on: write the depth of drawn pixels.
    pub depth_write: bool,
    /// Drop clockwise (back) faces.
    pub cull_back: bool,
}

impl RasterState {
    /// Full-target viewport, depth test and write on, no culling.
    pub fn new(width: u32, height: u32) -> RasterState {
        RasterState {
            viewport: [
                0,
                0,
                width.min(i32::MAX as u32) as i32,
                height.min(i32::MAX as u32) as i32,
            ],
            depth_test: true,
            depth_write: true,
            cull_back: false,
        }
    }
}

/// A clear folded into a draw ([`draw_parallel_cleared`]): each band fills its own rows just
/// before drawing them, inside the draw's jobs (no separate run over the workers, no serial
/// part).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clear {
    /// 0xAARRGGBB of a colour target.
    pub color: u32,
    /// Of a float colour target (`colorf`).
    pub colorf: [f32; 4],
    pub depth: f32,
}

/// Counters of one draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Triangles submitted.
    pub triangles: u32,
    /// Dropped by back-face culling.
    pub culled: u32,
    /// Entirely outside the clip volume, degenerate or with non-finite positions.
    pub rejected: u32,
    /// Needed clipping.
    pub clipped: u32,
    pub vertices_shaded: u32,
    /// Fragment invocations that passed coverage and depth.
    pub fragments_shaded: u64,
    pub pixels_written: u64,
}

/// Why a draw was refused (nothing is drawn then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawError {
    NotLinked,
    /// Width or height is 0 or above the limit of this call.
    TargetSize {
        width: u32,
        height: u32,
        max_width: u32,
        max_height: u32,
    },
    /// Colour or depth buffer shorter than width * height.
    TargetBuffers {
        color: usize,
        depth: usize,
        needed: usize,
    },
    /// Viewport width/height not in 1..=8192 or offset magnitude above 8192.
    Viewport {
        viewport: [i32; 4],
    },
    /// Scissor width/height above 8192 or offset magnitude above 8192.
    Scissor {
        scissor: Scissor,
    },
    /// Polygon offset factor or units not finite.
    PolygonOffset,
    /// Attribute location not in 0..=7 or components not in 1..=4.
    Attribute {
        location: u8,
        components: u8,
    },
    /// The last vertex's attribute reads past the vertex data.
    VertexData {
        needed: u64,
        found: usize,
    },
    /// An index is not below the vertex count.
    Index {
        position: usize,
        index: u16,
        count: u32,
    },
    Texture {
        unit: usize,
        error: TextureError,
    },
}

impl core::fmt::Display for DrawError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            DrawError::NotLinked => write!(f, "program is not linked"),
            DrawError::TargetSize { width, height, max_width, max_height } => write!(
                f,
                "target size {}x{} is invalid (allowed 1x1 to {}x{})",
                width, height, max_width, max_height
            ),
            DrawError::TargetBuffers { color, depth, needed } => write!(
                f,
                "target buffers too small: colour {} and depth {} entries, width*height is {}",
                color, depth, needed
            ),
            DrawError::Viewport { viewport } => write!(
                f,
                "viewport {:?} is invalid (width and height 1..={}, |x|, |y| <= {})",
                viewport, VIEWPORT_MAX, VIEWPORT_MAX
            ),
            DrawError::Scissor { scissor } => write!(
                f,
                "scissor {:?} is invalid (width and height 0..={}, |x|, |y| <= {})",
                scissor, VIEWPORT_MAX, VIEWPORT_MAX
            ),
            DrawError::PolygonOffset => {
                write!(f, "polygon offset factor and units must be finite")
            }
            DrawError::Attribute { location, components } => write!(
                f,
                "vertex attribute at location {} with {} components is invalid (locations 0..=7, 1..=4 components)",
                location, components
            ),
            DrawError::VertexData { needed, found } => {
                write!(f, "vertex data has {} floats, the attributes need {}", found, needed)
            }
            DrawError::Index { position, index, count } => {
                write!(f, "index {} at position {} is out of range (vertex count {})", index, position, count)
            }
            DrawError::Texture { unit, error } => write!(f, "texture unit {}: {}", unit, error),
        }
    }
}

/// A shaded vertex: clip position and the varying floats the fragment stage reads (compact).
#[derive(Clone, Copy)]
struct ClipVert {
    pos: [f32; 4],
    var: [f32; VARY_FLOATS],
    /// gl_ClipDistance (the elements of `Setup::clip_mask`; the rest 0).
    clip: [f32; CLIP_DISTANCE_MAX],
}

const CLIP_ZERO: ClipVert = ClipVert {
    pos: [0.0; 4],
    var: [0.0; VARY_FLOATS],
    clip: [0.0; CLIP_DISTANCE_MAX],
};

/// Working memory of a draw (about 30 KiB): keep one and pass it to [`draw_with`] to avoid
/// putting it on the stack for every call.
///
/// Aligned to 128 bytes (two cache lines, the pair an adjacent-line prefetcher fetches
/// together): a many-worker draw's scratches lie next to each other in one slice, one per job,
/// and without it the end of one shared lines with the start of the next, which the two
/// threads wrote per dispatch (session 18: both threads' drawing 1.2-1.4x slower per row).
#[repr(align(128))]
pub struct Scratch {
    regs: Regs,
    out: Outputs,
    inputs: [Vec4x; VARYING_CAP],
    fragcoord: Vec4x,
    cache: [ClipVert; CACHE],
    cache_index: [u32; CACHE],
    /// Each cached vertex's outcode (`NOT_FINITE` added for a position with an inf or NaN),
    /// and its window position when the outcode is 0 (found once per vertex, not per corner).
    codes: [u16; CACHE],
    win: [WinVert; CACHE],
    /// The host's compiled form of the draw's executables (see [`Scratch::set_jit`]).
    jit: Option<&'static dyn Jit>,
    /// Where the triangles of the last many-worker draw through this scratch started their
    /// block rows, per cell of `HINT_ROWS` target rows: each triangle adds its bounding box's
    /// width to every cell its block rows touch when they start on an odd row, subtracts it
    /// when on an even one. A hint for where the next many-worker draw cuts its bands, edge by
    /// edge (no pixel depends on it; one-band draws leave it as it is).
    odd_rows: [i32; HINT_CELLS],
    /// Rows moved from the second group to the first in the next two-group draw through this
    /// scratch (even; negative: the other way), learnt from which group finished last (see
    /// [`draw_parallel`]). No pixel depends on it; one-band draws leave it as it is.
    group_shift: i32,
    /// A measuring driver's hook (see [`Scratch::set_trace`]).
    trace: Option<Trace>,
}

/// Where a draw's job is (see [`Scratch::set_trace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceMark {
    /// It took `bands` bands of `rows` rows in all, the first starting at row `row0`, and
    /// starts on them.
    Take { row0: i64, rows: i64, bands: usize },
    /// It cleared their rows (sent only when the draw clears).
    Cleared,
    /// It drew them.
    Drawn,
}

/// A measuring driver's hook: called by the job drawing through a scratch at each
/// [`TraceMark`] (a few times per take of bands, never per triangle or pixel).
pub type Trace = &'static (dyn Fn(TraceMark) + Sync);

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

impl Scratch {
    pub const fn new() -> Scratch {
        Scratch {
            regs: Regs::new(),
            out: Outputs::new(),
            inputs: [[[0.0; LANES]; 4]; VARYING_CAP],
            fragcoord: [[0.0; LANES]; 4],
            cache: [CLIP_ZERO; CACHE],
            cache_index: [0; CACHE],
            codes: [0; CACHE],
            win: [WIN_ZERO; CACHE],
            jit: None,
            odd_rows: [0; HINT_CELLS],
            group_shift: 0,
            trace: None,
        }
    }

    /// Calls `trace` at each [`TraceMark`] of later draws through this scratch (None, the
    /// default: nothing): for drivers that time where a many-worker draw's time goes
    /// (`tools/shc/examples/band_trace.rs`). No pixel depends on it.
    pub fn set_trace(&mut self, trace: Option<Trace>) {
        self.trace = trace;
    }

    /// Runs the stages of later draws through `jit`'s compiled code where it has some for
    /// them (per module, all or nothing; the interpreter runs the others), or only through the
    /// interpreter (None, the default). The draw asks the first scratch's `jit` once per draw
    /// for each stage's code, and each worker borrows its thread's frames from it
    /// (`Jit::with_frames`) and prepares them once per pass over its bands. Every picture is
    /// the same either way (the compiled form is bit-identical to the interpreter).
    pub fn set_jit(&mut self, jit: Option<&'static dyn Jit>) {
        self.jit = jit;
    }

    /// Runs later draws through this scratch on `isa` (see [`Regs::set_isa`]); false, and no
    /// change, when this machine cannot run it. Every instruction set gives the same pixels.
    pub fn set_isa(&mut self, isa: crate::back::exec::simd::Isa) -> bool {
        self.regs.set_isa(isa)
    }
}

fn check_target(t: &Target, max_w: u32, max_h: u32) -> Result<(), DrawError> {
    if t.width == 0 || t.height == 0 || t.width > max_w || t.height > max_h {
        return Err(DrawError::TargetSize {
            width: t.width,
            height: t.height,
            max_width: max_w,
            max_height: max_h,
        });
    }
    let needed = t.width as usize * t.height as usize;
    if t.color.len() < needed || t.depth.len() < needed {
        return Err(DrawError::TargetBuffers {
            color: t.color.len(),
            depth: t.depth.len(),
            needed,
        });
    }
    Ok(())
}

fn check_textures(textures: &[Option<TextureRef>]) -> Result<(), DrawError> {
    for (unit, t) in textures.iter().enumerate() {
        if let Some(t) = t {
            t.validate()
                .map_err(|error| DrawError::Texture { unit, error })?;
        }
    }
    Ok(())
}

fn check_input(input: &VertexInput) -> Result<(), DrawError> {
    for a in input.attribs {
        if a.location as usize >= ATTR_CAP || !(1..=4).contains(&a.components) {
            return Err(DrawError::Attribute {
                location: a.location,
                components: a.components,
            });
        }
        if input.count > 0 {
            let needed = (input.count as u64 - 1) * input.stride as u64
                + a.offset as u64
                + a.components as u64;
            if needed > input.data.len() as u64 {
                return Err(DrawError::VertexData {
                    needed,
                    found: input.data.len(),
                });
            }
        }
    }
    Ok(())
}

/// Draws a triangle list (`indices`, or vertices 0..count in order) into `target`.
pub fn draw(
    prog: &Program,
    input: &VertexInput,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    let mut scratch = Scratch::new();
    draw_with(&mut scratch, prog, input, indices, textures, state, target)
}

/// [`draw`] with caller-owned working memory.
pub fn draw_with(
    scratch: &mut Scratch,
    prog: &Program,
    input: &VertexInput,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    check_target(target, TARGET_MAX_WIDTH, TARGET_MAX_HEIGHT)?;
    draw_checked(
        core::slice::from_mut(scratch),
        &Serial,
        prog,
        input,
        &[],
        0,
        indices,
        textures,
        state,
        &Pipeline::DEFAULT,
        target,
        &mut [],
        None,
    )
}

/// [`draw_with`] with the output state of `pipe` (blending, depth function, colour mask,
/// scissor, polygon offset, front face and culling); [`Pipeline::DEFAULT`] draws exactly what
/// [`draw_with`] draws.
pub fn draw_pipeline(
    scratch: &mut Scratch,
    prog: &Program,
    input: &VertexInput,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    check_target(target, TARGET_MAX_WIDTH, TARGET_MAX_HEIGHT)?;
    if let Some(s) = pipe.scissor {
        if s.width > VIEWPORT_MAX as u32
            || s.height > VIEWPORT_MAX as u32
            || s.x.unsigned_abs() > VIEWPORT_MAX as u32
            || s.y.unsigned_abs() > VIEWPORT_MAX as u32
        {
            return Err(DrawError::Scissor { scissor: s });
        }
    }
    if !pipe.offset_factor.is_finite() || !pipe.offset_units.is_finite() {
        return Err(DrawError::PolygonOffset);
    }
    draw_checked(
        core::slice::from_mut(scratch),
        &Serial,
        prog,
        input,
        &[],
        0,
        indices,
        textures,
        state,
        pipe,
        target,
        &mut [],
        None,
    )
}

/// One instance of an instanced draw: [`draw_pipeline`] with the attributes at the locations of
/// `constants` read as those values for every vertex (the per-instance attributes of this
/// instance; they take the place of any binding in `input` at the same location), and
/// gl_InstanceID = `instance`. An instanced draw is one call per instance, in instance order.
#[allow(clippy::too_many_arguments)]
pub fn draw_pipeline_instance(
    scratch: &mut Scratch,
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    // `draw_parallel` validates the target, the constants, the scissor and the offset.
    draw_parallel(
        &Serial,
        core::slice::from_mut(scratch),
        prog,
        input,
        constants,
        instance,
        indices,
        textures,
        state,
        pipe,
        target,
    )
}

/// [`draw_pipeline_instance`] split over `workers` (see [`parallel`]): with `n = min(workers.
/// count(), scratches.len())` above 1 the target is cut into up to `8 n` horizontal bands (of
/// at least 16 rows) dealt in `n` groups of interleaved bands, and each of `n` jobs, with its
/// own scratch, draws the next undrawn group until none is left (shading the vertices and
/// setting up each triangle once per group). A draw of a few triangles (its corners fit one
/// vertex dispatch) is cut into up to `16 n` bands instead, queued spread over the target, and
/// each job takes a shrinking share of what is left (half its even share, at most 8 bands,
/// down to one). The picture is bit-identical to a one-band draw;
/// so are the statistics (per-triangle counts once, per-pixel ones summed). With no scratch,
/// nothing is drawn.
#[allow(clippy::too_many_arguments)]
pub fn draw_parallel(
    workers: &dyn Workers,
    scratches: &mut [Scratch],
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    check_target(target, TARGET_MAX_WIDTH, TARGET_MAX_HEIGHT)?;
    draw_parallel_checked(
        workers,
        scratches,
        prog,
        input,
        constants,
        instance,
        indices,
        textures,
        state,
        pipe,
        target,
        &mut [],
        None,
    )
}

/// [`draw_parallel`] into a float colour target: `colorf` holds the `width * height` colours
/// (r, g, b, a), row 0 = top, and `target.color` is not used (it may be empty). The fragment
/// colour is stored unclamped; blending follows GL's rules for float targets
/// ([`state::blend_float`]: nothing is clamped); the colour mask applies per channel. An empty
/// `colorf` draws into `target.color` exactly as [`draw_parallel`] does.
#[allow(clippy::too_many_arguments)]
pub fn draw_parallel_float(
    workers: &dyn Workers,
    scratches: &mut [Scratch],
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
    colorf: &mut [[f32; 4]],
) -> Result<DrawStats, DrawError> {
    draw_parallel_cleared(
        workers, scratches, prog, input, constants, instance, indices, textures, state, pipe,
        target, colorf, None,
    )
}

/// [`draw_parallel_float`] into a target cleared first when `clear` is given (`colorf` when not
/// empty, else `target.color`, and `target.depth` to its values), as [`Target::clear`] and then
/// the draw would, but with each band cleared by the job drawing it: a frame's clear is then
/// neither a serial part nor a run of its own over the workers. Nothing is drawn on an error;
/// the target is still cleared.
#[allow(clippy::too_many_arguments)]
pub fn draw_parallel_cleared(
    workers: &dyn Workers,
    scratches: &mut [Scratch],
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
    colorf: &mut [[f32; 4]],
    clear: Option<&Clear>,
) -> Result<DrawStats, DrawError> {
    let drawn = check_float_target(target, colorf).and_then(|()| {
        draw_parallel_checked(
            workers, scratches, prog, input, constants, instance, indices, textures, state, pipe,
            target, colorf, clear,
        )
    });
    let Some(clear) = clear else {
        return drawn;
    };
    // The bands cover the first width * height entries (none of them after an error).
    let done = match drawn {
        Ok(_) => target.width as usize * target.height as usize,
        Err(_) => 0,
    };
    if colorf.is_empty() {
        if let Some(c) = target.color.get_mut(done..) {
            c.fill(clear.color);
        }
    } else if let Some(c) = colorf.get_mut(done..) {
        c.fill(clear.colorf);
    }
    if let Some(d) = target.depth.get_mut(done..) {
        d.fill(clear.depth);
    }
    drawn
}

/// The target of [`draw_parallel_float`]: `colorf` (when not empty) and `target.depth` hold
/// `width * height` entries, else as [`draw_parallel`] checks it.
fn check_float_target(target: &Target, colorf: &[[f32; 4]]) -> Result<(), DrawError> {
    if colorf.is_empty() {
        return check_target(target, TARGET_MAX_WIDTH, TARGET_MAX_HEIGHT);
    }
    let (w, h) = (target.width, target.height);
    if w == 0 || h == 0 || w > TARGET_MAX_WIDTH || h > TARGET_MAX_HEIGHT {
        return Err(DrawError::TargetSize {
            width: w,
            height: h,
            max_width: TARGET_MAX_WIDTH,
            max_height: TARGET_MAX_HEIGHT,
        });
    }
    let needed = w as usize * h as usize;
    if colorf.len() < needed || target.depth.len() < needed {
        return Err(DrawError::TargetBuffers {
            color: colorf.len(),
            depth: target.depth.len(),
            needed,
        });
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn draw_parallel_checked(
    workers: &dyn Workers,
    scratches: &mut [Scratch],
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
    colorf: &mut [[f32; 4]],
    clear: Option<&Clear>,
) -> Result<DrawStats, DrawError> {
    for (location, _) in constants {
        if *location as usize >= ATTR_CAP {
            return Err(DrawError::Attribute {
                location: *location,
                components: 4,
            });
        }
    }
    if let Some(s) = pipe.scissor {
        if s.width > VIEWPORT_MAX as u32
            || s.height > VIEWPORT_MAX as u32
            || s.x.unsigned_abs() > VIEWPORT_MAX as u32
            || s.y.unsigned_abs() > VIEWPORT_MAX as u32
        {
            return Err(DrawError::Scissor { scissor: s });
        }
    }
    if !pipe.offset_factor.is_finite() || !pipe.offset_units.is_finite() {
        return Err(DrawError::PolygonOffset);
    }
    if scratches.is_empty() {
        let mut scratch = Scratch::new();
        return draw_checked(
            core::slice::from_mut(&mut scratch),
            &Serial,
            prog,
            input,
            constants,
            instance,
            indices,
            textures,
            state,
            pipe,
            target,
            colorf,
            clear,
        );
    }
    draw_checked(
        scratches, workers, prog, input, constants, instance, indices, textures, state, pipe,
        target, colorf, clear,
    )
}

/// What every band of one draw shares.
struct DrawCtx<'a, 'b> {
    setup: &'a Setup<'a>,
    prog: &'a Program,
    vs: &'a Executable,
    fs: &'a Executable,
    input: &'a VertexInput<'b>,
    constants: &'a [(u8, [f32; 4])],
    /// gl_InstanceID of this draw.
    instance: u32,
    indices: Option<&'a [u16]>,
    textures: &'a [Option<TextureRef<'b>>],
    tri_count: usize,
    vs_attrs: &'a [crate::ir::Attribute],
    /// Each band's rows are cleared to this before anything is drawn into them.
    clear: Option<&'a Clear>,
}

/// `scratches` is not empty (one-band draws pass one scratch).
#[allow(clippy::too_many_arguments)]
fn draw_checked(
    scratches: &mut [Scratch],
    workers: &dyn Workers,
    prog: &Program,
    input: &VertexInput,
    constants: &[(u8, [f32; 4])],
    instance: u32,
    indices: Option<&[u16]>,
    textures: &[Option<TextureRef>],
    state: &RasterState,
    pipe: &Pipeline,
    target: &mut Target,
    colorf: &mut [[f32; 4]],
    clear: Option<&Clear>,
) -> Result<DrawStats, DrawError> {
    let (Some(vs), Some(fs)) = (
        prog.executable(Stage::Vertex),
        prog.executable(Stage::Fragment),
    ) else {
        return Err(DrawError::NotLinked);
    };
    if !prog.is_linked() {
        return Err(DrawError::NotLinked);
    }
    let [vx, vy, vw, vh] = state.viewport;
    if !(1..=VIEWPORT_MAX).contains(&vw)
        || !(1..=VIEWPORT_MAX).contains(&vh)
        || vx.unsigned_abs() > VIEWPORT_MAX as u32
        || vy.unsigned_abs() > VIEWPORT_MAX as u32
    {
        return Err(DrawError::Viewport {
            viewport: state.viewport,
        });
    }
    check_textures(textures)?;
    check_input(input)?;
    if let Some(ix) = indices {
        for (position, &index) in ix.iter().enumerate() {
            if index as u32 >= input.count {
                return Err(DrawError::Index {
                    position,
                    index,
                    count: input.count,
                });
            }
        }
    }

    let (w, h) = (target.width as i64, target.height as i64);
    // Scissor = viewport rectangle (GL clips x/y to the view volume) in memory rows.
    let sx0 = (vx as i64).max(0);
    let sx1 = (vx as i64 + vw as i64).min(w);
    let sy0 = (h - vy as i64 - vh as i64).max(0);
    let sy1 = (h - vy as i64).min(h);
    // A scissor rectangle clips that range further (GL: x, y is its lower-left corner).
    let (sx0, sx1, sy0, sy1) = match pipe.scissor {
        None => (sx0, sx1, sy0, sy1),
        Some(s) => (
            sx0.max(s.x as i64),
            sx1.min(s.x as i64 + s.width as i64),
            sy0.max(h - s.y as i64 - s.height as i64),
            sy1.min(h - s.y as i64),
        ),
    };

    // Varying slots (vertex-output numbering) the fragment stage reads, packed in order.
    let mut slots = [0usize; VARYING_CAP];
    let mut nslots = 0;
    for s in 0..VARYING_CAP {
        if fs.varying_mask() & (1 << s) != 0 {
            slots[nslots] = s;
            nslots += 1;
        }
    }
    let slots = &slots[..nslots];
    // Each packed slot's interpolation (the link checked that both stages agree).
    let mut interp = [Mode::Smooth; VARYING_CAP];
    for (k, &s) in slots.iter().enumerate() {
        if let Some(v) = prog.varyings().iter().find(|v| v.vs_slot as usize == s) {
            interp[k] = v.interp;
        }
    }

    // The compiled code of each stage, looked up once per draw (a fused packed sample runs in
    // the interpreter: the colour is read from `Outputs::packed`).
    let jit = scratches.first().and_then(|s| s.jit);
    let vs_code = jit.and_then(|j| j.stage(vs));
    let fs_code = jit.filter(|_| !fs.sample_color()).and_then(|j| j.stage(fs));
    let workers_n = scratches
        .len()
        .min(workers.count())
        .min(RASTER_BANDS_MAX)
        .min(target.height as usize)
        .max(1);
    let setup = Setup {
        hint: workers_n > 1,
        jit,
        vs_code,
        fs_code,
        vp: [vx as f64, vy as f64, vw as f64, vh as f64],
        height: h,
        scissor: [sx0, sx1, sy0, sy1],
        slots,
        interp,
        nv: nslots * 4,
        clip_mask: vs.clip_mask(),
        state: *state,
        pipe: *pipe,
    };
    let tri_count = match indices {
        Some(ix) => ix.len() / 3,
        None => input.count as usize / 3,
    };
    let vs_attrs = prog
        .module(Stage::Vertex)
        .map(|m| m.iface.attributes.clone())
        .unwrap_or_default();
    let ctx = DrawCtx {
        setup: &setup,
        prog,
        vs,
        fs,
        input,
        constants,
        instance,
        indices,
        textures,
        tri_count,
        vs_attrs: &vs_attrs,
        clear,
    };
    let width = target.width as usize;
    // check_target: both buffers hold at least width * height entries.
    let needed = width * target.height as usize;
    let float = !colorf.is_empty();
    let color = if float {
        &mut []
    } else {
        target.color.get_mut(..needed).unwrap_or(&mut [])
    };
    let depth = target.depth.get_mut(..needed).unwrap_or(&mut []);
    let colorf = colorf.get_mut(..needed).unwrap_or(&mut []);
    // The last many-worker draw's block rows (see `Scratch::odd_rows`), counted afresh for
    // the next one (a one-band draw neither reads nor counts them).
    let mut odd = [0i32; HINT_CELLS];
    for s in scratches.iter_mut().filter(|_| workers_n > 1) {
        for (sum, cell) in odd
            .iter_mut()
            .zip(core::mem::replace(&mut s.odd_rows, [0; HINT_CELLS]))
        {
            *sum = sum.saturating_add(cell);
        }
    }
    if workers_n == 1 {
        let Some(scratch) = scratches.first_mut() else {
            return Ok(DrawStats::default());
        };
        let mut band = Band {
            width: target.width,
            row0: 0,
            row1: h,
            color,
            depth,
            colorf,
        };
        let trace = scratch.trace;
        if let Some(t) = trace {
            t(TraceMark::Take {
                row0: 0,
                rows: h,
                bands: 1,
            });
        }
        let stats = draw_bands(&ctx, scratch, core::slice::from_mut(&mut band));
        if let Some(t) = trace {
            t(TraceMark::Drawn);
        }
        return Ok(stats);
    }
    // Bands of an even number of rows (a 4x2 block then straddles two bands only when its
    // triangle's first block row and the band's first row differ in parity), no thinner than
    // BAND_ROWS_MIN: GROUPS_PER_WORKER * BANDS_PER_GROUP per worker (MANY_BANDS_PER_GROUP
    // for a draw of MANY_TRIANGLES or more), dealt in groups of interleaved bands (each group
    // shades the vertices and sets up the triangles with a block row in it once), or,
    // for a draw whose corners fit one vertex dispatch (a few triangles: a full-screen or
    // textured quad: a pass over its triangles costs little), SINGLE_BANDS_PER_WORKER per
    // worker taken in shrinking shares (below). Either way the workers take work as they come
    // free: one that starts late or is held up takes less.
    let single = tri_count.saturating_mul(3) <= LANES;
    let height = target.height as usize;
    let per_worker = if single {
        SINGLE_BANDS_PER_WORKER
    } else if tri_count >= MANY_TRIANGLES {
        GROUPS_PER_WORKER * MANY_BANDS_PER_GROUP
    } else {
        GROUPS_PER_WORKER * BANDS_PER_GROUP
    };
    // Each band edge moves one row up when the last draw's triangles around it started their
    // block rows on odd rows (`Scratch::odd_rows`, the cell of the edge's row): the edge then
    // falls between block rows instead of through them (a block straddling two bands is shaded
    // in both, half its lanes in each). One band fewer than the queue holds (the last band
    // may be a row or two short).
    let wanted = (workers_n * per_worker).min(RASTER_BANDS_MAX - 1);
    let rows = height.div_ceil(wanted).max(BAND_ROWS_MIN);
    let rows = rows + (rows & 1);
    // Two groups of interleaved bands (two workers, many triangles): `shift` rows (even) move
    // from the second group's bands to the first's, in steps of two rows spread over the
    // pairs of bands (band 2p gains what band 2p + 1 loses), learnt below from which group
    // finished last in earlier draws (the job that takes second starts later, and clears rows
    // the other core last wrote). No pixel depends on it.
    let two_groups = !single && workers_n == 2 && GROUPS_PER_WORKER == 1;
    let pairs = height.div_ceil(rows) / 2;
    let shift_max = (pairs * (rows / 2).min(rows - BAND_ROWS_MIN)) as i32 & !1;
    let shift = match scratches.first() {
        Some(s) if two_groups => s.group_shift.clamp(-shift_max, shift_max),
        _ => 0,
    };
    let steps = shift / 2;
    let pairs_i = pairs.max(1) as i32;
    // The rows moved in pairs 0..=p.
    let moved = |p: usize| 2 * (steps * (p as i32 + 1) / pairs_i);
    let mut bands = heapless::Vec::<Option<Band>, RASTER_BANDS_MAX>::new();
    // Depth always holds every row; the unused colour plane is empty (its parts run out).
    let (mut color, mut depth, mut colorf) = (color, depth, colorf);
    let mut row0 = 0usize;
    while row0 < height {
        // The nominal edge (a multiple of `rows`, even) or the odd row above it.
        let k = bands.len();
        let edge = (k + 1) * rows;
        // Band 2p ends its pair's share of the shift lower; the odd band after it ends where
        // it did.
        let edge = match k {
            k if shift != 0 && k % 2 == 0 && k / 2 < pairs => {
                let p = k / 2;
                let before = if p == 0 { 0 } else { moved(p - 1) };
                edge.saturating_add_signed((moved(p) - before) as isize)
            }
            _ => edge,
        };
        let up = odd.get(edge / HINT_ROWS).is_some_and(|&w| w > 0);
        let n = (edge - up as usize).min(height) - row0;
        let band = Band {
            width: width as u32,
            row0: row0 as i64,
            row1: (row0 + n) as i64,
            color: take_front(&mut color, n * width),
            depth: take_front(&mut depth, n * width),
            colorf: take_front(&mut colorf, n * width),
        };
        row0 += n;
        // At most RASTER_BANDS_MAX bands (rows >= height / wanted, plus the short one).
        if bands.push(Some(band)).is_err() {
            break;
        }
    }
    let total = bands.len();
    // The order the bands are queued in.
    let mut order = heapless::Vec::<usize, RASTER_BANDS_MAX>::new();
    let per_group = if single {
        // Bit-reversed (0, 8, 4, 12, 2, ... of 16): any run of the queue is spread over the
        // target like the frame's work. A job takes a share of what is left (half of its even
        // share, at most BANDS_PER_GROUP), so the takes shrink to single bands at the end:
        // few passes, and a short last one.
        let span = total.next_power_of_two();
        let shift = usize::BITS - span.trailing_zeros();
        for r in 0..span {
            let i = r.reverse_bits().checked_shr(shift).unwrap_or(0);
            if i < total {
                let _ = order.push(i);
            }
        }
        0
    } else {
        // Group after group (a group is every `groups`-th band); a job takes a group at a
        // time. Two jobs taking at the same moment may split a group between them: the pixels
        // do not depend on it.
        let groups = (workers_n * GROUPS_PER_WORKER).min(total).max(1);
        for g in 0..groups {
            for i in (g..total).step_by(groups) {
                let _ = order.push(i);
            }
        }
        total.div_ceil(groups).clamp(1, BANDS_PER_GROUP)
    };
    let queue = heapless::mpmc::Queue::<Band, RASTER_BANDS_MAX>::default();
    for i in order {
        if let Some(band) = bands.get_mut(i).and_then(Option::take) {
            // The queue holds RASTER_BANDS_MAX, as many as `bands`.
            let _ = queue.enqueue(band);
        }
    }
    let taken = core::sync::atomic::AtomicUsize::new(0);
    // For `group_shift` (two groups): per group, the job that drew it and its place in the
    // order the takes finished (both + 1, 0: none), and whether any take was not a whole group.
    let drawn_by = [const { core::sync::atomic::AtomicUsize::new(0) }; 2];
    let ended = [const { core::sync::atomic::AtomicUsize::new(0) }; 2];
    let finished = core::sync::atomic::AtomicUsize::new(0);
    let split = core::sync::atomic::AtomicBool::new(false);
    // Each worker's groups: per-pixel counts add up; per-triangle ones are the same in every
    // group (None: the worker drew no band).
    let mut results: [Option<DrawStats>; RASTER_BANDS_MAX] = [None; RASTER_BANDS_MAX];
    let mut jobs = heapless::Vec::<_, RASTER_BANDS_MAX>::new();
    for (j, (scratch, result)) in scratches
        .iter_mut()
        .zip(results.iter_mut())
        .take(workers_n)
        .enumerate()
    {
        let ctx = &ctx;
        let queue = &queue;
        let taken = &taken;
        let (drawn_by, ended, finished, split) = (&drawn_by, &ended, &finished, &split);
        let job = move || loop {
            use core::sync::atomic::Ordering::Relaxed;
            let take = match per_group {
                0 => (total.saturating_sub(taken.load(Relaxed)))
                    .div_ceil(2 * workers_n)
                    .clamp(1, BANDS_PER_GROUP),
                n => n,
            };
            let mut group = heapless::Vec::<Band, BANDS_PER_GROUP>::new();
            // take <= BANDS_PER_GROUP: every band taken fits.
            while group.len() < take {
                let Some(band) = queue.dequeue() else {
                    break;
                };
                let _ = group.push(band);
            }
            if group.is_empty() {
                break;
            }
            // Only sizes the next takes and learns the shift: no pixel depends on it.
            let before = taken.fetch_add(group.len(), Relaxed);
            let g = before.checked_div(per_group).unwrap_or(0).min(1);
            if two_groups && (group.len() != per_group || before % per_group.max(1) != 0) {
                split.store(true, Relaxed);
            }
            let trace = scratch.trace;
            if let Some(t) = trace {
                t(TraceMark::Take {
                    row0: group.first().map_or(0, |b| b.row0),
                    rows: group.iter().map(|b| b.row1 - b.row0).sum(),
                    bands: group.len(),
                });
            }
            let stats = draw_bands(ctx, scratch, &mut group);
            if let Some(t) = trace {
                t(TraceMark::Drawn);
            }
            *result = Some(add_band(*result, stats));
            if two_groups {
                let place = finished.fetch_add(1, Relaxed);
                if let (Some(by), Some(end)) = (drawn_by.get(g), ended.get(g)) {
                    by.store(j + 1, Relaxed);
                    end.store(place + 1, Relaxed);
                }
            }
        };
        if jobs.push(job).is_err() {
            break;
        }
    }
    run_jobs(workers, &mut jobs);
    drop(jobs);
    // Learn only from a draw whose two groups were drawn whole by different jobs: the group
    // that ended last gives two rows of its own (when one job drew both, the other never
    // started, and the rows say nothing of the groups' costs).
    if two_groups {
        use core::sync::atomic::Ordering::Relaxed;
        let [by0, by1] = drawn_by.map(|a| a.load(Relaxed));
        let [end0, end1] = ended.map(|a| a.load(Relaxed));
        if by0 != 0 && by1 != 0 && by0 != by1 && !split.load(Relaxed) {
            if let Some(s) = scratches.first_mut() {
                let step = if end1 > end0 { 2 } else { -2 };
                s.group_shift = (shift + step).clamp(-shift_max, shift_max);
            }
        }
    }
    let mut stats: Option<DrawStats> = None;
    for r in results.iter().flatten() {
        stats = Some(add_band(stats, *r));
    }
    Ok(stats.unwrap_or_default())
}

/// The first `n` entries of `s` (all of them when it is shorter), leaving the rest in `s`.
fn take_front<'a, T>(s: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let all = core::mem::take(s);
    let (front, rest) = all.split_at_mut(n.min(all.len()));
    *s = rest;
    front
}

/// Runs `jobs` on `workers` (each exactly once) and returns when all have finished.
fn run_jobs<F: FnMut() + Send>(
    workers: &dyn Workers,
    jobs: &mut heapless::Vec<F, RASTER_BANDS_MAX>,
) {
    let mut refs = heapless::Vec::<&mut (dyn FnMut() + Send), RASTER_BANDS_MAX>::new();
    for job in jobs.iter_mut() {
        let _ = refs.push(job);
    }
    workers.run(&mut refs);
}

/// `band`'s statistics added to those of earlier bands (`sum`, None for none): per-pixel counts
/// add up, per-triangle ones are the same in every band.
fn add_band(sum: Option<DrawStats>, band: DrawStats) -> DrawStats {
    match sum {
        None => band,
        Some(mut sum) => {
            sum.fragments_shaded += band.fragments_shaded;
            sum.pixels_written += band.pixels_written;
            sum
        }
    }
}

/// Draws every triangle of the draw into the rows of each of `bands` (one band, or a job's group:
/// the vertices are shaded and each triangle set up once for the whole group), on this
/// thread's frames of the compiled code when a stage has some (borrowed from the host once
/// per call, not per dispatch).
fn draw_bands(ctx: &DrawCtx, scratch: &mut Scratch, bands: &mut [Band]) -> DrawStats {
    let setup = ctx.setup;
    let Some(jit) = setup
        .jit
        .filter(|_| setup.vs_code.is_some() || setup.fs_code.is_some())
    else {
        return draw_bands_on(ctx, scratch, bands, None);
    };
    let mut stats = None;
    jit.with_frames(&mut |frames| {
        if stats.is_none() {
            stats = Some(draw_bands_on(ctx, scratch, bands, frames));
        }
    });
    match stats {
        Some(stats) => stats,
        // The host never called back: every stage in the interpreter.
        None => draw_bands_on(ctx, scratch, bands, None),
    }
}

/// [`draw_bands`] on `frames` (None: the interpreter runs both stages): [`STAGE_FRAMES`]
/// frames, the vertex stage's then the fragment stage's, prepared here for this draw.
fn draw_bands_on(
    ctx: &DrawCtx,
    scratch: &mut Scratch,
    bands: &mut [Band],
    frames: Option<&mut [Frame]>,
) -> DrawStats {
    let DrawCtx {
        setup,
        prog,
        vs,
        fs,
        input,
        constants,
        instance,
        indices,
        textures,
        tri_count,
        vs_attrs,
        clear,
    } = *ctx;
    if let Some(c) = clear {
        // In the AVX2 trampoline when the machine has it: 32-byte stores.
        scratch.regs.simd().run(
            #[inline(always)]
            || {
                for band in bands.iter_mut() {
                    band.color.fill(c.color);
                    band.colorf.fill(c.colorf);
                    band.depth.fill(c.depth);
                }
            },
        );
        if let Some(t) = scratch.trace {
            t(TraceMark::Cleared);
        }
    }
    let slots = setup.slots;
    let mut stats = DrawStats {
        triangles: tri_count.min(u32::MAX as usize) as u32,
        ..DrawStats::default()
    };
    let corner = |t: usize| -> u32 {
        match indices {
            Some(ix) => ix.get(t).copied().unwrap_or(0) as u32,
            None => t as u32,
        }
    };
    let vs_uniforms = prog.uniform_words(Stage::Vertex);
    let quads = fs.derivatives();
    // This thread's frames (each worker has its own), prepared for the stages that have code.
    let (mut vs_frames, mut fs_frames) = match frames {
        Some(f) if f.len() >= STAGE_FRAMES => {
            let (v, f) = f.split_at_mut(GROUPS);
            (setup.vs_code.map(|_| v), setup.fs_code.map(|_| f))
        }
        _ => (None, None),
    };
    if let Some(f) = vs_frames.as_deref_mut() {
        vs.prepare_frames(f, vs_uniforms);
    }
    if let Some(f) = fs_frames.as_deref_mut() {
        fs.prepare_frames(f, prog.uniform_words(Stage::Fragment));
    }

    // Blocks wait here across triangles until a dispatch is full.
    let mut batch = Batch {
        frames: fs_frames,
        ..Batch::EMPTY
    };
    let mut first = 0usize;
    while first < tri_count {
        let last = (first + CHUNK_TRIANGLES).min(tri_count);
        // Gather the chunk's distinct vertices.
        let mut corners = [0u8; CACHE];
        let mut n = 0usize;
        for (c, slot) in corners.iter_mut().enumerate().take((last - first) * 3) {
            let v = corner(first * 3 + c);
            let found = scratch.cache_index.iter().take(n).position(|&x| x == v);
            *slot = match found {
                Some(i) => i as u8,
                None => {
                    scratch.cache_index[n.min(CACHE - 1)] = v;
                    n += 1;
                    (n - 1) as u8
                }
            };
        }
        // Shade them, LANES at a time (the vertex stage's inputs take the place of the queued
        // blocks' interpolated ones: those are shaded first).
        flush_pending(
            setup, scratch, fs, prog, textures, bands, &mut stats, &mut batch,
        );
        let mut base = 0;
        while base < n {
            let lanes = (n - base).min(LANES);
            let inputs = &mut scratch.inputs;
            for a in vs_attrs.iter() {
                let input_slot = &mut inputs[a.location as usize & (VARYING_CAP - 1)];
                *input_slot = [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]];
                if let Some((_, k)) = constants.iter().rev().find(|(l, _)| *l == a.location) {
                    for c in 0..4 {
                        input_slot[c] = [k[c]; LANES];
                    }
                    continue;
                }
                let Some(bind) = input
                    .attribs
                    .iter()
                    .rev()
                    .find(|b| b.location == a.location)
                else {
                    continue;
                };
                for l in 0..lanes {
                    let v = scratch.cache_index[base + l] as u64;
                    let at = v * input.stride as u64 + bind.offset as u64;
                    for c in 0..(bind.components as usize).min(4) {
                        input_slot[c][l] = usize::try_from(at + c as u64)
                            .ok()
                            .and_then(|i| input.data.get(i))
                            .copied()
                            .unwrap_or(0.0);
                    }
                }
            }
            if vs.reads_sysvals() {
                // gl_VertexID is the vertex's index (the index value of an indexed draw).
                for l in 0..LANES {
                    let v = scratch.cache_index.get(base + l).copied().unwrap_or(0);
                    scratch.fragcoord[0][l] = if l < lanes { v as f32 } else { 0.0 };
                }
                scratch.fragcoord[1] = [instance as f32; LANES];
            }
            let inv = Invocation {
                uniforms: vs_uniforms,
                textures,
                inputs: &scratch.inputs,
                fragcoord: &scratch.fragcoord,
            };
            let active = if lanes >= LANES {
                ALL_LANES
            } else {
                (1 << lanes) - 1
            };
            // The compiled code, or the interpreter when there is none or it gave the
            // dispatch back (a SIN/COS operand outside its range).
            let done = match (setup.vs_code, vs_frames.as_deref_mut()) {
                (Some(c), Some(f)) => c.run(f, vs, &inv, &mut scratch.out, active),
                _ => None,
            };
            if done.is_none() {
                vs.run(&mut scratch.regs, &inv, &mut scratch.out, active);
            }
            for l in 0..lanes {
                let Some(cv) = scratch.cache.get_mut(base + l) else {
                    break;
                };
                for c in 0..4 {
                    cv.pos[c] = scratch.out.position[c][l];
                }
                for (k, d) in cv.clip.iter_mut().enumerate() {
                    *d = if setup.clip_mask & (1 << k) != 0 {
                        scratch.out.clip[k][l]
                    } else {
                        0.0
                    };
                }
                for (k, &s) in slots.iter().enumerate() {
                    for c in 0..4 {
                        cv.var[k * 4 + c] = scratch.out.varyings[s][c][l];
                    }
                }
                // What every triangle through this vertex tests first (`triangle`).
                let code = if cv.pos.iter().all(|c| c.is_finite()) {
                    outcode(cv)
                } else {
                    NOT_FINITE
                };
                if code == 0 {
                    scratch.win[base + l] = to_window(setup, &cv.pos);
                }
                scratch.codes[base + l] = code;
            }
            base += lanes;
        }
        stats.vertices_shaded += n as u32;
        for t in 0..(last - first) {
            let i = t * 3;
            let k = [
                corners[i] as usize % CACHE,
                corners[i + 1] as usize % CACHE,
                corners[i + 2] as usize % CACHE,
            ];
            let codes = k.map(|k| scratch.codes[k]);
            if (codes[0] | codes[1] | codes[2]) & NOT_FINITE != 0
                || codes[0] & codes[1] & codes[2] != 0
            {
                stats.rejected += 1;
                continue;
            }
            // A triangle inside every plane is placed from its vertices' window positions;
            // one with no block row in this job's bands ends here, before its vertices are
            // copied (with interleaved bands, most of a mesh's triangles lie in one group).
            let at = if codes[0] | codes[1] | codes[2] == 0 {
                let wv = k.map(|k| scratch.win[k]);
                let placed = admit(setup, quads, wv, &mut scratch.odd_rows, bands, &mut stats);
                let Some(at) = placed else {
                    continue;
                };
                Some(at)
            } else {
                None
            };
            // (Not `k.map`: that copies the vertices twice.)
            let v = [
                scratch.cache[k[0]],
                scratch.cache[k[1]],
                scratch.cache[k[2]],
            ];
            triangle(
                setup, &v, codes, at, scratch, prog, fs, textures, bands, &mut stats, &mut batch,
            );
        }
        first = last;
    }
    flush_pending(
        setup, scratch, fs, prog, textures, bands, &mut stats, &mut batch,
    );
    stats
}

struct Setup<'a> {
    /// A many-worker draw: its triangles count their block rows' parity for the next one's
    /// band edges (`Scratch::odd_rows`).
    hint: bool,
    /// The host whose code the stages run (it lends each worker its frames), if any.
    jit: Option<&'static dyn Jit>,
    /// Compiled code of the vertex and fragment stages (None: the interpreter runs it).
    vs_code: Option<&'static dyn CompiledStage>,
    fs_code: Option<&'static dyn CompiledStage>,
    vp: [f64; 4],
    height: i64,
    /// x0, x1, row0, row1 (half-open) in target memory coordinates.
    scissor: [i64; 4],
    slots: &'a [usize],
    /// Interpolation of each packed slot (index as in `slots`).
    interp: [Mode; VARYING_CAP],
    nv: usize,
    /// The user clip planes: bit k when the vertex stage writes gl_ClipDistance[k].
    clip_mask: u8,
    state: RasterState,
    pipe: Pipeline,
}

/// Signed distances to the clip planes (inside when >= 0): the frustum and guard planes of
/// the clip position, then gl_ClipDistance (0, inside, for the elements not written).
fn plane_distances(v: &ClipVert) -> [f32; CLIP_PLANES] {
    let [x, y, z, w] = v.pos;
    let mut d = [0.0; CLIP_PLANES];
    d[..FRUSTUM_PLANES].copy_from_slice(&[
        z + w,
        w - z,
        w - W_MIN,
        GUARD * w - x,
        GUARD * w + x,
        GUARD * w - y,
        GUARD * w + y,
    ]);
    d[FRUSTUM_PLANES..].copy_from_slice(&v.clip);
    d
}

/// Added to a vertex's outcode (`Scratch::codes`) when its position has an inf or NaN: its
/// triangles are rejected.
const NOT_FINITE: u16 = 1 << CLIP_PLANES;
const _: () = assert!(CLIP_PLANES < 16);

fn outcode(v: &ClipVert) -> u16 {
    let mut code = 0u16;
    for (i, d) in plane_distances(v).iter().enumerate() {
        // NaN counts as outside.
        if !(*d >= 0.0) {
            code |= 1 << i;
        }
    }
    code
}

/// Draws the triangle `v` (finite positions, `codes` their outcodes, not all outside one
/// plane) into `bands`: at `at` when it lies inside every plane (placed by [`admit`]), else
/// clipped first.
#[allow(clippy::too_many_arguments)]
fn triangle(
    setup: &Setup,
    v: &[ClipVert; 3],
    codes: [u16; 3],
    at: Option<Placed>,
    scratch: &mut Scratch,
    prog: &Program,
    fs: &Executable,
    textures: &[Option<TextureRef>],
    bands: &mut [Band],
    stats: &mut DrawStats,
    batch: &mut Batch,
) {
    // Flat varyings take the provoking vertex's value (GL's default convention: the last
    // vertex of the triangle): copied to the others before clipping, every vertex that
    // clipping makes carries it too (copied as bits: profile 2's flat integers).
    let flat: [ClipVert; 3];
    let v = if setup
        .interp
        .iter()
        .take(setup.slots.len())
        .any(|&m| m == Mode::Flat)
    {
        let mut f = *v;
        for (k, &m) in setup.interp.iter().take(setup.slots.len()).enumerate() {
            if m == Mode::Flat {
                for c in k * 4..k * 4 + 4 {
                    let last = v[2].var[c];
                    f[0].var[c] = last;
                    f[1].var[c] = last;
                }
            }
        }
        flat = f;
        &flat
    } else {
        v
    };
    if let Some(at) = at {
        raster(
            setup, v, &at, scratch, prog, fs, textures, bands, stats, batch,
        );
        return;
    }
    stats.clipped += 1;
    let mut poly = [CLIP_ZERO; CLIP_VERTS];
    let mut tmp = [CLIP_ZERO; CLIP_VERTS];
    poly[..3].copy_from_slice(v);
    let mut n = 3usize;
    let nv = setup.nv;
    for plane in 0..CLIP_PLANES {
        if (codes[0] | codes[1] | codes[2]) & (1 << plane) == 0 {
            continue;
        }
        let mut m = 0usize;
        for i in 0..n {
            let a = poly[i];
            let b = poly[(i + 1) % n];
            let da = plane_distances(&a)[plane];
            let db = plane_distances(&b)[plane];
            let (ain, bin) = (da >= 0.0, db >= 0.0);
            if ain && m < CLIP_VERTS {
                tmp[m] = a;
                m += 1;
            }
            if ain != bin && m < CLIP_VERTS {
                // Always interpolate from the inside vertex so both triangles sharing an edge
                // compute the same point.
                let (p, q, dp, dq) = if ain {
                    (&a, &b, da, db)
                } else {
                    (&b, &a, db, da)
                };
                let t = dp / (dp - dq);
                let mut r = CLIP_ZERO;
                for c in 0..4 {
                    r.pos[c] = p.pos[c] + t * (q.pos[c] - p.pos[c]);
                }
                // The user distances are linear in clip space too (later planes test them).
                for k in 0..CLIP_DISTANCE_MAX {
                    r.clip[k] = p.clip[k] + t * (q.clip[k] - p.clip[k]);
                }
                for k in 0..nv {
                    r.var[k] = if setup.interp.get(k / 4) == Some(&Mode::Flat) {
                        // Bits, not arithmetic: a flat integer's pattern may be -0.0, an
                        // infinity or a NaN (a + t * (a - a) would change it).
                        p.var[k]
                    } else {
                        p.var[k] + t * (q.var[k] - p.var[k])
                    };
                }
                tmp[m] = r;
                m += 1;
            }
        }
        poly = tmp;
        n = m;
        if n < 3 {
            stats.rejected += 1;
            return;
        }
    }
    let quads = fs.derivatives();
    for i in 1..n - 1 {
        let tri = [poly[0], poly[i], poly[i + 1]];
        let wv = tri.each_ref().map(|v| to_window(setup, &v.pos));
        if let Some(at) = admit(setup, quads, wv, &mut scratch.odd_rows, bands, stats) {
            raster(
                setup, &tri, &at, scratch, prog, fs, textures, bands, stats, batch,
            );
        }
    }
}

/// A vertex after the viewport transform.
#[derive(Clone, Copy)]
struct WinVert {
    /// Snapped position (1/256 pixel, memory orientation) for coverage.
    x: i64,
    y: i64,
    /// Unsnapped position in pixels for interpolation (as llvmpipe sets up its planes).
    xf: f64,
    yf: f64,
    z: f32,
    q: f32,
}

const WIN_ZERO: WinVert = WinVert {
    x: 0,
    y: 0,
    xf: 0.0,
    yf: 0.0,
    z: 0.0,
    q: 0.0,
};

fn to_window(setup: &Setup, p: &[f32; 4]) -> WinVert {
    let q = 1.0 / p[3];
    let (nx, ny, nz) = ((p[0] * q) as f64, (p[1] * q) as f64, p[2] * q);
    let [vx, vy, vw, vh] = setup.vp;
    let xw = vx + (nx + 1.0) * 0.5 * vw;
    let yw = vy + (ny + 1.0) * 0.5 * vh;
    let ymem = setup.height as f64 - yw;
    let fx = libm::floor(xw * ONE as f64 + 0.5);
    let fy = libm::floor(ymem * ONE as f64 + 0.5);
    // NaN maps to a value the caller rejects (`as` would turn it into 0).
    let fixed = |f: f64| if f.is_nan() { i64::MAX } else { f as i64 };
    WinVert {
        x: fixed(fx),
        y: fixed(fy),
        xf: xw,
        yf: ymem,
        z: nz * 0.5 + 0.5,
        q,
    }
}

/// Where a triangle inside every clip plane lies on the target, found by [`admit`] before any
/// band's rows are looked at.
#[derive(Clone, Copy)]
struct Placed {
    /// Window positions, reordered so that the area is positive: `wv[i]` is the triangle's
    /// vertex `order[i]`.
    wv: [WinVert; 3],
    order: [usize; 3],
    area: i64,
    /// Counter-clockwise in GL window space (gl_FrontFacing).
    front: bool,
    /// Bounding box in pixels, inside the scissor (inclusive).
    px0: i64,
    px1: i64,
    py0: i64,
    py1: i64,
    /// The first block's column and row (see `raster_body`).
    bx0: i64,
    by0: i64,
}

/// The triangle at window positions `wv` placed for drawing into `bands`, or None: rejected
/// (out of the fixed-point range, or degenerate) or culled (each counted in `stats`), outside
/// the scissor, or with no block row in any of `bands` (nothing to draw here; another job's
/// bands may have some). Adds the triangle's block-row parity to `odd_rows`
/// (`Scratch::odd_rows`). `quads`: the fragment stage takes derivatives.
fn admit(
    setup: &Setup,
    quads: bool,
    mut wv: [WinVert; 3],
    odd_rows: &mut [i32; HINT_CELLS],
    bands: &[Band],
    stats: &mut DrawStats,
) -> Option<Placed> {
    // Clipping arithmetic on extreme (finite) inputs can still produce inf/NaN or coordinates
    // far outside the guard band: such triangles are dropped before any integer arithmetic.
    // 2^30 in 1/256 pixel units keeps every edge product below 2^62 (legitimate coordinates
    // stay below 2^27 thanks to the guard band).
    const COORD_LIMIT: i64 = 1 << 30;
    let sane = |v: &WinVert| {
        (-COORD_LIMIT..COORD_LIMIT).contains(&v.x)
            && (-COORD_LIMIT..COORD_LIMIT).contains(&v.y)
            && v.z.is_finite()
            && v.q.is_finite()
    };
    if !wv.iter().all(sane) {
        stats.rejected += 1;
        return None;
    }
    let mut order = [0usize, 1, 2];
    let area =
        (wv[1].x - wv[0].x) * (wv[2].y - wv[0].y) - (wv[2].x - wv[0].x) * (wv[1].y - wv[0].y);
    if area == 0 {
        stats.rejected += 1;
        return None;
    }
    // Memory rows grow downwards, so GL's counter-clockwise front face has a negative area here.
    let ccw = area < 0;
    let front = match setup.pipe.front_face {
        FrontFace::Ccw => ccw,
        FrontFace::Cw => !ccw,
    };
    if (setup.state.cull_back && !front) || setup.pipe.cull.culls(front) {
        stats.culled += 1;
        return None;
    }
    let area = if area < 0 {
        wv.swap(1, 2);
        order.swap(1, 2);
        -area
    } else {
        area
    };
    let [sx0, sx1, sy0, sy1] = setup.scissor;
    let min_x = wv.iter().map(|v| v.x).min().unwrap_or(0);
    let max_x = wv.iter().map(|v| v.x).max().unwrap_or(0);
    let min_y = wv.iter().map(|v| v.y).min().unwrap_or(0);
    let max_y = wv.iter().map(|v| v.y).max().unwrap_or(0);
    let half = ONE / 2;
    let px0 = ((min_x - half + ONE - 1) >> SUBPIXEL_BITS).max(sx0);
    let px1 = ((max_x - half) >> SUBPIXEL_BITS).min(sx1 - 1);
    let py0 = ((min_y - half + ONE - 1) >> SUBPIXEL_BITS).max(sy0);
    let py1 = ((max_y - half) >> SUBPIXEL_BITS).min(sy1 - 1);
    if px0 > px1 || py0 > py1 {
        return None;
    }
    // A shader taking derivatives shades whole 2x2 quads aligned to even window coordinates
    // (GL's and llvmpipe's quads): blocks then start at an even column and at a memory row
    // of the target height's parity (window row = height - 1 - memory row), and the pixels
    // left of px0 or above py0 in the first blocks are not covered (helper lanes at most).
    let (bx0, by0) = if quads {
        (px0 & !1, py0 - ((py0 + setup.height) & 1))
    } else {
        (px0, py0)
    };
    // Where this triangle's block rows start, weighted by its width, in each cell its block
    // rows touch (a hint for the next many-worker draw's band edges, see `Scratch::odd_rows`).
    if setup.hint {
        let w = (px1 - px0 + 1).min(i32::MAX as i64) as i32;
        let w = if by0 & 1 != 0 { w } else { -w };
        let (c0, c1) = (
            by0.max(0) as usize / HINT_ROWS,
            py1.max(0) as usize / HINT_ROWS,
        );
        for cell in odd_rows.iter_mut().take(c1 + 1).skip(c0) {
            *cell = cell.saturating_add(w);
        }
    }
    // Its block rows cover rows by0..=py1 (a block row starting at py1 has no pixel below).
    if !bands.iter().any(|t| t.row0 <= py1 && by0 < t.row1) {
        return None;
    }
    Some(Placed {
        wv,
        order,
        area,
        front,
        px0,
        px1,
        py0,
        py1,
        bx0,
        by0,
    })
}

/// Draws the triangle `tri`, placed at `at` (see [`admit`]), into `bands`.
#[allow(clippy::too_many_arguments)]
fn raster(
    setup: &Setup,
    tri: &[ClipVert; 3],
    at: &Placed,
    scratch: &mut Scratch,
    prog: &Program,
    fs: &Executable,
    textures: &[Option<TextureRef>],
    bands: &mut [Band],
    stats: &mut DrawStats,
    batch: &mut Batch,
) {
    // Compiled once per instruction set (see `exec::simd`): the lane loops of set-up, coverage,
    // interpolation and the pixel write widen with the features.
    let simd = scratch.regs.simd();
    simd.run(
        #[inline(always)]
        || {
            raster_body(
                setup, tri, at, scratch, prog, fs, textures, bands, stats, batch,
            )
        },
    )
}

#[inline(always)]
fn raster_body(
    setup: &Setup,
    tri: &[ClipVert; 3],
    at: &Placed,
    scratch: &mut Scratch,
    prog: &Program,
    fs: &Executable,
    textures: &[Option<TextureRef>],
    bands: &mut [Band],
    stats: &mut DrawStats,
    pending: &mut Batch,
) {
    let Placed {
        wv,
        order,
        area,
        front,
        px0,
        px1,
        py0,
        py1,
        bx0,
        by0,
    } = *at;
    // gl_FrontFacing of this triangle's dispatches: blocks of earlier triangles facing the
    // other way are shaded first.
    if pending.front != front {
        flush_pending(setup, scratch, fs, prog, textures, bands, stats, pending);
        pending.front = front;
    }
    scratch.regs.set_front_facing(front);

    // Edges (from, to) with their top-left bias; inside when E + bias >= 0.
    struct Edge {
        e0: i64,
        dx: i64,
        dy: i64,
        bias: i64,
    }
    let half = ONE / 2;
    let quads = fs.derivatives();
    // A band's block rows: the blocks (py, py + 1) of the whole scissor's grid, from by0 in
    // steps of 2, that touch rows row0..row1 (`skip` block rows above the band), if any.
    let first_row = |t: &Band| {
        let skip = ((t.row0 - 1 - by0).max(0) + 1) / 2;
        let py_first = by0 + 2 * skip;
        (py_first <= py1 && py_first < t.row1).then_some((skip, py_first))
    };
    let edge = |a: &WinVert, b: &WinVert| {
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let cx = bx0 * ONE + half;
        let cy = by0 * ONE + half;
        let top_left = (ey == 0 && ex > 0) || ey < 0;
        Edge {
            e0: ex * (cy - a.y) - ey * (cx - a.x),
            dx: -ey * ONE,
            dy: ex * ONE,
            bias: if top_left { 0 } else { -1 },
        }
    };
    // e12 -> weight of v0, e20 -> v1, e01 -> v2.
    let edges = [
        edge(&wv[1], &wv[2]),
        edge(&wv[2], &wv[0]),
        edge(&wv[0], &wv[1]),
    ];

    // Interpolation set-up: depth linear in screen space; varyings as var/w and 1/w.
    let [v0, v1, v2] = [&tri[order[0]], &tri[order[1]], &tri[order[2]]];
    let (q0, q1, q2) = (wv[0].q, wv[1].q, wv[2].q);
    let z0 = wv[0].z;
    let (dz1, dz2) = (wv[1].z - z0, wv[2].z - z0);
    let (dq1, dq2) = (q1 - q0, q2 - q0);
    let nv = setup.nv;
    let mut a0 = [0.0f32; VARY_FLOATS];
    let mut d1 = [0.0f32; VARY_FLOATS];
    let mut d2 = [0.0f32; VARY_FLOATS];
    for k in 0..nv {
        match setup.interp.get(k / 4).copied().unwrap_or(Mode::Smooth) {
            Mode::Smooth => {
                a0[k] = v0.var[k] * q0;
                d1[k] = v1.var[k] * q1 - a0[k];
                d2[k] = v2.var[k] * q2 - a0[k];
            }
            // Screen-linear: the value itself, not value/w (and no division by 1/w).
            Mode::NoPerspective => {
                a0[k] = v0.var[k];
                d1[k] = v1.var[k] - a0[k];
                d2[k] = v2.var[k] - a0[k];
            }
            // Every vertex holds the provoking vertex's value (see `triangle`).
            Mode::Flat => {
                a0[k] = v0.var[k];
                d1[k] = 0.0;
                d2[k] = 0.0;
            }
        }
    }

    // The input components the fragment stage reads, with their planes: smooth ones first,
    // then screen-linear, then flat (a block fills them in that order, no per-block lookups).
    let mut terms = [Term::NONE; VARY_FLOATS];
    let mut counts = [0usize; 3];
    let mut nterms = 0;
    for (g, want) in [Mode::Smooth, Mode::NoPerspective, Mode::Flat]
        .into_iter()
        .enumerate()
    {
        for (k, &s) in setup.slots.iter().enumerate() {
            let slot = s & (VARYING_CAP - 1);
            if setup.interp.get(k).copied().unwrap_or(Mode::Smooth) != want {
                continue;
            }
            let read = fs.varying_lanes(slot);
            for c in 0..4 {
                let j = k * 4 + c;
                // Components the shader never reads keep stale values.
                if read & (1 << c) == 0 || j >= VARY_FLOATS {
                    continue;
                }
                if let Some(t) = terms.get_mut(nterms) {
                    *t = Term {
                        at: slot * 4 + c,
                        a: a0[j],
                        p: d1[j],
                        r: d2[j],
                    };
                    nterms += 1;
                    counts[g] += 1;
                }
            }
        }
    }
    let (smooth, rest) = terms[..nterms].split_at(counts[0]);
    let (linear, flat) = rest.split_at(counts[1].min(rest.len()));

    // Per-lane offsets inside a 4x2 block of the edge values (bias included).
    let mut offs = [[0i64; BLOCK]; 3];
    for (k, ed) in edges.iter().enumerate() {
        for l in 0..BLOCK {
            let (lx, ly) = ((l & 3) as i64, (l >> 2) as i64);
            offs[k][l] = lx * ed.dx + ly * ed.dy + ed.bias;
        }
    }
    // Edge values are affine in the lane position, so the extreme lane offsets decide whether
    // a block is entirely inside an edge (or entirely outside one) without the lane test.
    let mut omin = [0i64; 3];
    let mut omax = [0i64; 3];
    for k in 0..3 {
        omin[k] = offs[k].iter().copied().min().unwrap_or(0);
        omax[k] = offs[k].iter().copied().max().unwrap_or(0);
    }
    // Each edge's step from one block to the next in a block row.
    let steps = [4 * edges[0].dx, 4 * edges[1].dx, 4 * edges[2].dx];
    // Barycentric planes of v1 and v2 from the unsnapped positions (f64), falling back to the
    // snapped ones when rounding makes the float triangle degenerate or flipped.
    let (p0, p1, p2) = (
        (wv[0].xf, wv[0].yf),
        (wv[1].xf, wv[1].yf),
        (wv[2].xf, wv[2].yf),
    );
    let af = (p1.0 - p0.0) * (p2.1 - p0.1) - (p2.0 - p0.0) * (p1.1 - p0.1);
    let snapped = |v: &WinVert| (v.x as f64 / ONE as f64, v.y as f64 / ONE as f64);
    let (p0, p1, p2, af) = if af > 0.0 && af.is_finite() {
        (p0, p1, p2, af)
    } else {
        (
            snapped(&wv[0]),
            snapped(&wv[1]),
            snapped(&wv[2]),
            area as f64 / (ONE * ONE) as f64,
        )
    };
    // b(x, y) = c + cx * x + cy * y for the weight of v1 (edge v2 -> v0) and v2 (edge v0 -> v1).
    let plane = |a: (f64, f64), b: (f64, f64)| {
        let (cx, cy) = (-(b.1 - a.1) / af, (b.0 - a.0) / af);
        (-(cx * a.0 + cy * a.1), cx, cy)
    };
    let planes = [plane(p2, p0), plane(p0, p1)];
    let mut offs_f = [[0f32; BLOCK]; 2];
    for (k, pl) in planes.iter().enumerate() {
        for l in 0..BLOCK {
            offs_f[k][l] = (pl.1 * (l & 3) as f64 + pl.2 * (l >> 2) as f64) as f32;
        }
    }
    let width = bands.first().map_or(0, |t| t.width as usize);
    let fs_uniforms = prog.uniform_words(Stage::Fragment);
    // Polygon offset (GL): factor * max depth slope + units * r, added per pixel and clamped
    // to the depth range, as llvmpipe does for a float depth buffer.
    let pipe = &setup.pipe;
    let z_offset =
        if setup.state.depth_test && (pipe.offset_factor != 0.0 || pipe.offset_units != 0.0) {
            let (d1z, d2z) = (dz1 as f64, dz2 as f64);
            let dzdx = planes[0].1 * d1z + planes[1].1 * d2z;
            let dzdy = planes[0].2 * d1z + planes[1].2 * d2z;
            let max_z = wv.iter().fold(0.0f32, |m, v| m.max(v.z.abs()));
            Some(state::polygon_offset(
                pipe.offset_factor,
                pipe.offset_units,
                dzdx as f32,
                dzdy as f32,
                max_z,
            ))
        } else {
            None
        };
    let interp = Interp {
        z_offset,
        z: [z0, dz1, dz2],
        q: [q0, dq1, dq2],
        smooth,
        linear,
        flat,
        width,
    };
    // Blocks still queued come from earlier triangles (they may overlap this one's).
    // Kept in a local for the block loop (held in registers), put back at the end.
    let mut held = core::mem::replace(pending, Batch::EMPTY);
    let batch = &mut held;
    // The queued blocks' per-lane weights, between `queue_block` and `interpolate`.
    let mut lanes = BlockLanes::EMPTY;
    // No window depth is read (no depth test, no gl_FragCoord): runs take `queue_run`.
    let z_free = !setup.state.depth_test && !fs.reads_fragcoord();
    batch.older = batch.blocks;
    // The set-up above is shared by every band this call draws (a job's group of bands).
    for bi in 0..bands.len() {
        let Some((skip, py_first)) = bands.get(bi).and_then(first_row) else {
            continue;
        };
        // The batch holds one band's blocks.
        if batch.band != bi {
            flush_pending(setup, scratch, fs, prog, textures, bands, stats, batch);
            batch.band = bi;
        }
        let Some(target) = bands.get_mut(bi) else {
            continue;
        };
        let (band0, band1) = (target.row0, target.row1);
        macro_rules! flush_batch {
            () => {{
                flush(
                    setup,
                    scratch,
                    fs,
                    fs_uniforms,
                    textures,
                    target,
                    stats,
                    batch,
                );
                batch.older = 0;
            }};
        }
        let mut row = [
            edges[0].e0 + 2 * skip * edges[0].dy,
            edges[1].e0 + 2 * skip * edges[1].dy,
            edges[2].e0 + 2 * skip * edges[2].dy,
        ];
        let mut py = py_first;
        while py <= py1 && py < band1 {
            let rows = (py1 - py + 1).min(2) as u32;
            let mut rowmask: Mask = ((1u32 << (4 * rows)) - 1) as Mask;
            // A block straddling the band's first or last row keeps only this band's lanes.
            if py < band0 {
                rowmask &= 0xF0;
            }
            if py + 1 >= band1 {
                rowmask &= 0x0F;
            }
            if py < py0 {
                rowmask &= 0xF0;
            }
            // Only the blocks where every edge can be inside: a block outside that span has
            // an edge whose largest lane value is negative (no lane covered), so skipping it
            // changes nothing; the rest are tested as before.
            // (None: an empty span, the loop below runs no block.)
            let (first, last) = row_span(&row, &steps, &omax, (px1 - bx0) / 4).unwrap_or((1, 0));
            // The blocks where every edge's smallest lane value (`base + omin`) is non-negative,
            // i.e. every lane is inside: found once per row instead of tested per block (the
            // edge values are affine in the block index, so those blocks are one run).
            let (full0, full1) = row_span(&row, &steps, &omin, (px1 - bx0) / 4).unwrap_or((1, 0));
            // The blocks of the full run whose four columns all lie in px0..=px1: their mask is
            // the row mask alone (the loop below would find the same), so a run of them skips
            // the column and edge tests.
            let in0 = full0.max((px0 - bx0 + 3).div_euclid(4));
            let in1 = full1.min((px1 - 3 - bx0).div_euclid(4));
            // Queues the block at (px, py) with its mask (not empty).
            macro_rules! block {
                ($px:expr, $mask:expr) => {{
                    let (px, mask) = ($px, $mask);
                    // No queued pixel is covered twice (depth is tested when a block is
                    // queued and written when the batch is shaded).
                    if batch.older > 0 && batch.overlaps(px, py, mask) {
                        flush_batch!();
                    }
                    let (b1, b2) = weights_at(&planes, &offs_f, px, py);
                    if let Some(j) = queue_block(
                        setup, scratch, fs, target, batch, &interp, px, py, mask, &b1, &b2, quads,
                        &mut lanes,
                    ) {
                        interpolate(&mut scratch.inputs, &interp, &lanes, j, 1);
                    }
                    if batch.blocks == BLOCKS {
                        flush_batch!();
                    }
                }};
            }
            let mut j = first;
            let mut px = bx0 + 4 * first;
            let px_end = bx0 + 4 * last;
            while px <= px_end {
                if j == in0 && in0 <= in1 && rowmask != 0 {
                    while j <= in1 {
                        if batch.older > 0 {
                            // Blocks of earlier triangles are queued: test overlaps per block.
                            block!(px, rowmask);
                            px += 4;
                            j += 1;
                            continue;
                        }
                        // As many blocks of the run as the batch has room for: each queued
                        // as `block!` does, then their inputs interpolated together (the same
                        // operations per lane), in a loop without calls.
                        if batch.blocks >= BLOCKS {
                            flush_batch!();
                        }
                        let k = (BLOCKS - batch.blocks.min(BLOCKS)).min((in1 - j + 1) as usize);
                        let from = batch.blocks;
                        if z_free {
                            queue_run(
                                target, batch, &interp, &planes, &offs_f, px, py, rowmask, k,
                                quads, &mut lanes,
                            );
                        } else {
                            for i in 0..k as i64 {
                                let x = px + 4 * i;
                                let (b1, b2) = weights_at(&planes, &offs_f, x, py);
                                let _ = queue_block(
                                    setup, scratch, fs, target, batch, &interp, x, py, rowmask,
                                    &b1, &b2, quads, &mut lanes,
                                );
                            }
                        }
                        let n = batch.blocks.saturating_sub(from);
                        interpolate(&mut scratch.inputs, &interp, &lanes, from, n);
                        if batch.blocks == BLOCKS {
                            flush_batch!();
                        }
                        px += 4 * k as i64;
                        j += k as i64;
                    }
                    continue;
                }
                // Every column but in a row's first and last blocks.
                let mut cols: Mask = 0xF;
                if px + 3 > px1 || px < px0 {
                    let n = (px1 - px + 1).min(4) as u32;
                    cols = ((1u32 << n) - 1) as Mask;
                    if px < px0 {
                        cols &= !(((1u32 << (px0 - px).min(4)) - 1) as Mask);
                    }
                }
                let mut mask: Mask = 0;
                if (full0 <= j) & (j <= full1) {
                    mask = BLOCK_ALL;
                } else {
                    // Each edge's value at the block (exact integers, needed only here).
                    let base = [
                        row[0] + j * steps[0],
                        row[1] + j * steps[1],
                        row[2] + j * steps[2],
                    ];
                    if (base[0] + omax[0] >= 0)
                        & (base[1] + omax[1] >= 0)
                        & (base[2] + omax[2] >= 0)
                    {
                        mask = inside_mask(&base, &offs);
                    }
                }
                mask &= rowmask & (cols * 0x11);
                if mask != 0 {
                    block!(px, mask);
                }
                px += 4;
                j += 1;
            }
            for k in 0..3 {
                row[k] += 2 * edges[k].dy;
            }
            py += 2;
        }
    }
    *pending = held;
}

/// The first and last block (0..=`last`, steps `step` apart in each edge's value) of a block
/// row where every edge's largest lane value `base + omax + j * step` is non-negative, or None
/// when no block has that.
#[inline(always)]
fn row_span(base: &[i64; 3], step: &[i64; 3], omax: &[i64; 3], last: i64) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (0i64, last);
    for k in 0..3 {
        let (c, s) = (base[k] + omax[k], step[k]);
        if s > 0 {
            if c < 0 {
                // c + j * s >= 0 from j = ceil(-c / s).
                lo = lo.max((-c + s - 1) / s);
            }
        } else if c < 0 {
            return None;
        } else if s < 0 {
            hi = hi.min(c / -s);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Shades `batch`'s queued blocks, if any, and writes them into their band.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn flush_pending(
    setup: &Setup,
    scratch: &mut Scratch,
    fs: &Executable,
    prog: &Program,
    textures: &[Option<TextureRef>],
    bands: &mut [Band],
    stats: &mut DrawStats,
    batch: &mut Batch,
) {
    if batch.blocks > 0 {
        if let Some(target) = bands.get_mut(batch.band) {
            let fs_uniforms = prog.uniform_words(Stage::Fragment);
            flush(
                setup,
                scratch,
                fs,
                fs_uniforms,
                textures,
                target,
                stats,
                batch,
            );
        }
    }
    batch.blocks = 0;
    batch.mask = 0;
    batch.cover = 0;
    batch.older = 0;
}

/// Lanes of one 4x2 pixel block (lane l at column l & 3, row l >> 2).
const BLOCK: usize = 8;

/// Bit l set when `z[l] < d[l]` (false for NaN): on x86_64 two SSE2 compares and their
/// sign masks instead of eight compares and shifts.
#[inline(always)]
fn less_mask(z: &[f32; BLOCK], d: &[f32; BLOCK]) -> Mask {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let four = |x: &[f32; BLOCK], k: usize| {
            m128::from([x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]])
        };
        let half = |k: usize| move_mask_m128(cmp_lt_mask_m128(four(z, k), four(d, k))) as Mask;
        half(0) | half(1) << 4
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut pass: Mask = 0;
        for l in 0..BLOCK {
            pass |= ((z[l] < d[l]) as Mask) << l;
        }
        pass
    }
}
/// Every lane of one block.
const BLOCK_ALL: Mask = (1 << BLOCK) - 1;

/// Bit l set when lane l is inside every edge: `base[k] + offs[k][l] >= 0` for k = 0..3, i.e.
/// the OR of the three values has no sign bit (on x86_64 two lanes at a time, the signs by
/// MOVMSKPD, instead of 24 compares).
#[inline(always)]
fn inside_mask(base: &[i64; 3], offs: &[[i64; BLOCK]; 3]) -> Mask {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let b = [
            m128i::from([base[0]; 2]),
            m128i::from([base[1]; 2]),
            m128i::from([base[2]; 2]),
        ];
        let mut neg: Mask = 0;
        for h in 0..BLOCK / 2 {
            let e =
                |k: usize| add_i64_m128i(b[k], m128i::from([offs[k][2 * h], offs[k][2 * h + 1]]));
            let v = bitor_m128i(bitor_m128i(e(0), e(1)), e(2));
            neg |= (move_mask_m128d(cast_to_m128d_from_m128i(v)) as Mask) << (2 * h);
        }
        !neg & BLOCK_ALL
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut mask: Mask = 0;
        for l in 0..BLOCK {
            let inside = (base[0] + offs[0][l] >= 0)
                & (base[1] + offs[1][l] >= 0)
                & (base[2] + offs[2][l] >= 0);
            mask |= (inside as Mask) << l;
        }
        mask
    }
}

/// `new[k]` where bit k of `bits` is set, else `old[k]` (one select for a block row's four
/// pixels instead of a branch per lane).
#[inline(always)]
fn select_row(old: [u32; 4], new: [u32; 4], bits: Mask) -> [u32; 4] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let lane = m128i::from([1i32, 2, 4, 8]);
        let m = cmp_eq_mask_i32_m128i(bitand_m128i(set_splat_i32_m128i(bits as i32), lane), lane);
        let out = bitor_m128i(
            bitand_m128i(m, m128i::from(new)),
            bitandnot_m128i(m, m128i::from(old)),
        );
        out.into()
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut out = old;
        for k in 0..4 {
            if bits & (1 << k) != 0 {
                out[k] = new[k];
            }
        }
        out
    }
}
/// Blocks shaded in one dispatch: block j fills lanes 8j..8j+8.
const BLOCKS: usize = LANES / BLOCK;

/// A triangle's interpolation set-up: depth and 1/w as (value at v0, delta to v1, delta to
/// v2), varyings/w likewise per float.
struct Interp<'a> {
    /// Polygon offset added to every window depth (then clamped to [0, 1]).
    z_offset: Option<f32>,
    z: [f32; 3],
    q: [f32; 3],
    /// The read input components by interpolation: perspective-correct, screen-linear, flat.
    smooth: &'a [Term],
    linear: &'a [Term],
    flat: &'a [Term],
    width: usize,
}

/// One input component a block interpolates: `scratch.inputs[slot][c]` (`at` = slot * 4 + c,
/// its index in the flattened inputs), and its value at v0 and deltas to v1 and v2 (var/w for
/// perspective-correct ones; the provoking vertex's value for flat ones).
#[derive(Clone, Copy)]
struct Term {
    at: usize,
    a: f32,
    p: f32,
    r: f32,
}

impl Term {
    const NONE: Term = Term {
        at: 0,
        a: 0.0,
        p: 0.0,
        r: 0.0,
    };
}

/// Blocks waiting for a dispatch, from consecutive triangles of one draw facing the same way,
/// all in one band. They never overlap (one triangle covers a pixel at most once, and a block
/// overlapping one of an earlier triangle's is queued only after those are shaded), so testing
/// depth when a block is queued and writing after the dispatch is the same as doing each block
/// alone, in draw order; lanes never influence each other, so which blocks share a dispatch
/// changes no pixel. A draw flushes it at its end.
struct Batch<'f> {
    /// The worker's frames of the compiled fragment stage, prepared for this draw (None: the
    /// interpreter shades every dispatch).
    frames: Option<&'f mut [Frame]>,
    blocks: usize,
    /// The first `older` blocks come from earlier triangles than the one being queued.
    older: usize,
    /// Index (in the job's group) of the band the blocks lie in.
    band: usize,
    /// gl_FrontFacing of the queued blocks' triangles.
    front: bool,
    /// Each block's top-left pixel (column, memory row).
    at: [(i64, i64); BLOCKS],
    /// Lanes to shade (bit 8j + l: block j, lane l): `cover`, plus the helper lanes that
    /// complete its 2x2 quads when the shader takes derivatives.
    mask: Mask,
    /// Lanes that passed coverage and the depth test: the only ones ever written.
    cover: Mask,
    /// Target index of each block's top-left pixel, and the window depth per lane.
    top: [usize; BLOCKS],
    z: Lanes,
}

impl Batch<'_> {
    const EMPTY: Batch<'static> = Batch {
        frames: None,
        blocks: 0,
        older: 0,
        band: 0,
        front: true,
        at: [(0, 0); BLOCKS],
        mask: 0,
        cover: 0,
        top: [0; BLOCKS],
        z: [0.0; LANES],
    };

    /// Whether a lane of `mask` in the 4x2 block at (px, py) covers a pixel that a queued
    /// block of an earlier triangle covers (grids of different triangles need not line up).
    fn overlaps(&self, px: i64, py: i64, mask: Mask) -> bool {
        self.at
            .iter()
            .take(self.older.min(BLOCKS))
            .enumerate()
            .any(|(j, &(x, y))| {
                let (dx, dy) = (px - x, py - y);
                if dx.abs() >= 4 || dy.abs() >= 2 {
                    return false;
                }
                let queued = (self.cover >> (j * BLOCK)) & 0xFF;
                // Row i of the new block is the queued block's row i + dy.
                (0..2i64).any(|i| {
                    let r = i + dy;
                    if !(0..2).contains(&r) {
                        return false;
                    }
                    let new = (mask >> (4 * i)) & 0xF;
                    let old = (queued >> (4 * r)) & 0xF;
                    // Column c of the new block is the queued block's column c + dx.
                    let new = if dx >= 0 { new << dx } else { new >> -dx };
                    new & old != 0
                })
            })
    }
}

/// Per block slot of the batch (lanes 8j..8j + 8), the weights of v1 and v2 and the
/// interpolated 1/w of the blocks `queue_block` queued, which `interpolate` turns into inputs.
struct BlockLanes {
    b1: [[f32; BLOCK]; BLOCKS],
    b2: [[f32; BLOCK]; BLOCKS],
    q: [[f32; BLOCK]; BLOCKS],
}

impl BlockLanes {
    const EMPTY: BlockLanes = BlockLanes {
        b1: [[0.0; BLOCK]; BLOCKS],
        b2: [[0.0; BLOCK]; BLOCKS],
        q: [[0.0; BLOCK]; BLOCKS],
    };
}

/// The weights of v1 and v2 at the lanes of the 4x2 block at (px, py): each plane evaluated in
/// f64 at the block's first pixel centre, plus the per-lane offsets.
#[inline(always)]
fn weights_at(
    planes: &[(f64, f64, f64); 2],
    offs_f: &[[f32; BLOCK]; 2],
    px: i64,
    py: i64,
) -> ([f32; BLOCK], [f32; BLOCK]) {
    let (cx, cy) = (px as f64 + 0.5, py as f64 + 0.5);
    let at = |pl: &(f64, f64, f64)| (pl.0 + pl.1 * cx + pl.2 * cy) as f32;
    let (w1, w2) = (at(&planes[0]), at(&planes[1]));
    let mut b1 = [0.0f32; BLOCK];
    let mut b2 = [0.0f32; BLOCK];
    for l in 0..BLOCK {
        b1[l] = w1 + offs_f[0][l];
        b2[l] = w2 + offs_f[1][l];
    }
    (b1, b2)
}

/// Interpolates the fragment stage's inputs of the `n` batch block slots from `from` on (queued
/// by `queue_block` or `queue_run`, whose weights `lanes` holds) into `inputs`: a loop per
/// input component over the blocks, the same operations per lane as one block at a time (`n`
/// is the constant 1 for a single block: the block loops then vanish).
#[inline(always)]
fn interpolate(
    inputs: &mut [Vec4x; VARYING_CAP],
    it: &Interp,
    lanes: &BlockLanes,
    from: usize,
    n: usize,
) {
    let to = from.saturating_add(n).min(BLOCKS);
    let mut wl = [[0.0f32; BLOCK]; BLOCKS];
    for b in from..to {
        for l in 0..BLOCK {
            wl[b][l] = 1.0 / lanes.q[b][l];
        }
    }
    let inputs = inputs.as_flattened_mut();
    // (Values in locals and each block's lanes stored whole: nothing the stores could alias,
    // so the lane loops vectorize.)
    // `at` is below VARYING_CAP * 4 (the flattened length) by construction; the modulo keeps
    // the index in range without a branch.
    for t in it.smooth {
        let (a, p, r) = (t.a, t.p, t.r);
        let out = inputs[t.at % (VARYING_CAP * 4)].as_chunks_mut::<BLOCK>().0;
        for b in from..to {
            let (b1, b2, wl) = (&lanes.b1[b], &lanes.b2[b], &wl[b]);
            let mut v = [0.0f32; BLOCK];
            for l in 0..BLOCK {
                v[l] = (a + b1[l] * p + b2[l] * r) * wl[l];
            }
            if let Some(out) = out.get_mut(b) {
                *out = v;
            }
        }
    }
    // Screen-linear: the value itself, not value/w.
    for t in it.linear {
        let (a, p, r) = (t.a, t.p, t.r);
        if let Some(out) = inputs.get_mut(t.at) {
            let out = out.as_chunks_mut::<BLOCK>().0;
            for b in from..to {
                let (b1, b2) = (&lanes.b1[b], &lanes.b2[b]);
                let mut v = [0.0f32; BLOCK];
                for l in 0..BLOCK {
                    v[l] = a + b1[l] * p + b2[l] * r;
                }
                if let Some(out) = out.get_mut(b) {
                    *out = v;
                }
            }
        }
    }
    // The provoking vertex's bits in every lane (profile 2's flat integers are bit patterns:
    // a + 0 would turn -0.0, i.e. INT_MIN, into 0 and quiet a NaN pattern).
    for t in it.flat {
        if let Some(out) = inputs.get_mut(t.at) {
            for out in out
                .as_chunks_mut::<BLOCK>()
                .0
                .iter_mut()
                .take(to)
                .skip(from)
            {
                out.fill(t.a);
            }
        }
    }
}

/// `queue_block` for `k` consecutive blocks of a row from (px, py) on, each with lanes `mask`,
/// for a draw that reads no window depth (no depth test, no gl_FragCoord): only the weights,
/// 1/w and the batch bookkeeping, the batch fields in locals. At most as many blocks as the
/// batch has room for.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn queue_run(
    target: &Band,
    batch: &mut Batch,
    it: &Interp,
    planes: &[(f64, f64, f64); 2],
    offs_f: &[[f32; BLOCK]; 2],
    px: i64,
    py: i64,
    mask: Mask,
    k: usize,
    quads: bool,
    lanes: &mut BlockLanes,
) {
    let shade = if quads {
        crate::back::exec::quad::quad_lanes(mask)
    } else {
        mask
    };
    let q = it.q;
    let row = (py - target.row0).wrapping_mul(it.width as i64);
    let (mut cover, mut shaded) = (batch.cover, batch.mask);
    let from = batch.blocks.min(BLOCKS);
    let to = from.saturating_add(k).min(BLOCKS);
    let mut x = px;
    for j in from..to {
        let (b1, b2) = weights_at(planes, offs_f, x, py);
        let mut ql = [0.0f32; BLOCK];
        for l in 0..BLOCK {
            ql[l] = q[0] + b1[l] * q[1] + b2[l] * q[2];
        }
        (lanes.b1[j], lanes.b2[j], lanes.q[j]) = (b1, b2, ql);
        batch.top[j] = row.wrapping_add(x.max(0)) as usize;
        batch.at[j] = (x, py);
        cover |= mask << (j * BLOCK);
        shaded |= shade << (j * BLOCK);
        x += 4;
    }
    (batch.cover, batch.mask, batch.blocks) = (cover, shaded, to);
}

/// Depth-tests one block and, when some lane survives, queues it in the next free lanes of
/// the batch, leaving its weights in `lanes` for [`interpolate`]; returns its slot then.
#[inline(always)]
fn queue_block(
    setup: &Setup,
    scratch: &mut Scratch,
    fs: &Executable,
    target: &Band,
    batch: &mut Batch,
    it: &Interp,
    px: i64,
    py: i64,
    mut mask: Mask,
    b1: &[f32; BLOCK],
    b2: &[f32; BLOCK],
    quads: bool,
    lanes: &mut BlockLanes,
) -> Option<usize> {
    let (z, q) = (&it.z, &it.q);
    let mut zl = [0.0f32; BLOCK];
    let mut ql = [0.0f32; BLOCK];
    // Window depth is read only by the depth test (early, or the write after a late one's
    // replacement) and gl_FragCoord.z; without either it is not computed (`batch.z` keeps
    // stale values nothing reads: `flush` writes depth only with the test on).
    let z_read = setup.state.depth_test || fs.reads_fragcoord();
    if z_read {
        for l in 0..BLOCK {
            zl[l] = z[0] + b1[l] * z[1] + b2[l] * z[2];
        }
    }
    for l in 0..BLOCK {
        ql[l] = q[0] + b1[l] * q[1] + b2[l] * q[2];
    }
    if let Some(o) = it.z_offset {
        for z in zl.iter_mut() {
            *z = (*z + o).clamp(0.0, 1.0);
        }
    }
    // Blocks start inside the scissor (px >= 0, py >= row0 - 1); lanes right of the target's
    // edge are never covered, and a lane outside the band's rows reads no depth (the index
    // wraps out of range: a block whose first row lies above the band has a `top` that only
    // its second row brings back into the band).
    let top = (py - target.row0)
        .wrapping_mul(it.width as i64)
        .wrapping_add(px.max(0)) as usize;
    // A shader writing gl_FragDepth is tested after shading (`flush`), never early.
    if setup.state.depth_test && !fs.writes_depth() {
        // Every lane is tested (branch-free); a lane outside the buffer never passes.
        let mut pass: Mask = 0;
        let depth_at = |l: usize| {
            target
                .depth
                .get(top.wrapping_add((l & 3) + (l >> 2) * it.width))
                .copied()
        };
        let w = it.width;
        let rows = (
            target.depth.get(top..top.wrapping_add(4)),
            target
                .depth
                .get(top.wrapping_add(w)..top.wrapping_add(w).wrapping_add(4)),
        );
        if let (CompareFunc::Less, (Some(d0), Some(d1))) = (setup.pipe.depth_func, rows) {
            // Both rows in the band: two 4-wide reads, the same comparisons as below.
            let mut d = [0.0f32; BLOCK];
            d[..4].copy_from_slice(d0);
            d[4..].copy_from_slice(d1);
            pass = less_mask(&zl, &d);
        } else if setup.pipe.depth_func == CompareFunc::Less {
            for l in 0..BLOCK {
                let d = depth_at(l).unwrap_or(f32::NEG_INFINITY);
                pass |= ((zl[l] < d) as Mask) << l;
            }
        } else {
            let func = setup.pipe.depth_func;
            for l in 0..BLOCK {
                // A lane outside the buffer never passes.
                let ok = depth_at(l).is_some_and(|d| func.test(zl[l], d));
                pass |= (ok as Mask) << l;
            }
        }
        mask &= pass;
        if mask == 0 {
            return None;
        }
    }
    let j = batch.blocks.min(BLOCKS - 1);
    let o = j * BLOCK;
    batch.blocks = j + 1;
    batch.cover |= mask << o;
    // Helper lanes: every lane of a quad with a covered lane (interpolated below like the
    // others; their depth is neither tested nor written).
    let shade = if quads {
        crate::back::exec::quad::quad_lanes(mask)
    } else {
        mask
    };
    batch.mask |= shade << o;
    batch.top[j] = top;
    batch.at[j] = (px, py);
    if z_read {
        batch.z[o..o + BLOCK].copy_from_slice(&zl);
    }
    // The weights and 1/w for `interpolate`.
    if let (Some(l1), Some(l2), Some(lq)) =
        (lanes.b1.get_mut(j), lanes.b2.get_mut(j), lanes.q.get_mut(j))
    {
        (*l1, *l2, *lq) = (*b1, *b2, ql);
    }
    if fs.reads_fragcoord() {
        let h = setup.height as f32;
        let mut xs = [0.0f32; 4];
        for (c, x) in xs.iter_mut().enumerate() {
            *x = (px + c as i64) as f32 + 0.5;
        }
        let ys = [h - py as f32 - 0.5, h - (py + 1) as f32 - 0.5];
        for l in 0..BLOCK {
            scratch.fragcoord[0][o + l] = xs[l & 3];
            scratch.fragcoord[1][o + l] = ys[l >> 2];
        }
        scratch.fragcoord[2][o..o + BLOCK].copy_from_slice(&zl);
        scratch.fragcoord[3][o..o + BLOCK].copy_from_slice(&ql);
    }
    Some(j)
}

/// Shades the queued blocks in one dispatch and writes the surviving pixels (and depths).
#[inline(always)]
fn flush(
    setup: &Setup,
    scratch: &mut Scratch,
    fs: &Executable,
    fs_uniforms: &[f32; crate::limits::UNIFORM_FLOATS_CAP],
    textures: &[Option<TextureRef>],
    target: &mut Band,
    stats: &mut DrawStats,
    batch: &mut Batch,
) {
    let blocks = batch.blocks.min(BLOCKS);
    let (mask, cover) = (batch.mask, batch.cover);
    batch.blocks = 0;
    batch.mask = 0;
    batch.cover = 0;
    if blocks == 0 || mask == 0 {
        return;
    }
    let inv = Invocation {
        uniforms: fs_uniforms,
        textures,
        inputs: &scratch.inputs,
        fragcoord: &scratch.fragcoord,
    };
    stats.fragments_shaded += cover.count_ones() as u64;
    let float = !target.colorf.is_empty();
    let compiled = match (setup.fs_code, batch.frames.as_deref_mut()) {
        (Some(c), Some(frames)) => c.run(frames, fs, &inv, &mut scratch.out, mask),
        _ => None,
    };
    let alive = if let Some(alive) = compiled {
        alive
    } else if float {
        // Float colours are needed unpacked.
        fs.run(&mut scratch.regs, &inv, &mut scratch.out, mask)
    } else {
        fs.run_packed(&mut scratch.regs, &inv, &mut scratch.out, mask)
    };
    // Helper lanes never write (and their DISCARD removes nothing but themselves).
    let mut alive = alive & cover;
    if fs.writes_depth() {
        alive = late_depth(setup, target, batch, &scratch.out.depth, blocks, alive);
    }
    let col = &scratch.out.color;
    let write_depth = setup.state.depth_test && setup.state.depth_write;
    let width = target.width as usize;
    if float {
        let m = setup.pipe.color_mask;
        let keep = [m.r, m.g, m.b, m.a];
        for j in 0..blocks {
            let o = j * BLOCK;
            let live = (alive >> o) & BLOCK_ALL;
            let top = batch.top[j];
            for l in 0..BLOCK {
                if live & (1 << l) == 0 {
                    continue;
                }
                let i = top.wrapping_add((l & 3) + (l >> 2) * width);
                let lane = o + l;
                let Some(p) = target.colorf.get_mut(i) else {
                    continue;
                };
                let src = [col[0][lane], col[1][lane], col[2][lane], col[3][lane]];
                let out = match &setup.pipe.blend {
                    None => src,
                    Some(b) => state::blend_float(b, src, *p),
                };
                for k in 0..4 {
                    if keep[k] {
                        p[k] = out[k];
                    }
                }
                stats.pixels_written += 1;
                if write_depth {
                    if let (Some(d), Some(z)) = (target.depth.get_mut(i), batch.z.get(lane)) {
                        *d = *z;
                    }
                }
            }
        }
        return;
    }
    // Packed for every lane at once (vectorizes); only the surviving lanes are stored.
    let mut packed = [0u32; LANES];
    let pixels = if fs.sample_color() {
        &scratch.out.packed
    } else {
        scratch.regs.simd().pack_lanes(col, &mut packed);
        &packed
    };
    if !setup.pipe.opaque() {
        // Blending or a partial colour mask: a separate path, so the opaque store below keeps
        // its speed.
        let float_src = !fs.sample_color();
        for j in 0..blocks {
            let o = j * BLOCK;
            let live = (alive >> o) & BLOCK_ALL;
            let top = batch.top[j];
            for l in 0..BLOCK {
                if live & (1 << l) == 0 {
                    continue;
                }
                let i = top.wrapping_add((l & 3) + (l >> 2) * width);
                let lane = o + l;
                let Some(p) = target.color.get_mut(i) else {
                    continue;
                };
                let src = pixels.get(lane).copied().unwrap_or(0);
                let out = match &setup.pipe.blend {
                    None => src,
                    Some(b) => {
                        let c = if float_src {
                            [col[0][lane], col[1][lane], col[2][lane], col[3][lane]]
                        } else {
                            // The float colour the unfused code would have: the sampler's
                            // unpacked channels (c * (1 / 255), as `texel` unpacks; alpha 1.0
                            // for the opaque shape, whose sample carries alpha 255).
                            crate::back::exec::texel::unpack_one(src)
                        };
                        state::blend_pixel(b, c, *p)
                    }
                };
                let keep = setup.pipe.color_mask.bits();
                *p = (out & keep) | (*p & !keep);
                stats.pixels_written += 1;
                if write_depth {
                    if let (Some(d), Some(z)) = (target.depth.get_mut(i), batch.z.get(lane)) {
                        *d = *z;
                    }
                }
            }
        }
        return;
    }
    // The buffers and the count in locals: stores through them then cannot change them, so
    // they stay in registers across the blocks.
    let (color, depth) = (&mut *target.color, &mut *target.depth);
    let mut written = 0u64;
    for j in 0..blocks {
        let o = j * BLOCK;
        let live = (alive >> o) & BLOCK_ALL;
        let top = batch.top[j];
        let (zl, px) = (&batch.z[o..o + BLOCK], &pixels[o..o + BLOCK]);
        if live == BLOCK_ALL {
            // Both rows of the block lie inside the target (every lane is covered).
            let (r0, r1) = (top, top.wrapping_add(width));
            if let Some(c0) = color.get_mut(r0..r0.wrapping_add(4)) {
                c0.copy_from_slice(&px[..4]);
            }
            if let Some(c1) = color.get_mut(r1..r1.wrapping_add(4)) {
                c1.copy_from_slice(&px[4..]);
            }
            if write_depth {
                if let Some(d0) = depth.get_mut(r0..r0.wrapping_add(4)) {
                    d0.copy_from_slice(&zl[..4]);
                }
                if let Some(d1) = depth.get_mut(r1..r1.wrapping_add(4)) {
                    d1.copy_from_slice(&zl[4..]);
                }
            }
            written += BLOCK as u64;
            continue;
        }
        // Row by row: the row's four pixels read, the live lanes replaced and written back
        // (a select, no branch per lane) when they lie in the band; else lane by lane.
        for r in 0..2 {
            let bits = (live >> (4 * r)) & 0xF;
            if bits == 0 {
                continue;
            }
            let at = top.wrapping_add(r * width);
            let (src, zs) = (&px[4 * r..4 * r + 4], &zl[4 * r..4 * r + 4]);
            if let Some(c) = color.get_mut(at..at.wrapping_add(4)) {
                let mut row = [0u32; 4];
                row.copy_from_slice(c);
                let mut new = [0u32; 4];
                new.copy_from_slice(src);
                c.copy_from_slice(&select_row(row, new, bits));
                written += bits.count_ones() as u64;
            } else {
                for k in 0..4 {
                    if bits & (1 << k) != 0 {
                        if let Some(p) = color.get_mut(at.wrapping_add(k)) {
                            *p = src[k];
                            written += 1;
                        }
                    }
                }
            }
            if write_depth {
                if let Some(d) = depth.get_mut(at..at.wrapping_add(4)) {
                    let (mut row, mut new) = ([0u32; 4], [0u32; 4]);
                    for k in 0..4 {
                        (row[k], new[k]) = (d[k].to_bits(), zs[k].to_bits());
                    }
                    let out = select_row(row, new, bits);
                    for k in 0..4 {
                        d[k] = f32::from_bits(out[k]);
                    }
                } else {
                    for k in 0..4 {
                        if bits & (1 << k) != 0 {
                            if let Some(d) = depth.get_mut(at.wrapping_add(k)) {
                                *d = zs[k];
                            }
                        }
                    }
                }
            }
        }
    }
    stats.pixels_written += written;
}

/// gl_FragDepth: each surviving lane's written depth, clamped to the depth range [0, 1]
/// (NaN -> 0), replaces its interpolated depth in `batch.z` and, with the test on, is tested
/// against the target; returns the lanes that pass. A lane outside the band never passes.
fn late_depth(
    setup: &Setup,
    target: &Band,
    batch: &mut Batch,
    depth: &Lanes,
    blocks: usize,
    alive: Mask,
) -> Mask {
    let width = target.width as usize;
    let mut pass: Mask = 0;
    for j in 0..blocks.min(BLOCKS) {
        let o = j * BLOCK;
        let top = batch.top[j];
        for l in 0..BLOCK {
            let lane = o + l;
            if alive & (1 << lane) == 0 {
                continue;
            }
            let z = depth.get(lane).copied().unwrap_or(0.0);
            // max then min: NaN becomes 0 (f32::max returns the non-NaN operand).
            let z = z.max(0.0).min(1.0);
            if let Some(slot) = batch.z.get_mut(lane) {
                *slot = z;
            }
            let i = top.wrapping_add((l & 3) + (l >> 2) * width);
            let ok = !setup.state.depth_test
                || target
                    .depth
                    .get(i)
                    .is_some_and(|&d| setup.pipe.depth_func.test(z, d));
            pass |= (ok as Mask) << lane;
        }
    }
    alive & pass
}

/// Clamps to [0, 1] (NaN -> 0) and rounds to nearest even into 0xAARRGGBB.
pub fn pack(c: [f32; 4]) -> u32 {
    crate::back::exec::texel::pack_one(c)
}

/// The spec's reference call: one triangle into a target of at most 128x128, full viewport,
/// depth test against the target's depth buffer, no culling. Each vertex is a flat attribute
/// array, location L at floats 4L..4L+3 (a shorter slice leaves the rest at (0, 0, 0, 1)).
pub fn soft_triangle(
    prog: &Program,
    verts: [&[f32]; 3],
    textures: &[Option<TextureRef>],
    target: &mut Target,
) -> Result<DrawStats, DrawError> {
    check_target(target, SOFT_TRIANGLE_MAX, SOFT_TRIANGLE_MAX)?;
    const STRIDE: usize = ATTR_CAP * 4;
    let mut data = [0.0f32; 3 * STRIDE];
    let longest = verts.iter().map(|v| v.len().min(STRIDE)).max().unwrap_or(0);
    for (i, v) in verts.iter().enumerate() {
        // Missing components of a shorter vertex keep the GL default (0, 0, 0, 1).
        for l in 0..ATTR_CAP {
            data[i * STRIDE + l * 4 + 3] = 1.0;
        }
        for (k, x) in v.iter().take(STRIDE).enumerate() {
            data[i * STRIDE + k] = *x;
        }
    }
    let mut attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 4,
    }; ATTR_CAP];
    let nattr = longest.div_ceil(4);
    for (l, a) in attribs.iter_mut().enumerate() {
        *a = VertexAttrib {
            location: l as u8,
            offset: (l * 4) as u32,
            components: 4,
        };
    }
    let input = VertexInput {
        data: &data,
        stride: STRIDE as u32,
        attribs: &attribs[..nattr],
        count: 3,
    };
    let state = RasterState::new(target.width, target.height);
    let mut scratch = Scratch::new();
    draw_checked(
        core::slice::from_mut(&mut scratch),
        &Serial,
        prog,
        &input,
        &[],
        0,
        None,
        textures,
        &state,
        &Pipeline::DEFAULT,
        target,
        &mut [],
        None,
    )
}

/// Outputs of one vertex invocation; varyings are in vertex-output slot numbering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VsResult {
    pub position: [f32; 4],
    pub varyings: [[f32; 4]; VARYING_CAP],
}

/// Outputs of one fragment invocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FsResult {
    pub color: [f32; 4],
    pub discarded: bool,
}

/// Runs the vertex stage once. `attrs` is flat: location L at floats 4L..4L+3 (missing ->
/// (0, 0, 0, 1)).
pub fn soft_vs(prog: &Program, attrs: &[f32]) -> Result<VsResult, DrawError> {
    let vs = prog
        .executable(Stage::Vertex)
        .filter(|_| prog.is_linked())
        .ok_or(DrawError::NotLinked)?;
    let mut inputs = [[[0.0; LANES]; 4]; VARYING_CAP];
    for (l, slot) in inputs.iter_mut().enumerate() {
        for c in 0..4 {
            let v = attrs
                .get(l * 4 + c)
                .copied()
                .unwrap_or(if c == 3 { 1.0 } else { 0.0 });
            slot[c] = [v; LANES];
        }
    }
    let fragcoord = [[0.0; LANES]; 4];
    let textures: [Option<TextureRef>; SAMPLER_CAP] = [None; SAMPLER_CAP];
    let inv = Invocation {
        uniforms: prog.uniform_words(Stage::Vertex),
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut regs = Regs::new();
    let mut out = Outputs::new();
    vs.run(&mut regs, &inv, &mut out, 1);
    let mut r = VsResult {
        position: [0.0; 4],
        varyings: [[0.0; 4]; VARYING_CAP],
    };
    for c in 0..4 {
        r.position[c] = out.position[c][0];
        for s in 0..VARYING_CAP {
            r.varyings[s][c] = out.varyings[s][c][0];
        }
    }
    Ok(r)
}

/// Runs the fragment stage once with `varyings` in vertex-output slot numbering (the link remap
/// is applied on read) and the given gl_FragCoord.
pub fn soft_fs(
    prog: &Program,
    varyings: &[[f32; 4]],
    fragcoord: [f32; 4],
    textures: &[Option<TextureRef>],
) -> Result<FsResult, DrawError> {
    let fs = prog
        .executable(Stage::Fragment)
        .filter(|_| prog.is_linked())
        .ok_or(DrawError::NotLinked)?;
    check_textures(textures)?;
    let mut inputs = [[[0.0; LANES]; 4]; VARYING_CAP];
    let mut fc = [[0.0; LANES]; 4];
    for c in 0..4 {
        for (s, v) in varyings.iter().take(VARYING_CAP).enumerate() {
            inputs[s][c] = [v[c]; LANES];
        }
        fc[c] = [fragcoord[c]; LANES];
    }
    let inv = Invocation {
        uniforms: prog.uniform_words(Stage::Fragment),
        textures,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut regs = Regs::new();
    let mut out = Outputs::new();
    // Every lane runs the same invocation, so a derivative (a difference between lanes of a
    // quad) is 0 here, also inside control flow.
    let active = if fs.derivatives() { ALL_LANES } else { 1 };
    let alive = fs.run(&mut regs, &inv, &mut out, active);
    Ok(FsResult {
        color: [
            out.color[0][0],
            out.color[1][0],
            out.color[2][0],
            out.color[3][0],
        ],
        discarded: alive & 1 == 0,
    })
}

pub(crate) mod selftest;

#[cfg(test)]
mod tests {
    use super::*;

    /// `Batch::overlaps` is true exactly when a lane of the new block and a covered lane of a
    /// queued block of an earlier triangle are the same pixel, for every offset between them.
    #[test]
    fn batch_overlap_matches_pixel_sets() {
        let pixels = |px: i64, py: i64, m: u32| {
            (0..BLOCK)
                .filter(|l| m & (1 << l) != 0)
                .map(|l| (px + (l & 3) as i64, py + (l >> 2) as i64))
                .collect::<std::vec::Vec<_>>()
        };
        let mut s = 0x1357_9BDFu32;
        for _ in 0..4000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let mut b = Batch::EMPTY;
            let q = (s & 0xFF, (s >> 8) & 0xFF);
            b.blocks = 2;
            b.older = 1 + (s >> 31) as usize;
            b.at[0] = (10, 20);
            b.at[1] = (13, 21);
            b.cover = q.0 | (q.1 << BLOCK);
            let (px, py) = (7 + ((s >> 16) % 11) as i64, 18 + ((s >> 20) % 6) as i64);
            let m = (s >> 24) & 0xFF;
            let new = pixels(px, py, m);
            let want = (0..b.older).any(|j| {
                pixels(b.at[j].0, b.at[j].1, [q.0, q.1][j])
                    .iter()
                    .any(|p| new.contains(p))
            });
            assert_eq!(b.overlaps(px, py, m), want, "{:#x}", s);
        }
    }

    /// `less_mask` gives the bits of the per-lane `<` on ordinary values, signed zeros,
    /// infinities and NaN on either side.
    #[test]
    fn inside_mask_and_select_row_match_the_lane_forms() {
        let vals = [
            0i64,
            -1,
            1,
            i64::MIN / 4,
            i64::MAX / 4,
            -7,
            123_456_789,
            -(1 << 40),
        ];
        let mut s = 0x1357_9BDFu32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for _ in 0..2000 {
            let mut base = [0i64; 3];
            let mut offs = [[0i64; BLOCK]; 3];
            for k in 0..3 {
                base[k] = vals[next() as usize % vals.len()];
                for l in 0..BLOCK {
                    offs[k][l] = vals[next() as usize % vals.len()];
                }
            }
            let mut want: Mask = 0;
            for l in 0..BLOCK {
                let inside = (0..3).all(|k| base[k] + offs[k][l] >= 0);
                want |= (inside as Mask) << l;
            }
            assert_eq!(inside_mask(&base, &offs), want);
            let (old, new) = (
                [next(), next(), next(), next()],
                [next(), next(), next(), next()],
            );
            let bits = (next() & 0xF) as Mask;
            let got = select_row(old, new, bits);
            for k in 0..4 {
                assert_eq!(got[k], if bits & (1 << k) != 0 { new[k] } else { old[k] });
            }
        }
    }

    #[test]
    fn less_mask_matches_lane_compares() {
        let vals = [
            0.0f32,
            -0.0,
            0.5,
            0.5000001,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-40,
        ];
        let mut s = 0x2468_ACE1u32;
        for _ in 0..2000 {
            let mut z = [0.0f32; BLOCK];
            let mut d = [0.0f32; BLOCK];
            for l in 0..BLOCK {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                z[l] = vals[s as usize % vals.len()];
                d[l] = vals[(s >> 8) as usize % vals.len()];
            }
            let mut want: Mask = 0;
            for l in 0..BLOCK {
                want |= ((z[l] < d[l]) as Mask) << l;
            }
            assert_eq!(less_mask(&z, &d), want, "{z:?} {d:?}");
        }
    }

    #[test]
    fn row_span_is_the_blocks_every_edge_admits() {
        // Brute force over small edges: block j is in the span iff every base + omax + j * step
        // is non-negative, and the span is one run (each constraint is a half-line in j).
        let vals = [-9i64, -4, -3, -1, 0, 1, 2, 5, 8];
        let mut s = 0x1234_5678u32;
        for _ in 0..20_000 {
            let mut pick = || {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                vals[s as usize % vals.len()]
            };
            let base = [pick() * 3, pick() * 2, pick()];
            let step = [pick(), pick(), pick()];
            let omax = [pick(), pick(), pick()];
            let last = pick().abs();
            let ok = |j: i64| (0..3).all(|k| base[k] + omax[k] + j * step[k] >= 0);
            let want = (0..=last).filter(|&j| ok(j)).fold(0u64, |m, j| m | 1 << j);
            let got = match row_span(&base, &step, &omax, last) {
                Some((lo, hi)) => (lo..=hi).fold(0u64, |m, j| m | 1 << j),
                None => 0,
            };
            assert_eq!(got, want, "{base:?} {step:?} {omax:?} {last}");
        }
    }
}
