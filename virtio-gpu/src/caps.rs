//! Host capability parsing: the VIRGL (v1) and VIRGL2 (v2) capset blobs.
//!
//! Owns: `HostCaps`, what Gfx3D needs from the capsets (max texture size, GLSL level, format
//! support bits, LINK_SHADER support), parsed from untrusted bytes.
//! Must never: read outside the blob or assume a field exists in a short blob.
use crate::proto::rd32;
use crate::protocol::{CAPSET_VIRGL, CAPSET_VIRGL2, LINK_SHADER_MIN_FEATURE_VERSION};

// Byte offsets in `struct virgl_caps_v1` / `virgl_caps_v2` (virgl_hw.h).
const OFF_MAX_VERSION: usize = 0;
const OFF_SAMPLER_MASK: usize = 4;
const OFF_RENDER_MASK: usize = 68;
const OFF_DEPTHSTENCIL_MASK: usize = 132;
const OFF_VERTEXBUFFER_MASK: usize = 196;
const OFF_GLSL_LEVEL: usize = 264;
const OFF_MAX_RENDER_TARGETS: usize = 280;
/// Size of the v1 structure: a VIRGL capset must be at least this long.
pub const CAPS_V1_SIZE: usize = 308;
const OFF_MAX_VERTEX_ATTRIBS: usize = 356;
const OFF_CAPABILITY_BITS: usize = 392;
const OFF_MAX_TEXTURE_2D_SIZE: usize = 484;
const OFF_HOST_FEATURE_CHECK_VERSION: usize = 556;
const OFF_CAPABILITY_BITS_V2: usize = 688;
/// The v2 fields this driver reads end here.
pub const CAPS_V2_MIN_SIZE: usize = 692;

/// Max texture size assumed from a v1 capset, which does not carry one (the GL 3.0 minimum).
pub const V1_DEFAULT_MAX_TEXTURE_SIZE: u32 = 2048;

/// A 512-bit format support mask (one bit per VirGL format number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatMask(pub [u32; 16]);

impl FormatMask {
    pub fn supports(&self, format: u32) -> bool {
        let word = (format / 32) as usize;
        match self.0.get(word) {
            Some(w) => w & (1 << (format % 32)) != 0,
            None => false,
        }
    }
    fn read(blob: &[u8], at: usize) -> Option<Self> {
        let mut m = [0u32; 16];
        for (i, w) in m.iter_mut().enumerate() {
            *w = rd32(blob, at + i * 4)?;
        }
        Some(FormatMask(m))
    }
}

/// What the driver keeps from the host capsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HostCaps {
    /// 1 (VIRGL) or 2 (VIRGL2).
    pub capset_id: u32,
    pub capset_version: u32,
    pub glsl_level: u32,
    pub max_texture_2d_size: u32,
    pub max_render_targets: u32,
    pub max_vertex_attribs: u32,
    pub sampler_formats: FormatMask,
    pub render_formats: FormatMask,
    pub depth_formats: FormatMask,
    pub vertex_formats: FormatMask,
    pub capability_bits: u32,
    pub capability_bits_v2: u32,
    pub host_feature_check_version: u32,
    /// The host accepts LINK_SHADER (VIRGL2 with feature version >= 7).
    pub supports_link_shader: bool,
}

impl HostCaps {
    /// Parses a capset blob of the given id. `None` if the blob is too short for its id or the id
    /// is not a VirGL capset.
    pub fn parse(capset_id: u32, version: u32, blob: &[u8]) -> Option<HostCaps> {
        if capset_id != CAPSET_VIRGL && capset_id != CAPSET_VIRGL2 {
            return None;
        }
        if blob.len() < CAPS_V1_SIZE {
            return None;
        }
        let _max_version = rd32(blob, OFF_MAX_VERSION)?;
        let mut caps = HostCaps {
            capset_id,
            capset_version: version,
            glsl_level: rd32(blob, OFF_GLSL_LEVEL)?,
            max_texture_2d_size: V1_DEFAULT_MAX_TEXTURE_SIZE,
            max_render_targets: rd32(blob, OFF_MAX_RENDER_TARGETS)?,
            max_vertex_attribs: 16,
            sampler_formats: FormatMask::read(blob, OFF_SAMPLER_MASK)?,
            render_formats: FormatMask::read(blob, OFF_RENDER_MASK)?,
            depth_formats: FormatMask::read(blob, OFF_DEPTHSTENCIL_MASK)?,
            vertex_formats: FormatMask::read(blob, OFF_VERTEXBUFFER_MASK)?,
            ..HostCaps::default()
        };
        if capset_id == CAPSET_VIRGL2 {
            if blob.len() < CAPS_V2_MIN_SIZE {
                return None;
            }
            let tex = rd32(blob, OFF_MAX_TEXTURE_2D_SIZE)?;
            if tex != 0 {
                caps.max_texture_2d_size = tex;
            }
            caps.max_vertex_attribs = rd32(blob, OFF_MAX_VERTEX_ATTRIBS)?;
            caps.capability_bits = rd32(blob, OFF_CAPABILITY_BITS)?;
            caps.host_feature_check_version = rd32(blob, OFF_HOST_FEATURE_CHECK_VERSION)?;
            caps.capability_bits_v2 = rd32(blob, OFF_CAPABILITY_BITS_V2)?;
            caps.supports_link_shader =
                caps.host_feature_check_version >= LINK_SHADER_MIN_FEATURE_VERSION;
        }
        Some(caps)
    }

    /// Preference between two parsed capsets: VIRGL2 wins over VIRGL.
    pub fn better(a: Option<HostCaps>, b: HostCaps) -> HostCaps {
        match a {
            Some(a) if a.capset_id >= b.capset_id => a,
            _ => b,
        }
    }
}
