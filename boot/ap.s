/*
 * Application-processor start-up: the real-mode trampoline and the 32->64-bit path into Rust.
 *
 * Owns: everything an AP runs between the startup IPI and `ap_main(cpu_index)` (kernel/src/smp.rs).
 * Must never: touch anything but its own registers and the two hand-over words below, which the
 * boot CPU fills for one AP at a time before sending that AP its startup IPIs.
 *
 * `ap_trampoline_start..ap_trampoline_end` is not run where it is linked: smp.rs copies it into a
 * free page below 1 MiB (a startup IPI can only start a CPU there, in real mode at VECTOR:0000).
 * It is position independent (it addresses its data through CS), loads `boot_gdt` (which has a
 * 32-bit code segment at 0x18 for this jump), enters protected mode and far-jumps into the kernel
 * image, where `ap_start32` turns on paging with the boot CPU's page tables (boot_pml4) and long
 * mode exactly as pvh.s does (ENABLE_LONG_MODE). The trampoline page itself is never mapped: the
 * AP leaves it before paging is on, and the first 2 MiB stay unmapped (paging.rs).
 *
 * Included by kernel/src/arch/boot.rs after pvh.s (it uses that file's macro and symbols).
 * Ends with `.text` so the section does not leak into the next global_asm block.
 */
.section .rodata.ap_trampoline, "a", @progbits
.p2align 4
.global ap_trampoline_start
.global ap_trampoline_end
.code16
ap_trampoline_start:
    cli
    cld
    mov ax, cs
    mov ds, ax
    /* lgdt [ap_gdt_pointer] with a 32-bit operand (0x66 prefix): boot_gdt lies above 1 MiB. */
    .byte 0x66, 0x0F, 0x01, 0x16
    .word ap_gdt_pointer - ap_trampoline_start
    mov eax, cr0
    or eax, 1
    mov cr0, eax
    /* jmp far 0x18:ap_start32 with a 32-bit offset (0x66 EA imm32 imm16). */
    .byte 0x66, 0xEA
    .long ap_start32
    .word 0x18
.p2align 2
ap_gdt_pointer:
    .word 4 * 8 - 1 /* boot_gdt has four descriptors */
    .long boot_gdt
ap_trampoline_end:

.section .text.boot, "ax", @progbits
.code32
ap_start32:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov ss, ax
    /* The stack is below 4 GiB (the heap is), so its low half is the whole address. */
    mov esp, dword ptr [ap_boot_rsp]
    ENABLE_LONG_MODE
    mov eax, offset ap_long_mode
    push 0x08
    push eax
    retf

.code64
ap_long_mode:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov ss, ax
    xor eax, eax
    mov fs, ax
    mov gs, ax
    mov rsp, qword ptr [rip + ap_boot_rsp]
    xor ebp, ebp
    fninit
    mov edi, dword ptr [rip + ap_boot_cpu]
    call ap_main
.Lap_halt:
    cli
    hlt
    jmp .Lap_halt

/* Hand-over words, written by smp.rs for the AP being started: its stack top and CPU index. */
.section .data.boot, "aw", @progbits
.p2align 3
.global ap_boot_rsp
ap_boot_rsp:
    .quad 0
.global ap_boot_cpu
ap_boot_cpu:
    .long 0

.text
