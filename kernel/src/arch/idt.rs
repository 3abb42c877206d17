//! The IDT (one, shared by every CPU) and the fault report. Every CPU exception (vectors 0-31) is
//! fatal: the handler prints the vector, its name, the CPU (index and APIC id), RIP, the error code,
//! CR2 for page faults and the registers, then leaves QEMU with the fault status, whichever CPU
//! faulted. It runs on the faulting CPU's own IST1 stack (see gdt.rs).
//!
//! Must never: return to the faulting code, allocate, or take the console lock.
use core::arch::asm;
use core::fmt::Write;
use core::sync::atomic::{AtomicU32, Ordering};

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
    fn isr_wake();
    fn isr_spurious();
}

/// The work queue's wake-up IPI (smp.rs); its stub only acknowledges it.
pub const WAKE_VECTOR: u8 = 0xF0;

fn gate(handler: u64, ist: u8) -> Gate {
    Gate {
        offset_low: handler as u16,
        selector: super::gdt::KERNEL_CODE,
        ist,
        attributes: 0x8E, // present, ring 0, 64-bit interrupt gate
        offset_mid: (handler >> 16) as u16,
        offset_high: (handler >> 32) as u32,
        reserved: 0,
    }
}

#[repr(C, packed)]
struct DescriptorPointer {
    limit: u16,
    base: u64,
}

/// Installs interrupt gates for vectors 0-31, all on IST1, plus the wake-up and spurious vectors
/// (on the current stack), and loads the IDT on the boot CPU.
pub fn init() {
    // SAFETY: runs once on the boot CPU with interrupts off, before any other CPU starts; the IDT
    // static is written only here and read-only afterwards.
    unsafe {
        let idt = &raw mut IDT;
        for (vector, &handler) in isr_stub_table.iter().enumerate() {
            (*idt).0[vector] = gate(handler, 1);
        }
        (*idt).0[WAKE_VECTOR as usize] = gate(isr_wake as *const () as u64, 0);
        (*idt).0[super::lapic::SPURIOUS_VECTOR as usize] =
            gate(isr_spurious as *const () as u64, 0);
    }
    load();
}

/// Loads the shared IDT on this CPU (every application processor calls it once).
pub fn load() {
    let pointer = DescriptorPointer {
        limit: (core::mem::size_of::<Idt>() - 1) as u16,
        base: &raw const IDT as u64,
    };
    // SAFETY: the IDT is a static filled by `init` before any CPU other than the boot CPU runs.
    unsafe { asm!("lidt [{}]", in(reg) &pointer, options(readonly, nostack, preserves_flags)) };
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

/// APIC id + 1 of the CPU reporting a fault (0: none).
static IN_FAULT: AtomicU32 = AtomicU32::new(0);

#[unsafe(no_mangle)]
extern "C" fn fault_entry(frame: &FaultFrame) -> ! {
    let apic_id = super::lapic::cpuid_id();
    if let Err(owner) =
        IN_FAULT.compare_exchange(0, apic_id + 1, Ordering::SeqCst, Ordering::SeqCst)
    {
        if owner == apic_id + 1 {
            // A fault while reporting a fault: say nothing more, just leave with the fault status.
            exit_qemu(ExitCode::Fault);
        }
        // Another CPU is reporting its fault and will end the run; stay out of its way.
        super::halt_forever();
    }
    let out = &mut RawWriter;
    let (short, long) = vector_name(frame.vector);
    let _ = write!(
        out,
        "\nCPU FAULT: {} {} (vector {}) on ",
        short, long, frame.vector
    );
    let _ = crate::smp::write_cpu_name(out, apic_id);
    let _ = write!(
        out,
        " at RIP={:#018x} error={:#x}",
        frame.rip, frame.error_code
    );
    if frame.vector == 14 {
        let cr2: u64;
        // SAFETY: reading CR2 has no side effects.
        unsafe { asm!("mov {}, cr2", out(reg) cr2, options(nomem, nostack, preserves_flags)) };
        let _ = write!(out, " CR2={:#018x}", cr2);
        if super::paging::stack_guard().contains(&cr2) {
            let _ = write!(out, " (boot stack overflow: hit the guard page)");
        } else if let Some(cpu) = crate::smp::stack_guard_owner(cr2) {
            let _ = write!(out, " (CPU {} stack overflow: hit the guard page)", cpu);
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
