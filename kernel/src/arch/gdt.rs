//! The kernel's GDT and TSS. The TSS exists only to give exceptions their own stack (IST1), so a
//! stack overflow that hits the guard page is still reported instead of triple-faulting.
//!
//! Must never: change the code/data selectors the boot trampoline set up (0x08 and 0x10).
use core::arch::asm;
use core::ptr::addr_of;

pub const KERNEL_CODE: u16 = 0x08;
pub const TSS_SELECTOR: u16 = 0x18;

const FAULT_STACK_SIZE: usize = 64 * 1024;

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

static mut TSS: Tss = Tss {
    reserved0: 0,
    rsp: [0; 3],
    reserved1: 0,
    ist: [0; 7],
    reserved2: 0,
    reserved3: 0,
    iomap_base: core::mem::size_of::<Tss>() as u16,
};

static mut GDT: [u64; 5] = [
    0,
    0x00AF_9A00_0000_FFFF, // 0x08: 64-bit code
    0x00CF_9200_0000_FFFF, // 0x10: data
    0,                     // 0x18: TSS (low half), filled in by init
    0,                     // TSS (high half)
];

#[repr(C, packed)]
struct DescriptorPointer {
    limit: u16,
    base: u64,
}

/// Loads the GDT with a TSS whose IST1 points at a dedicated fault stack.
pub fn init() {
    // SAFETY: runs once on the only CPU before interrupts or faults are expected; the statics are
    // not referenced anywhere else, and the selectors match the ones already loaded.
    unsafe {
        let stack_top = addr_of!(FAULT_STACK) as u64 + FAULT_STACK_SIZE as u64;
        TSS.ist[0] = stack_top;
        let base = addr_of!(TSS) as u64;
        let limit = (core::mem::size_of::<Tss>() - 1) as u64;
        GDT[3] = (limit & 0xFFFF)
            | ((base & 0xFF_FFFF) << 16)
            | (0x89 << 40)
            | (((limit >> 16) & 0xF) << 48)
            | (((base >> 24) & 0xFF) << 56);
        GDT[4] = base >> 32;
        let pointer = DescriptorPointer {
            limit: (core::mem::size_of::<[u64; 5]>() - 1) as u16,
            base: addr_of!(GDT) as u64,
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
