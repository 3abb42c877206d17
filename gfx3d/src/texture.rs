//! Texture objects: CPU texels (0xAARRGGBB, row 0 first, alpha preserved) and the sampler state,
//! plus per-device-context residency. This module must never talk to a device itself.

use alloc::vec::Vec;

use crate::device::DevId;

/// Texel filtering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Filter {
    #[default]
    Nearest,
    Linear,
}

/// Texture-coordinate wrapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Wrap {
    /// GL's default.
    #[default]
    Repeat,
    ClampToEdge,
}

/// How a texture is sampled. The default is GL's: nearest filtering, repeat wrap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SamplerState {
    pub filter: Filter,
    pub wrap: Wrap,
}

pub(crate) struct Texture {
    pub width: u32,
    pub height: u32,
    pub texels: Vec<u32>,
    pub sampler: SamplerState,
    /// Device texture per device context that drew with it: (device context, device texture).
    pub resident: Vec<(DevId, DevId)>,
}
