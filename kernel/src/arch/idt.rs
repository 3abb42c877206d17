//! The IDT and the fault report. Every CPU exception (vectors 0-31) is fatal: the handler prints the
//! vector, its name, RIP, the error code, CR2 for page faults and the registers, then leaves QEMU
//! with the fault status. It runs on the IST1 stack (see gdt.rs).
//!
//! Must never: return to the faulting code, allocate, or take the console lock.
use core::arch::asm;
use core::fmt::Write;
use core::sync::atomic::{AtomicBool, Ordering};

use crate::exit::{exit_qemu, ExitCode};
use crate::serial::RawWriter;

#[derive(Clone, Copy)]
#[repr(C)]
struct Gate {
    offset_low: u16,
    selector: u16,
    ist: u8,
    attributes: u8,
    offset_mid: u16,
    offset_high: u32,
    reserved: u32,
}

const EMPTY_GATE: Gate = Gate {
    offset_low: 0,
    selector: 0,
    ist: 0,
    attributes: 0,
    offset_mid: 0,
    offset_high: 0,
    reserved: 0,
};

#[repr(C, align(16))]
struct Idt([Gate; 256]);

static mut IDT: Idt = Idt([EMPTY_GATE; 256]);

unsafe extern "C" {
    static isr_stub_table: [u64; 32];
}

#[repr(C, packed)]
struct DescriptorPointer {
    limit: u16,
    base: u64,
}

/// Installs interrupt gates for vectors 0-31, all on IST1.
pub fn init() {
    // SAFETY: runs once on the only CPU with interrupts off; the IDT static is only touched here.
    unsafe {
        let idt = &raw mut IDT;
        for (vector, &handler) in isr_stub_table.iter().enumerate() {
            (*idt).0[vector] = Gate {
                offset_low: handler as u16,
                selector: super::gdt::KERNEL_CODE,
                ist: 1,
                attributes: 0x8E, // present, ring 0, 64-bit interrupt gate
                offset_mid: (handler >> 16) as u16,
                offset_high: (handler >> 32) as u32,
                reserved: 0,
            };
        }
        let pointer = DescriptorPointer {
            limit: (core::mem::size_of::<Idt>() - 1) as u16,
            base: idt as u64,
        };
        asm!("lidt [{}]", in(reg) &pointer, options(readonly, nostack, preserves_flags));
    }
}

/// The stack as boot/isr.s leaves it.
#[repr(C)]
pub struct FaultFrame {
    r15: u64,
    r14: u64,
    r13: u64,
    r12: u64,
    r11: u64,
    r10: u64,
    r9: u64,
    r8: u64,
    rbp: u64,
    rdi: u64,
    rsi: u64,
    rdx: u64,
    rcx: u64,
    rbx: u64,
    rax: u64,
    vector: u64,
    error_code: u64,
    rip: u64,
    cs: u64,
    rflags: u64,
    rsp: u64,
    ss: u64,
}

fn vector_name(vector: u64) -> (&'static str, &'static str) {
    match vector {
        0 => ("#DE", "divide error"),
        1 => ("#DB", "debug"),
        2 => ("NMI", "non-maskable interrupt"),
        3 => ("#BP", "breakpoint"),
        4 => ("#OF", "overflow"),
        5 => ("#BR", "bound range exceeded"),
        6 => ("#UD", "invalid opcode"),
        7 => ("#NM", "device not available"),
        8 => ("#DF", "double fault"),
        10 => ("#TS", "invalid TSS"),
        11 => ("#NP", "segment not present"),
        12 => ("#SS", "stack-segment fault"),
        13 => ("#GP", "general protection fault"),
        14 => ("#PF", "page fault"),
        16 => ("#MF", "x87 floating-point error"),
        17 => ("#AC", "alignment check"),
        18 => ("#MC", "machine check"),
        19 => ("#XM", "SIMD floating-point exception"),
        20 => ("#VE", "virtualization exception"),
        21 => ("#CP", "control protection"),
        _ => ("#??", "reserved exception"),
    }
}

static IN_FAULT: AtomicBool = AtomicBool::new(false);

#[unsafe(no_mangle)]
extern "C" fn fault_entry(frame: &FaultFrame) -> ! {
    if IN_FAULT.swap(true, Ordering::SeqCst) {
        // A fault while reporting a fault: say nothing more, just leave with the fault status.
        exit_qemu(ExitCode::Fault);
    }
    let out = &mut RawWriter;
    let (short, long) = vector_name(frame.vector);
    let _ = write!(
        out,
        "\nCPU FAULT: {} {} (vector {}) at RIP={:#018x} error={:#x}",
        short, long, frame.vector, frame.rip, frame.error_code
    );
    if frame.vector == 14 {
        let cr2: u64;
        // SAFETY: reading CR2 has no side effects.
        unsafe { asm!("mov {}, cr2", out(reg) cr2, options(nomem, nostack, preserves_flags)) };
        let _ = write!(out, " CR2={:#018x}", cr2);
        if super::paging::stack_guard().contains(&cr2) {
            let _ = write!(out, " (boot stack overflow: hit the guard page)");
        } else if cr2 < 0x20_0000 {
            let _ = write!(out, " (null or low pointer: the first 2 MiB are unmapped)");
        }
    }
    let _ = writeln!(out);
    let f = frame;
    let _ = writeln!(
        out,
        "  rax={:#x} rbx={:#x} rcx={:#x} rdx={:#x} rsi={:#x} rdi={:#x}",
        f.rax, f.rbx, f.rcx, f.rdx, f.rsi, f.rdi
    );
    let _ = writeln!(
        out,
        "  rbp={:#x} rsp={:#x} r8={:#x} r9={:#x} r10={:#x} r11={:#x}",
        f.rbp, f.rsp, f.r8, f.r9, f.r10, f.r11
    );
    let _ = writeln!(
        out,
        "  r12={:#x} r13={:#x} r14={:#x} r15={:#x} cs={:#x} ss={:#x} rflags={:#x}",
        f.r12, f.r13, f.r14, f.r15, f.cs, f.ss, f.rflags
    );
    exit_qemu(ExitCode::Fault)
}
