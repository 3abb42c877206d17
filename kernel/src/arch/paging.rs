//! Adjustments to the boot identity map (0-4 GiB, 2 MiB pages, built in boot/pvh.s).
//!
//! Owns two holes: the first 2 MiB (so null pointers fault) and the guard page under the boot stack
//! (so an overflow faults). Must never: unmap memory the heap, the image or a device uses.
use core::arch::asm;

unsafe extern "C" {
    static mut boot_pd: [u64; 2048];
    static __stack_guard: u8;
    static __stack_bottom: u8;
    static __stack_top: u8;
    static __kernel_start: u8;
    static __kernel_end: u8;
}

/// The 2 MiB unmapped page below the boot stack.
pub fn stack_guard() -> core::ops::Range<u64> {
    let start = &raw const __stack_guard as u64;
    start..start + 0x20_0000
}

/// The boot stack (the guard page sits just below it).
pub fn boot_stack() -> core::ops::Range<u64> {
    (&raw const __stack_bottom) as u64..(&raw const __stack_top) as u64
}

/// Physical memory taken by the image, its guard page and the boot stack.
pub fn kernel_image() -> core::ops::Range<u64> {
    (&raw const __kernel_start) as u64..(&raw const __kernel_end) as u64
}

fn unmap_2m(address: u64) {
    let index = (address >> 21) as usize;
    // SAFETY: the boot page directory is live and identity-maps 0-4 GiB; clearing one entry of a
    // page no one uses and flushing it leaves every other mapping intact.
    unsafe {
        let pd = &raw mut boot_pd;
        if index < 2048 {
            (*pd)[index] = 0;
        }
        asm!("invlpg [{}]", in(reg) address, options(nostack, preserves_flags));
    }
}

/// Unmaps page 0 (null guard; call only after the PVH start info has been copied out of it) and
/// the stack guard page.
pub fn protect() {
    unmap_2m(0);
    unmap_2m(stack_guard().start);
}
