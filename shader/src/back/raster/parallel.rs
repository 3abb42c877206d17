//! Running a draw's bands at the same time: the [`Workers`] a caller hands to
//! [`draw_parallel`](super::draw_parallel).
//!
//! The rasterizer splits the target into horizontal bands, several per job (a job per worker,
//! each with its own scratch), dealt in groups of interleaved bands (every n-th band), or, for a
//! draw of a few triangles, finer bands in shrinking shares of what is left; the bands wait in
//! a lock-free queue and each job takes the next group whenever it is free, so the workers stay
//! busy however unevenly the work lies over the rows (a two-worker draw's two groups also
//! trade rows, two per draw, toward the group that ended first last time: `Scratch`'s group
//! shift). A band's colour and depth
//! rows are owned outright by the job drawing it (disjoint `&mut` slices); the job shades every
//! vertex once per group, places every triangle of the draw on the target (from window
//! positions found once per vertex) and sets up and rasterizes, in draw order and clipped to
//! each band's rows, those with a block row in one of its bands. Which job draws which band
//! varies from run to run; the pixels do not.
//! Every pixel is
//! computed from the same inputs in the same order as in a one-band draw (the 4x2 block grid is
//! the one the whole scissor gives, a block straddling two bands is shaded in both with the
//! other band's lanes switched off, and lanes never influence each other), so the picture is
//! bit-identical for any band count. Nothing on the pixel path takes a lock.
//!
//! This crate is `no_std`: the caller supplies the threads. [`Serial`] runs the jobs one after
//! the other; with the `std` feature, [`Threads`] runs each job on a scoped thread; the kernel
//! runs them on its CPUs.
//!
//! It must never: run a job twice or not at all, or return before every job has finished.

/// Runs a set of independent jobs.
pub trait Workers {
    /// How many jobs can usefully run at once (the draw makes at most this many jobs).
    fn count(&self) -> usize;
    /// Runs every job exactly once, possibly at the same time, and returns when all have
    /// finished.
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]);
}

/// One worker: jobs run in order on the caller's thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Workers for Serial {
    fn count(&self) -> usize {
        1
    }

    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut() {
            job();
        }
    }
}

/// Stack of each [`Threads`] worker: a fixed size, not the process's `RUST_MIN_STACK` (64 MiB
/// under this workspace's cargo), whose mapping and unmapping every frame cost about 10 us
/// more per draw; a band's job does not recurse and keeps its working memory in its scratch.
#[cfg(feature = "std")]
const WORKER_STACK: usize = 8 << 20;

/// `count` scoped threads (the caller's thread runs the first job).
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug)]
pub struct Threads(pub usize);

#[cfg(feature = "std")]
impl Workers for Threads {
    fn count(&self) -> usize {
        self.0.max(1)
    }

    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let Some((first, rest)) = jobs.split_first_mut() else {
            return;
        };
        // Each job in a slot it is taken from once: a thread that cannot be started leaves
        // its job to run here instead (every job runs exactly once either way).
        let slots: std::vec::Vec<std::sync::Mutex<Option<&mut &mut (dyn FnMut() + Send)>>> = rest
            .iter_mut()
            .map(|j| std::sync::Mutex::new(Some(j)))
            .collect();
        let take = |slot: &std::sync::Mutex<Option<&mut &mut (dyn FnMut() + Send)>>| {
            let job = slot.lock().ok().and_then(|mut j| j.take());
            if let Some(job) = job {
                job();
            }
        };
        std::thread::scope(|s| {
            for slot in &slots {
                let spawned = std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(s, move || take(slot));
                if spawned.is_err() {
                    take(slot);
                }
            }
            first();
        });
    }
}
