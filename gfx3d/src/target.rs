//! Render-target objects: CPU colour (0xAARRGGBB, row 0 = top) and float depth always, and the
//! device target under VirGL. This module must never talk to a device itself.

use alloc::vec::Vec;

use crate::device::DevId;
use crate::error::{Error, Result};
use crate::handle::ContextId;
use crate::limits::{TARGET_HEIGHT_MAX, TARGET_WIDTH_MAX};

/// Which buffer of a render target a draw samples as a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetPlane {
    /// The colour: texels as a texture's (0xAARRGGBB, alpha kept).
    Color,
    /// The float depth (for shadow maps): a `sampler2D` reads (d, d, d, 1) with d the window
    /// depth in [0, 1] at float precision.
    Depth,
}

pub(crate) struct Target {
    pub ctx: ContextId,
    pub width: u32,
    pub height: u32,
    pub color: Vec<u32>,
    pub depth: Vec<f32>,
    /// Device colour + depth on the owning context's device context.
    pub dev: Option<DevId>,
}

pub(crate) fn check_size(width: u32, height: u32) -> Result<usize> {
    if width == 0 || height == 0 || width > TARGET_WIDTH_MAX || height > TARGET_HEIGHT_MAX {
        return Err(Error::BadTargetSize { width, height });
    }
    Ok(width as usize * height as usize)
}

/// A vector of `n` copies of `v`, or `OutOfMemory` instead of an abort.
pub(crate) fn filled<T: Clone>(n: usize, v: T) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        bytes: n.saturating_mul(core::mem::size_of::<T>()),
    })?;
    out.resize(n, v);
    Ok(out)
}
