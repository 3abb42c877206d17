/*
 * PVH entry: the ELF note that tells QEMU where to start, and the 32->64-bit trampoline.
 *
 * Owns: everything between QEMU's jump to `pvh_start` (32-bit protected mode, paging off,
 * EBX = physical address of hvm_start_info) and the first Rust call `kernel_main(start_info)`.
 * Must never: touch anything Rust owns, rely on BIOS services, or carry a Multiboot header
 * (QEMU tries Multiboot first and would never fall back to the PVH note).
 *
 * Included by kernel/src/arch/boot.rs through `global_asm!` (Intel syntax). Every section switch
 * here is undone by the final `.text`, because separate global_asm blocks share one assembler
 * stream and would otherwise leak their section into the next block.
 */

/* XEN_ELFNOTE_PHYS32_ENTRY (type 18, name "Xen"): a .quad holding the 32-bit entry address. */
.section .note.Xen, "a", @note
.p2align 2
.long 4
.long 8
.long 18
.asciz "Xen"
.p2align 2
.quad pvh_start
.p2align 2

/*
 * Paging on the boot tables, PAE, long mode and SSE: shared by the boot CPU (below) and every
 * application processor (boot/ap.s), so all CPUs run with the same CR0/CR4/EFER. Anything the
 * kernel adds to CR4 or EFER later must go here (or into smp.rs's AP entry) for every CPU.
 * 32-bit code, paging off, clobbers EAX, ECX, EDX.
 */
.macro ENABLE_LONG_MODE
    mov eax, offset boot_pml4
    mov cr3, eax
    /* CR4: PAE | OSFXSR | OSXMMEXCPT. SSE must work before the first Rust instruction. */
    mov eax, cr4
    or eax, 0x620
    mov cr4, eax
    /* EFER.LME */
    mov ecx, 0xC0000080
    rdmsr
    or eax, 0x100
    wrmsr
    /* CR0: PG | NE | MP | PE, clear EM and TS (x87/SSE instructions must not trap). */
    mov eax, cr0
    and eax, 0xFFFFFFF3
    or eax, 0x80000023
    mov cr0, eax
.endm

.section .text.boot, "ax", @progbits
.code32
.global pvh_start
pvh_start:
    cli
    cld
    /* EBX holds the start-info pointer until kernel_main; nothing below touches EBX. */

    /* Zero .bss: Rust relies on it, and a warm start would not clear it for us. */
    mov edi, offset __bss_start
    mov ecx, offset __bss_end
    sub ecx, edi
    shr ecx, 2
    xor eax, eax
    rep stosd

    /* Identity map 0-4 GiB with 2 MiB pages: PML4[0] -> PDPT, PDPT[0..4] -> 4 PDs. */
    mov dword ptr [boot_pml4], offset boot_pdpt + 3
    mov edi, offset boot_pdpt
    mov eax, offset boot_pd + 3
    mov ecx, 4
.Lfill_pdpt:
    mov dword ptr [edi], eax
    add eax, 4096
    add edi, 8
    dec ecx
    jnz .Lfill_pdpt

    /* 2048 entries of 2 MiB: present | writable | page size. */
    mov edi, offset boot_pd
    mov eax, 0x83
    mov ecx, 2048
.Lfill_pd:
    mov dword ptr [edi], eax
    mov dword ptr [edi + 4], 0
    add eax, 0x200000
    add edi, 8
    dec ecx
    jnz .Lfill_pd

    ENABLE_LONG_MODE

    lgdt [boot_gdt_ptr]
    mov eax, offset pvh_long_mode
    push 0x08
    push eax
    retf

.code64
pvh_long_mode:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov ss, ax
    xor eax, eax
    mov fs, ax
    mov gs, ax
    mov rsp, offset __stack_top
    xor ebp, ebp
    fninit
    /* Upper halves of registers are undefined after the mode switch: zero-extend EBX. */
    mov edi, ebx
    call kernel_main
.Lhalt:
    cli
    hlt
    jmp .Lhalt

.section .data.boot, "aw", @progbits
.p2align 4
.global boot_gdt
boot_gdt:
    .quad 0
    .quad 0x00AF9A000000FFFF /* 0x08: 64-bit code, ring 0 */
    .quad 0x00CF92000000FFFF /* 0x10: data, ring 0 */
    .quad 0x00CF9A000000FFFF /* 0x18: 32-bit code, ring 0 (the AP trampoline's jump, boot/ap.s) */
boot_gdt_end:
.p2align 4
boot_gdt_ptr:
    .word boot_gdt_end - boot_gdt - 1
    .quad boot_gdt

.section .bss.boot_paging, "aw", @nobits
.p2align 12
.global boot_pml4
boot_pml4:
    .skip 4096
.global boot_pdpt
boot_pdpt:
    .skip 4096
.global boot_pd
boot_pd:
    .skip 4 * 4096

.text
