//! Procedural meshes and textures for the demo and the differential scenes, in the canonical
//! 40-byte layout (position xyz1, normal xyz0, uv; see `VertexLayout::canonical`). Triangles are
//! counter-clockwise seen from outside (GL front faces). Pure functions: no Gfx3D state.

use alloc::vec::Vec;

use crate::math::{cross, dot, sub, Vec3};

/// Floats per canonical vertex.
pub const CANONICAL_FLOATS: usize = 10;

/// Vertex floats and u16 indices in the canonical layout.
pub struct MeshData {
    pub vertices: Vec<f32>,
    pub indices: Vec<u16>,
}

impl MeshData {
    fn new() -> MeshData {
        MeshData {
            vertices: Vec::new(),
            indices: Vec::new(),
        }
    }

    fn vertex(&mut self, p: Vec3, n: Vec3, uv: [f32; 2]) -> u16 {
        let i = (self.vertices.len() / CANONICAL_FLOATS) as u16;
        self.vertices
            .extend_from_slice(&[p[0], p[1], p[2], 1.0, n[0], n[1], n[2], 0.0, uv[0], uv[1]]);
        i
    }

    /// A quad a, b, c, d (counter-clockwise seen from the front) with one normal.
    fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3, n: Vec3, uv_scale: f32) {
        let i0 = self.vertex(a, n, [0.0, 0.0]);
        let i1 = self.vertex(b, n, [uv_scale, 0.0]);
        let i2 = self.vertex(c, n, [uv_scale, uv_scale]);
        let i3 = self.vertex(d, n, [0.0, uv_scale]);
        self.indices.extend_from_slice(&[i0, i1, i2, i0, i2, i3]);
    }

    pub fn vertex_count(&self) -> usize {
        self.vertices.len() / CANONICAL_FLOATS
    }

    /// Position of vertex `i` (zeros past the end).
    pub fn position(&self, i: usize) -> Vec3 {
        let b = i * CANONICAL_FLOATS;
        match self.vertices.get(b..b + 3) {
            Some(p) => [p[0], p[1], p[2]],
            None => [0.0; 3],
        }
    }

    pub fn normal(&self, i: usize) -> Vec3 {
        let b = i * CANONICAL_FLOATS + 4;
        match self.vertices.get(b..b + 3) {
            Some(p) => [p[0], p[1], p[2]],
            None => [0.0; 3],
        }
    }
}

/// An axis-aligned cube of edge `size` centred at the origin: 24 vertices, 36 indices.
pub fn cube(size: f32) -> MeshData {
    let h = size * 0.5;
    let mut m = MeshData::new();
    // +Z, -Z, +X, -X, +Y, -Y
    m.quad(
        [-h, -h, h],
        [h, -h, h],
        [h, h, h],
        [-h, h, h],
        [0.0, 0.0, 1.0],
        1.0,
    );
    m.quad(
        [h, -h, -h],
        [-h, -h, -h],
        [-h, h, -h],
        [h, h, -h],
        [0.0, 0.0, -1.0],
        1.0,
    );
    m.quad(
        [h, -h, h],
        [h, -h, -h],
        [h, h, -h],
        [h, h, h],
        [1.0, 0.0, 0.0],
        1.0,
    );
    m.quad(
        [-h, -h, -h],
        [-h, -h, h],
        [-h, h, h],
        [-h, h, -h],
        [-1.0, 0.0, 0.0],
        1.0,
    );
    m.quad(
        [-h, h, h],
        [h, h, h],
        [h, h, -h],
        [-h, h, -h],
        [0.0, 1.0, 0.0],
        1.0,
    );
    m.quad(
        [-h, -h, -h],
        [h, -h, -h],
        [h, -h, h],
        [-h, -h, h],
        [0.0, -1.0, 0.0],
        1.0,
    );
    m
}

/// A horizontal square of edge `size` at height `y`, facing up, uv repeated `repeat` times.
pub fn plane(size: f32, y: f32, repeat: f32) -> MeshData {
    let h = size * 0.5;
    let mut m = MeshData::new();
    m.quad(
        [-h, y, h],
        [h, y, h],
        [h, y, -h],
        [-h, y, -h],
        [0.0, 1.0, 0.0],
        repeat,
    );
    m
}

/// A square pyramid (base edge `size`, height `size`) standing on y = 0: 16 vertices, 18 indices.
pub fn pyramid(size: f32) -> MeshData {
    let h = size * 0.5;
    let apex = [0.0, size, 0.0];
    let base = [[-h, 0.0, h], [h, 0.0, h], [h, 0.0, -h], [-h, 0.0, -h]];
    let mut m = MeshData::new();
    for k in 0..4 {
        let a = base[k];
        let b = base[(k + 1) % 4];
        let n = crate::math::normalize(cross(sub(b, a), sub(apex, a)));
        let i0 = m.vertex(a, n, [0.0, 0.0]);
        let i1 = m.vertex(b, n, [1.0, 0.0]);
        let i2 = m.vertex(apex, n, [0.5, 1.0]);
        m.indices.extend_from_slice(&[i0, i1, i2]);
    }
    m.quad(base[3], base[2], base[1], base[0], [0.0, -1.0, 0.0], 1.0);
    m
}

/// A `w` x `h` checkerboard of `cell`-texel squares alternating `a` and `b` (0xAARRGGBB).
pub fn checker(w: u32, h: u32, cell: u32, a: u32, b: u32) -> Vec<u32> {
    let cell = cell.max(1);
    let mut v = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h {
        for x in 0..w {
            v.push(if ((x / cell) + (y / cell)).is_multiple_of(2) {
                a
            } else {
                b
            });
        }
    }
    v
}

/// True when every triangle winds counter-clockwise around its vertices' normal (seen from
/// where the normal points).
pub fn front_faces_agree(m: &MeshData) -> bool {
    m.indices.chunks(3).all(|t| {
        let (a, b, c) = (t[0] as usize, t[1] as usize, t[2] as usize);
        let face = cross(
            sub(m.position(b), m.position(a)),
            sub(m.position(c), m.position(a)),
        );
        dot(face, m.normal(a)) > 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_wind_counter_clockwise_outward() {
        for (m, v, i) in [
            (cube(1.0), 24, 36),
            (plane(4.0, -1.0, 4.0), 4, 6),
            (pyramid(1.0), 16, 18),
        ] {
            assert_eq!((m.vertex_count(), m.indices.len()), (v, i));
            assert!(front_faces_agree(&m));
            assert!(m.indices.iter().all(|&x| (x as usize) < v));
        }
        // Cube normals point away from the centre.
        let c = cube(2.0);
        for i in 0..c.vertex_count() {
            assert!(dot(c.position(i), c.normal(i)) > 0.0);
        }
    }

    #[test]
    fn checker_alternates() {
        let t = checker(4, 2, 2, 1, 2);
        assert_eq!(t, [1, 1, 2, 2, 1, 1, 2, 2]);
    }
}
