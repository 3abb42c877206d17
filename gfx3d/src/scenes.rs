//! Differential scenes: small pictures that every backend must render the same way. The kernel
//! renders each with the software and the VirGL backend and compares them with
//! `compare::compare`; host tests do the same through vtest. A scene creates its objects under
//! `owner`, renders one frame into a 64x64 target, reads it back and drops the owner's objects.
//! Scenes also check backend-neutral invariants (a shader switch does not re-upload a mesh).
//!
//! This module must never depend on a particular backend.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::error::Error;
use crate::geometry;
use crate::glsl::*;
use crate::handle::{ContextId, MeshId, ProgramId, TargetId};
use crate::layout::{Element, VertexLayout};
use crate::linked::{BuildError, Linked};
use crate::math::Mat4;
use crate::mesh::Usage;
use crate::state::{
    Blend, BlendComponent, BlendFactor, BlendOp, ColorMask, CompareFunc, CullFace, DepthDesc,
    FrontFace, Scissor,
};
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::SamplerState;
use crate::Gfx3d;

pub const SCENE_WIDTH: u32 = 64;
pub const SCENE_HEIGHT: u32 = 64;

/// Why a scene could not be rendered.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    Gfx(Error),
    Build(BuildError),
    /// A backend-neutral invariant did not hold.
    Check(&'static str),
    UnknownScene,
}

impl From<Error> for SceneError {
    fn from(e: Error) -> Self {
        SceneError::Gfx(e)
    }
}

impl From<BuildError> for SceneError {
    fn from(e: BuildError) -> Self {
        SceneError::Build(e)
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Gfx(e) => write!(f, "{}", e),
            SceneError::Build(e) => write!(f, "{}", e),
            SceneError::Check(what) => write!(f, "check failed: {}", what),
            SceneError::UnknownScene => f.write_str("unknown scene"),
        }
    }
}

pub type SceneFn = fn(&mut Gfx3d<Linked>, u32) -> Result<Vec<u32>, SceneError>;

/// Every scene by name, in the order the differential suites run them.
pub static SCENES: &[(&str, SceneFn)] = &[
    ("clear", clear),
    ("triangle", triangle),
    ("depth", depth),
    ("indexed_cube_cull", indexed_cube_cull),
    ("textured_cube", textured_cube),
    ("vertex_colors", vertex_colors),
    ("lighting", lighting),
    ("shader_switch", shader_switch),
    ("lit_textured_mesh", lit_textured_mesh),
    ("viewport", viewport),
    ("two_texture_units", two_texture_units),
    ("fragcoord", fragcoord),
    ("unbound_texture", unbound_texture),
    ("never_cleared", never_cleared),
    ("blend_over", blend_over),
    ("blend_factors", blend_factors),
    ("blend_equations", blend_equations),
    ("depth_funcs", depth_funcs),
    ("masks", masks),
    ("scissor", scissor),
    ("cull_front_face", cull_front_face),
    ("polygon_offset", polygon_offset),
    ("rtt_chain", rtt_chain),
    ("rtt_depth_compare", rtt_depth_compare),
    ("instanced", instanced),
    ("vertex_instance_id", vertex_instance_id),
    ("hdr_tonemap", hdr_tonemap),
];

/// Renders scene `name` for `owner` and always drops the owner's objects afterwards.
pub fn run(g: &mut Gfx3d<Linked>, owner: u32, name: &str) -> Result<Vec<u32>, SceneError> {
    let f = SCENES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .ok_or(SceneError::UnknownScene)?;
    let r = f(g, owner);
    g.drop_owner(owner);
    r
}

struct Frame {
    c: ContextId,
    t: TargetId,
}

fn open(g: &mut Gfx3d<Linked>, o: u32, rgba: [f32; 4]) -> Result<Frame, SceneError> {
    let c = g.context_create(o)?;
    let t = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    g.begin(o, c, t)?;
    g.clear(o, c, rgba, true)?;
    Ok(Frame { c, t })
}

fn close(g: &mut Gfx3d<Linked>, o: u32, f: &Frame) -> Result<Vec<u32>, SceneError> {
    g.end(o, f.c)?;
    let mut px = vec![0u32; (SCENE_WIDTH * SCENE_HEIGHT) as usize];
    g.target_read(o, f.t, &mut px)?;
    Ok(px)
}

fn program(
    g: &mut Gfx3d<Linked>,
    o: u32,
    c: ContextId,
    vs: &str,
    fs: &str,
    name: &str,
) -> Result<ProgramId, SceneError> {
    let p = Linked::from_glsl(g.compiler(), vs, fs, name)?;
    Ok(g.prog_prepare(o, c, p)?)
}

fn layout(stride: u32, els: &[(u8, u8, u32)]) -> Result<VertexLayout, SceneError> {
    let mut v: heapless::Vec<Element, 8> = heapless::Vec::new();
    for &(location, components, offset) in els {
        v.push(Element {
            location,
            components,
            offset,
        })
        .map_err(|_| SceneError::Check("layout"))?;
    }
    Ok(VertexLayout::new(stride, &v).map_err(Error::from)?)
}

/// position xyzw + colour rgba (the 32-byte tri layout).
/// The red triangle most scenes draw (lower left, lower right, top centre).
fn red_triangle(g: &mut Gfx3d<Linked>, o: u32) -> Result<MeshId, SceneError> {
    let v = [
        ([-0.8, -0.8, 0.0], RED),
        ([0.8, -0.8, 0.0], RED),
        ([0.0, 0.8, 0.0], RED),
    ];
    colored(g, o, &v, None)
}

fn colored(
    g: &mut Gfx3d<Linked>,
    o: u32,
    verts: &[([f32; 3], [f32; 4])],
    indices: Option<&[u16]>,
) -> Result<MeshId, SceneError> {
    let mut data = Vec::new();
    for (p, c) in verts {
        data.extend_from_slice(&[p[0], p[1], p[2], 1.0, c[0], c[1], c[2], c[3]]);
    }
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout(32, &[(0, 4, 0), (1, 4, 16)])?, &data, indices)?;
    Ok(m)
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

fn quad(z: f32, c: [f32; 4]) -> [([f32; 3], [f32; 4]); 6] {
    [
        ([-1.0, -1.0, z], c),
        ([1.0, -1.0, z], c),
        ([1.0, 1.0, z], c),
        ([-1.0, -1.0, z], c),
        ([1.0, 1.0, z], c),
        ([-1.0, 1.0, z], c),
    ]
}

fn clear(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.2, 0.4, 0.6, 1.0])?;
    close(g, o, &f)
}

fn triangle(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    let m = red_triangle(g, o)?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

/// A vertex shader that compiles but whose TGSI is over the 3600-byte VirGL budget (30
/// normalizations of a varying value: 4 TGSI instructions each, no folding possible).
pub fn over_budget_vertex_shader() -> alloc::string::String {
    let mut s = alloc::string::String::from(
        "#version 330\nlayout(location = 0) in vec4 position;\nlayout(location = 1) in vec4 color;\nuniform vec4 k;\nout vec4 vcolor;\nvoid main() {\n    vec4 v = position;\n",
    );
    for _ in 0..30 {
        s.push_str("    v = normalize(v) * k;\n");
    }
    s.push_str("    vcolor = color + v * 0.0;\n    gl_Position = position;\n}\n");
    s
}

/// A program over the VirGL budget is a program error, never a device loss: preparing it fails
/// with `ProgramUnsupported` on VirGL (or its link already refuses it), the backend keeps its
/// name (no AUTO degrading, no `virgl-lost`), and a good program of the same context still draws
/// on the device. On the software backend the big program simply prepares. Drops the owner's
/// objects.
pub fn over_budget_program(g: &mut Gfx3d<Linked>, o: u32) -> Result<(), SceneError> {
    let r = over_budget_body(g, o);
    g.drop_owner(o);
    r
}

fn over_budget_body(g: &mut Gfx3d<Linked>, o: u32) -> Result<(), SceneError> {
    let backend = g.backend_name();
    let f = open(g, o, BLUE)?;
    let good = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    match Linked::from_glsl(
        g.compiler(),
        &over_budget_vertex_shader(),
        TRI_FRAG,
        "over_budget",
    ) {
        // The link itself may refuse a stage without TGSI (profile 1's rule).
        Err(e) => {
            if !alloc::format!("{}", e).contains("TGSI") {
                return Err(SceneError::Build(e));
            }
        }
        Ok(big) => match (g.backend(), g.prog_prepare(o, f.c, big)) {
            (crate::Backend::Virgl, Err(Error::ProgramUnsupported { .. })) => {}
            (crate::Backend::Virgl, Ok(_)) => {
                return Err(SceneError::Check(
                    "an over-budget program was prepared on VirGL",
                ))
            }
            (_, Err(e)) => return Err(SceneError::Gfx(e)),
            (_, Ok(_)) => {}
        },
    }
    if g.backend_name() != backend || g.is_lost() || g.stats().degraded {
        return Err(SceneError::Check(
            "an over-budget program changed the backend",
        ));
    }
    let m = red_triangle(g, o)?;
    g.use_program(o, f.c, good)?;
    g.draw(o, f.c, m)?;
    let px = close(g, o, &f)?;
    let centre = (SCENE_HEIGHT / 2 * SCENE_WIDTH + SCENE_WIDTH / 2) as usize;
    if px.get(centre) != Some(&0xFFFF_0000) || px.first() != Some(&0xFF00_00FF) {
        return Err(SceneError::Check(
            "the good program did not draw after the refusal",
        ));
    }
    if g.backend_name() != backend {
        return Err(SceneError::Check(
            "the frame after the refusal changed the backend",
        ));
    }
    Ok(())
}

/// A target drawn without a clear, after a resize: both backends start from the CPU target's
/// initial content (colour 0, depth 1.0), so the depth-tested triangles are visible and the
/// background is transparent black on both.
fn never_cleared(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let c = g.context_create(o)?;
    let t = g.target_create(o, c, 16, 16)?;
    // A first frame leaves colour and depth behind on the small target; the resize drops them.
    g.begin(o, c, t)?;
    g.clear(o, c, [1.0, 1.0, 1.0, 1.0], true)?;
    g.end(o, c)?;
    g.target_resize(o, t, SCENE_WIDTH, SCENE_HEIGHT)?;
    let p = program(g, o, c, TRI_VERT, TRI_FRAG, "tri")?;
    let near = colored(
        g,
        o,
        &[
            ([-0.8, -0.8, 0.2], RED),
            ([0.6, -0.8, 0.2], RED),
            ([-0.1, 0.8, 0.2], RED),
        ],
        None,
    )?;
    let far = colored(
        g,
        o,
        &[
            ([-0.6, -0.6, 0.6], GREEN),
            ([0.8, -0.6, 0.6], GREEN),
            ([0.1, 0.9, 0.6], GREEN),
        ],
        None,
    )?;
    let f = Frame { c, t };
    g.begin(o, c, t)?;
    g.depth_test(o, c, true)?;
    g.use_program(o, c, p)?;
    g.draw(o, c, near)?;
    g.draw(o, c, far)?;
    close(g, o, &f)
}

fn depth(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    let near = colored(
        g,
        o,
        &[
            ([-0.8, -0.8, -0.4], RED),
            ([0.6, -0.8, -0.4], RED),
            ([-0.1, 0.8, -0.4], RED),
        ],
        None,
    )?;
    let far = colored(
        g,
        o,
        &[
            ([-0.6, -0.7, 0.6], GREEN),
            ([0.8, -0.7, 0.6], GREEN),
            ([0.1, 0.9, 0.6], GREEN),
        ],
        None,
    )?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, near)?;
    g.draw(o, f.c, far)?;
    close(g, o, &f)
}

fn camera(g: &mut Gfx3d<Linked>, o: u32, c: ContextId, model: Mat4) -> Result<(), SceneError> {
    g.set_model(o, c, &model)?;
    g.set_view(o, c, &Mat4::translation(0.0, 0.0, -3.0))?;
    g.set_projection(o, c, &Mat4::perspective(60.0, 1.0, 0.1, 100.0))?;
    Ok(())
}

fn canonical_cube(g: &mut Gfx3d<Linked>, o: u32, l: &VertexLayout) -> Result<MeshId, SceneError> {
    let cube = geometry::cube(1.2);
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, l, &cube.vertices, Some(&cube.indices))?;
    Ok(m)
}

fn spin() -> Mat4 {
    Mat4::rotation_y(35.0).mul(&Mat4::rotation_x(25.0))
}

fn indexed_cube_cull(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.1, 0.1, 0.1, 1.0])?;
    let p = program(g, o, f.c, MVP_VERT, TRI_FRAG, "mvp")?;
    // Colour = the normal (faces with negative components clamp towards black).
    let m = canonical_cube(g, o, &layout(40, &[(0, 4, 0), (1, 4, 16)])?)?;
    g.cull_back(o, f.c, true)?;
    camera(g, o, f.c, spin())?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn checker(g: &mut Gfx3d<Linked>, o: u32) -> Result<crate::handle::TextureId, SceneError> {
    let t = g.tex_create(o, 8, 8)?;
    g.tex_upload(o, t, &geometry::checker(8, 8, 2, 0xFFFF_0000, 0xFF00_00FF))?;
    Ok(t)
}

fn textured_cube(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.0, 0.0, 0.0, 1.0])?;
    let p = program(g, o, f.c, TEX_VERT, TEX_FRAG, "tex")?;
    // The same canonical vertices, read through another layout (uv at location 1).
    let m = canonical_cube(g, o, &layout(40, &[(0, 4, 0), (1, 2, 32)])?)?;
    let t = checker(g, o)?;
    g.cull_back(o, f.c, true)?;
    camera(g, o, f.c, spin())?;
    g.use_program(o, f.c, p)?;
    g.bind_texture(o, f.c, 0, Some(t))?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn vertex_colors(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.0, 0.0, 0.0, 1.0])?;
    let p = program(g, o, f.c, VARY_VERT, VARY_FRAG, "vary")?;
    #[rustfmt::skip]
    let data = [
        -0.9, -0.9, 0.0, 1.0, 1.0, 0.0, 0.0,
         0.9, -0.9, 0.0, 1.0, 0.0, 1.0, 0.0,
         0.0,  0.9, 0.0, 1.0, 0.0, 0.0, 1.0,
    ];
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout(28, &[(0, 4, 0), (1, 3, 16)])?, &data, None)?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn lights(
    g: &mut Gfx3d<Linked>,
    o: u32,
    c: ContextId,
    color: [f32; 3],
    ambient: f32,
) -> Result<(), SceneError> {
    g.uniform_f(o, c, "lightPosition", &[2.0, 2.0, 3.0])?;
    g.uniform_f(o, c, "lightColor", &color)?;
    g.uniform_f(o, c, "ambientColor", &[ambient, ambient, ambient])?;
    Ok(())
}

fn lighting(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.0, 0.0, 0.0, 1.0])?;
    let p = program(g, o, f.c, LIGHT_VERT, LIGHT_FRAG, "light")?;
    let m = canonical_cube(g, o, &layout(40, &[(0, 3, 0), (1, 3, 16)])?)?;
    g.cull_back(o, f.c, true)?;
    camera(g, o, f.c, Mat4::rotation_y(30.0))?;
    g.use_program(o, f.c, p)?;
    lights(g, o, f.c, [1.0, 0.3, 0.2], 0.12)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn shader_switch(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let tri = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    let mvp = program(g, o, f.c, MVP_VERT, TRI_FRAG, "mvp")?;
    let m = colored(
        g,
        o,
        &[
            ([-0.8, -0.8, 0.0], RED),
            ([0.2, -0.8, 0.0], RED),
            ([-0.3, 0.2, 0.0], RED),
        ],
        None,
    )?;
    g.use_program(o, f.c, tri)?;
    g.draw(o, f.c, m)?;
    let uploads = g.stats().uploads;
    // The same mesh through another program, moved up and right: no new upload.
    g.set_model(o, f.c, &Mat4::translation(0.6, 0.6, 0.0))?;
    g.use_program(o, f.c, mvp)?;
    g.draw(o, f.c, m)?;
    if g.stats().uploads != uploads {
        return Err(SceneError::Check("a shader switch re-uploaded the mesh"));
    }
    close(g, o, &f)
}

fn lit_textured_mesh(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.05, 0.05, 0.1, 1.0])?;
    let p = program(g, o, f.c, WORLD_VERT, WORLD_FRAG, "world")?;
    // Built with the incremental builder (non-indexed, canonical layout).
    let cube = geometry::cube(1.2);
    let m = g.mesh_create(o, Usage::Static)?;
    for &i in &cube.indices {
        let v = i as usize * geometry::CANONICAL_FLOATS;
        let f = |k: usize| cube.vertices.get(v + k).copied().unwrap_or(0.0);
        g.mesh_vertex(o, m, [f(0), f(1), f(2)], [f(4), f(5), f(6)], [f(8), f(9)])?;
    }
    g.mesh_finish(o, m)?;
    let t = checker(g, o)?;
    g.cull_back(o, f.c, true)?;
    camera(
        g,
        o,
        f.c,
        Mat4::rotation_y(28.0).mul(&Mat4::scale(1.0, 1.2, 1.0)),
    )?;
    g.use_program(o, f.c, p)?;
    lights(g, o, f.c, [1.0, 1.0, 1.0], 0.15)?;
    g.bind_texture(o, f.c, 0, Some(t))?;
    let uploads = g.stats().uploads;
    g.draw(o, f.c, m)?;
    g.draw(o, f.c, m)?;
    if g.stats().uploads > uploads + 2 {
        return Err(SceneError::Check(
            "a second draw re-uploaded the mesh or texture",
        ));
    }
    close(g, o, &f)
}

fn viewport(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    let m = colored(g, o, &quad(0.0, RED), None)?;
    g.use_program(o, f.c, p)?;
    g.viewport(o, f.c, 8, 16, 32, 24)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn two_texture_units(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TEX_VERT, TWO_TEX_FRAG, "twotex")?;
    let mut data = Vec::new();
    for (x, y) in [
        (-0.8f32, -0.8f32),
        (0.8, -0.8),
        (0.8, 0.8),
        (-0.8, -0.8),
        (0.8, 0.8),
        (-0.8, 0.8),
    ] {
        data.extend_from_slice(&[x, y, 0.0, 1.0, (x + 1.0) * 0.5, (1.0 - y) * 0.5]);
    }
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout(24, &[(0, 4, 0), (1, 2, 16)])?, &data, None)?;
    let red = g.tex_solid(o, 0xFFFF_0000)?;
    let green = g.tex_solid(o, 0xFF00_FF00)?;
    g.use_program(o, f.c, p)?;
    g.bind_texture(o, f.c, 0, Some(red))?;
    g.bind_texture(o, f.c, 1, Some(green))?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

fn fragcoord(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.0, 0.0, 0.0, 1.0])?;
    let p = program(g, o, f.c, TRI_VERT, FRAGCOORD_FRAG, "fragcoord")?;
    let m = colored(g, o, &quad(0.0, RED), None)?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

/// A textured quad with no texture bound: both backends read opaque black.
fn unbound_texture(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TEX_VERT, TEX_FRAG, "tex")?;
    let mut data = Vec::new();
    for (x, y) in [
        (-0.5f32, -0.5f32),
        (0.5, -0.5),
        (0.5, 0.5),
        (-0.5, -0.5),
        (0.5, 0.5),
        (-0.5, 0.5),
    ] {
        data.extend_from_slice(&[x, y, 0.0, 1.0, x + 0.5, y + 0.5]);
    }
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout(24, &[(0, 4, 0), (1, 2, 16)])?, &data, None)?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, m)?;
    close(g, o, &f)
}

/// Outcome of one differential scene.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffOutcome {
    Agree(crate::compare::Comparison),
    Differ(crate::compare::Comparison),
    Failed {
        backend: &'static str,
        error: SceneError,
    },
}

/// Renders scene `name` with `reference` (software) and `other` (VirGL) and compares them.
pub fn differential(
    reference: &mut Gfx3d<Linked>,
    other: &mut Gfx3d<Linked>,
    owner: u32,
    name: &str,
) -> DiffOutcome {
    let a = match run(reference, owner, name) {
        Ok(a) => a,
        Err(error) => {
            return DiffOutcome::Failed {
                backend: reference.backend_name(),
                error,
            }
        }
    };
    let b = match run(other, owner, name) {
        Ok(b) => b,
        Err(error) => {
            return DiffOutcome::Failed {
                backend: other.backend_name(),
                error,
            }
        }
    };
    let c = crate::compare::compare(&a, &b, SCENE_WIDTH, SCENE_HEIGHT);
    if c.agrees() {
        DiffOutcome::Agree(c)
    } else {
        DiffOutcome::Differ(c)
    }
}

/// Runs every scene differentially and prints `test gfx3d::diff::NAME ... ok|FAILED (why)` lines
/// (the selftest runner's format); returns (passed, failed).
pub fn differential_suite(
    reference: &mut Gfx3d<Linked>,
    other: &mut Gfx3d<Linked>,
    owner: u32,
    out: &mut dyn fmt::Write,
) -> (u32, u32) {
    let (mut passed, mut failed) = (0, 0);
    for (name, _) in SCENES {
        let r = differential(reference, other, owner, name);
        let _ = match &r {
            DiffOutcome::Agree(c) => {
                passed += 1;
                writeln!(
                    out,
                    "test gfx3d::diff::{} ... ok ({} of {} pixels differ)",
                    name, c.differing, c.pixels
                )
            }
            DiffOutcome::Differ(c) => {
                failed += 1;
                writeln!(
                    out,
                    "test gfx3d::diff::{} ... FAILED ({} of {} pixels differ, {} off edges, first {:?})",
                    name, c.differing, c.pixels, c.off_edge, c.first_off_edge
                )
            }
            DiffOutcome::Failed { backend, error } => {
                failed += 1;
                writeln!(
                    out,
                    "test gfx3d::diff::{} ... FAILED ({}: {})",
                    name, backend, error
                )
            }
        };
    }
    (passed, failed)
}

/// An axis-aligned rectangle in NDC at depth `z` (two counter-clockwise triangles).
fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: [f32; 4]) -> [([f32; 3], [f32; 4]); 6] {
    [
        ([x0, y0, z], c),
        ([x1, y0, z], c),
        ([x1, y1, z], c),
        ([x0, y0, z], c),
        ([x1, y1, z], c),
        ([x0, y1, z], c),
    ]
}

/// NDC edges of band `i` of `n` equal horizontal bands (band 0 at the top).
fn band(i: usize, n: usize) -> (f32, f32) {
    let h = 2.0 / n as f32;
    (1.0 - h * (i + 1) as f32, 1.0 - h * i as f32)
}

/// Half-transparent green over an opaque red square over the clear colour.
fn blend_over(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.2, 0.4, 0.6, 1.0])?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    let red = colored(g, o, &rect(-0.8, -0.8, 0.2, 0.2, 0.0, RED), None)?;
    let glass = colored(
        g,
        o,
        &rect(-0.4, -0.4, 0.7, 0.7, -0.5, [0.0, 1.0, 0.0, 0.5]),
        None,
    )?;
    g.use_program(o, f.c, p)?;
    g.draw(o, f.c, red)?;
    g.set_blend(o, f.c, Some(Blend::ALPHA))?;
    g.draw(o, f.c, glass)?;
    close(g, o, &f)
}

/// Every blend factor as a colour and an alpha factor, one band per factor, over a
/// destination with partial alpha and with a constant colour.
fn blend_factors(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.8, 0.4, 0.2, 0.6])?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let all = BlendFactor::ALL;
    let n = all.len();
    for (i, &src) in all.iter().enumerate() {
        let (y0, y1) = band(i, n);
        // Two halves: the factor as source (left) and as destination (right).
        for (half, (x0, x1)) in [(-1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
            let other = all.get((i + 5) % n).copied().unwrap_or(BlendFactor::One);
            let (s, d) = if half == 0 {
                (src, other)
            } else {
                (other, src)
            };
            let m = colored(g, o, &rect(x0, y0, x1, y1, 0.0, [0.2, 0.6, 1.0, 0.4]), None)?;
            g.set_blend(
                o,
                f.c,
                Some(Blend {
                    color: BlendComponent {
                        src: s,
                        dst: d,
                        op: BlendOp::Add,
                    },
                    alpha: BlendComponent {
                        src: d,
                        dst: s,
                        op: BlendOp::Add,
                    },
                    constant: [0.3, 0.5, 0.7, 0.25],
                }),
            )?;
            g.draw(o, f.c, m)?;
        }
    }
    close(g, o, &f)
}

/// Each blend equation in a band, colour and alpha with different equations.
fn blend_equations(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.6, 0.4, 0.2, 0.8])?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let ops = BlendOp::ALL;
    for (i, &op) in ops.iter().enumerate() {
        let (y0, y1) = band(i, ops.len());
        let m = colored(
            g,
            o,
            &rect(-1.0, y0, 1.0, y1, 0.0, [0.2, 0.8, 0.4, 0.6]),
            None,
        )?;
        let alpha_op = ops
            .get((i + 2) % ops.len())
            .copied()
            .unwrap_or(BlendOp::Add);
        g.set_blend(
            o,
            f.c,
            Some(Blend {
                color: BlendComponent {
                    src: BlendFactor::SrcAlpha,
                    dst: BlendFactor::One,
                    op,
                },
                alpha: BlendComponent {
                    src: BlendFactor::One,
                    dst: BlendFactor::DstAlpha,
                    op: alpha_op,
                },
                constant: [0.0; 4],
            }),
        )?;
        g.draw(o, f.c, m)?;
    }
    close(g, o, &f)
}

/// One column per depth function: a reference plane at z = 0, then per column a nearer
/// (top), an equal (middle) and a farther (bottom) rectangle drawn with that function.
fn depth_funcs(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let plane = colored(g, o, &quad(0.0, GREEN), None)?;
    g.draw(o, f.c, plane)?;
    let funcs = CompareFunc::ALL;
    for (i, &func) in funcs.iter().enumerate() {
        let w = 2.0 / funcs.len() as f32;
        let (x0, x1) = (-1.0 + w * i as f32, -1.0 + w * (i + 1) as f32);
        let mut v = Vec::new();
        for (y0, y1, z) in [(0.34, 1.0, -0.5), (-0.33, 0.34, 0.0), (-1.0, -0.33, 0.5)] {
            v.extend_from_slice(&rect(x0, y0, x1, y1, z, RED));
        }
        let m = colored(g, o, &v, None)?;
        g.set_depth(
            o,
            f.c,
            DepthDesc {
                func,
                // Later columns do not see this column's writes (they are elsewhere).
                ..DepthDesc::DEFAULT
            },
        )?;
        g.draw(o, f.c, m)?;
    }
    close(g, o, &f)
}

/// A depth clear value, then (in a second frame on the same target) colour masks per channel
/// and depth writes off.
fn masks(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let c = g.context_create(o)?;
    let t = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let f = Frame { c, t };
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    // Depth cleared to 0.5 keeps z > 0 out (window depth above 0.5).
    g.begin(o, f.c, f.t)?;
    g.set_depth(
        o,
        f.c,
        DepthDesc {
            clear: 0.5,
            ..DepthDesc::DEFAULT
        },
    )?;
    g.clear(o, f.c, [0.5, 0.5, 0.5, 0.5], true)?;
    g.use_program(o, f.c, p)?;
    let (y0, y1) = band(5, 6);
    let behind = colored(g, o, &rect(-1.0, y0, 0.0, y1, 0.3, RED), None)?;
    let before = colored(g, o, &rect(0.0, y0, 1.0, y1, -0.3, GREEN), None)?;
    g.draw(o, f.c, behind)?;
    g.draw(o, f.c, before)?;
    g.end(o, f.c)?;
    g.begin(o, f.c, f.t)?;
    let masks = [
        ColorMask {
            r: true,
            g: false,
            b: false,
            a: false,
        },
        ColorMask {
            r: false,
            g: true,
            b: false,
            a: true,
        },
        ColorMask {
            r: false,
            g: false,
            b: true,
            a: false,
        },
        ColorMask {
            r: true,
            g: true,
            b: false,
            a: true,
        },
    ];
    for (i, mask) in masks.into_iter().enumerate() {
        let (y0, y1) = band(i, 6);
        let m = colored(
            g,
            o,
            &rect(-1.0, y0, 1.0, y1, -0.2, [1.0, 0.0, 1.0, 0.0]),
            None,
        )?;
        g.set_color_mask(o, f.c, mask)?;
        g.draw(o, f.c, m)?;
    }
    g.set_color_mask(o, f.c, ColorMask::ALL)?;
    // Depth writes off: the farther rectangle still lands where the nearer one was drawn.
    let (y0, y1) = band(4, 6);
    let near = colored(g, o, &rect(-1.0, y0, 0.0, y1, -0.5, RED), None)?;
    let far = colored(g, o, &rect(-0.5, y0, 1.0, y1, -0.1, GREEN), None)?;
    g.set_depth(
        o,
        f.c,
        DepthDesc {
            write: false,
            ..DepthDesc::DEFAULT
        },
    )?;
    g.draw(o, f.c, near)?;
    g.draw(o, f.c, far)?;
    close(g, o, &f)
}

/// A scissor rectangle off the centre (GL's lower-left origin), then off again.
fn scissor(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let m = colored(g, o, &quad(0.0, RED), None)?;
    let small = colored(g, o, &rect(-0.2, -0.2, 0.2, 0.2, -0.5, GREEN), None)?;
    g.set_scissor(
        o,
        f.c,
        Some(Scissor {
            x: 6,
            y: 4,
            width: 20,
            height: 36,
        }),
    )?;
    g.draw(o, f.c, m)?;
    // A scissor reaching past the target is clipped to it.
    g.set_scissor(
        o,
        f.c,
        Some(Scissor {
            x: 40,
            y: 50,
            width: 100,
            height: 100,
        }),
    )?;
    g.draw(o, f.c, m)?;
    g.set_scissor(o, f.c, None)?;
    g.draw(o, f.c, small)?;
    close(g, o, &f)
}

/// One counter-clockwise and one clockwise triangle per quadrant, each quadrant with another
/// front face and cull combination.
fn cull_front_face(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let combos = [
        (FrontFace::Ccw, CullFace::Back),
        (FrontFace::Cw, CullFace::Back),
        (FrontFace::Ccw, CullFace::Front),
        (FrontFace::Cw, CullFace::None),
    ];
    for (i, (front, cull)) in combos.into_iter().enumerate() {
        let (ox, oy) = (-1.0 + (i % 2) as f32, -1.0 + (i / 2) as f32);
        let ccw = [
            ([ox + 0.1, oy + 0.1, 0.0], RED),
            ([ox + 0.9, oy + 0.1, 0.0], RED),
            ([ox + 0.1, oy + 0.45, 0.0], RED),
        ];
        let cw = [
            ([ox + 0.1, oy + 0.55, 0.0], GREEN),
            ([ox + 0.1, oy + 0.9, 0.0], GREEN),
            ([ox + 0.9, oy + 0.55, 0.0], GREEN),
        ];
        let mut v = Vec::new();
        v.extend_from_slice(&ccw);
        v.extend_from_slice(&cw);
        let m = colored(g, o, &v, None)?;
        g.set_raster(o, f.c, front, cull)?;
        g.draw(o, f.c, m)?;
    }
    // Both faces culled: nothing of this one shows.
    let all = colored(g, o, &quad(-0.9, [1.0, 1.0, 0.0, 1.0]), None)?;
    g.set_raster(o, f.c, FrontFace::Ccw, CullFace::FrontAndBack)?;
    g.draw(o, f.c, all)?;
    close(g, o, &f)
}

/// A sloped plane, then coplanar copies pulled forward (visible) and pushed back (hidden) by
/// polygon offset.
fn polygon_offset(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, BLUE)?;
    let p = program(g, o, f.c, TRI_VERT, TRI_FRAG, "tri")?;
    g.use_program(o, f.c, p)?;
    let sloped = |x0: f32, x1: f32, c: [f32; 4]| {
        // Depth runs from -0.6 at x = -1 to 0.6 at x = 1.
        let z = |x: f32| x * 0.6;
        [
            ([x0, -0.9, z(x0)], c),
            ([x1, -0.9, z(x1)], c),
            ([x1, 0.9, z(x1)], c),
            ([x0, -0.9, z(x0)], c),
            ([x1, 0.9, z(x1)], c),
            ([x0, 0.9, z(x0)], c),
        ]
    };
    let base = colored(g, o, &sloped(-1.0, 1.0, GREEN), None)?;
    let pulled = colored(g, o, &sloped(-0.8, 0.0, RED), None)?;
    let pushed = colored(g, o, &sloped(0.0, 0.8, [1.0, 1.0, 0.0, 1.0]), None)?;
    g.draw(o, f.c, base)?;
    g.set_polygon_offset(o, f.c, -1.0, -4.0)?;
    g.draw(o, f.c, pulled)?;
    g.set_polygon_offset(o, f.c, 1.0, 4.0)?;
    g.draw(o, f.c, pushed)?;
    close(g, o, &f)
}

/// A full-screen quad (position xyzw, uv) with v = 0 at the top, so a target sampled by it is
/// copied upright pixel for pixel.
fn screen_quad(g: &mut Gfx3d<Linked>, o: u32) -> Result<MeshId, SceneError> {
    let corner = |x: f32, y: f32| [x, y, 0.0, 1.0, x * 0.5 + 0.5, 0.5 - y * 0.5];
    let mut data = Vec::new();
    for (x, y) in [
        (-1.0, -1.0),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        data.extend_from_slice(&corner(x, y));
    }
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &layout(24, &[(0, 4, 0), (1, 2, 16)])?, &data, None)?;
    Ok(m)
}

fn read(g: &mut Gfx3d<Linked>, o: u32, t: TargetId) -> Result<Vec<u32>, SceneError> {
    let mut px = vec![0u32; (SCENE_WIDTH * SCENE_HEIGHT) as usize];
    g.target_read(o, t, &mut px)?;
    Ok(px)
}

/// Render to texture, three passes: a scene into target A, A post-processed into B, B
/// post-processed again (half size, with a triangle drawn over it) into C. No readback
/// between the passes.
fn rtt_chain(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let c = g.context_create(o)?;
    let a = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let b = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let t = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let tri = program(g, o, c, TRI_VERT, TRI_FRAG, "tri")?;
    let post = program(g, o, c, PASS_VERT, POST_FRAG, "post")?;
    let quad = screen_quad(g, o)?;
    let red = red_triangle(g, o)?;
    let green = colored(g, o, &rect(-0.6, 0.0, 0.9, 0.9, -0.5, GREEN), None)?;
    g.begin(o, c, a)?;
    g.clear(o, c, [0.2, 0.4, 0.6, 1.0], true)?;
    g.use_program(o, c, tri)?;
    g.draw(o, c, red)?;
    g.draw(o, c, green)?;
    g.end(o, c)?;
    g.begin(o, c, b)?;
    g.clear(o, c, [0.0, 0.0, 0.0, 1.0], true)?;
    g.use_program(o, c, post)?;
    g.bind_target_texture(o, c, 0, a, TargetPlane::Color, SamplerState::default())?;
    g.draw(o, c, quad)?;
    g.end(o, c)?;
    g.begin(o, c, t)?;
    g.clear(o, c, [1.0, 1.0, 1.0, 1.0], true)?;
    g.viewport(o, c, 8, 8, 32, 32)?;
    g.bind_target_texture(o, c, 0, b, TargetPlane::Color, SamplerState::default())?;
    g.draw(o, c, quad)?;
    g.viewport(o, c, 0, 0, SCENE_WIDTH, SCENE_HEIGHT)?;
    g.use_program(o, c, tri)?;
    g.bind_texture(o, c, 0, None)?;
    let small = colored(g, o, &rect(0.3, -0.9, 0.9, -0.3, 0.0, BLUE), None)?;
    g.draw(o, c, small)?;
    g.end(o, c)?;
    read(g, o, t)
}

/// A depth pass (a sloped occluder over part of the map, window depth 0.2..0.8) sampled in a
/// second pass and compared with the receiver's depth 0.5 (shadowed where the map is nearer).
fn rtt_depth_compare(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let c = g.context_create(o)?;
    let map = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let t = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let tri = program(g, o, c, TRI_VERT, TRI_FRAG, "tri")?;
    let shadow = program(g, o, c, PASS_VERT, SHADOW_FRAG, "shadow")?;
    let quad = screen_quad(g, o)?;
    // z runs from -0.6 (left) to 0.6 (right): nearer than 0.5 on the left half only.
    let z = |x: f32| x * 0.6;
    let occluder = colored(
        g,
        o,
        &[
            ([-0.9, -0.7, z(-0.9)], RED),
            ([0.9, -0.7, z(0.9)], RED),
            ([0.9, 0.7, z(0.9)], RED),
            ([-0.9, -0.7, z(-0.9)], RED),
            ([0.9, 0.7, z(0.9)], RED),
            ([-0.9, 0.7, z(-0.9)], RED),
        ],
        None,
    )?;
    g.begin(o, c, map)?;
    g.clear(o, c, [0.0, 0.0, 0.0, 1.0], true)?;
    g.use_program(o, c, tri)?;
    g.set_polygon_offset(o, c, 1.0, 1.0)?;
    g.draw(o, c, occluder)?;
    g.end(o, c)?;
    g.set_polygon_offset(o, c, 0.0, 0.0)?;
    g.begin(o, c, t)?;
    g.clear(o, c, [0.0, 0.0, 0.0, 1.0], true)?;
    g.use_program(o, c, shadow)?;
    g.uniform_f(o, c, "receiverDepth", &[0.5])?;
    g.bind_target_texture(o, c, 0, map, TargetPlane::Depth, SamplerState::default())?;
    g.draw(o, c, quad)?;
    g.end(o, c)?;
    read(g, o, t)
}

/// One small triangle drawn as 12 instances: a per-instance offset (divisor 1) places them on
/// a 4x3 grid, a per-instance tint (divisor 2) colours pairs; per-vertex colours shade each.
fn instanced(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.1, 0.1, 0.1, 1.0])?;
    let p = program(g, o, f.c, INSTANCE_VERT, TRI_FRAG, "instance")?;
    // 12 rows of: position xyzw, colour rgba, offset xyzw, tint rgba (64 bytes). Rows 0..3
    // hold the triangle's vertices; every row holds instance data.
    let tri = [[-0.2f32, -0.15], [0.2, -0.15], [0.0, 0.2]];
    let vc = [RED, GREEN, BLUE];
    let tints = [
        [1.0, 1.0, 1.0, 1.0],
        [1.0, 0.5, 0.5, 1.0],
        [0.5, 1.0, 0.5, 1.0],
        [0.5, 0.5, 1.0, 1.0],
        [1.0, 1.0, 0.0, 1.0],
        [0.0, 1.0, 1.0, 1.0],
    ];
    let mut data = Vec::new();
    for row in 0..12usize {
        let (pos, col) = match (tri.get(row), vc.get(row)) {
            (Some(p), Some(c)) => ([p[0], p[1], 0.0, 1.0], *c),
            _ => ([0.0, 0.0, 0.0, 1.0], [0.0; 4]),
        };
        let (gx, gy) = ((row % 4) as f32, (row / 4) as f32);
        let offset = [-0.75 + gx * 0.5, 0.65 - gy * 0.65, 0.0, 0.0];
        let tint = tints.get(row % 6).copied().unwrap_or([1.0; 4]);
        data.extend_from_slice(&pos);
        data.extend_from_slice(&col);
        data.extend_from_slice(&offset);
        data.extend_from_slice(&tint);
    }
    let l = layout(64, &[(0, 4, 0), (1, 4, 16), (2, 4, 32), (3, 4, 48)])?
        .instanced(2, 1)
        .map_err(Error::from)?
        .instanced(3, 2)
        .map_err(Error::from)?;
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &l, &data, Some(&[0, 1, 2]))?;
    g.use_program(o, f.c, p)?;
    g.draw_instanced(o, f.c, m, 12)?;
    close(g, o, &f)
}

/// Profile 2's gl_VertexID and gl_InstanceID: a square of an indexed mesh that uses vertices
/// 2..=5 of six (so the index value, not the position in the index list, colours each corner)
/// drawn as 5 instances placed on a 3x2 grid by gl_InstanceID; the sixth cell is a plain draw
/// (instance 0) of a non-indexed square of six vertices, coloured by their positions 0..=5.
fn vertex_instance_id(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let f = open(g, o, [0.1, 0.1, 0.1, 1.0])?;
    let p = program(g, o, f.c, SYSVAL_VERT, TRI_FRAG, "sysval")?;
    let (h, w) = (0.35f32, 0.25f32);
    let corners: [[f32; 4]; 6] = [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
        [-w, -h, 0.0, 1.0],
        [w, -h, 0.0, 1.0],
        [w, h, 0.0, 1.0],
        [-w, h, 0.0, 1.0],
    ];
    let data: Vec<f32> = corners.iter().flatten().copied().collect();
    let l = layout(16, &[(0, 4, 0)])?;
    let m = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m, &l, &data, Some(&[2, 3, 4, 2, 4, 5]))?;
    g.use_program(o, f.c, p)?;
    g.draw_instanced(o, f.c, m, 5)?;
    // The sixth cell (column 2, row 1) through instance 0's placement.
    let (dx, dy) = (1.2f32, -0.9f32);
    let mut plain = Vec::new();
    for i in [2usize, 3, 4, 2, 4, 5] {
        let c = corners.get(i).copied().unwrap_or([0.0; 4]);
        plain.extend_from_slice(&[c[0] + dx, c[1] + dy, 0.0, 1.0]);
    }
    let m2 = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(o, m2, &l, &plain, None)?;
    g.draw(o, f.c, m2)?;
    close(g, o, &f)
}

/// The HDR pass of [`hdr_tonemap`]: exposure, then extended Reinhard (`white` maps to 1).
pub const HDR_TONEMAP_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D hdr;
uniform float exposure;
uniform float white;
out vec4 color;
void main() {
    vec3 x = texture(hdr, fragUV).rgb * exposure;
    vec3 m = x * (vec3(1.0) + x / (white * white)) / (vec3(1.0) + x);
    color = vec4(m, 1.0);
}
";

/// HDR post-processing in two passes: values above 1 (vertex colours up to 6, and two
/// quads added with ONE + ONE blending, unclamped in the float target) drawn into an RGBA32F
/// target, then tone-mapped by a full-screen pass into the RGBA8 picture. In RGBA8 the bright
/// parts would all be white; tone-mapped they keep their gradients.
fn hdr_tonemap(g: &mut Gfx3d<Linked>, o: u32) -> Result<Vec<u32>, SceneError> {
    let c = g.context_create(o)?;
    let hdr = g.target_create_format(o, c, SCENE_WIDTH, SCENE_HEIGHT, TargetFormat::Rgba32F)?;
    let t = g.target_create(o, c, SCENE_WIDTH, SCENE_HEIGHT)?;
    let tri = program(g, o, c, TRI_VERT, TRI_FRAG, "tri")?;
    let tone = program(g, o, c, PASS_VERT, HDR_TONEMAP_FRAG, "hdr-tonemap")?;
    let quad = screen_quad(g, o)?;
    let (a, b, k, d) = (
        [4.0, 0.5, 0.0, 1.0],
        [0.2, 3.0, 6.0, 1.0],
        [1.5, 1.5, 1.5, 1.0],
        [0.0, 0.25, 2.0, 1.0],
    );
    let gradient = colored(
        g,
        o,
        &[
            ([-0.9, -0.9, 0.0], a),
            ([0.9, -0.9, 0.0], b),
            ([0.9, 0.9, 0.0], k),
            ([-0.9, -0.9, 0.0], a),
            ([0.9, 0.9, 0.0], k),
            ([-0.9, 0.9, 0.0], d),
        ],
        None,
    )?;
    let over = colored(
        g,
        o,
        &rect(-0.5, -0.6, 0.6, 0.4, 0.0, [2.5, 2.0, 1.0, 1.0]),
        None,
    )?;
    let one = BlendComponent {
        src: BlendFactor::One,
        dst: BlendFactor::One,
        op: BlendOp::Add,
    };
    g.begin(o, c, hdr)?;
    g.clear(o, c, [0.05, 0.1, 0.3, 1.0], true)?;
    g.use_program(o, c, tri)?;
    g.depth_test(o, c, false)?;
    g.draw(o, c, gradient)?;
    g.set_blend(
        o,
        c,
        Some(Blend {
            color: one,
            alpha: one,
            constant: [0.0; 4],
        }),
    )?;
    g.draw(o, c, over)?;
    g.set_blend(o, c, None)?;
    g.end(o, c)?;
    g.begin(o, c, t)?;
    g.use_program(o, c, tone)?;
    g.uniform_f(o, c, "exposure", &[0.8])?;
    g.uniform_f(o, c, "white", &[4.0])?;
    g.bind_target_texture(o, c, 0, hdr, TargetPlane::Color, SamplerState::default())?;
    g.draw(o, c, quad)?;
    g.end(o, c)?;
    read(g, o, t)
}
