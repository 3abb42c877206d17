//! Self-tests shared by the host (`cargo test`) and the in-guest runner (kernel `selftest` mode).
//!
//! Convention (same in every library crate): `TESTS` lists `(name, function)`; a function returns
//! `true` on success, or writes its failure reason to the writer and returns `false`. Names are
//! prefixed with the crate (`shader::`, `virtio_gpu::`, `gfx3d::`) so `filter=PREFIX` selects them.
//! Tests here are pure, deterministic and quick (no device, no shader compiler).
use alloc::string::String;
use core::fmt::Write;

use crate::device::DeviceError;
use crate::error::{Error, LayoutError, ObjectKind};
use crate::handle::{next_generation, pack, unpack, MeshId, Table};
use crate::layout::{Element, VertexLayout};
use crate::math::Mat4;
use crate::mesh::Usage;
use crate::program::*;
use crate::stats::BackendMode;
use crate::Gfx3d;

pub type SelfTest = (&'static str, fn(&mut dyn Write) -> bool);

pub static TESTS: &[SelfTest] = &[
    ("gfx3d::handle_format", handle_format),
    (
        "gfx3d::table_generations_and_owners",
        table_generations_and_owners,
    ),
    ("gfx3d::layout_validation", layout_validation),
    (
        "gfx3d::math_rotations_and_projection",
        math_rotations_and_projection,
    ),
    ("gfx3d::math_normal_matrix", math_normal_matrix),
    ("gfx3d::clear_color_packing", clear_color_packing),
    ("gfx3d::mock_sequence_and_owners", mock_sequence_and_owners),
    (
        "gfx3d::forced_virgl_without_device",
        forced_virgl_without_device,
    ),
    (
        "gfx3d::drop_owner_empties_tables",
        drop_owner_empties_tables,
    ),
    (
        "gfx3d::software_matrix_agreement",
        software_matrix_agreement,
    ),
    ("gfx3d::software_scenes", software_scenes),
    ("gfx3d::device_lost_policy", device_lost_policy),
];

macro_rules! check {
    ($w:expr, $cond:expr, $($arg:tt)*) => {
        if !$cond {
            let _ = write!($w, $($arg)*);
            return false;
        }
    };
}

fn handle_format(w: &mut dyn Write) -> bool {
    let h = pack(1, 0).map(|r| r.get());
    check!(
        w,
        h == Some(0x0001_0001),
        "first handle of slot 0 is {:?}",
        h
    );
    let r = pack(0xFFFF, 4);
    check!(
        w,
        r.map(unpack) == Some((0xFFFF, 4)),
        "pack/unpack round trip failed"
    );
    check!(
        w,
        pack(1, 0xFFFF).is_none(),
        "slot 65535 does not fit the low 16 bits"
    );
    check!(
        w,
        next_generation(0xFFFF) == 1 && next_generation(0) == 1,
        "generation must skip 0"
    );
    true
}

fn table_generations_and_owners(w: &mut dyn Write) -> bool {
    let mut t: Table<MeshId, u8> = Table::new(3);
    let (Ok(a), Ok(_b)) = (t.insert(1, 1), t.insert(1, 2)) else {
        let _ = write!(w, "insert failed");
        return false;
    };
    check!(
        w,
        t.insert(1, 3)
            == Err(Error::TableFull {
                kind: ObjectKind::Mesh,
                capacity: 3,
                reserved: 1
            }),
        "the kernel's reserved slot was given to owner 1"
    );
    check!(
        w,
        t.insert(crate::handle::OWNER_KERNEL, 3).is_ok(),
        "the kernel could not use its reserved slot"
    );
    check!(
        w,
        t.get(2, a)
            == Err(Error::StaleHandle {
                kind: ObjectKind::Mesh
            }),
        "a foreign handle must be answered as a stale one"
    );
    check!(w, t.remove(1, a).is_ok(), "remove failed");
    let c = t.insert(1, 4);
    check!(
        w,
        c.as_ref().is_ok_and(|c| *c != a),
        "recreated handle must differ"
    );
    check!(
        w,
        matches!(t.get(1, a), Err(Error::StaleHandle { .. })),
        "stale handle accepted"
    );
    true
}

fn layout_validation(w: &mut dyn Write) -> bool {
    let el = |location, components, offset| Element {
        location,
        components,
        offset,
    };
    check!(
        w,
        VertexLayout::canonical().validate().is_ok(),
        "canonical layout rejected"
    );
    let cases: [(u32, &[Element], LayoutError); 4] = [
        (
            12,
            &[el(0, 4, 0)],
            LayoutError::OutsideStride {
                element: 0,
                end: 16,
                stride: 12,
            },
        ),
        (
            32,
            &[el(1, 4, 0), el(1, 4, 16)],
            LayoutError::DuplicateLocation { location: 1 },
        ),
        (
            32,
            &[el(8, 1, 0)],
            LayoutError::Location {
                element: 0,
                location: 8,
            },
        ),
        (
            32,
            &[el(0, 0, 0)],
            LayoutError::Components {
                element: 0,
                components: 0,
            },
        ),
    ];
    for (stride, els, want) in cases {
        let got = VertexLayout::new(stride, els).and_then(|l| l.validate());
        check!(
            w,
            got == Err(want),
            "layout {:?}: got {:?}, want {:?}",
            els,
            got,
            want
        );
    }
    true
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

fn math_rotations_and_projection(w: &mut dyn Write) -> bool {
    let z = Mat4::rotation_z(90.0).mul_vec4([1.0, 0.0, 0.0, 1.0]);
    check!(w, close(&z, &[0.0, 1.0, 0.0, 1.0]), "Rz(90) x = {:?}", z);
    let t = Mat4::translation(4.0, -2.0, 1.5).mul_vec4([1.0, 2.0, 3.0, 1.0]);
    check!(w, close(&t, &[5.0, 0.0, 4.5, 1.0]), "translation {:?}", t);
    let p = Mat4::perspective(60.0, 1.0, 0.1, 100.0).mul_vec4([0.0, 0.0, -0.1, 1.0]);
    check!(
        w,
        (p[2] / p[3] + 1.0).abs() < 1e-4,
        "near plane maps to {:?}",
        p
    );
    let v = Mat4::camera([0.0, 1.5, 5.0], 0.0, 0.0).mul_vec4([0.0, 1.5, 0.0, 1.0]);
    check!(w, close(&v, &[0.0, 0.0, -5.0, 1.0]), "camera {:?}", v);
    true
}

fn math_normal_matrix(w: &mut dyn Write) -> bool {
    let m = Mat4::scale(2.0, 1.0, 1.0);
    let n = m.normal_matrix();
    check!(
        w,
        close(&n.0, &[0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
        "normal matrix {:?}",
        n
    );
    true
}

fn clear_color_packing(w: &mut dyn Write) -> bool {
    let c = crate::pack_color([2.0, -1.0, 0.5, 1.0]);
    check!(w, c == 0xFFFF_0080, "packed {:08x}", c);
    true
}

/// A program that reads location 0 only and draws nothing.
struct NullProgram;

impl ShaderProgram for NullProgram {
    fn is_linked(&self) -> bool {
        true
    }
    fn generation(&self) -> u32 {
        1
    }
    fn attributes(&self) -> Attributes {
        let mut a = Attributes::new();
        let _ = a.push(AttributeReq {
            location: 0,
            components: 4,
        });
        a
    }
    fn has_uniform(&self, _: &str) -> bool {
        false
    }
    fn set_uniform(&mut self, _: &str, _: &[f32]) -> Result<(), UniformError> {
        Err(UniformError::NoSuchUniform)
    }
    fn draw_software(
        &mut self,
        _: &SoftDraw<'_>,
        _: &mut SoftTarget<'_>,
    ) -> Result<u32, &'static str> {
        Ok(0)
    }
    fn tgsi(&self, _: Stage, _: &mut String) -> Result<u32, &'static str> {
        Err("no tgsi")
    }
    fn constants(&self, _: Stage) -> &[f32] {
        &[]
    }
    fn sampler_units(&self) -> u16 {
        0
    }
}

fn mock_sequence_and_owners(w: &mut dyn Write) -> bool {
    let mut g: Gfx3d<NullProgram> = Gfx3d::new();
    let run = |g: &mut Gfx3d<NullProgram>| -> crate::Result<()> {
        g.boot(BackendMode::Mock, None)?;
        let c = g.context_create(1)?;
        let t = g.target_create(1, c, 16, 16)?;
        let m = g.mesh_create(1, Usage::Static)?;
        let l = VertexLayout::new(
            16,
            &[Element {
                location: 0,
                components: 4,
                offset: 0,
            }],
        )?;
        g.mesh_upload_f32(1, m, &l, &[0.0; 12], None)?;
        let p = g.prog_prepare(1, c, NullProgram)?;
        g.begin(1, c, t)?;
        g.clear(1, c, [0.0, 1.0, 0.0, 1.0], true)?;
        g.use_program(1, c, p)?;
        g.draw(1, c, m)?;
        g.end(1, c)?;
        if !matches!(g.mesh_destroy(2, m), Err(Error::StaleHandle { .. })) {
            return Err(Error::NoFrame);
        }
        Ok(())
    };
    let r = run(&mut g);
    check!(w, r.is_ok(), "mock frame failed: {:?}", r);
    check!(
        w,
        g.mock_log() == "begin\nclear\nuse\ndraw\nend\n",
        "mock log {:?}",
        g.mock_log()
    );
    true
}

fn forced_virgl_without_device(w: &mut dyn Write) -> bool {
    let mut g: Gfx3d<NullProgram> = Gfx3d::new();
    check!(
        w,
        g.boot(BackendMode::Virgl, None) == Err(Error::VirglUnavailable),
        "boot must fail"
    );
    check!(
        w,
        g.backend_name() == "virgl-lost",
        "name {}",
        g.backend_name()
    );
    let r = g
        .context_create(0)
        .and_then(|c| g.target_create(0, c, 2, 2).map(|t| (c, t)));
    let Ok((c, t)) = r else {
        let _ = write!(w, "objects must still be creatable: {:?}", r);
        return false;
    };
    check!(
        w,
        g.begin(0, c, t) == Err(Error::ForcedVirglUnavailable),
        "begin must refuse"
    );
    true
}

fn drop_owner_empties_tables(w: &mut dyn Write) -> bool {
    let mut g: Gfx3d<NullProgram> = Gfx3d::new();
    let r = (|| -> crate::Result<()> {
        let c = g.context_create(5)?;
        g.target_create(5, c, 8, 8)?;
        g.mesh_create(5, Usage::Dynamic)?;
        g.tex_solid(5, 0x8000_00FF)?;
        g.prog_prepare(5, c, NullProgram)?;
        Ok(())
    })();
    check!(w, r.is_ok(), "setup failed: {:?}", r);
    g.drop_owner(5);
    let s = g.stats();
    check!(
        w,
        (
            s.live_ctx,
            s.live_target,
            s.live_mesh,
            s.live_tex,
            s.live_prog
        ) == (0, 0, 0, 0, 0),
        "live counts after drop_owner: {:?}",
        s
    );
    true
}

/// CPU matrices against the compiled mvp shader run by the software executor (to 0.002).
fn software_matrix_agreement(w: &mut dyn Write) -> bool {
    use crate::glsl::{MVP_VERT, TRI_FRAG};
    use crate::linked::Linked;
    let mut g: Gfx3d = Gfx3d::new();
    let prog = match Linked::from_glsl(g.compiler(), MVP_VERT, TRI_FRAG, "mvp") {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(w, "{}", e);
            return false;
        }
    };
    let Ok((c, p)) = g
        .context_create(0)
        .and_then(|c| g.prog_prepare(0, c, prog).map(|p| (c, p)))
    else {
        let _ = write!(w, "setup failed");
        return false;
    };
    let i = Mat4::IDENTITY;
    let cases = [
        (Mat4::rotation_x(90.0), i, i, [0.2, 1.0, 0.0]),
        (Mat4::translation(4.0, -2.0, 1.5), i, i, [1.0, 2.0, 3.0]),
        (
            i,
            Mat4::camera([0.0, 0.0, 0.0], 90.0, 0.0),
            i,
            [1.0, 0.0, -2.0],
        ),
        (
            Mat4::translation(0.0, 0.0, -5.0),
            i,
            Mat4::perspective(60.0, 1.0, 0.1, 100.0),
            [0.0, 0.0, 0.0],
        ),
        (
            i,
            i,
            Mat4::orthographic(-2.0, 2.0, -2.0, 2.0, 0.1, 50.0),
            [1.0, -1.0, -2.0],
        ),
    ];
    for (model, view, proj, pt) in cases {
        let set = g
            .set_model(0, c, &model)
            .and(g.set_view(0, c, &view))
            .and(g.set_projection(0, c, &proj));
        check!(
            w,
            set.and(g.use_program(0, c, p)).is_ok(),
            "matrix setup failed"
        );
        let want = proj
            .mul(&view)
            .mul(&model)
            .mul_vec4([pt[0], pt[1], pt[2], 1.0]);
        let got = match g
            .program(0, p)
            .map(|l| shader::back::raster::soft_vs(l.program(), &[pt[0], pt[1], pt[2], 1.0]))
        {
            Ok(Ok(r)) => r.position,
            _ => {
                let _ = write!(w, "soft_vs failed");
                return false;
            }
        };
        check!(
            w,
            (0..4).all(|k| (got[k] - want[k]).abs() <= 0.002),
            "shader {:?} cpu {:?}",
            got,
            want
        );
    }
    true
}

/// Every differential scene on the software backend, with a few pixel predicates.
fn software_scenes(w: &mut dyn Write) -> bool {
    use crate::scenes::{run, SCENES, SCENE_WIDTH};
    let mut g: Gfx3d = Gfx3d::new();
    for (name, _) in SCENES {
        let px = match run(&mut g, 3, name) {
            Ok(p) => p,
            Err(e) => {
                let _ = write!(w, "{}: {}", name, e);
                return false;
            }
        };
        let at = |x: u32, y: u32| px.get((y * SCENE_WIDTH + x) as usize).copied().unwrap_or(0);
        let ok = match *name {
            "clear" => px.iter().all(|&p| p == 0xFF33_6699),
            "triangle" => at(32, 40) == 0xFFFF_0000 && at(2, 2) == 0xFF00_00FF,
            "viewport" => {
                at(8, 24) == 0xFFFF_0000 && at(7, 30) == 0xFF00_00FF && at(20, 48) == 0xFF00_00FF
            }
            "two_texture_units" => at(32, 32) == 0xFFFF_FF00,
            _ => px.first().is_some_and(|f| px.iter().any(|p| p != f)),
        };
        check!(w, ok, "scene {} rendered wrongly", name);
    }
    let s = g.stats();
    check!(
        w,
        s.live_ctx == 0 && s.live_mesh == 0,
        "scenes leaked objects"
    );
    true
}

/// A device that reports itself available and then fails every call.
struct DeadDevice;

impl crate::device::Device for DeadDevice {
    fn available(&self) -> bool {
        true
    }
    fn context_create(&mut self) -> Result<u32, DeviceError> {
        Err(DeviceError("dead"))
    }
    fn context_destroy(&mut self, _: u32) {}
    fn target_create(&mut self, _: u32, _: u32, _: u32) -> Result<u32, DeviceError> {
        Err(DeviceError("dead"))
    }
    fn target_destroy(&mut self, _: u32, _: u32) {}
    fn buffer_create(
        &mut self,
        _: u32,
        _: crate::device::BufferKind,
        _: &[u8],
    ) -> Result<u32, DeviceError> {
        Err(DeviceError("dead"))
    }
    fn buffer_destroy(&mut self, _: u32, _: u32) {}
    fn texture_create(
        &mut self,
        _: u32,
        _: u32,
        _: u32,
        _: &[u32],
        _: crate::SamplerState,
    ) -> Result<u32, DeviceError> {
        Err(DeviceError("dead"))
    }
    fn texture_destroy(&mut self, _: u32, _: u32) {}
    fn program_create(
        &mut self,
        _: u32,
        _: crate::device::ShaderText<'_>,
        _: crate::device::ShaderText<'_>,
    ) -> Result<u32, DeviceError> {
        Err(DeviceError("dead"))
    }
    fn program_destroy(&mut self, _: u32, _: u32) {}
    fn frame_begin(&mut self, _: u32) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn clear(&mut self, _: u32, _: u32, _: [f32; 4], _: bool) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn draw(&mut self, _: u32, _: &crate::device::DevDraw<'_>) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn frame_end(&mut self, _: u32) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn read_target(&mut self, _: u32, _: u32, _: &mut [u32]) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn present(&mut self, _: u32, _: u32) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn scanout_primary(&mut self) -> Result<(), DeviceError> {
        Err(DeviceError("dead"))
    }
    fn counters(&self) -> crate::device::DeviceCounters {
        crate::device::DeviceCounters::default()
    }
}

/// AUTO degrades to software and keeps working; forced VirGL reports and refuses frames.
fn device_lost_policy(w: &mut dyn Write) -> bool {
    let mut g: Gfx3d<NullProgram> = Gfx3d::new();
    check!(
        w,
        g.boot(BackendMode::Auto, Some(alloc::boxed::Box::new(DeadDevice)))
            .is_ok(),
        "auto boot"
    );
    check!(
        w,
        g.backend_name() == "virgl",
        "auto picks an available device"
    );
    let r = g
        .context_create(0)
        .and_then(|c| g.target_create(0, c, 4, 4).map(|t| (c, t)));
    let Ok((c, t)) = r else {
        let _ = write!(w, "auto must keep the objects: {:?}", r);
        return false;
    };
    check!(
        w,
        g.backend_name() == "software" && g.stats().degraded,
        "auto must degrade"
    );
    check!(
        w,
        g.begin(0, c, t)
            .and(g.clear(0, c, [1.0, 0.0, 0.0, 1.0], true))
            .and(g.end(0, c))
            .is_ok(),
        "frame after degrade"
    );
    let mut px = [0u32; 16];
    check!(
        w,
        g.target_read(0, t, &mut px).is_ok() && px[0] == 0xFFFF_0000,
        "software pixels after degrade"
    );
    let mut f: Gfx3d<NullProgram> = Gfx3d::new();
    check!(
        w,
        f.boot(BackendMode::Virgl, Some(alloc::boxed::Box::new(DeadDevice)))
            .is_ok(),
        "forced boot"
    );
    check!(
        w,
        matches!(f.context_create(0), Err(Error::Device { .. })),
        "forced must report"
    );
    check!(
        w,
        f.backend_name() == "virgl-lost" && !f.stats().degraded,
        "forced keeps its selection"
    );
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn all_selftests_pass() {
        let mut failures = std::string::String::new();
        for (name, run) in super::TESTS {
            let mut reason = std::string::String::new();
            if !run(&mut reason) {
                failures.push_str(&std::format!("{}: {}\n", name, reason));
            }
        }
        assert!(failures.is_empty(), "{}", failures);
    }
}
