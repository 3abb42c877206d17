//! Per-context pipeline state of the Gfx3D API: blending, depth (test, compare function, write
//! mask, clear value), the colour write mask, scissor, polygon offset, front face and culling.
//! The enums are the rasterizer's (`shader::back::raster::state`), re-exported here, with GL's enum
//! values for callers that hold raw numbers (`from_gl`). Validation of what a typed value can
//! still get wrong (non-finite floats, scissor rectangles) lives here too.
//!
//! This module must never talk to a device or hold Gfx3D state.

pub use shader::back::raster::state::{
    Blend, BlendComponent, BlendFactor, BlendOp, ColorMask, CompareFunc, CullFace, FrontFace,
    Pipeline, Scissor,
};

use crate::error::{Error, Result};
use crate::limits::VIEWPORT_MAX;

/// Depth state of a context. The default is today's behaviour: test on, LESS, writes on,
/// clears to 1.0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthDesc {
    /// Test (and, with `write`, write) depth; off: neither.
    pub test: bool,
    pub func: CompareFunc,
    pub write: bool,
    /// Value `clear` writes into the depth buffer, in [0, 1].
    pub clear: f32,
}

impl DepthDesc {
    pub const DEFAULT: DepthDesc = DepthDesc {
        test: true,
        func: CompareFunc::Less,
        write: true,
        clear: 1.0,
    };
}

impl Default for DepthDesc {
    fn default() -> Self {
        DepthDesc::DEFAULT
    }
}

pub(crate) fn check_blend(b: &Option<Blend>) -> Result<()> {
    if let Some(b) = b {
        if b.constant.iter().any(|v| !v.is_finite()) {
            return Err(Error::BadState {
                what: "blend constant colour must be finite",
            });
        }
    }
    Ok(())
}

pub(crate) fn check_depth(d: &DepthDesc) -> Result<()> {
    if !(0.0..=1.0).contains(&d.clear) {
        return Err(Error::BadState {
            what: "depth clear value must be in [0, 1]",
        });
    }
    Ok(())
}

pub(crate) fn check_scissor(s: &Option<Scissor>) -> Result<()> {
    if let Some(s) = s {
        let far = |v: i32| v.unsigned_abs() > VIEWPORT_MAX;
        if s.width > VIEWPORT_MAX || s.height > VIEWPORT_MAX || far(s.x) || far(s.y) {
            return Err(Error::BadState {
                what: "scissor width and height must be 0..=8192 and |x|, |y| at most 8192",
            });
        }
    }
    Ok(())
}

pub(crate) fn check_offset(factor: f32, units: f32) -> Result<()> {
    if !factor.is_finite() || !units.is_finite() {
        return Err(Error::BadState {
            what: "polygon offset factor and units must be finite",
        });
    }
    Ok(())
}

/// Decodes GL enum numbers into a blend component (an unknown number is an error).
pub fn blend_component_from_gl(src: u32, dst: u32, op: u32) -> Result<BlendComponent> {
    let f = |v: u32| {
        BlendFactor::from_gl(v).ok_or(Error::BadEnum {
            what: "blend factor",
            value: v,
        })
    };
    Ok(BlendComponent {
        src: f(src)?,
        dst: f(dst)?,
        op: BlendOp::from_gl(op).ok_or(Error::BadEnum {
            what: "blend equation",
            value: op,
        })?,
    })
}

/// Decodes a GL compare function number (GL_NEVER..GL_ALWAYS).
pub fn compare_from_gl(v: u32) -> Result<CompareFunc> {
    CompareFunc::from_gl(v).ok_or(Error::BadEnum {
        what: "depth function",
        value: v,
    })
}

/// Decodes GL_CCW / GL_CW.
pub fn front_face_from_gl(v: u32) -> Result<FrontFace> {
    match v {
        0x0901 => Ok(FrontFace::Ccw),
        0x0900 => Ok(FrontFace::Cw),
        _ => Err(Error::BadEnum {
            what: "front face",
            value: v,
        }),
    }
}

/// Decodes GL_FRONT / GL_BACK / GL_FRONT_AND_BACK (0 = culling off).
pub fn cull_face_from_gl(v: u32) -> Result<CullFace> {
    match v {
        0 => Ok(CullFace::None),
        0x0404 => Ok(CullFace::Front),
        0x0405 => Ok(CullFace::Back),
        0x0408 => Ok(CullFace::FrontAndBack),
        _ => Err(Error::BadEnum {
            what: "cull face",
            value: v,
        }),
    }
}

/// Primitive kinds a mesh can be drawn as. Only triangles are drawn (by both backends);
/// lines and points are refused with `Error::PrimitiveUnsupported`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    Triangles,
    Lines,
    Points,
}

/// Decodes GL_POINTS (0), GL_LINES (1) and GL_TRIANGLES (4); other numbers are errors.
pub fn primitive_from_gl(v: u32) -> Result<Primitive> {
    match v {
        0 => Ok(Primitive::Points),
        1 => Ok(Primitive::Lines),
        4 => Ok(Primitive::Triangles),
        _ => Err(Error::BadEnum {
            what: "primitive",
            value: v,
        }),
    }
}
