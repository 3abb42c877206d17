//! Profile 2's dynamic indexing (issue 14): arrays, uniform arrays, vector lanes and matrix
//! columns indexed at run time, read and written, on the software executor (each lane its own
//! index: gl_FragCoord.x is the lane number), with out-of-range indexes clamped; every shader
//! also goes through TGSI (checked by the virglrenderer rules) and a CSIR v2 round trip.
use shader::back::exec::lanes::{Vec4x, ALL_LANES, LANES};
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::back::tgsi::{check_tgsi, emit};
use shader::ir::{Module, Op};
use shader::limits::{SAMPLER_MAX, UNIFORM_FLOATS, VARYING_CAP};
use shader::program::compile::compile;
use shader::program::csir::{self, Version, CSIR_MAX};

fn compile_fs(body: &str) -> Module {
    let src = format!(
        "#version 330 core\n#pragma chrisos profile 2\nout vec4 o;\n{}",
        body
    );
    match compile(1, src.as_bytes(), "t.frag") {
        Ok(s) => s.module,
        Err(d) => {
            let mut s = std::string::String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    }
}

/// Compiles, checks TGSI and CSIR, and runs a fragment shader on every lane (gl_FragCoord.x
/// = lane number); returns the colour per lane.
fn run(body: &str, uniforms: &[[f32; 4]]) -> Vec<[f32; 4]> {
    let m = compile_fs(body);
    assert!(
        m.insts.iter().any(|i| i.op.is_indirect()),
        "the shader uses an indirect op"
    );
    let mut t = shader::back::tgsi::TgsiText::new();
    emit(&m, None, &mut t).unwrap_or_else(|e| panic!("emit: {}", e));
    check_tgsi(&t).unwrap_or_else(|e| panic!("{}\n{}", e, t.as_str()));
    // CSIR v2 keeps the indirect ops (its name table does not take `name[i]` uniforms yet).
    if !m.iface.uniforms.iter().any(|u| u.name.contains('[')) {
        let mut buf = vec![0u8; CSIR_MAX];
        let n = csir::save(&m, Version::V2, &mut buf).expect("saves");
        let back = csir::load(&buf[..n]).expect("loads");
        assert_eq!(back, m, "CSIR v2 keeps the indirect ops");
    }
    let exe = Executable::new(&m, None).expect("verified");
    let mut uni = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter().enumerate() {
        uni[i * 4..i * 4 + 4].copy_from_slice(u);
    }
    let inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    let textures = [None; SAMPLER_MAX];
    let mut fc = [[0.0; LANES]; 4];
    for l in 0..LANES {
        fc[0][l] = l as f32 + 0.5;
    }
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut regs = Box::new(Regs::new());
    let mut out = Box::new(Outputs::new());
    assert_eq!(exe.run(&mut regs, &inv, &mut out, ALL_LANES), ALL_LANES);
    (0..LANES)
        .map(|l| {
            [
                out.color[0][l],
                out.color[1][l],
                out.color[2][l],
                out.color[3][l],
            ]
        })
        .collect()
}

fn clamp(i: i32, len: i32) -> i32 {
    i.clamp(0, len - 1)
}

#[test]
fn local_array_reads_clamp_the_index() {
    let c = run(
        "void main() { float a[5] = float[](10.0, 11.0, 12.0, 13.0, 14.0);
           int i = int(gl_FragCoord.x) - 3;
           o = vec4(a[i], a[i + 1], a[-i], 1.0); }",
        &[],
    );
    for (l, px) in c.iter().enumerate() {
        let i = l as i32 - 3;
        let want = |k: i32| 10.0 + clamp(k, 5) as f32;
        assert_eq!(px[0], want(i), "lane {}", l);
        assert_eq!(px[1], want(i + 1), "lane {}", l);
        assert_eq!(px[2], want(-i), "lane {}", l);
    }
}

#[test]
fn writes_through_a_dynamic_index_touch_one_clamped_element() {
    let c = run(
        "void main() { vec2 a[4];
           int i = int(gl_FragCoord.x) - 1;
           a[i] = vec2(5.0, 6.0);
           a[i].y += 1.0;
           o = vec4(a[0].x + 2.0 * a[1].x + 4.0 * a[2].x + 8.0 * a[3].x, a[i < 0 ? 0 : (i > 3 ? 3 : i)].y, 0.0, 1.0); }",
        &[],
    );
    for (l, px) in c.iter().enumerate() {
        let k = clamp(l as i32 - 1, 4);
        assert_eq!(px[0], 5.0 * (1 << k) as f32, "lane {}", l);
        assert_eq!(px[1], 7.0, "lane {}", l);
    }
}

#[test]
fn a_bubble_sort_in_a_dynamic_loop_sorts() {
    let c = run(
        "uniform int n;
         void main() { float v[6];
           for (int i = 0; i < 6; i++) v[i] = fract(float(i) * 0.618 + gl_FragCoord.x * 0.1);
           for (int i = 0; i < n - 1; i++)
             for (int j = 0; j < n - 1 - i; j++)
               if (v[j] > v[j + 1]) { float t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
           o = vec4(v[0], v[1] * 10.0 + v[2], v[3] * 10.0 + v[4], v[5]); }",
        &[[f32::from_bits(6), 0.0, 0.0, 0.0]], // int uniforms hold 32-bit patterns
    );
    for (l, px) in c.iter().enumerate() {
        let mut v: Vec<f32> = (0..6)
            .map(|i| {
                let x = i as f32 * 0.618f32 + (l as f32 + 0.5) * 0.1f32;
                x - x.floor()
            })
            .collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(
            *px,
            [v[0], v[1] * 10.0 + v[2], v[3] * 10.0 + v[4], v[5]],
            "lane {}",
            l
        );
    }
}

#[test]
fn uniform_arrays_of_vectors_matrices_and_structs() {
    // offs[4] at slots 0..4, bones[2] at 4..12, then the struct array (2 leaves each).
    let mut u = vec![];
    for k in 0..4 {
        u.push([k as f32, 10.0 + k as f32, 0.0, 0.0]);
    }
    for b in 0..2 {
        for col in 0..4 {
            u.push([100.0 * b as f32 + col as f32, 0.5, 0.0, 0.0]);
        }
    }
    for k in 0..3 {
        u.push([1000.0 + k as f32, 0.0, 0.0, 0.0]);
        u.push([2000.0 + k as f32, 0.0, 0.0, 0.0]);
    }
    let c = run(
        "uniform vec2 offs[4]; uniform mat4 bones[2];
         struct L { float a; float b; }; uniform L ls[3];
         void main() { int i = int(gl_FragCoord.x);
           mat4 m = bones[i - 1];
           o = vec4(offs[i].y, m[i - 2].x, ls[i].a + ls[i - 1].b, 1.0); }",
        &u,
    );
    for (l, px) in c.iter().enumerate() {
        let i = l as i32;
        assert_eq!(px[0], 10.0 + clamp(i, 4) as f32, "lane {}", l);
        assert_eq!(
            px[1],
            100.0 * clamp(i - 1, 2) as f32 + clamp(i - 2, 4) as f32,
            "lane {}",
            l
        );
        assert_eq!(
            px[2],
            1000.0 + clamp(i, 3) as f32 + 2000.0 + clamp(i - 1, 3) as f32,
            "lane {}",
            l
        );
    }
}

#[test]
fn vector_lanes_and_matrix_columns_read_and_write() {
    let c = run(
        "void main() { int i = int(gl_FragCoord.x) - 2;
           vec4 v = vec4(1.0, 2.0, 3.0, 4.0);
           v[i] = 9.0;
           mat3 m = mat3(1.0);
           m[i] = vec3(7.0);
           m[i][i + 1] = 5.0;
           o = vec4(v[i + 1], v.x + v.y * 10.0 + v.z * 100.0 + v.w * 1000.0, m[0].x + m[1].y * 10.0 + m[2].z * 100.0, m[i < 0 ? 0 : (i > 2 ? 2 : i)][i + 1 > 2 ? 2 : i + 1]); }",
        &[],
    );
    for (l, px) in c.iter().enumerate() {
        let i = l as i32 - 2;
        let mut v = [1.0f32, 2.0, 3.0, 4.0];
        v[clamp(i, 4) as usize] = 9.0;
        let mut m = [[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        m[clamp(i, 3) as usize] = [7.0; 3];
        m[clamp(i, 3) as usize][clamp(i + 1, 3) as usize] = 5.0;
        assert_eq!(px[0], v[clamp(i + 1, 4) as usize], "lane {}", l);
        assert_eq!(
            px[1],
            v[0] + v[1] * 10.0 + v[2] * 100.0 + v[3] * 1000.0,
            "lane {}",
            l
        );
        assert_eq!(
            px[2],
            m[0][0] + m[1][1] * 10.0 + m[2][2] * 100.0,
            "lane {}",
            l
        );
        assert_eq!(px[3], 5.0, "lane {}", l);
    }
}

#[test]
fn struct_array_elements_and_nested_indexes() {
    let c = run(
        "struct S { vec3 p; float w[2]; };
         void main() { S s[3];
           int i = int(gl_FragCoord.x);
           for (int k = 0; k < 3; k++) { s[k].p = vec3(float(k)); s[k].w[0] = 0.0; s[k].w[1] = 0.0; }
           s[i].w[i - 1] = 4.0;
           s[i - 2].p.y += 2.0;
           S t = s[i];
           o = vec4(t.w[0] + 10.0 * t.w[1], s[0].p.y + 10.0 * s[1].p.y + 100.0 * s[2].p.y, 0.0, 1.0); }",
        &[],
    );
    for (l, px) in c.iter().enumerate() {
        let i = l as i32;
        let mut w = [[0.0f32; 2]; 3];
        let mut py = [0.0f32, 1.0, 2.0];
        w[clamp(i, 3) as usize][clamp(i - 1, 2) as usize] = 4.0;
        py[clamp(i - 2, 3) as usize] += 2.0;
        let t = w[clamp(i, 3) as usize];
        assert_eq!(px[0], t[0] + 10.0 * t[1], "lane {}", l);
        assert_eq!(px[1], py[0] + 10.0 * py[1] + 100.0 * py[2], "lane {}", l);
    }
}

#[test]
fn the_verifier_refuses_ranges_outside_the_module() {
    let mut m = compile_fs(
        "uniform int n; void main() { float a[3] = float[](1.0, 2.0, 3.0); o = vec4(a[n]); }",
    );
    let k = m
        .insts
        .iter()
        .position(|i| i.op == Op::LoadIdx)
        .expect("a LOAD_IDX");
    let good = m.insts[k];
    m.insts[k].aux = m.temps as i16; // len past the temps
    let e = shader::ir::verify::verify(&m).unwrap_err();
    assert!(e.message.contains("indirect temp range"), "{}", e);
    m.insts[k] = good;
    m.insts[k].c = good.aux2; // offset == stride
    assert!(shader::ir::verify::verify(&m).is_err());
    m.insts[k] = good;
    m.profile = shader::limits::Profile::P1;
    assert!(shader::ir::verify::verify(&m).is_err());
}
