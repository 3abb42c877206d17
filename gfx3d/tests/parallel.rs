//! The software backend split into bands over several threads (`Gfx3d::set_workers`) draws
//! every differential scene (blending, depth functions, masks, scissor, polygon offset,
//! instancing, render to texture, ...) and the demo exactly as one thread does.
use gfx3d::linked::Linked;
use gfx3d::scenes::SCENES;
use gfx3d::{Gfx3d, Workers};

type G = Gfx3d<Linked>;

/// Each job on its own scoped thread.
struct TestThreads(usize);

impl Workers for TestThreads {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        std::thread::scope(|s| {
            for job in jobs.iter_mut() {
                s.spawn(move || job());
            }
        });
    }
}

static TWO: TestThreads = TestThreads(2);
static THREE: TestThreads = TestThreads(3);
static FOUR: TestThreads = TestThreads(4);
static MANY: TestThreads = TestThreads(70);

fn scene(name: &str, f: gfx3d::scenes::SceneFn, workers: Option<&'static TestThreads>) -> Vec<u32> {
    let mut g = G::new();
    if let Some(w) = workers {
        g.set_workers(w);
    }
    f(&mut g, 7).unwrap_or_else(|e| panic!("{}: {}", name, e))
}

#[test]
fn every_scene_is_the_same_on_any_thread_count() {
    for (name, f) in SCENES {
        let one = scene(name, *f, None);
        for w in [&TWO, &THREE, &FOUR, &MANY] {
            let got = scene(name, *f, Some(w));
            let diff = got.iter().zip(&one).filter(|(a, b)| a != b).count();
            assert_eq!(
                diff, 0,
                "{} on {} threads: {} pixels differ",
                name, w.0, diff
            );
            assert_eq!(got.len(), one.len(), "{}", name);
        }
    }
}

#[test]
fn demo_frames_are_the_same_on_any_thread_count() {
    let frames = |workers: Option<&'static TestThreads>| {
        let mut g = G::new();
        if let Some(w) = workers {
            g.set_workers(w);
        }
        let demo = gfx3d::demo::Demo::new(&mut g, 9, 160, 120).unwrap_or_else(|e| panic!("{}", e));
        let mut out = vec![];
        for t in [0, 10, 37] {
            let mut px = vec![0u32; 160 * 120];
            demo.frame(&mut g, t).unwrap();
            demo.read(&mut g, &mut px).unwrap();
            out.push(px);
        }
        let stats = g.stats();
        demo.destroy(&mut g);
        (out, stats.triangles, stats.draws)
    };
    let one = frames(None);
    for w in [&TWO, &THREE] {
        assert!(frames(Some(w)) == one, "demo on {} threads differs", w.0);
    }
}
