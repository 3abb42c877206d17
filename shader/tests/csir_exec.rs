//! CSIR modules run: a loaded module computes exactly what the original computes (software
//! executor), a v2 vertex + fragment pair loaded from bytes links and draws, a hand-built v1
//! blob runs, and the verifier guards the loader.
#[path = "tgsi_fixtures.rs"]
mod fixtures;

use shader::back::exec::lanes::{Mask, Vec4x, ALL_LANES, LANES};
use shader::back::exec::texture::{SamplerState, TextureRef};
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::ir::*;
use shader::limits::{SAMPLER_MAX, UNIFORM_FLOATS, VARYING_CAP};
use shader::program::csir::{self, CsirError, Version, CSIR_MAX};
use shader::program::link::Program;

fn save(m: &Module, v: Version) -> Vec<u8> {
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(m, v, &mut buf).unwrap();
    buf.truncate(n);
    buf
}

/// Deterministic inputs: every lane and component different, some negative.
fn inputs(seed: f32) -> [Vec4x; VARYING_CAP] {
    let mut v = [[[0.0; LANES]; 4]; VARYING_CAP];
    for (s, slot) in v.iter_mut().enumerate() {
        for (c, comp) in slot.iter_mut().enumerate() {
            for (l, x) in comp.iter_mut().enumerate() {
                *x = ((s * 31 + c * 7 + l) as f32 * 0.37 + seed).sin() * 2.0;
            }
        }
    }
    v
}

fn run(m: &Module, uniforms: &[f32; UNIFORM_FLOATS], texels: &[u32]) -> (Mask, Outputs) {
    let exe = Executable::new(m, None).unwrap_or_else(|e| panic!("{}", e));
    let tex = TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 2,
        height: 2,
        texels,
        sampler: SamplerState::default(),
    };
    let textures: [Option<TextureRef>; SAMPLER_MAX] = [Some(tex), Some(tex), Some(tex), Some(tex)];
    let ins = inputs(0.5);
    let fc = inputs(1.5)[0];
    let inv = Invocation {
        uniforms,
        textures: &textures,
        inputs: &ins,
        fragcoord: &fc,
    };
    let mut regs = Regs::new();
    let mut out = Outputs::new();
    let alive = exe.run(&mut regs, &inv, &mut out, ALL_LANES);
    (alive, out)
}

fn same_bits(a: &Vec4x, b: &Vec4x, alive: Mask) -> bool {
    (0..4).all(|c| {
        (0..LANES)
            .filter(|l| alive & (1 << l) != 0)
            .all(|l| a[c][l].to_bits() == b[c][l].to_bits())
    })
}

#[test]
fn every_fixture_verifies() {
    for (name, m) in fixtures::corpus() {
        shader::ir::verify::verify(&m).unwrap_or_else(|e| panic!("{}: {}", name, e));
    }
}

#[test]
fn loaded_modules_compute_identical_results() {
    let mut uniforms = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter_mut().enumerate() {
        *u = (i as f32 * 0.21).cos();
    }
    let texels = [0xff10_2030u32, 0x8040_5060, 0x0070_8090, 0xffa0_b0c0];
    for (name, m) in fixtures::corpus() {
        let (alive, want) = run(&m, &uniforms, &texels);
        for v in [Version::V1, Version::V2] {
            if v == Version::V1 && m.insts.iter().any(|i| i.op as u8 > csir::V1_OPCODE_MAX) {
                // DIV/SQRT have no v1 opcode: v1 refuses them (tests/csir_v1.rs).
                continue;
            }
            let back = csir::load(&save(&m, v)).unwrap();
            let (alive2, got) = run(&back, &uniforms, &texels);
            assert_eq!(alive, alive2, "{} {:?}", name, v);
            assert!(
                same_bits(&want.position, &got.position, alive),
                "{} {:?}",
                name,
                v
            );
            assert!(
                same_bits(&want.color, &got.color, alive),
                "{} {:?}",
                name,
                v
            );
            for s in 0..VARYING_CAP {
                assert!(
                    same_bits(&want.varyings[s], &got.varyings[s], alive),
                    "{} {:?} varying {}",
                    name,
                    v,
                    s
                );
            }
        }
    }
}

#[test]
fn v2_pair_loaded_from_bytes_links_and_draws() {
    let vs = csir::load(&save(&fixtures::mvp_vert(), Version::V2)).unwrap();
    let fs = csir::load(&save(&fixtures::tri_frag(), Version::V2)).unwrap();
    let mut p = Program::new();
    p.link(Some(&vs), Some(&fs))
        .unwrap_or_else(|e| panic!("{}", e));
    // model = scale (2, 3, 4) + translation (5, 6, 7), column-major; view, projection identity.
    let model = [
        2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 5.0, 6.0, 7.0, 1.0,
    ];
    let ident = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    p.set_uniform(p.uniform_find("model").unwrap(), &model)
        .unwrap();
    p.set_uniform(p.uniform_find("view").unwrap(), &ident)
        .unwrap();
    p.set_uniform(p.uniform_find("projection").unwrap(), &ident)
        .unwrap();
    let mut attrs = [[[0.0f32; LANES]; 4]; VARYING_CAP];
    attrs[0] = [[1.0; LANES]; 4];
    for (c, comp) in attrs[1].iter_mut().enumerate() {
        *comp = [0.25 * c as f32; LANES];
    }
    let textures: [Option<TextureRef>; SAMPLER_MAX] = [None; SAMPLER_MAX];
    let fc = [[0.0; LANES]; 4];
    let inv = Invocation {
        uniforms: p.uniform_words(Stage::Vertex),
        textures: &textures,
        inputs: &attrs,
        fragcoord: &fc,
    };
    let mut regs = Regs::new();
    let mut out = Outputs::new();
    p.executable(Stage::Vertex)
        .unwrap()
        .run(&mut regs, &inv, &mut out, ALL_LANES);
    let pos: Vec<f32> = (0..4).map(|c| out.position[c][0]).collect();
    assert_eq!(pos, vec![7.0, 9.0, 11.0, 1.0]);
    // The fragment stage reads the vertex output through the link's remap.
    let vary = out.varyings;
    let inv = Invocation {
        uniforms: p.uniform_words(Stage::Fragment),
        textures: &textures,
        inputs: &vary,
        fragcoord: &fc,
    };
    let mut fout = Outputs::new();
    p.executable(Stage::Fragment)
        .unwrap()
        .run(&mut regs, &inv, &mut fout, ALL_LANES);
    let color: Vec<f32> = (0..4).map(|c| fout.color[c][3]).collect();
    assert_eq!(color, vec![0.0, 0.25, 0.5, 0.75]);
    // And both stages emit checked TGSI with the link's remap.
    let mut text = shader::back::tgsi::TgsiText::new();
    shader::back::tgsi::emit(&fs, Some(p.varying_remap()), &mut text).unwrap();
    shader::back::tgsi::check_tgsi(&text).unwrap();
}

#[test]
fn v1_pair_with_varyings_is_refused_by_the_link() {
    // v1 stores no varying names: the derived `varN` names would link slot to slot, which
    // cannot be proved right, so the link refuses (issue 11).
    let vs = csir::load(&save(&fixtures::tri_vert(), Version::V1)).unwrap();
    let fs = csir::load(&save(&fixtures::tri_frag(), Version::V1)).unwrap();
    assert!(vs.iface.derived_names && fs.iface.derived_names);
    let mut p = Program::new();
    let e = p.link(Some(&vs), Some(&fs)).unwrap_err();
    assert!(e.to_string().contains("save it as CSIR v2"), "{}", e);
}

#[test]
fn hand_built_v1_blob_runs() {
    // gl_Position = vec4(0.5, -0.5, 0, 1) (CONST t0; STORE_POS t0), written from the layout.
    let mut ir = vec![1u8, 7, 4, 0];
    for f in [0i16, 0, 0, 0, 0, 0] {
        ir.extend_from_slice(&f.to_le_bytes());
    }
    ir.extend_from_slice(&[26, 0, 0, 0]);
    for f in [-1i16, 0, -1, -1, 0, 0] {
        ir.extend_from_slice(&f.to_le_bytes());
    }
    let sum = ir.iter().fold(0u32, |s, &b| s + b as u32);
    let mut blob: Vec<u8> = [0x5249_5343u32, 1, 0, 2, 4, 1, sum, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    blob.extend(ir);
    blob.extend(
        [0.5f32, -0.5, 0.0, 1.0]
            .iter()
            .flat_map(|f| f.to_le_bytes()),
    );
    let m = csir::load(&blob).unwrap();
    let (_, out) = run(&m, &[0.0; UNIFORM_FLOATS], &[0; 4]);
    assert_eq!(
        [
            out.position[0][3],
            out.position[1][3],
            out.position[2][3],
            out.position[3][3]
        ],
        [0.5, -0.5, 0.0, 1.0]
    );
}

#[test]
fn the_verifier_guards_the_loader() {
    let mut bad = fixtures::tri_vert();
    bad.insts.insert(0, Inst::new(Op::Else)).unwrap();
    for v in [Version::V1, Version::V2] {
        assert!(
            matches!(csir::load(&save(&bad, v)), Err(CsirError::Verify(_))),
            "{:?}",
            v
        );
    }
    // A v2 interface that does not cover an instruction's use is rejected as well.
    let mut bad = fixtures::tex_frag();
    bad.iface.samplers.clear();
    assert!(csir::load(&save(&bad, Version::V2)).is_err());
}
