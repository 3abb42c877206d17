//! The demo scene: a lit, textured, rotating cube with a floor, a pyramid and a small orbiting
//! cube, rendered through whatever backend the `Gfx3d` value runs. Used by the kernel's demo mode
//! (one `frame(index)` per displayed frame) and by the host bench.
//!
//! This module must never touch a device directly or keep state outside the `Demo` value.

use libm::{cosf, sinf};

use crate::error::Result;
use crate::geometry::{self, MeshData};
use crate::glsl::{WORLD_FRAG, WORLD_VERT};
use crate::handle::{ContextId, MeshId, ProgramId, TargetId, TextureId};
use crate::layout::VertexLayout;
use crate::linked::Linked;
use crate::math::Mat4;
use crate::mesh::Usage;
use crate::scenes::SceneError;
use crate::texture::{Filter, SamplerState, Wrap};
use crate::Gfx3d;

pub const DEMO_WIDTH: u32 = 640;
pub const DEMO_HEIGHT: u32 = 480;

/// Handles of the demo's objects (all owned by `owner`).
pub struct Demo {
    pub owner: u32,
    pub ctx: ContextId,
    pub target: TargetId,
    pub width: u32,
    pub height: u32,
    prog: ProgramId,
    cube: MeshId,
    floor: MeshId,
    pyramid: MeshId,
    crate_tex: TextureId,
    floor_tex: TextureId,
    gold: TextureId,
}

fn upload(g: &mut Gfx3d<Linked>, o: u32, m: &MeshData) -> Result<MeshId> {
    let id = g.mesh_create(o, Usage::Static)?;
    g.mesh_upload_f32(
        o,
        id,
        &VertexLayout::canonical(),
        &m.vertices,
        Some(&m.indices),
    )?;
    Ok(id)
}

/// A crate-like texture: a checker with a darker border per cell.
fn crate_texels() -> alloc::vec::Vec<u32> {
    let mut t = geometry::checker(64, 64, 16, 0xFFE0_5030, 0xFFF0_E0C0);
    for y in 0..64u32 {
        for x in 0..64u32 {
            if x % 16 == 0 || y % 16 == 0 {
                if let Some(p) = t.get_mut((y * 64 + x) as usize) {
                    *p = 0xFF40_2010;
                }
            }
        }
    }
    t
}

impl Demo {
    /// Creates the context, a `width` x `height` target, the program, meshes and textures.
    pub fn new(
        g: &mut Gfx3d<Linked>,
        owner: u32,
        width: u32,
        height: u32,
    ) -> core::result::Result<Demo, SceneError> {
        let ctx = g.context_create(owner)?;
        let target = g.target_create(owner, ctx, width, height)?;
        let linked = Linked::from_glsl(g.compiler(), WORLD_VERT, WORLD_FRAG, "demo")?;
        let prog = g.prog_prepare(owner, ctx, linked)?;
        let cube = upload(g, owner, &geometry::cube(1.6))?;
        let floor = upload(g, owner, &geometry::plane(14.0, -1.2, 7.0))?;
        let pyramid = upload(g, owner, &geometry::pyramid(1.4))?;
        let crate_tex = g.tex_create(owner, 64, 64)?;
        g.tex_upload(owner, crate_tex, &crate_texels())?;
        g.tex_sampler(
            owner,
            crate_tex,
            SamplerState::new(Filter::Linear, Wrap::Repeat),
        )?;
        let floor_tex = g.tex_create(owner, 16, 16)?;
        g.tex_upload(
            owner,
            floor_tex,
            &geometry::checker(16, 16, 8, 0xFF50_5860, 0xFF90_98A0),
        )?;
        let gold = g.tex_solid(owner, 0xFFFF_C030)?;
        g.cull_back(owner, ctx, true)?;
        g.depth_test(owner, ctx, true)?;
        Ok(Demo {
            owner,
            ctx,
            target,
            width,
            height,
            prog,
            cube,
            floor,
            pyramid,
            crate_tex,
            floor_tex,
            gold,
        })
    }

    /// Renders frame `index` (the animation advances 2 degrees per frame).
    pub fn frame(&self, g: &mut Gfx3d<Linked>, index: u32) -> Result<()> {
        let (o, c) = (self.owner, self.ctx);
        let a = (index % 3600) as f32 * 2.0;
        let rad = a * (core::f32::consts::PI / 180.0);
        g.begin(o, c, self.target)?;
        g.clear(o, c, [0.08, 0.10, 0.16, 1.0], true)?;
        g.camera(o, c, [0.0, 1.4, 6.5], 10.0 * sinf(rad * 0.25), 12.0)?;
        g.use_program(o, c, self.prog)?;
        g.uniform_f(o, c, "lightPosition", &[3.0, 4.0, 4.0])?;
        g.uniform_f(o, c, "lightColor", &[1.0, 0.95, 0.85])?;
        g.uniform_f(o, c, "ambientColor", &[0.18, 0.18, 0.22])?;
        let draws: [(MeshId, TextureId, Mat4); 4] = [
            (self.floor, self.floor_tex, Mat4::IDENTITY),
            (
                self.cube,
                self.crate_tex,
                Mat4::translation(0.0, 0.3, 0.0)
                    .mul(&Mat4::rotation_y(a))
                    .mul(&Mat4::rotation_x(a * 0.65)),
            ),
            (
                self.pyramid,
                self.gold,
                Mat4::translation(-2.6, -1.2, -1.0).mul(&Mat4::rotation_y(-a)),
            ),
            (
                self.cube,
                self.gold,
                Mat4::translation(2.6 * cosf(rad), 0.4, 2.6 * sinf(rad) - 0.5)
                    .mul(&Mat4::rotation_z(a * 1.5))
                    .mul(&Mat4::scale(0.35, 0.35, 0.35)),
            ),
        ];
        for (mesh, tex, model) in draws {
            g.set_model(o, c, &model)?;
            g.bind_texture(o, c, 0, Some(tex))?;
            g.draw(o, c, mesh)?;
        }
        g.end(o, c)
    }

    /// Reads the last frame (row 0 = top, 0xAARRGGBB) into `out` (width x height pixels).
    pub fn read(&self, g: &mut Gfx3d<Linked>, out: &mut [u32]) -> Result<()> {
        g.target_read(self.owner, self.target, out)
    }

    /// Makes the demo target the scanout (VirGL only).
    pub fn present(&self, g: &mut Gfx3d<Linked>) -> Result<()> {
        g.present_scanout(self.owner, self.target)
    }

    /// Releases everything of the demo's owner.
    pub fn destroy(self, g: &mut Gfx3d<Linked>) {
        g.drop_owner(self.owner);
    }
}
