//! Program link and uniforms: every failure, relink keeps the old program, the generation
//! counter, uniform merging across stages, lane writes, the varying remap, reflection.
mod ircore_util;
use ircore_util::*;
use shader::back::raster::{soft_fs, soft_vs};
use shader::ir::*;
use shader::program::link::*;

fn fails(vs: Option<&Module>, fs: Option<&Module>, needle: &str) -> LinkError {
    let mut p = Program::new();
    let e = p.link(vs, fs).expect_err("link should fail");
    assert!(
        p.log().contains(needle),
        "log {:?} lacks {:?}",
        p.log(),
        needle
    );
    assert!(!p.is_linked());
    assert_eq!(p.generation(), 0);
    assert!(!p.log().contains("kept previous program"));
    e
}

#[test]
fn missing_shaders() {
    let (vs, fs) = (passthrough_vs(), passthrough_fs());
    assert_eq!(
        fails(None, Some(&fs), "missing a compiled vertex shader"),
        LinkError::MissingShader(Stage::Vertex)
    );
    assert_eq!(
        fails(Some(&vs), None, "missing a compiled fragment shader"),
        LinkError::MissingShader(Stage::Fragment)
    );
    // A module of the wrong stage counts as missing.
    fails(Some(&fs), Some(&vs), "missing a compiled vertex shader");
}

#[test]
fn vertex_shader_without_position() {
    let mut vs = passthrough_vs();
    vs.iface.writes_position = false;
    assert_eq!(
        fails(
            Some(&vs),
            Some(&passthrough_fs()),
            "does not write gl_Position"
        ),
        LinkError::NoPosition
    );
}

#[test]
fn fragment_shader_without_output() {
    let mut fs = passthrough_fs();
    fs.iface.color_output = None;
    assert_eq!(
        fails(
            Some(&passthrough_vs()),
            Some(&fs),
            "fragment shader has no output"
        ),
        LinkError::NoColorOutput
    );
}

#[test]
fn missing_varying_is_named() {
    let mut f = B::new(Stage::Fragment);
    let n = f.load_varying("normal", 0, Type::Vec3);
    f.color(n);
    let e = fails(
        Some(&passthrough_vs()),
        Some(&f.done()),
        "missing varying normal",
    );
    assert_eq!(e, LinkError::MissingVarying(name("normal")));
}

#[test]
fn varying_type_mismatch_is_named() {
    let mut v = B::new(Stage::Vertex);
    let p = v.attribute("pos", 0, Type::Vec4);
    v.position(p);
    v.store_varying("normal", 0, Type::Vec3, p);
    let mut f = B::new(Stage::Fragment);
    let n = f.load_varying("normal", 0, Type::Vec2);
    f.color(n);
    let e = fails(
        Some(&v.done()),
        Some(&f.done()),
        "varying type mismatch normal",
    );
    assert_eq!(e, LinkError::VaryingTypeMismatch(name("normal")));
}

#[test]
fn uniform_type_mismatch_is_named() {
    let mut vs = passthrough_vs();
    vs.iface
        .uniforms
        .push(Uniform {
            name: name("k"),
            ty: Type::Float,
            slot: 0,
            slots: 1,
        })
        .unwrap();
    let mut fs = passthrough_fs();
    fs.iface
        .uniforms
        .push(Uniform {
            name: name("k"),
            ty: Type::Vec2,
            slot: 0,
            slots: 1,
        })
        .unwrap();
    let e = fails(Some(&vs), Some(&fs), "uniform type mismatch k");
    assert_eq!(e, LinkError::UniformTypeMismatch(name("k")));
    // A uniform in one stage and a sampler of the same name in the other also mismatch.
    let mut fs2 = passthrough_fs();
    fs2.iface
        .samplers
        .push(Sampler {
            name: name("k"),
            unit: 0,
            ty: Type::Sampler2D,
        })
        .unwrap();
    fails(Some(&vs), Some(&fs2), "uniform type mismatch k");
}

#[test]
fn too_many_uniforms() {
    let mut vs = passthrough_vs();
    for s in 0..32u8 {
        vs.iface
            .uniforms
            .push(Uniform {
                name: name(&format!("v{}", s)),
                ty: Type::Float,
                slot: s.into(),
                slots: 1,
            })
            .unwrap();
    }
    let mut fs = passthrough_fs();
    fs.iface
        .uniforms
        .push(Uniform {
            name: name("extra"),
            ty: Type::Float,
            slot: 0,
            slots: 1,
        })
        .unwrap();
    assert_eq!(
        fails(Some(&vs), Some(&fs), "too many uniforms"),
        LinkError::TooManyUniforms(32)
    );
    // Exactly 32 distinct is fine, shared names count once.
    let mut fs = passthrough_fs();
    fs.iface
        .uniforms
        .push(Uniform {
            name: name("v3"),
            ty: Type::Float,
            slot: 0,
            slots: 1,
        })
        .unwrap();
    let p = link(&vs, &fs);
    assert_eq!(p.uniforms().len(), 32);
}

#[test]
fn same_name_samplers_share_a_unit_and_unverifiable_modules_fail() {
    let mut vs = passthrough_vs();
    vs.iface
        .samplers
        .push(Sampler {
            name: name("tex"),
            unit: 0,
            ty: Type::Sampler2D,
        })
        .unwrap();
    let mut fs = passthrough_fs();
    fs.iface
        .samplers
        .push(Sampler {
            name: name("tex"),
            unit: 1,
            ty: Type::Sampler2D,
        })
        .unwrap();
    // One program sampler: the fragment unit (1), the vertex stage remapped to it.
    let mut p = Program::new();
    p.link(Some(&vs), Some(&fs)).unwrap();
    assert_eq!(p.sampler_find("tex"), Some(1));
    assert_eq!(p.samplers().len(), 1);
    assert_eq!(p.module(Stage::Vertex).unwrap().iface.samplers[0].unit, 1);
    let mut bad = passthrough_fs();
    bad.temps = 200;
    let e = fails(Some(&passthrough_vs()), Some(&bad), "too many temporaries");
    assert!(matches!(e, LinkError::Verify(Stage::Fragment, _)));
}

/// VS: position = mvp * pos (uniform "mvp", slot 0), varying "v" = tint (uniform vec4 slot 4).
/// FS: colour = v * tint (uniform "tint" at FS slot 0) + bias (FS-only float slot 1).
fn uniform_program() -> (Module, Module) {
    let mut v = B::new(Stage::Vertex);
    let p = v.attribute("pos", 0, Type::Vec4);
    let mvp = v.uniform("mvp", Type::Mat4, 0);
    let tint = v.uniform("tint", Type::Vec4, 4);
    let r = v.temp();
    v.inst(Op::MulMV, r, mvp, p, 4, 4, 0);
    v.position(r);
    v.store_varying("v", 0, Type::Vec4, tint);
    let mut f = B::new(Stage::Fragment);
    let vv = f.load_varying("v", 0, Type::Vec4);
    let tint = f.uniform("tint", Type::Vec4, 0);
    let bias = f.uniform("bias", Type::Float, 1);
    let m = f.bin(Op::Mul, vv, tint, 4);
    let s = f.temp();
    f.inst(Op::Swz, s, bias, -1, 4, 0, 0); // bias.xxxx
    let c = f.bin(Op::Add, m, s, 4);
    f.color(c);
    (v.done(), f.done())
}

#[test]
fn same_name_uniforms_merge_and_write_both_stages() {
    let (vs, fs) = uniform_program();
    let mut p = link(&vs, &fs);
    let names: Vec<&str> = p.uniforms().iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["mvp", "tint", "bias"]);
    let tint = p.uniform_find("tint").unwrap();
    assert_eq!(p.uniforms()[tint].vs_slot, Some(4));
    assert_eq!(p.uniforms()[tint].fs_slot, Some(0));
    p.set_uniform(tint, &[0.5, 0.25, 1.0, 1.0]).unwrap();
    assert_eq!(
        &p.uniform_words(Stage::Vertex)[16..20],
        &[0.5, 0.25, 1.0, 1.0]
    );
    assert_eq!(
        &p.uniform_words(Stage::Fragment)[0..4],
        &[0.5, 0.25, 1.0, 1.0]
    );
    let bias = p.uniform_find("bias").unwrap();
    p.set_uniform(bias, &[0.125]).unwrap();
    assert_eq!(p.uniform_words(Stage::Fragment)[4], 0.125);
    assert_eq!(p.uniform_words(Stage::Vertex)[4], 0.0);
    // Through execution: the varying carries the VS tint, the FS multiplies by its tint.
    let mvp = p.uniform_find("mvp").unwrap();
    p.set_uniform(
        mvp,
        &[
            1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.,
        ],
    )
    .unwrap();
    let out = soft_vs(&p, &[0.1, 0.2, 0.3, 1.0]).unwrap();
    assert_eq!(out.position, [0.1, 0.2, 0.3, 1.0]);
    let fsr = soft_fs(&p, &out.varyings, [0.0; 4], &[None, None, None, None]).unwrap();
    assert_eq!(fsr.color, [0.25 + 0.125, 0.0625 + 0.125, 1.125, 1.125]);
    assert_eq!(p.constants(Stage::Vertex).len(), 20);
    assert_eq!(p.constants(Stage::Fragment).len(), 8);
}

#[test]
fn uniform_values_counts_and_lanes() {
    let mut v = B::new(Stage::Vertex);
    let p = v.attribute("pos", 0, Type::Vec4);
    v.position(p);
    v.declare_uniform("m3", Type::Mat3, 0);
    v.declare_uniform("m4", Type::Mat4, 3);
    v.declare_uniform("v3", Type::Vec3, 7);
    v.declare_uniform("i", Type::Int, 8);
    let mut f = B::new(Stage::Fragment);
    let c = f.konst(&[1.0, 1.0, 1.0, 1.0]);
    f.color(c);
    let mut prog = Program::new();
    assert_eq!(prog.set_uniform(0, &[1.0]), Err(UniformError::NotLinked));
    prog.link(Some(&v.done()), Some(&f.done())).unwrap();
    let m3 = prog.uniform_find("m3").unwrap();
    prog.set_uniform(m3, &[1., 2., 3., 4., 5., 6., 7., 8., 9.])
        .unwrap();
    assert_eq!(
        &prog.uniform_words(Stage::Vertex)[0..12],
        &[1., 2., 3., 0., 4., 5., 6., 0., 7., 8., 9., 0.]
    );
    assert_eq!(
        prog.set_uniform(m3, &[1.0; 16]),
        Err(UniformError::WrongCount {
            expected: 9,
            found: 16
        })
    );
    let m4 = prog.uniform_find("m4").unwrap();
    let vals: Vec<f32> = (0..16).map(|k| k as f32).collect();
    prog.set_uniform(m4, &vals).unwrap();
    assert_eq!(&prog.uniform_words(Stage::Vertex)[12..28], &vals[..]);
    // One lane, nothing else changes.
    prog.set_uniform_lane(m4, 5, 99.0).unwrap();
    let mut back = [0.0; 16];
    prog.uniform_value(m4, &mut back).unwrap();
    let mut want = vals.clone();
    want[5] = 99.0;
    assert_eq!(&back[..], &want[..]);
    prog.set_uniform_lane(m3, 4, -5.0).unwrap(); // column 1, row 1
    assert_eq!(&prog.uniform_words(Stage::Vertex)[4..8], &[4., -5., 6., 0.]);
    let v3 = prog.uniform_find("v3").unwrap();
    prog.set_uniform(v3, &[1., 2., 3.]).unwrap();
    prog.set_uniform_lane(v3, 1, 7.0).unwrap();
    assert_eq!(&prog.uniform_words(Stage::Vertex)[28..31], &[1., 7., 3.]);
    assert_eq!(
        prog.set_uniform_lane(v3, 3, 1.0),
        Err(UniformError::LaneOutOfRange { lane: 3, floats: 3 })
    );
    assert_eq!(
        prog.set_uniform(v3, &[1.0; 4]),
        Err(UniformError::WrongCount {
            expected: 3,
            found: 4
        })
    );
    let i = prog.uniform_find("i").unwrap();
    prog.set_uniform(i, &[3.0]).unwrap();
    assert_eq!(prog.uniform_words(Stage::Vertex)[32], 3.0);
    assert_eq!(
        prog.set_uniform(10, &[1.0]),
        Err(UniformError::NoSuchUniform {
            index: 10,
            count: 4
        })
    );
    assert_eq!(prog.uniform_find("nope"), None);
}

#[test]
fn relink_failure_keeps_the_previous_program_and_generation_counts_successes() {
    let (vs, fs) = uniform_program();
    let mut p = Program::new();
    assert_eq!(p.generation(), 0);
    p.link(Some(&vs), Some(&fs)).unwrap();
    assert_eq!(p.generation(), 1);
    assert!(p.log().is_empty());
    let tint = p.uniform_find("tint").unwrap();
    p.set_uniform(tint, &[1.0, 0.5, 0.25, 1.0]).unwrap();
    let before_vs = p.uniform_words(Stage::Vertex).to_vec();
    let before_fs = p.uniform_words(Stage::Fragment).to_vec();
    let before_unis = p.uniforms().to_vec();
    let before_tgsi = p.tgsi(Stage::Fragment).to_string();
    assert!(before_tgsi.contains("END"));
    let before_out = soft_vs(&p, &[1.0, 2.0, 3.0, 1.0]).unwrap();

    // A broken relink: fragment reads a varying the new vertex shader does not write.
    let mut f = B::new(Stage::Fragment);
    let n = f.load_varying("missing", 0, Type::Vec4);
    f.color(n);
    let e = p
        .link(Some(&passthrough_vs()), Some(&f.done()))
        .unwrap_err();
    assert_eq!(e, LinkError::MissingVarying(name("missing")));
    assert!(p.log().contains("missing varying missing"));
    assert!(p.log().ends_with("kept previous program\n"), "{}", p.log());
    assert!(p.is_linked());
    assert_eq!(p.generation(), 1);
    assert_eq!(p.uniforms(), &before_unis[..]);
    assert_eq!(p.uniform_words(Stage::Vertex).to_vec(), before_vs);
    assert_eq!(p.uniform_words(Stage::Fragment).to_vec(), before_fs);
    assert_eq!(p.tgsi(Stage::Fragment).as_str(), before_tgsi);
    assert_eq!(p.module(Stage::Vertex), Some(&vs));
    assert_eq!(p.module(Stage::Fragment), Some(&fs));
    assert_eq!(soft_vs(&p, &[1.0, 2.0, 3.0, 1.0]).unwrap(), before_out);
    // Uniforms still settable on the kept program.
    p.set_uniform(tint, &[0.0, 0.0, 0.0, 0.0]).unwrap();

    // A good relink replaces everything, bumps the generation and resets values (GL rule).
    p.link(Some(&passthrough_vs()), Some(&passthrough_fs()))
        .unwrap();
    assert_eq!(p.generation(), 2);
    assert!(p.log().is_empty());
    assert!(p.uniforms().is_empty());
    assert!(p.uniform_words(Stage::Vertex).iter().all(|&w| w == 0.0));
    // A failure of a never-linked program does not claim to keep anything.
    let mut q = Program::new();
    q.link(None, None).unwrap_err();
    assert!(!q.log().contains("kept"));
    assert!(q.log().contains("vertex") && q.log().contains("fragment"));
}

#[test]
fn varying_remap_and_reflection() {
    // VS writes a (slot 0) and b (slot 1); FS reads b at its slot 0 and a at its slot 1.
    let mut v = B::new(Stage::Vertex);
    let p = v.attribute("pos", 0, Type::Vec4);
    let n = v.attribute("normal", 2, Type::Vec3);
    v.position(p);
    v.store_varying("a", 0, Type::Vec4, p);
    v.store_varying("b", 1, Type::Vec3, n);
    let mut f = B::new(Stage::Fragment);
    f.sampler("tex", 2);
    let b = f.load_varying("b", 0, Type::Vec3);
    let a = f.load_varying("a", 1, Type::Vec4);
    let s = f.bin(Op::Sub, a, b, 4);
    f.color(s);
    let prog = link(&v.done(), &f.done());
    assert_eq!(prog.varying_remap()[..2], [1, 0]);
    assert_eq!(
        prog.varyings()
            .iter()
            .map(|v| (v.name.as_str(), v.vs_slot, v.fs_slot))
            .collect::<Vec<_>>(),
        [("b", 1, 0), ("a", 0, 1)]
    );
    let attrs: Vec<_> = prog
        .attributes()
        .iter()
        .map(|a| (a.name.as_str(), a.ty, a.location, a.components))
        .collect();
    assert_eq!(
        attrs,
        [("pos", Type::Vec4, 0, 4), ("normal", Type::Vec3, 2, 3)]
    );
    assert_eq!(prog.sampler_find("tex"), Some(2));
    assert_eq!(prog.sampler_units(), 0b100);
    let out = soft_vs(&prog, &[1., 2., 3., 4., 0., 0., 0., 1., 0.5, 0.5, 0.5]).unwrap();
    assert_eq!(out.varyings[0], [1., 2., 3., 4.]);
    assert_eq!(out.varyings[1], [0.5, 0.5, 0.5, 1.0]);
    let r = soft_fs(&prog, &out.varyings, [0.0; 4], &[None, None, None, None]).unwrap();
    assert_eq!(r.color, [0.5, 1.5, 2.5, 3.0]);
}

/// The specification's link rule "TGSI can be emitted for both stages": a stage over the
/// 3600-byte budget fails the link (it used to link as a software-only program), and a relink
/// that fails that way keeps the previous program.
#[test]
fn tgsi_over_budget_fails_the_link_and_keeps_the_previous_program() {
    let mut f = B::new(Stage::Fragment);
    let v = f.load_varying("v", 0, Type::Vec4);
    let acc = f.temp();
    f.inst(Op::Mov, acc, v, -1, 4, 0, 0);
    for _ in 0..300 {
        f.inst(Op::Add, acc, acc, v, 4, 0, 0);
    }
    f.color(acc);
    let big = f.done();
    let mut p = Program::new();
    let e = p.link(Some(&passthrough_vs()), Some(&big)).unwrap_err();
    assert!(matches!(e, LinkError::Tgsi(Stage::Fragment, _)), "{:?}", e);
    assert_eq!(
        p.log(),
        "link error: TGSI emission failed for the fragment shader: TGSI exceeds the VirGL command budget (3600 bytes)\n"
    );
    assert!(!p.is_linked());
    p.link(Some(&passthrough_vs()), Some(&passthrough_fs()))
        .unwrap();
    let (generation, fs_text) = (p.generation(), p.tgsi(Stage::Fragment).to_string());
    assert!(p.link(Some(&passthrough_vs()), Some(&big)).is_err());
    assert!(p.log().ends_with("kept previous program\n"), "{}", p.log());
    assert!(p.is_linked());
    assert_eq!(p.generation(), generation);
    assert_eq!(p.tgsi(Stage::Fragment).as_str(), fs_text);
}
