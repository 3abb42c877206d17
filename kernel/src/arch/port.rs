//! Raw x86 port I/O. Callers own the meaning of each port; this module only moves bytes.
use core::arch::asm;

/// # Safety
/// Writing an arbitrary port can reprogram hardware; the caller must own `port`.
pub unsafe fn outb(port: u16, value: u8) {
    // SAFETY: the caller owns the port (see function contract).
    unsafe {
        asm!("out dx, al", in("dx") port, in("al") value, options(nomem, nostack, preserves_flags))
    };
}

/// # Safety
/// Reading some ports has side effects; the caller must own `port`.
pub unsafe fn inb(port: u16) -> u8 {
    let value: u8;
    // SAFETY: the caller owns the port (see function contract).
    unsafe {
        asm!("in al, dx", out("al") value, in("dx") port, options(nomem, nostack, preserves_flags))
    };
    value
}

/// # Safety
/// As for [`outb`].
pub unsafe fn outl(port: u16, value: u32) {
    // SAFETY: the caller owns the port (see function contract).
    unsafe {
        asm!("out dx, eax", in("dx") port, in("eax") value, options(nomem, nostack, preserves_flags))
    };
}

/// # Safety
/// As for [`inb`].
pub unsafe fn inl(port: u16) -> u32 {
    let value: u32;
    // SAFETY: the caller owns the port (see function contract).
    unsafe {
        asm!("in eax, dx", out("eax") value, in("dx") port, options(nomem, nostack, preserves_flags))
    };
    value
}
