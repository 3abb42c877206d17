//! Leaving QEMU through the isa-debug-exit device (iobase 0xf4), the only way the guest reports a
//! status to run-qemu.sh. QEMU exits with `(code << 1) | 1`; run-qemu.sh maps the codes back.
//!
//! Must never: return.
use crate::arch::port::outl;

/// The guest's verdicts. Keep in sync with the table in run-qemu.sh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ExitCode {
    /// QEMU status 33: every selected test passed (or the job finished).
    Success = 0x10,
    /// QEMU status 35: at least one selftest failed.
    TestsFailed = 0x11,
    /// QEMU status 37: the kernel panicked.
    Panic = 0x12,
    /// QEMU status 39: a CPU exception reached the fault handler.
    Fault = 0x13,
    /// QEMU status 41: boot could not continue (bad start info, no memory...).
    BootError = 0x14,
}

pub fn exit_qemu(code: ExitCode) -> ! {
    // SAFETY: port 0xf4 is the isa-debug-exit device run-qemu.sh always attaches; writing it ends
    // the VM. Without the device the write is ignored and we halt below.
    unsafe { outl(0xf4, code as u32) };
    crate::arch::halt_forever()
}
