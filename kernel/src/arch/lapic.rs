//! The local APIC in xAPIC mode (memory-mapped registers): this CPU's APIC id, inter-processor
//! interrupts (INIT, STARTUP, the work queue's wake-up) and end-of-interrupt.
//!
//! The register page (0xFEE00000 on QEMU) lies inside the 0-4 GiB identity map; QEMU does not care
//! that those 2 MiB pages are write-back (real hardware would want them uncached).
//! Must never: enable an interrupt source (LVT entries stay masked); the only interrupts ever taken
//! are the wake-up IPI on an idle application processor and the spurious vector.
use core::sync::atomic::{AtomicU64, Ordering};

const IA32_APIC_BASE: u32 = 0x1B;
const APIC_BASE_ENABLE: u64 = 1 << 11;
const APIC_BASE_X2APIC: u64 = 1 << 10;
const APIC_BASE_ADDRESS: u64 = 0x0000_000F_FFFF_F000;

const REG_ID: u64 = 0x20;
const REG_EOI: u64 = 0xB0;
const REG_SVR: u64 = 0xF0;
const REG_ICR_LOW: u64 = 0x300;
const REG_ICR_HIGH: u64 = 0x310;

/// SVR bit 8: the APIC is software-enabled (needed to receive fixed IPIs).
const SVR_ENABLE: u32 = 1 << 8;
/// ICR: delivery mode INIT, level assert.
const ICR_INIT: u32 = 0x4500;
/// ICR: delivery mode STARTUP, level assert; the low byte is the start page (physical >> 12).
const ICR_STARTUP: u32 = 0x4600;
/// ICR: delivery mode fixed, level assert; the low byte is the vector.
const ICR_FIXED: u32 = 0x4000;
/// ICR bit 12: the previous IPI has not been accepted yet.
const ICR_PENDING: u32 = 1 << 12;
/// Polls of the delivery-status bit before an IPI is declared stuck (far more than QEMU needs).
const ICR_POLL_LIMIT: u32 = 10_000_000;

/// The spurious-interrupt vector (boot/isr.s `isr_spurious`).
pub const SPURIOUS_VECTOR: u8 = 0xFF;

static BASE: AtomicU64 = AtomicU64::new(0xFEE0_0000);

unsafe extern "C" {
    static mut lapic_eoi_register: u64;
}

/// # Safety
/// `msr` must exist on this CPU; reading it must have no side effect the caller does not own.
pub unsafe fn rdmsr(msr: u32) -> u64 {
    let (lo, hi): (u32, u32);
    // SAFETY: the caller guarantees the MSR exists (see function contract).
    unsafe {
        core::arch::asm!("rdmsr", in("ecx") msr, out("eax") lo, out("edx") hi,
            options(nomem, nostack, preserves_flags))
    };
    ((hi as u64) << 32) | lo as u64
}

fn read(reg: u64) -> u32 {
    // SAFETY: BASE is the local APIC's register page (checked by `init`), identity-mapped; the
    // registers read here (ID, SVR, ICR) have no read side effects.
    unsafe { ((BASE.load(Ordering::Relaxed) + reg) as *const u32).read_volatile() }
}

fn write(reg: u64, value: u32) {
    // SAFETY: as for `read`; each register written here is owned by this module.
    unsafe { ((BASE.load(Ordering::Relaxed) + reg) as *mut u32).write_volatile(value) }
}

/// Finds the register page (IA32_APIC_BASE), points the wake-up stub's EOI at it and enables this
/// (the boot) CPU's APIC. Returns the register page's address.
pub fn init() -> Result<u64, &'static str> {
    // SAFETY: IA32_APIC_BASE exists on every x86-64 CPU; reading it has no side effect.
    let msr = unsafe { rdmsr(IA32_APIC_BASE) };
    if msr & APIC_BASE_ENABLE == 0 {
        return Err("the local APIC is disabled in IA32_APIC_BASE");
    }
    if msr & APIC_BASE_X2APIC != 0 {
        return Err("the local APIC is in x2APIC mode (only xAPIC is supported)");
    }
    let base = msr & APIC_BASE_ADDRESS;
    if base == 0 || base >= 1 << 32 {
        return Err("the local APIC registers are outside the 4 GiB identity map");
    }
    BASE.store(base, Ordering::Relaxed);
    // SAFETY: only isr_wake reads this word, and no CPU takes that interrupt before smp.rs starts
    // the application processors (after this store).
    unsafe { (&raw mut lapic_eoi_register).write_volatile(base + REG_EOI) };
    enable_this_cpu();
    Ok(base)
}

/// Software-enables this CPU's APIC with the spurious vector (each CPU does this once).
pub fn enable_this_cpu() {
    let svr = read(REG_SVR);
    write(REG_SVR, (svr & !0xFF) | SVR_ENABLE | SPURIOUS_VECTOR as u32);
}

/// This CPU's APIC id, read from its own APIC.
pub fn id() -> u32 {
    read(REG_ID) >> 24
}

/// This CPU's initial APIC id from CPUID (no memory access: usable in the fault handler).
pub fn cpuid_id() -> u32 {
    // SAFETY: CPUID leaf 1 exists on every x86-64 CPU.
    #[allow(unused_unsafe)]
    let leaf = unsafe { core::arch::x86_64::__cpuid(1) };
    leaf.ebx >> 24
}

fn wait_idle() -> bool {
    for _ in 0..ICR_POLL_LIMIT {
        if read(REG_ICR_LOW) & ICR_PENDING == 0 {
            return true;
        }
        core::hint::spin_loop();
    }
    false
}

/// Sends one IPI; false when the APIC never accepted it.
fn send(apic_id: u32, command: u32) -> bool {
    if !wait_idle() {
        return false;
    }
    write(REG_ICR_HIGH, apic_id << 24);
    write(REG_ICR_LOW, command);
    wait_idle()
}

/// INIT: the target CPU resets and waits for a STARTUP IPI.
pub fn send_init(apic_id: u32) -> bool {
    send(apic_id, ICR_INIT)
}

/// STARTUP: the target CPU starts in real mode at `page << 12` (page below 0x100).
pub fn send_startup(apic_id: u32, page: u8) -> bool {
    send(apic_id, ICR_STARTUP | page as u32)
}

/// A fixed interrupt on `vector` to the CPU with `apic_id`.
pub fn send_fixed(apic_id: u32, vector: u8) -> bool {
    send(apic_id, ICR_FIXED | vector as u32)
}
