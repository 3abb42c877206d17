//! Context objects: frame flag, bound target/program/textures, depth/cull/viewport state and the
//! matrices (model, view, projection; the normal matrix is derived) that are applied to every
//! program bound to the context. This module must never talk to a device itself.

use crate::device::DevId;
use crate::handle::{ProgramId, TargetId, TextureId};
use crate::limits::TEXTURE_UNITS;
use crate::math::Mat4;
use crate::program::Viewport;
use crate::state::{DepthDesc, Pipeline};
use crate::target::TargetPlane;
use crate::texture::SamplerState;

/// What a texture unit of a context samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sampled {
    Texture(TextureId),
    /// A render target's colour or depth (render to texture), with its own sampler state.
    Target {
        id: TargetId,
        plane: TargetPlane,
        sampler: SamplerState,
    },
}

/// Defaults of a new context.
pub const DEFAULT_FOV: f32 = 60.0;
pub const DEFAULT_NEAR: f32 = 0.1;
pub const DEFAULT_FAR: f32 = 200.0;

pub(crate) struct Context {
    pub dev: Option<DevId>,
    pub in_frame: bool,
    /// Target of the open frame.
    pub target: Option<TargetId>,
    /// Target of the last frame (gives the aspect ratio to `camera` outside a frame).
    pub last_target: Option<TargetId>,
    pub program: Option<ProgramId>,
    pub textures: [Option<Sampled>; TEXTURE_UNITS],
    /// Depth test, function, write mask and clear value.
    pub depth: DepthDesc,
    /// Blend, colour mask, scissor, polygon offset, front face and cull (its depth function
    /// is `depth.func`, copied at draw time).
    pub pipe: Pipeline,
    pub viewport: Viewport,
    pub model: Mat4,
    pub view: Mat4,
    pub projection: Mat4,
    /// `Some(aspect)` while the projection is derived from the field of view and planes
    /// (`camera`, `perspective`) with that aspect ratio; `begin` recomputes it when the target's
    /// aspect differs (a camera set before the first frame knew no target). `None` once the
    /// projection was set explicitly.
    pub derived_aspect: Option<f32>,
    pub fov: f32,
    pub near: f32,
    pub far: f32,
}

impl Context {
    pub fn new() -> Context {
        Context {
            dev: None,
            in_frame: false,
            target: None,
            last_target: None,
            program: None,
            textures: [None; TEXTURE_UNITS],
            depth: DepthDesc::DEFAULT,
            pipe: Pipeline::DEFAULT,
            viewport: Viewport {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
            },
            model: Mat4::IDENTITY,
            view: Mat4::IDENTITY,
            projection: Mat4::IDENTITY,
            derived_aspect: None,
            fov: DEFAULT_FOV,
            near: DEFAULT_NEAR,
            far: DEFAULT_FAR,
        }
    }
}
