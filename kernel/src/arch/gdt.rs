//! The GDT and TSS of each CPU. The TSS exists only to give exceptions their own stack (IST1), so a
//! stack overflow that hits a guard page is still reported instead of triple-faulting.
//!
//! Must never: change the code/data selectors the boot trampoline set up (0x08 and 0x10).
use core::arch::asm;
use core::ptr::addr_of;

pub const KERNEL_CODE: u16 = 0x08;
pub const TSS_SELECTOR: u16 = 0x18;

/// Each CPU's exception stack (IST1); smp.rs gives application processors the same size.
pub const FAULT_STACK_SIZE: usize = 64 * 1024;

#[repr(C, align(16))]
struct FaultStack([u8; FAULT_STACK_SIZE]);

static mut FAULT_STACK: FaultStack = FaultStack([0; FAULT_STACK_SIZE]);

#[repr(C, packed(4))]
struct Tss {
    reserved0: u32,
    rsp: [u64; 3],
    reserved1: u64,
    ist: [u64; 7],
    reserved2: u64,
    reserved3: u16,
    iomap_base: u16,
}

/// One CPU's GDT and TSS. Every CPU needs its own: `ltr` marks the TSS descriptor busy in the GDT
/// that holds it, and each CPU's IST1 must be a stack of its own.
#[repr(C, align(16))]
pub struct CpuTables {
    gdt: [u64; 5],
    tss: Tss,
}

impl CpuTables {
    pub const fn new() -> Self {
        CpuTables {
            gdt: [
                0,
                0x00AF_9A00_0000_FFFF, // 0x08: 64-bit code
                0x00CF_9200_0000_FFFF, // 0x10: data
                0,                     // 0x18: TSS (low half), filled in by load
                0,                     // TSS (high half)
            ],
            tss: Tss {
                reserved0: 0,
                rsp: [0; 3],
                reserved1: 0,
                ist: [0; 7],
                reserved2: 0,
                reserved3: 0,
                iomap_base: core::mem::size_of::<Tss>() as u16,
            },
        }
    }
}

/// The boot CPU's tables (the application processors' come from the heap, see smp.rs).
static mut BOOT_TABLES: CpuTables = CpuTables::new();

#[repr(C, packed)]
struct DescriptorPointer {
    limit: u16,
    base: u64,
}

/// Loads the boot CPU's GDT with a TSS whose IST1 points at a dedicated fault stack.
pub fn init() {
    let stack_top = addr_of!(FAULT_STACK) as u64 + FAULT_STACK_SIZE as u64;
    // SAFETY: runs once on the boot CPU before any other CPU starts; BOOT_TABLES is referenced
    // nowhere else.
    unsafe { load(&raw mut BOOT_TABLES, stack_top) }
}

/// Loads `tables` as this CPU's GDT and TSS, with IST1 = `fault_stack_top`, and reloads CS.
///
/// # Safety
/// `tables` must live forever and belong to this CPU alone (no other CPU has loaded it), and
/// `fault_stack_top` must be the top of a stack reserved for this CPU's exceptions.
pub unsafe fn load(tables: *mut CpuTables, fault_stack_top: u64) {
    // SAFETY: the caller gives this CPU exclusive, permanent tables; the selectors match the ones
    // already loaded by the boot trampoline.
    unsafe {
        (*tables).tss.ist[0] = fault_stack_top;
        let base = addr_of!((*tables).tss) as u64;
        let limit = (core::mem::size_of::<Tss>() - 1) as u64;
        (*tables).gdt[3] = (limit & 0xFFFF)
            | ((base & 0xFF_FFFF) << 16)
            | (0x89 << 40)
            | (((limit >> 16) & 0xF) << 48)
            | (((base >> 24) & 0xFF) << 56);
        (*tables).gdt[4] = base >> 32;
        let pointer = DescriptorPointer {
            limit: (core::mem::size_of::<[u64; 5]>() - 1) as u16,
            base: addr_of!((*tables).gdt) as u64,
        };
        asm!("lgdt [{}]", in(reg) &pointer, options(readonly, nostack, preserves_flags));
        // Reload CS through a far return so the CPU uses the new table.
        asm!(
            "push {sel}",
            "lea {tmp}, [rip + 2f]",
            "push {tmp}",
            "retfq",
            "2:",
            sel = in(reg) KERNEL_CODE as u64,
            tmp = lateout(reg) _,
            options(preserves_flags),
        );
        asm!("ltr {0:x}", in(reg) TSS_SELECTOR, options(nostack, preserves_flags));
    }
}
