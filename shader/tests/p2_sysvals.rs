//! Profile 2's vertex-stage system values gl_VertexID and gl_InstanceID (issue 16 item 4): the
//! frontend (profile 2 only, vertex only, read-only), the IR op LOAD_SYSVAL through the
//! verifier, the executor, the rasterizer (indexed draws: the index value; instanced draws),
//! TGSI (`DCL SV[n], VERTEXID|INSTANCEID` and I2F) and CSIR v2.
mod ircore_util;
use shader::back::exec::lanes::{Vec4x, LANES};
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::back::raster::{
    draw_pipeline_instance, Pipeline, RasterState, Scratch, Target, VertexAttrib, VertexInput,
};
use shader::back::tgsi::check_tgsi;
use shader::ir::{Op, SYSVAL_INSTANCE_ID, SYSVAL_VERTEX_ID};
use shader::limits::{Profile, SAMPLER_MAX, UNIFORM_FLOATS, VARYING_CAP};
use shader::program::compile::{compile, Shader};
use shader::program::csir::{load, save, Version};

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec2 pos;
flat out vec4 ids;
void main() {
    ids = vec4(float(gl_VertexID) / 8.0, float(gl_InstanceID) / 4.0, 0.0, 1.0);
    gl_Position = vec4(pos, 0.0, 1.0);
}";

const FS: &str = "#pragma chrisos profile 2
flat in vec4 ids;
out vec4 color;
void main() { color = ids; }";

fn build(stage: u32, src: &str) -> Shader {
    match compile(stage, src.as_bytes(), "t") {
        Ok(s) => s,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

fn first_error(stage: u32, src: &str) -> String {
    match compile(stage, src.as_bytes(), "t") {
        Ok(_) => panic!("compiled: {}", src),
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            s
        }
    }
}

#[test]
fn executor_reads_the_values_per_lane() {
    let src = "#pragma chrisos profile 2
void main() { gl_Position = vec4(float(gl_VertexID), float(gl_InstanceID), float(gl_VertexID + 2 * gl_InstanceID), 1.0); }";
    let sh = build(0, src);
    assert!(sh.module.iface.reads_vertex_id && sh.module.iface.reads_instance_id);
    shader::ir::verify::verify(&sh.module).expect("verified");
    let exe = Executable::new(&sh.module, None).expect("decoded");
    assert!(exe.reads_sysvals());
    let uni = [0.0f32; UNIFORM_FLOATS];
    let inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    let textures = [None; SAMPLER_MAX];
    let mut sys = [[0.0; LANES]; 4];
    for (l, v) in sys[0].iter_mut().enumerate() {
        *v = (l * 3) as f32;
    }
    sys[1] = [7.0; LANES];
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &sys,
    };
    let mut regs = Box::new(Regs::new());
    let mut out = Box::new(Outputs::new());
    exe.run(&mut regs, &inv, &mut out, u32::MAX as _);
    for l in 0..LANES {
        let id = (l * 3) as f32;
        assert_eq!(
            [out.position[0][l], out.position[1][l], out.position[2][l]],
            [id, 7.0, id + 14.0],
            "lane {}",
            l
        );
    }
}

#[test]
fn profile_one_and_misuse_are_diagnosed() {
    // Profile 1 has no such names (its diagnostics are unchanged).
    let e = first_error(0, "void main() { gl_Position = vec4(float(gl_VertexID)); }");
    assert!(e.contains("unknown identifier 'gl_VertexID'"), "{}", e);
    let e = first_error(
        1,
        "#pragma chrisos profile 2\nout vec4 c;\nvoid main() { c = vec4(float(gl_InstanceID)); }",
    );
    assert!(
        e.contains("gl_InstanceID is not available in a fragment shader"),
        "{}",
        e
    );
    let e = first_error(
        0,
        "#pragma chrisos profile 2\nvoid main() { gl_VertexID = 3; gl_Position = vec4(0.0); }",
    );
    assert!(e.contains("gl_VertexID is read-only"), "{}", e);
    let e = first_error(
        0,
        "#pragma chrisos profile 2\nint gl_InstanceID;\nvoid main() { gl_Position = vec4(0.0); }",
    );
    assert!(
        e.contains("names beginning with 'gl_' are reserved"),
        "{}",
        e
    );
    // An unread system value is not loaded.
    let sh = build(
        0,
        "#pragma chrisos profile 2\nvoid main() { gl_Position = vec4(float(gl_InstanceID)); }",
    );
    assert!(!sh.module.iface.reads_vertex_id && sh.module.iface.reads_instance_id);
    assert_eq!(
        sh.module
            .insts
            .iter()
            .filter(|i| i.op == Op::LoadSysval)
            .count(),
        1
    );
}

#[test]
fn verifier_bounds_load_sysval() {
    let sh = build(0, VS);
    let at = sh
        .module
        .insts
        .iter()
        .position(|i| i.op == Op::LoadSysval)
        .unwrap();
    let mut m = sh.module.clone();
    m.insts[at].aux = 2;
    assert!(shader::ir::verify::verify(&m).is_err());
    let plain = build(
        0,
        "#pragma chrisos profile 2\nvoid main() { gl_Position = vec4(float(gl_VertexID)); }",
    );
    let mut m = plain.module.clone();
    m.profile = Profile::P1;
    let e = shader::ir::verify::verify(&m).unwrap_err();
    assert!(
        format!("{}", e).contains("LOAD_SYSVAL is not part of profile 1"),
        "{}",
        e
    );
    let mut m = sh.module.clone();
    m.stage = shader::ir::Stage::Fragment;
    assert!(shader::ir::verify::verify(&m).is_err());
}

#[test]
fn tgsi_declares_system_values_and_converts_them() {
    let sh = build(0, VS);
    let mut out = shader::back::tgsi::TgsiText::new();
    sh.standalone_tgsi(&mut out).expect("emitted");
    assert!(out.as_str().contains("DCL SV[0], VERTEXID\n"), "{}", out);
    assert!(out.as_str().contains("DCL SV[1], INSTANCEID\n"), "{}", out);
    assert!(out.as_str().contains("I2F TEMP["), "{}", out);
    check_tgsi(&out).expect("virglrenderer's rules");
    // Only gl_InstanceID: it is SV[0].
    let sh = build(
        0,
        "#pragma chrisos profile 2\nvoid main() { gl_Position = vec4(float(gl_InstanceID)); }",
    );
    sh.standalone_tgsi(&mut out).expect("emitted");
    assert!(out.as_str().contains("DCL SV[0], INSTANCEID\n"), "{}", out);
    assert!(out.as_str().contains("SV[0].xxxx"), "{}", out);
    assert!(!out.as_str().contains("VERTEXID"), "{}", out);
    // The checker: system values only in vertex shaders, declared before use.
    assert!(check_tgsi("FRAG\nDCL SV[0], VERTEXID\nEND\n").is_err());
    assert!(check_tgsi("VERT\nDCL SV[0], FACE\nEND\n").is_err());
    assert!(check_tgsi("VERT\nDCL TEMP[0]\nI2F TEMP[0], SV[0].xxxx\nEND\n").is_err());
    assert!(
        check_tgsi("VERT\nDCL SV[0], VERTEXID\nDCL TEMP[0]\nI2F TEMP[0], SV[0].xxxx\nEND\n")
            .is_ok()
    );
}

#[test]
fn csir_v2_keeps_the_op_and_the_flags() {
    let sh = build(0, VS);
    let mut buf = vec![0u8; 1 << 20];
    let n = save(&sh.module, Version::V2, &mut buf).expect("saved");
    let m = load(&buf[..n]).expect("loaded");
    assert!(m.iface.reads_vertex_id && m.iface.reads_instance_id);
    let ops: Vec<_> = m
        .insts
        .iter()
        .filter(|i| i.op == Op::LoadSysval)
        .map(|i| i.aux)
        .collect();
    assert_eq!(ops, vec![SYSVAL_VERTEX_ID, SYSVAL_INSTANCE_ID]);
    shader::ir::verify::verify(&m).expect("verified");
    // A profile-2 module cannot be written as v1.
    assert!(save(&sh.module, Version::V1, &mut buf).is_err());
}

#[test]
fn rasterizer_feeds_index_values_and_instances() {
    let vs = build(0, VS);
    let fs = build(1, FS);
    let mut prog = shader::program::link::Program::new();
    prog.link(Some(&vs.module), Some(&fs.module))
        .unwrap_or_else(|e| panic!("{} {}", e, prog.log()));
    // Six vertices; the indexed draw uses 3, 4, 5 (a triangle over the whole 4x4 target).
    let data: Vec<f32> = [
        [0.0, 0.0],
        [0.0, 0.0],
        [0.0, 0.0],
        [-1.0, -1.0],
        [3.0, -1.0],
        [-1.0, 3.0],
    ]
    .iter()
    .flatten()
    .copied()
    .collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 2,
    }];
    let input = VertexInput {
        data: &data,
        stride: 2,
        attribs: &attribs,
        count: 6,
    };
    let st = RasterState {
        depth_test: false,
        ..RasterState::new(4, 4)
    };
    let mut scratch = Box::new(Scratch::new());
    for (instance, indices) in [(0u32, [3u16, 4, 5]), (2, [4, 5, 3]), (3, [5, 3, 4])] {
        let mut color = vec![0u32; 16];
        let mut depth = vec![1.0f32; 16];
        let mut t = Target {
            width: 4,
            height: 4,
            color: &mut color,
            depth: &mut depth,
        };
        draw_pipeline_instance(
            &mut scratch,
            &prog,
            &input,
            &[],
            instance,
            Some(&indices),
            &[None, None, None, None],
            &st,
            &Pipeline::DEFAULT,
            &mut t,
        )
        .expect("drawn");
        // flat: the last vertex's values; r = index / 8, g = instance / 4 (0xAARRGGBB).
        let last = indices[2] as f32;
        let r = (last / 8.0 * 255.0).round() as u32;
        let g = (instance as f32 / 4.0 * 255.0).round() as u32;
        let want = 0xff00_0000 | r << 16 | g << 8;
        assert!(
            color.iter().all(|&c| c == want),
            "instance {} indices {:?}: {:08x?} want {:08x}",
            instance,
            indices,
            color,
            want
        );
    }
}
