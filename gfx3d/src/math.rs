//! Column-major matrix helpers laid out exactly as GLSL uniforms (`m[col * 4 + row]`), so a
//! matrix is uploaded without any transpose. Angles are in degrees at the API and converted with
//! full precision (libm), never through a whole-degree table.
//!
//! View convention: yaw 0 looks down -Z, positive yaw turns right (towards +X), positive pitch
//! looks down; right is +X and up is +Y. This module owns no state.

use libm::{cosf, sinf, sqrtf, tanf};

/// A 4x4 matrix, column-major.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat4(pub [f32; 16]);

/// A 3x3 matrix, column-major (`m[col * 3 + row]`), as a GLSL `mat3` uniform takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat3(pub [f32; 9]);

pub type Vec3 = [f32; 3];
pub type Vec4 = [f32; 4];

fn radians(deg: f32) -> f32 {
    deg * (core::f32::consts::PI / 180.0)
}

impl Default for Mat4 {
    fn default() -> Self {
        Mat4::IDENTITY
    }
}

impl Mat4 {
    pub const IDENTITY: Mat4 = Mat4([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ]);

    /// Element at `row`, `col` (0 outside the matrix).
    pub fn at(&self, row: usize, col: usize) -> f32 {
        if row < 4 && col < 4 {
            self.0.get(col * 4 + row).copied().unwrap_or(0.0)
        } else {
            0.0
        }
    }

    fn set(&mut self, row: usize, col: usize, v: f32) {
        if row < 4 && col < 4 {
            if let Some(e) = self.0.get_mut(col * 4 + row) {
                *e = v;
            }
        }
    }

    /// Builds from rows (convenient for writing matrices as on paper).
    pub fn from_rows(r: [[f32; 4]; 4]) -> Mat4 {
        let mut m = Mat4([0.0; 16]);
        for (row, vals) in r.iter().enumerate() {
            for (col, v) in vals.iter().enumerate() {
                m.set(row, col, *v);
            }
        }
        m
    }

    pub fn translation(x: f32, y: f32, z: f32) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        m.0[12] = x;
        m.0[13] = y;
        m.0[14] = z;
        m
    }

    pub fn scale(x: f32, y: f32, z: f32) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        m.0[0] = x;
        m.0[5] = y;
        m.0[10] = z;
        m
    }

    /// Right-handed rotation about +X by `deg` degrees.
    pub fn rotation_x(deg: f32) -> Mat4 {
        let (s, c) = (sinf(radians(deg)), cosf(radians(deg)));
        Mat4::from_rows([
            [1.0, 0.0, 0.0, 0.0],
            [0.0, c, -s, 0.0],
            [0.0, s, c, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// Right-handed rotation about +Y by `deg` degrees.
    pub fn rotation_y(deg: f32) -> Mat4 {
        let (s, c) = (sinf(radians(deg)), cosf(radians(deg)));
        Mat4::from_rows([
            [c, 0.0, s, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [-s, 0.0, c, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// Right-handed rotation about +Z by `deg` degrees.
    pub fn rotation_z(deg: f32) -> Mat4 {
        let (s, c) = (sinf(radians(deg)), cosf(radians(deg)));
        Mat4::from_rows([
            [c, -s, 0.0, 0.0],
            [s, c, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// GL perspective projection. Degenerate inputs are repaired as the old API did: an aspect
    /// below 1e-6 becomes 1, a near plane below 1e-4 becomes 0.1, a far plane not beyond near
    /// becomes near + 1, and a field of view outside (0, 180) becomes 60.
    pub fn perspective(fov_deg: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect >= 1e-6 {
            aspect
        } else {
            1.0
        };
        let near = if near.is_finite() && near >= 1e-4 {
            near
        } else {
            0.1
        };
        let far = if far.is_finite() && far > near {
            far
        } else {
            near + 1.0
        };
        let fov = if fov_deg.is_finite() && fov_deg > 0.0 && fov_deg < 180.0 {
            fov_deg
        } else {
            60.0
        };
        let f = 1.0 / tanf(radians(fov) * 0.5);
        Mat4::from_rows([
            [f / aspect, 0.0, 0.0, 0.0],
            [0.0, f, 0.0, 0.0],
            [
                0.0,
                0.0,
                (far + near) / (near - far),
                2.0 * far * near / (near - far),
            ],
            [0.0, 0.0, -1.0, 0.0],
        ])
    }

    /// GL orthographic projection (glOrtho). Equal planes give identity on that axis.
    pub fn orthographic(left: f32, right: f32, bottom: f32, top: f32, near: f32, far: f32) -> Mat4 {
        let axis = |a: f32, b: f32| {
            if (b - a).abs() < 1e-12 {
                (1.0, 0.0)
            } else {
                (2.0 / (b - a), -(b + a) / (b - a))
            }
        };
        let (sx, tx) = axis(left, right);
        let (sy, ty) = axis(bottom, top);
        let (sz, tz) = if (far - near).abs() < 1e-12 {
            (1.0, 0.0)
        } else {
            (-2.0 / (far - near), -(far + near) / (far - near))
        };
        Mat4::from_rows([
            [sx, 0.0, 0.0, tx],
            [0.0, sy, 0.0, ty],
            [0.0, 0.0, sz, tz],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// View matrix looking from `eye` towards `center` with `up` (gluLookAt). A degenerate
    /// direction gives a pure translation.
    pub fn look_at(eye: Vec3, center: Vec3, up: Vec3) -> Mat4 {
        let f = normalize(sub(center, eye));
        let s = normalize(cross(f, up));
        if length(f) < 0.5 || length(s) < 0.5 {
            return Mat4::translation(-eye[0], -eye[1], -eye[2]);
        }
        let u = cross(s, f);
        Mat4::from_rows([
            [s[0], s[1], s[2], -dot(s, eye)],
            [u[0], u[1], u[2], -dot(u, eye)],
            [-f[0], -f[1], -f[2], dot(f, eye)],
            [0.0, 0.0, 0.0, 1.0],
        ])
    }

    /// First-person camera view: the inverse of (translate to `pos`, turn by yaw, tilt by pitch).
    pub fn camera(pos: Vec3, yaw_deg: f32, pitch_deg: f32) -> Mat4 {
        // The camera's own rotation is yaw about -Y (turning right) then pitch about -X (looking
        // down); its inverse is the transpose, so the view is Rx(pitch) * Ry(yaw) * T(-pos).
        Mat4::rotation_x(pitch_deg)
            .mul(&Mat4::rotation_y(yaw_deg))
            .mul(&Mat4::translation(-pos[0], -pos[1], -pos[2]))
    }

    /// Direction the camera of `camera(pos, yaw, pitch)` looks along (world space).
    pub fn camera_forward(yaw_deg: f32, pitch_deg: f32) -> Vec3 {
        let (sy, cy) = (sinf(radians(yaw_deg)), cosf(radians(yaw_deg)));
        let (sp, cp) = (sinf(radians(pitch_deg)), cosf(radians(pitch_deg)));
        [sy * cp, -sp, -cy * cp]
    }

    /// `self * rhs`.
    pub fn mul(&self, rhs: &Mat4) -> Mat4 {
        let mut out = Mat4([0.0; 16]);
        for col in 0..4 {
            for row in 0..4 {
                let mut acc = 0.0;
                for k in 0..4 {
                    acc += self.at(row, k) * rhs.at(k, col);
                }
                out.set(row, col, acc);
            }
        }
        out
    }

    /// `self * v`.
    pub fn mul_vec4(&self, v: Vec4) -> Vec4 {
        let mut out = [0.0; 4];
        for (row, o) in out.iter_mut().enumerate() {
            *o = self.at(row, 0) * v[0]
                + self.at(row, 1) * v[1]
                + self.at(row, 2) * v[2]
                + self.at(row, 3) * v[3];
        }
        out
    }

    pub fn transpose(&self) -> Mat4 {
        let mut out = Mat4([0.0; 16]);
        for r in 0..4 {
            for c in 0..4 {
                out.set(c, r, self.at(r, c));
            }
        }
        out
    }

    /// Upper-left 3x3.
    pub fn upper3(&self) -> Mat3 {
        let mut m = Mat3([0.0; 9]);
        for c in 0..3 {
            for r in 0..3 {
                m.set(r, c, self.at(r, c));
            }
        }
        m
    }

    /// The normal matrix: inverse-transpose of the upper 3x3. A singular matrix (no inverse)
    /// falls back to the upper 3x3 itself so that lighting degrades instead of producing NaN.
    pub fn normal_matrix(&self) -> Mat3 {
        let a = self.upper3();
        match a.inverse() {
            Some(inv) => inv.transpose(),
            None => a,
        }
    }
}

impl Mat3 {
    pub const IDENTITY: Mat3 = Mat3([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

    pub fn at(&self, row: usize, col: usize) -> f32 {
        if row < 3 && col < 3 {
            self.0.get(col * 3 + row).copied().unwrap_or(0.0)
        } else {
            0.0
        }
    }

    fn set(&mut self, row: usize, col: usize, v: f32) {
        if row < 3 && col < 3 {
            if let Some(e) = self.0.get_mut(col * 3 + row) {
                *e = v;
            }
        }
    }

    pub fn transpose(&self) -> Mat3 {
        let mut out = Mat3([0.0; 9]);
        for r in 0..3 {
            for c in 0..3 {
                out.set(c, r, self.at(r, c));
            }
        }
        out
    }

    pub fn determinant(&self) -> f32 {
        let m = |r, c| self.at(r, c);
        m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1))
            - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0))
            + m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0))
    }

    /// Inverse, or `None` when the determinant is (nearly) zero.
    pub fn inverse(&self) -> Option<Mat3> {
        let det = self.determinant();
        if !det.is_finite() || det.abs() < 1e-12 {
            return None;
        }
        let m = |r, c| self.at(r, c);
        let mut out = Mat3([0.0; 9]);
        for r in 0..3 {
            for c in 0..3 {
                // Cofactor of (c, r) / det gives the inverse's (r, c).
                let (r0, r1) = others(c);
                let (c0, c1) = others(r);
                let minor = m(r0, c0) * m(r1, c1) - m(r0, c1) * m(r1, c0);
                let sign = if (r + c) % 2 == 0 { 1.0 } else { -1.0 };
                out.set(r, c, sign * minor / det);
            }
        }
        Some(out)
    }

    pub fn mul_vec3(&self, v: Vec3) -> Vec3 {
        let mut out = [0.0; 3];
        for (r, o) in out.iter_mut().enumerate() {
            *o = self.at(r, 0) * v[0] + self.at(r, 1) * v[1] + self.at(r, 2) * v[2];
        }
        out
    }
}

fn others(i: usize) -> (usize, usize) {
    match i {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn length(a: Vec3) -> f32 {
    sqrtf(dot(a, a))
}

/// Unit vector, or zero for a (near) zero vector.
pub fn normalize(a: Vec3) -> Vec3 {
    let l = length(a);
    if l > 1e-20 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        [0.0; 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn column_major_translation() {
        let p = Mat4::translation(4.0, -2.0, 1.5).mul_vec4([1.0, 2.0, 3.0, 1.0]);
        assert!(close(&p, &[5.0, 0.0, 4.5, 1.0]));
    }

    #[test]
    fn rotations_are_right_handed() {
        assert!(close(
            &Mat4::rotation_z(90.0).mul_vec4([1.0, 0.0, 0.0, 1.0]),
            &[0.0, 1.0, 0.0, 1.0]
        ));
        assert!(close(
            &Mat4::rotation_x(90.0).mul_vec4([0.0, 1.0, 0.0, 1.0]),
            &[0.0, 0.0, 1.0, 1.0]
        ));
        assert!(close(
            &Mat4::rotation_y(90.0).mul_vec4([0.0, 0.0, 1.0, 1.0]),
            &[1.0, 0.0, 0.0, 1.0]
        ));
    }

    #[test]
    fn camera_yaw_turns_right_and_pitch_looks_down() {
        // A point straight ahead of the camera ends on the view's -Z axis.
        for (yaw, pitch) in [(0.0, 0.0), (90.0, 0.0), (30.0, 20.0), (-45.0, -10.0)] {
            let f = Mat4::camera_forward(yaw, pitch);
            let eye = [1.0, 2.0, 3.0];
            let p = [
                eye[0] + 2.0 * f[0],
                eye[1] + 2.0 * f[1],
                eye[2] + 2.0 * f[2],
                1.0,
            ];
            let v = Mat4::camera(eye, yaw, pitch).mul_vec4(p);
            assert!(
                close(&v, &[0.0, 0.0, -2.0, 1.0]),
                "{:?} {:?}",
                (yaw, pitch),
                v
            );
        }
        assert!(close(&Mat4::camera_forward(90.0, 0.0), &[1.0, 0.0, 0.0]));
        assert!(Mat4::camera_forward(0.0, 30.0)[1] < 0.0);
    }

    #[test]
    fn look_at_matches_camera() {
        let eye = [0.0, 1.5, 5.0];
        let a = Mat4::look_at(eye, [0.0, 1.5, 0.0], [0.0, 1.0, 0.0]);
        let b = Mat4::camera(eye, 0.0, 0.0);
        assert!(close(&a.0, &b.0));
    }

    #[test]
    fn perspective_maps_near_and_far() {
        let p = Mat4::perspective(60.0, 1.0, 0.1, 100.0);
        let n = p.mul_vec4([0.0, 0.0, -0.1, 1.0]);
        let f = p.mul_vec4([0.0, 0.0, -100.0, 1.0]);
        assert!((n[2] / n[3] + 1.0).abs() < 1e-4);
        assert!((f[2] / f[3] - 1.0).abs() < 1e-3);
        // Degenerate inputs are repaired, not propagated.
        let d = Mat4::perspective(0.0, 0.0, 0.0, -1.0);
        assert!(d.0.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn orthographic_maps_box_to_cube() {
        let o = Mat4::orthographic(-2.0, 2.0, -2.0, 2.0, 0.1, 50.0);
        assert!(close(
            &o.mul_vec4([2.0, -2.0, -0.1, 1.0]),
            &[1.0, -1.0, -1.0, 1.0]
        ));
        assert!(close(
            &o.mul_vec4([-2.0, 2.0, -50.0, 1.0]),
            &[-1.0, 1.0, 1.0, 1.0]
        ));
    }

    #[test]
    fn normal_matrix_is_inverse_transpose() {
        let m = Mat4::scale(2.0, 4.0, 8.0).mul(&Mat4::rotation_y(30.0));
        let n = m.normal_matrix();
        // N^T * M3 = I.
        let m3 = m.upper3();
        for r in 0..3 {
            for c in 0..3 {
                let mut acc = 0.0;
                for k in 0..3 {
                    acc += n.at(k, r) * m3.at(k, c);
                }
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((acc - want).abs() < 1e-5);
            }
        }
        // Singular falls back to the upper 3x3.
        let s = Mat4::scale(0.0, 1.0, 1.0);
        assert_eq!(s.normal_matrix(), s.upper3());
    }
}
