//! Interpreter vs compiled form on one straight-line fragment shader (the peer is the
//! interpreter, same run): 32-lane dispatches of a shader of a few dozen ops.
use criterion::{criterion_group, criterion_main, Criterion};
use shader::back::exec::jit::Frame;
use shader::back::exec::lanes::LANES;
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::ir::Stage;
use std::hint::black_box;

const FS: &str = "#version 330
in vec4 a;
in vec4 b;
uniform vec4 u;
uniform vec4 w;
out vec4 c;
void main() {
    vec4 t = a * u + b;
    vec4 s = t * t - a * w.x;
    float d = dot(s.xyz, t.xyz) + dot(a, b);
    c = (s * d + t.wzyx * w.y) / (abs(u) + vec4(1.0));
}
";

fn bench(cr: &mut Criterion) {
    let m = shader::program::compile::compile(Stage::Fragment as u32, FS.as_bytes(), "bench")
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
    let mut g = cr.benchmark_group("straight_1000_dispatches");
    g.bench_function("interpreter", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                black_box(exe.run(&mut regs, &inv, &mut out, u32::MAX));
            }
        })
    });
    let mut frame = Box::new(Frame::new());
    // The frame is filled once per draw (here once): uniforms, immediates, bank registers.
    exe.prepare_frame(&mut frame, &uniforms);
    // The compiled path's own per-dispatch overhead (the call does nothing).
    g.bench_function("frame_only", |b| {
        b.iter(|| {
            for _ in 0..1000 {
                black_box(exe.run_compiled(
                    &mut frame,
                    &mut |_, _, _, _, _| {},
                    inv.inputs,
                    inv.fragcoord,
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
                    exe.prepare_frame(&mut frame, &uniforms);
                    black_box(code.run(&exe, &mut frame, &inv, &mut out, u32::MAX));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
