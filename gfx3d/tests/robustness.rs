//! No call sequence panics: random operations with random (often stale, foreign or forged)
//! handles and out-of-range arguments on the mock, software and fault-injected device backends.
//! Deterministic (xorshift), so a failure reproduces.
mod common;

use common::*;
use gfx3d::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn f(&mut self) -> f32 {
        match self.below(6) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1e30,
            _ => (self.below(4000) as f32 - 2000.0) / 500.0,
        }
    }
}

/// A random element; with a current owner set, prefers that owner's objects.
fn pick<T: Copy>(r: &mut Rng, v: &[(u32, T)], owner: u32) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    let mine: Vec<T> = v
        .iter()
        .filter(|(o, _)| *o == owner)
        .map(|(_, h)| *h)
        .collect();
    if !mine.is_empty() && r.below(8) != 0 {
        return Some(mine[r.below(mine.len() as u64) as usize]);
    }
    Some(v[r.below(v.len() as u64) as usize].1)
}

fn fuzz(
    g: &mut Gfx3d<FakeProgram>,
    seed: u64,
    log: Option<std::sync::Arc<std::sync::Mutex<DevLog>>>,
) {
    let mut r = Rng(seed);
    let (mut ok_begin, mut ok_draw) = (0u32, 0u32);
    let (mut ctxs, mut targets, mut meshes, mut texes, mut progs) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..3000 {
        let owner = if r.below(4) == 0 {
            r.below(3) as u32
        } else {
            1
        };
        if let Some(l) = &log {
            if r.below(200) == 0 {
                l.lock().unwrap().fail = Some(
                    [
                        "draw",
                        "clear",
                        "frame_end",
                        "buffer_create",
                        "texture_create",
                        "target_create",
                        "read_target",
                        "context_create",
                    ][r.below(8) as usize],
                );
            }
        }
        // Forget dead objects now and then so the sequences keep reaching deep paths.
        if r.below(25) == 0 {
            ctxs.retain(|(o, c)| g.is_live_context(*o, *c));
            targets.retain(|(o, (_, t))| g.target_size(*o, *t).is_ok());
            meshes.retain(|(o, m)| g.mesh_usage(*o, *m).is_ok());
            texes.retain(|(o, t)| g.tex_size(*o, *t).is_ok());
            progs.retain(|(o, (_, p))| g.program(*o, *p).is_ok());
        }
        let forged = |r: &mut Rng| (r.next() as u32).max(1);
        match r.below(24) {
            0 => {
                if let Ok(c) = g.context_create(owner) {
                    ctxs.push((owner, c))
                }
            }
            1 => {
                let c = pick(&mut r, &ctxs, owner)
                    .unwrap_or(ContextId::from_u32(forged(&mut r)).unwrap());
                let (w, h) = (r.below(2000) as u32, r.below(1100) as u32);
                if let Ok(t) = g.target_create(owner, c, w.min(64), h.min(64)) {
                    targets.push((owner, (c, t)))
                }
            }
            2 => {
                if let Ok(m) = g.mesh_create(owner, Usage::from_u32(r.below(5) as u32)) {
                    meshes.push((owner, m))
                }
            }
            3 => {
                if let Ok(t) =
                    g.tex_create(owner, r.below(1100) as u32 % 40, r.below(1100) as u32 % 40)
                {
                    texes.push((owner, t))
                }
            }
            4 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let mut p = FakeProgram::mvp();
                    p.linked = r.below(4) != 0;
                    p.fill = Some(0xFF00_FF00);
                    if let Ok(id) = g.prog_prepare(owner, c, p) {
                        progs.push((owner, (c, id)))
                    }
                }
            }
            5 => {
                if let Some(m) = pick(&mut r, &meshes, owner) {
                    let n = r.below(40) as usize;
                    let v: Vec<f32> = (0..n).map(|_| r.f()).collect();
                    let ix: Vec<u16> = (0..r.below(9)).map(|_| r.below(8) as u16).collect();
                    let stride = [4u32, 8, 16, 32, 6, 0, 4096][r.below(7) as usize];
                    let els: Vec<Element> = (0..r.below(10))
                        .map(|_| Element {
                            location: r.below(10) as u8,
                            components: r.below(6) as u8,
                            offset: r.below(40) as u32,
                        })
                        .collect();
                    if let Ok(l) = VertexLayout::new(stride, &els) {
                        let _ = g.mesh_upload_f32(
                            owner,
                            m,
                            &l,
                            &v,
                            if r.below(2) == 0 { None } else { Some(&ix) },
                        );
                    }
                    let _ = g.mesh_upload_f32(owner, m, &tri_layout(), &red_triangle(), None);
                }
            }
            6 => {
                if let Some(m) = pick(&mut r, &meshes, owner) {
                    let _ =
                        g.mesh_vertex(owner, m, [r.f(), r.f(), r.f()], [r.f(); 3], [r.f(), r.f()]);
                    if r.below(5) == 0 {
                        let _ = g.mesh_finish(owner, m);
                    }
                }
            }
            7 => {
                if let Some(t) = pick(&mut r, &texes, owner) {
                    let n = r.below(50) as usize;
                    let px: Vec<u32> = (0..n).map(|_| r.next() as u32).collect();
                    let _ = g.tex_upload(owner, t, &px);
                    let _ = g.tex_sampler(owner, t, SamplerState::default());
                }
            }
            8 => {
                if let Some((c, t)) = pick(&mut r, &targets, owner) {
                    ok_begin += g.begin(owner, c, t).is_ok() as u32;
                }
            }
            9 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let _ = g.clear(owner, c, [r.f(), r.f(), r.f(), r.f()], r.below(2) == 0);
                }
            }
            10 => {
                if let Some((c, p)) = pick(&mut r, &progs, owner) {
                    let _ = g.use_program(owner, c, p);
                }
            }
            11 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let _ =
                        g.bind_texture(owner, c, r.below(6) as u32, pick(&mut r, &texes, owner));
                }
            }
            12 => {
                let c = pick(&mut r, &progs, owner).map(|(c, _)| c);
                if let (Some(c), Some(m)) = (c, pick(&mut r, &meshes, owner)) {
                    ok_draw += g.draw(owner, c, m).is_ok() as u32;
                }
            }
            13 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let _ = g.end(owner, c);
                }
            }
            14 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let _ = g.viewport(
                        owner,
                        c,
                        r.next() as i32 % 9000,
                        r.next() as i32 % 9000,
                        r.below(9000) as u32,
                        r.below(9000) as u32,
                    );
                    let _ = g.depth_test(owner, c, r.below(2) == 0);
                    let _ = g.cull_back(owner, c, r.below(2) == 0);
                }
            }
            15 => {
                if let Some(c) = pick(&mut r, &ctxs, owner) {
                    let _ = g.camera(owner, c, [r.f(), r.f(), r.f()], r.f(), r.f());
                    let _ = g.perspective(owner, c, r.f(), r.f(), r.f());
                    let m = Mat4([r.f(); 16]);
                    let _ = g.set_model(owner, c, &m);
                    let _ = g.uniform_mat4(owner, c, "model", &m);
                    let _ = g.uniform_f(owner, c, "tint", &[r.f(); 4]);
                }
            }
            16 => {
                if let Some((_, t)) = pick(&mut r, &targets, owner) {
                    let _ = g.target_resize(owner, t, r.below(70) as u32, r.below(70) as u32);
                    let mut out = vec![0u32; r.below(5000) as usize];
                    let _ = g.target_read(owner, t, &mut out);
                    let _ = g.present_scanout(owner, t);
                }
            }
            17 => {
                if let (Some(c), 0) = (pick(&mut r, &ctxs, owner), r.below(4)) {
                    let _ = g.context_destroy(owner, c);
                }
            }
            18 => {
                let _ = pick(&mut r, &meshes, owner).map(|m| g.mesh_destroy(owner, m));
                let _ = pick(&mut r, &texes, owner).map(|t| g.tex_destroy(owner, t));
            }
            19 => {
                let _ = pick(&mut r, &progs, owner).map(|(_, p)| g.program_destroy(owner, p));
                let _ = pick(&mut r, &targets, owner).map(|(_, t)| g.target_destroy(owner, t));
                if let Some((_, p)) = pick(&mut r, &progs, owner) {
                    if let Ok(p) = g.program_mut(owner, p) {
                        p.generation += 1;
                    }
                }
            }
            20 => {
                if r.below(20) == 0 {
                    g.drop_owner(owner);
                }
                let _ = g.stats();
                if r.below(10) == 0 {
                    g.stats_reset();
                }
            }
            21 | 22 => {
                // A coherent frame with random details, so the draw paths are reached.
                if let Some((c, t)) = pick(&mut r, &targets, owner) {
                    ok_begin += g.begin(owner, c, t).is_ok() as u32;
                    let _ = g.clear(owner, c, [r.f(), 0.5, 0.5, 1.0], r.below(2) == 0);
                    if let Some((_, p)) = progs
                        .iter()
                        .find(|(o, (pc, _))| *o == owner && *pc == c)
                        .map(|x| x.1)
                    {
                        let _ = g.use_program(owner, c, p);
                    }
                    for _ in 0..3 {
                        if let Some(m) = pick(&mut r, &meshes, owner) {
                            ok_draw += g.draw(owner, c, m).is_ok() as u32;
                        }
                    }
                    let _ = g.end(owner, c);
                }
            }
            _ => {
                // Forged handles of every kind.
                let h = forged(&mut r);
                let _ = g.mesh_destroy(owner, MeshId::from_u32(h).unwrap());
                let _ = g.tex_destroy(owner, TextureId::from_u32(h).unwrap());
                let _ = g.target_destroy(owner, TargetId::from_u32(h).unwrap());
                let _ = g.program_destroy(owner, ProgramId::from_u32(h).unwrap());
                let _ = g.context_destroy(owner, ContextId::from_u32(h).unwrap());
            }
        }
    }
    let s = g.stats();
    eprintln!(
        "seed {}: {} begins and {} draws succeeded, backend {} ({:?})",
        seed,
        ok_begin,
        ok_draw,
        g.backend_name(),
        s.backend
    );
    if g.backend_name() != "virgl-lost" {
        assert!(
            ok_begin > 10 && ok_draw > 10,
            "the sequence must reach the drawing paths"
        );
    }
    for o in 0..3 {
        g.drop_owner(o);
    }
    assert_nothing_live(&g.stats(), "after dropping every owner");
}

#[test]
fn random_call_sequences_never_panic() {
    for seed in 1..=6u64 {
        let mut g = Gfx3d::<FakeProgram>::new();
        match seed % 3 {
            0 => g.boot(BackendMode::Mock, None).unwrap(),
            1 => g.boot(BackendMode::Software, None).unwrap(),
            _ => {
                let (dev, log) = FakeDevice::new();
                let mode = if seed % 2 == 0 {
                    BackendMode::Auto
                } else {
                    BackendMode::Virgl
                };
                g.boot(mode, Some(Box::new(dev))).unwrap();
                fuzz(&mut g, seed * 7919, Some(log));
                continue;
            }
        }
        fuzz(&mut g, seed * 7919, None);
    }
}
