/*
 * CPU exception entry stubs for vectors 0-31.
 *
 * Each stub makes the stack look the same (an error code, real or 0, and the vector number), saves
 * the general registers and calls `fault_entry(frame)` in kernel/src/arch/idt.rs, which reports the
 * fault and leaves QEMU. Exceptions are fatal here, so the stubs never return (no iretq).
 * Ends with `.text` so the section does not leak into the next global_asm block.
 */
.section .text.isr, "ax", @progbits
.code64

.irp vec, 0,1,2,3,4,5,6,7,9,15,16,18,19,20,22,23,24,25,26,27,28,31
isr_stub_\vec:
    push 0
    push \vec
    jmp isr_common
.endr

/* The CPU pushes an error code for these. */
.irp vec, 8,10,11,12,13,14,17,21,29,30
isr_stub_\vec:
    push \vec
    jmp isr_common
.endr

isr_common:
    push rax
    push rbx
    push rcx
    push rdx
    push rsi
    push rdi
    push rbp
    push r8
    push r9
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    mov rdi, rsp
    and rsp, -16
    call fault_entry
.Lisr_halt:
    cli
    hlt
    jmp .Lisr_halt

/*
 * The wake-up IPI (kernel/src/smp.rs, vector 0xF0): an idle application processor halts with
 * interrupts enabled; this only acknowledges the interrupt (local APIC EOI) so `hlt` returns.
 * Runs on the interrupted stack (IST 0), touches RAX only and restores it.
 */
.global isr_wake
isr_wake:
    push rax
    mov rax, qword ptr [rip + lapic_eoi_register]
    mov dword ptr [rax], 0
    pop rax
    iretq

/* The local APIC's spurious vector (0xFF): no EOI is owed. */
.global isr_spurious
isr_spurious:
    iretq

.section .rodata.isr, "a", @progbits
.p2align 3
.global isr_stub_table
isr_stub_table:
.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    .quad isr_stub_\vec
.endr

/* The local APIC's EOI register; arch/lapic.rs stores the real address at boot. */
.section .data.isr, "aw", @progbits
.p2align 3
.global lapic_eoi_register
lapic_eoi_register:
    .quad 0xFEE000B0

.text
