//! x86_64 machine layer: boot glue, port I/O, descriptor tables, faults and paging tweaks.
//!
//! Owns every instruction that only makes sense on this CPU. Must never: hold policy (what to print,
//! which tests to run) beyond reporting a fault and leaving QEMU.
pub mod boot;
pub mod gdt;
pub mod idt;
pub mod lapic;
pub mod paging;
pub mod port;

/// Masks every line of both 8259 PICs. The kernel polls and never enables interrupts; masking
/// also keeps a stray `sti` from delivering IRQ 0-7 on vectors 8-15, where exceptions live.
pub fn mask_legacy_pic() {
    // SAFETY: the PIC data ports belong to this module; masking has no other effect.
    unsafe {
        port::outb(0x21, 0xFF);
        port::outb(0xA1, 0xFF);
    }
}

/// Stops the CPU for good (used after asking QEMU to exit, in case the exit device is missing).
pub fn halt_forever() -> ! {
    loop {
        // SAFETY: cli/hlt only stop this CPU; nothing else depends on it running.
        unsafe { core::arch::asm!("cli", "hlt", options(nomem, nostack)) };
    }
}
