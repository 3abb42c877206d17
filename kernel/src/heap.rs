//! The global allocator: talc over every usable RAM region of the PVH memory map that lies above
//! the kernel image and inside the 4 GiB identity map.
//!
//! Must never: hand out memory below the end of the image/stack, or outside the identity map (DMA
//! buffers come from this heap and their virtual address is their physical address).
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use talc::lock_api::{GuardSend, RawMutex};
use talc::source::Manual;

use crate::bootinfo::MemRegion;

/// A spinlock for talc: shared by every CPU (jobs on application processors allocate too). No
/// interrupt handler allocates, so holding it with interrupts on cannot deadlock.
pub struct SpinRaw(AtomicBool);

// SAFETY: a textbook test-and-set lock: `lock` returns only after swapping false -> true with
// Acquire, `unlock` stores false with Release.
unsafe impl RawMutex for SpinRaw {
    #[allow(clippy::declare_interior_mutable_const)]
    const INIT: Self = SpinRaw(AtomicBool::new(false));
    type GuardMarker = GuardSend;

    fn lock(&self) {
        while self
            .0
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
    }

    fn try_lock(&self) -> bool {
        self.0
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    unsafe fn unlock(&self) {
        self.0.store(false, Ordering::Release);
    }
}

#[global_allocator]
static ALLOCATOR: talc::TalcLock<SpinRaw, Manual> = talc::TalcLock::new(Manual);

static HEAP_BYTES: AtomicU64 = AtomicU64::new(0);

/// Smallest region worth claiming.
const MIN_REGION: u64 = 64 * 1024;

pub struct HeapReport {
    pub bytes: u64,
    pub regions: usize,
}

/// Claims the usable RAM. `reserved_below` is the end of the kernel image (and its stack).
pub fn init(memory: &[MemRegion], reserved_below: u64) -> HeapReport {
    let mut report = HeapReport {
        bytes: 0,
        regions: 0,
    };
    let limit = 1u64 << 32;
    // The largest region first: talc keeps its metadata in the first heap it is given.
    let mut order: heapless::Vec<MemRegion, { crate::bootinfo::MEMMAP_MAX }> = heapless::Vec::new();
    for region in memory.iter().filter(|r| r.is_ram()) {
        let start = region.start.max(reserved_below);
        let end = region.end().min(limit);
        if end > start && end - start >= MIN_REGION {
            let _ = order.push(MemRegion {
                start,
                size: end - start,
                kind: region.kind,
            });
        }
    }
    order.sort_unstable_by_key(|r| core::cmp::Reverse(r.size));
    let mut talc = ALLOCATOR.lock();
    for region in &order {
        // SAFETY: the region is usable RAM from the firmware map, above the image and the boot
        // stack, inside the identity map, and nothing else uses it.
        let claimed = unsafe { talc.claim(region.start as *mut u8, region.size as usize) };
        if claimed.is_some() {
            report.bytes += region.size;
            report.regions += 1;
        }
    }
    HEAP_BYTES.store(report.bytes, Ordering::Relaxed);
    report
}

/// Bytes handed to the allocator at boot.
pub fn total_bytes() -> u64 {
    HEAP_BYTES.load(Ordering::Relaxed)
}
