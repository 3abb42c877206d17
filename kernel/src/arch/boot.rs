//! Pulls the PVH entry trampoline (boot/pvh.s), the application-processor start-up (boot/ap.s)
//! and the exception stubs (boot/isr.s) into the image.
//!
//! Must never: contain Rust logic; the assembly hands over to `kernel_main` (and, on each AP, to
//! `smp::ap_main`) with a valid stack, long mode, identity paging of 0-4 GiB and SSE enabled.
core::arch::global_asm!(include_str!("../../../boot/pvh.s"));
core::arch::global_asm!(include_str!("../../../boot/ap.s"));
core::arch::global_asm!(include_str!("../../../boot/isr.s"));
