//! Adjustments to the boot identity map (0-4 GiB, 2 MiB pages, built in boot/pvh.s).
//!
//! Owns the holes: the first 2 MiB (so null pointers fault), the guard page under the boot stack
//! and one under each application processor's stack (so an overflow faults). Must never: unmap memory the heap, the image or a device uses.
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

/// Unmaps the 2 MiB page at `address` (2 MiB aligned) as a stack guard: smp.rs puts one under each
/// application processor's stack.
///
/// # Safety
/// The page must belong to the caller for good (a leaked allocation nothing else will touch), and
/// no other CPU may have it in its TLB (call before starting the CPUs that could).
pub unsafe fn unmap_guard(address: u64) {
    unmap_2m(address);
}

/// Byte written over the unused boot stack so its high-water mark can be read back.
const STACK_PAINT: u8 = 0xA5;

/// Fills the boot stack below the current frame with a pattern (call once, early).
pub fn paint_stack() {
    let stack = boot_stack();
    let marker = 0u8;
    // Leave the live frames above this one (plus a margin) alone.
    let here = (&raw const marker as u64).saturating_sub(4096);
    if here > stack.start {
        // SAFETY: [stack.start, here) is the unused part of our own stack, below every live frame.
        unsafe {
            core::ptr::write_bytes(
                stack.start as *mut u8,
                STACK_PAINT,
                (here - stack.start) as usize,
            )
        };
    }
}

/// The deepest the boot stack has been used since `paint_stack`, in bytes.
pub fn stack_high_water() -> u64 {
    let stack = boot_stack();
    let mut address = stack.start;
    // SAFETY: the boot stack range is mapped RAM; reading below the live frames races nothing.
    while address < stack.end && unsafe { (address as *const u8).read_volatile() } == STACK_PAINT {
        address += 1;
    }
    stack.end - address
}
