//! Mesh objects: usage hint, uploaded vertex bytes + layout + optional u16 indices, the
//! incremental builder's accumulator, and per-device-context residency.
//! This module must never talk to a device itself.

use alloc::vec::Vec;

use crate::device::DevId;
use crate::layout::VertexLayout;

/// Upload-frequency hint. Unknown numeric values normalise to `Static`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Usage {
    #[default]
    Static,
    Dynamic,
    Stream,
}

impl Usage {
    /// 0 = static, 1 = dynamic, 2 = stream; anything else is static.
    pub fn from_u32(v: u32) -> Usage {
        match v {
            1 => Usage::Dynamic,
            2 => Usage::Stream,
            _ => Usage::Static,
        }
    }
}

pub(crate) struct MeshData {
    pub layout: VertexLayout,
    /// Vertex floats (layouts are float-aligned, so bytes are kept as f32).
    pub vertices: Vec<f32>,
    pub vertex_count: usize,
    pub indices: Option<Vec<u16>>,
    /// Largest index used (for the device's index range).
    pub max_index: u16,
}

impl MeshData {
    /// Triangles a draw produces.
    pub fn triangles(&self) -> usize {
        match &self.indices {
            Some(ix) => ix.len() / 3,
            None => self.vertex_count / 3,
        }
    }

    pub fn bytes(&self) -> usize {
        self.vertices.len() * 4 + self.indices.as_ref().map_or(0, |ix| ix.len() * 2)
    }
}

/// Buffers of one mesh on one device context.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeshResidency {
    pub dev_ctx: DevId,
    pub vbo: DevId,
    pub ibo: Option<DevId>,
}

pub(crate) struct Mesh {
    pub usage: Usage,
    pub data: Option<MeshData>,
    /// Builder vertices: position xyz, normal xyz, uv.
    pub builder: Vec<[f32; 8]>,
    pub resident: Vec<MeshResidency>,
}
