//! Interpreter vs compiled form on one straight-line fragment shader (the peer is the
//! interpreter, same run): 32-lane dispatches of a shader of a few dozen ops, and of one with
//! an IF/ELSE nest and a DISCARD (`branchy_1000_dispatches`: the compiled form runs both sides
//! under lane masks, the interpreter each side for its lanes).
use criterion::{criterion_group, criterion_main, Criterion};
use shader::back::exec::jit::Frame;
use shader::back::exec::lanes::LANES;
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::ir::Stage;
use std::hint::black_box;

/// The declarations both shaders share.
const HEAD: &str = "#version 330
in vec4 a;
in vec4 b;
uniform vec4 u;
uniform vec4 w;
out vec4 c;
";

const FS: &str = "void main() {
    vec4 t = a * u + b;
    vec4 s = t * t - a * w.x;
    float d = dot(s.xyz, t.xyz) + dot(a, b);
    c = (s * d + t.wzyx * w.y) / (abs(u) + vec4(1.0));
}
";

const FS_IF: &str = "void main() {
    vec4 t = a * u + b;
    if (t.x > 0.2) {
        t = t * t - a * w.x;
        if (t.y < 0.1) { t.zw = b.xy * w.z; } else { t = t.wzyx + u; }
    } else {
        if (a.y > 0.9) discard;
        t = (t + vec4(dot(a, b))) / (abs(u) + vec4(1.0));
    }
    c = t;
}
";

fn bench(cr: &mut Criterion) {
    bench_one(cr, FS, "straight_1000_dispatches");
    bench_one(cr, FS_IF, "branchy_1000_dispatches");
}

fn bench_one(cr: &mut Criterion, body: &str, group: &str) {
    let fs = format!("{HEAD}{body}");
    let m = shader::program::compile::compile(Stage::Fragment as u32, fs.as_bytes(), "bench")
        .expect("compiles")
        .module;
    let exe = Executable::new(&m, None).expect("verifies");
    let uniforms = [0.5f32; 128];
    let mut inputs = Box::new([[[0.0f32; LANES]; 4]; 16]);
    for (s, v) in inputs.iter_mut().enumerate() {
        for (c, v) in v.iter_mut().enumerate() {
            for (l, x) in v.iter_mut().enumerate() {
                *x = (s * 7 + c * 3 + l) as f32 * 0.01;
            }
        }
    }
    let fragcoord = [[0.0f32; LANES]; 4];
    let inv = Invocation {
        uniforms: &uniforms,
        textures: &[],
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut out = Box::new(Outputs::new());
    let mut regs = Box::new(Regs::new());
    let mut g = cr.benchmark_group(group);
    g.bench_function("interpreter", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                black_box(exe.run(&mut regs, &inv, &mut out, u32::MAX));
            }
        })
    });
    let mut frame = vec![Frame::new()];
    // The frame is filled once per draw (here once): uniforms, immediates, bank registers.
    exe.prepare_frame(&mut frame[0], &uniforms);
    // The compiled path's own per-dispatch overhead (the call does nothing).
    g.bench_function("frame_only", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                black_box(exe.run_compiled(
                    &mut frame,
                    &mut |_, _, _, _, _, _| {},
                    &inv,
                    &mut out,
                    u32::MAX,
                ));
            }
        })
    });
    if let Ok(code) = jitmem::Code::new(&exe) {
        g.bench_function("jit", |b| {
            b.iter(|| {
                for _ in 0..1000 {
                    black_box(code.run(&exe, &mut frame, &inv, &mut out, u32::MAX));
                }
            })
        });
        // Filling the frame per dispatch as well (what a caller without a per-draw frame pays).
        g.bench_function("jit_fill_each", |b| {
            b.iter(|| {
                for _ in 0..1000 {
                    exe.prepare_frame(&mut frame[0], &uniforms);
                    black_box(code.run(&exe, &mut frame, &inv, &mut out, u32::MAX));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
