//! The multi-pass scene files of the differential corpus (`tools/shc/tests/diff/mp_*.json`,
//! which `shc render` matches with Mesa) drawn through Gfx3D: every pass into its own target
//! (`target_create_format`), sampled by the later ones with `bind_target_texture` (colour or
//! depth, compare mode, generated mips), by the software backend and by VirGL through vtest
//! (virgl_test_server); the two pictures agree (`gfx3d::compare`: at most 1% of the pixels
//! differ, only along edges). This maps the `scene` crate's model onto Gfx3D for the state the
//! mp_ scenes use (depth, polygon offset, pass textures); `gfx3d::compat` (the guest's reader)
//! does not read passes.
use std::path::PathBuf;

use gfx3d::layout::ElementKind;
use gfx3d::linked::Linked;
use gfx3d::state::DepthDesc;
use gfx3d::texture::{MipFilter, SamplerState};
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use shader::back::raster::state::CompareFunc;
use shader::limits::Profile;
use shader::program::compile::CompileOptions;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

type G = Gfx3d<Linked>;
const O: u32 = 0;

fn diff_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/shc/tests/diff")
}

fn sampler(t: &scene::Texture) -> SamplerState {
    let f = |f: scene::Filter| match f {
        scene::Filter::Nearest => Filter::Nearest,
        scene::Filter::Linear => Filter::Linear,
    };
    let w = |w: scene::Wrap| match w {
        scene::Wrap::Repeat => Wrap::Repeat,
        scene::Wrap::ClampToEdge => Wrap::ClampToEdge,
        scene::Wrap::MirroredRepeat => Wrap::MirroredRepeat,
    };
    SamplerState {
        filter: f(t.filter),
        wrap: w(t.wrap),
        min_filter: Some(f(t.min_filter)),
        mip: match t.mip {
            scene::Mip::None => MipFilter::None,
            scene::Mip::Nearest => MipFilter::Nearest,
            scene::Mip::Linear => MipFilter::Linear,
        },
        wrap_t: Some(w(t.wrap_t)),
        lod_bias: t.lod_bias,
        min_lod: t.min_lod,
        max_lod: t.max_lod,
        compare: t
            .source
            .as_ref()
            .and_then(|s| s.compare)
            .and_then(CompareFunc::from_gl),
    }
}

/// Draw one pass (`s`, its shaders) into `target`; `targets` are the earlier passes'.
fn draw_pass(
    g: &mut G,
    c: ContextId,
    target: TargetId,
    (vs, fs): (&str, &str),
    s: &scene::Scene,
    targets: &[TargetId],
) -> std::result::Result<(), String> {
    let e = |what: &'static str| move |err: gfx3d::Error| format!("{}: {}", what, err);
    let opts = CompileOptions::profile(Profile::P2);
    let prog =
        Linked::from_glsl_with(g.compiler(), vs, fs, "pass", &opts).map_err(|b| b.to_string())?;
    let samplers: Vec<(String, u32)> = prog
        .program()
        .samplers()
        .iter()
        .map(|x| (x.name.as_str().to_string(), x.unit as u32))
        .collect();
    let p = g.prog_prepare(O, c, prog).map_err(e("prog_prepare"))?;
    let stride: u32 = s.attributes.iter().map(|a| a.components).sum();
    let mut els = Vec::new();
    let mut offset = 0;
    for a in &s.attributes {
        assert_eq!(a.divisor, 0, "the mp_ scenes draw no instances");
        els.push(Element {
            location: a.location as u8,
            components: a.components as u8,
            offset: offset * 4,
        });
        offset += a.components;
    }
    let mut layout = VertexLayout::new(stride * 4, &els).map_err(|l| format!("{:?}", l))?;
    for a in &s.attributes {
        let kind = match a.kind {
            scene::AttrKind::Float => ElementKind::F32,
            scene::AttrKind::Int => ElementKind::I32,
            scene::AttrKind::Uint => ElementKind::U32,
        };
        layout = layout
            .with_kind(a.location as u8, kind)
            .map_err(|l| format!("{:?}", l))?;
    }
    let mut data = Vec::new();
    for v in 0..s.vertex_count {
        for a in &s.attributes {
            data.extend_from_slice(a.vertex(v));
        }
    }
    let m = g.mesh_create(O, Usage::Static).map_err(e("mesh"))?;
    g.mesh_upload_f32(O, m, &layout, &data, s.indices.as_deref())
        .map_err(e("mesh upload"))?;
    let mut textures = Vec::new();
    for (name, unit) in &samplers {
        let (_, t) = s
            .textures
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| format!("no texture {}", name))?;
        match &t.source {
            Some(src) => {
                let tid = targets[src.pass];
                if src.mipmaps {
                    g.target_generate_mipmaps(O, tid).map_err(e("mipmaps"))?;
                }
                let plane = match src.attachment {
                    scene::Attachment::Color => TargetPlane::Color,
                    scene::Attachment::Depth => TargetPlane::Depth,
                };
                textures.push((*unit, Err((tid, plane, sampler(t)))));
            }
            None => {
                assert!(
                    t.faces.is_empty() && t.levels.is_empty(),
                    "2D level-0 textures only"
                );
                let id = g.tex_create(O, t.width, t.height).map_err(e("texture"))?;
                g.tex_upload(O, id, &t.to_argb()).map_err(e("upload"))?;
                g.tex_sampler(O, id, sampler(t)).map_err(e("sampler"))?;
                textures.push((*unit, Ok(id)));
            }
        }
    }
    let pl = &s.pipeline;
    assert!(
        pl.blend.is_none() && pl.scissor.is_none() && pl.cull_face == 0 && !s.cull,
        "state the mp_ scenes do not use is not mapped here"
    );
    g.begin(O, c, target).map_err(e("begin"))?;
    g.set_depth(
        O,
        c,
        DepthDesc {
            test: s.depth,
            func: CompareFunc::from_gl(pl.depth_func).ok_or("depth func")?,
            write: pl.depth_mask,
            clear: 1.0,
        },
    )
    .map_err(e("depth"))?;
    g.clear(O, c, s.clear, true).map_err(e("clear"))?;
    let [x, y, w, h] = s.viewport;
    g.viewport(O, c, x, y, w as u32, h as u32)
        .map_err(e("viewport"))?;
    g.set_polygon_offset(O, c, pl.polygon_offset[0], pl.polygon_offset[1])
        .map_err(e("offset"))?;
    g.use_program(O, c, p).map_err(e("use_program"))?;
    for (name, v) in &s.uniforms {
        g.uniform_f(O, c, name, v)
            .map_err(|err| format!("uniform {}: {}", name, err))?;
    }
    for (unit, t) in textures {
        match t {
            Ok(id) => g.bind_texture(O, c, unit, Some(id)).map_err(e("bind"))?,
            Err((tid, plane, smp)) => g
                .bind_target_texture(O, c, unit, tid, plane, smp)
                .map_err(e("bind target"))?,
        }
    }
    g.draw(O, c, m).map_err(e("draw"))?;
    g.end(O, c).map_err(e("end"))?;
    Ok(())
}

/// The picture of `scene` (with the pair's shaders) after its passes, row 0 = top.
fn render(
    g: &mut G,
    stem: &str,
    vert: &str,
    frag: &str,
) -> std::result::Result<(u32, u32, Vec<u32>), String> {
    let d = diff_dir();
    let read =
        |p: PathBuf| std::fs::read_to_string(&p).map_err(|e| format!("{}: {}", p.display(), e));
    let s = scene::Scene::load(&d.join(format!("{}.json", stem))).map_err(|e| e.to_string())?;
    let r = (|| {
        let c = g.context_create(O).map_err(|e| e.to_string())?;
        let mut targets = Vec::new();
        for pass in &s.passes {
            let fmt = match pass.format {
                scene::ColorFormat::Rgba8 => TargetFormat::Rgba8,
                scene::ColorFormat::Rgba32f => TargetFormat::Rgba32F,
            };
            let t = g
                .target_create_format(O, c, pass.scene.width, pass.scene.height, fmt)
                .map_err(|e| format!("pass {}: target: {}", pass.name, e))?;
            let (vs, fs) = (
                read(pass.vertex.clone().into())?,
                read(pass.fragment.clone().into())?,
            );
            draw_pass(g, c, t, (&vs, &fs), &pass.scene, &targets)
                .map_err(|e| format!("pass {}: {}", pass.name, e))?;
            targets.push(t);
        }
        let t = g
            .target_create(O, c, s.width, s.height)
            .map_err(|e| e.to_string())?;
        let (vs, fs) = (read(d.join(vert))?, read(d.join(frag))?);
        draw_pass(g, c, t, (&vs, &fs), &s, &targets)?;
        let mut px = vec![0u32; (s.width * s.height) as usize];
        g.target_read(O, t, &mut px).map_err(|e| e.to_string())?;
        Ok((s.width, s.height, px))
    })();
    g.drop_owner(O);
    r
}

const PAIRS: &[(&str, &str, &str)] = &[
    ("mp_post", "fullscreen.vert", "mp_post.frag"),
    ("mp_hdr", "fullscreen.vert", "mp_hdr.frag"),
    ("mp_shadow", "mp_shadow.vert", "mp_shadow.frag"),
    ("mp_mips", "textured.vert", "mp_mips.frag"),
];

#[test]
fn software_and_virgl_agree_on_the_multi_pass_scenes() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut virgl = G::new();
    virgl
        .boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    assert_eq!(virgl.backend_name(), "virgl");
    let mut soft = G::new();
    soft.boot(BackendMode::Software, None).unwrap();
    let mut failures = Vec::new();
    for (stem, vert, frag) in PAIRS {
        let a = render(&mut soft, stem, vert, frag);
        let b = render(&mut virgl, stem, vert, frag);
        match (a, b) {
            (Ok((w, h, a)), Ok((_, _, b))) => {
                assert!(a.iter().any(|p| *p != a[0]), "{}: a flat picture", stem);
                let c = gfx3d::compare::compare(&a, &b, w, h);
                eprintln!("{}: {:?}", stem, c);
                if !c.agrees() {
                    failures.push(format!("{}: {:?}", stem, c));
                }
            }
            (a, b) => failures.push(format!(
                "{}: software {:?} virgl {:?}",
                stem,
                a.err(),
                b.err()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A sampled target reads in GL's orientation on both backends: the row drawn at window y = 0
/// (the bottom of the pass's picture) is t = 0, so a pass sampled with uv = (x, y) * 0.5 + 0.5
/// over a full-screen quad shows upright, as in `shc render` and Mesa. mp_post's pass has its
/// green triangle at the top right (NDC y 0.6 to 0.95); the final picture (read back top row
/// first) must show it there and not at the bottom right, on software and on VirGL.
#[test]
fn a_sampled_target_is_upright_as_in_gl_on_both_backends() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut virgl = G::new();
    virgl
        .boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    assert_eq!(virgl.backend_name(), "virgl");
    let mut soft = G::new();
    soft.boot(BackendMode::Software, None).unwrap();
    for (name, g) in [("software", &mut soft), ("virgl", &mut virgl)] {
        let (w, h, px) = render(g, "mp_post", "fullscreen.vert", "mp_post.frag").unwrap();
        let at = |x: u32, y: u32| px[(y * w + x) as usize].to_be_bytes();
        let green = |p: [u8; 4]| p[2] > p[1] && p[2] > p[3];
        assert!(
            green(at(50, 8)),
            "{}: top right is not green: {:?}",
            name,
            at(50, 8)
        );
        assert!(
            !green(at(50, h - 9)),
            "{}: bottom right is green (the mirror of GL): {:?}",
            name,
            at(50, h - 9)
        );
    }
}
