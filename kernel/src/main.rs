//! ChrisOS kernel: boots through PVH in QEMU, brings up serial, heap, clock, PCI and the virtio-gpu
//! transport, then runs the job the command line asks for (selftests or the main demo job).
//!
//! Owns the machine-wide singletons (console, allocator, boot arguments, the GPU transport).
//! Must never: hold logic that belongs to the library crates; they get hardware only through the
//! interfaces exposed here (`hal::KernelHal`, `gpu::GPU`, `gpu::SharedGpu`).
//!
//! On the host this binary is only a stub: build it for x86_64-chrisos.json with ./run-qemu.sh.
#![cfg_attr(target_os = "none", no_std)]
#![cfg_attr(target_os = "none", no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("the kernel runs only in QEMU: build and boot it with ./run-qemu.sh");
    std::process::exit(2);
}

#[cfg(target_os = "none")]
extern crate alloc;

#[cfg(target_os = "none")]
mod acpi;
#[cfg(target_os = "none")]
mod arch;
#[cfg(target_os = "none")]
mod bootinfo;
#[cfg(target_os = "none")]
mod clock;
#[cfg(target_os = "none")]
mod cmdline;
#[cfg(target_os = "none")]
mod debugcon;
#[cfg(target_os = "none")]
mod exit;
#[cfg(target_os = "none")]
mod hal;
#[cfg(target_os = "none")]
mod heap;
#[cfg(target_os = "none")]
mod kernel_tests;
#[cfg(target_os = "none")]
mod pci;
#[cfg(target_os = "none")]
#[macro_use]
mod serial;
#[cfg(target_os = "none")]
mod demo;
#[cfg(target_os = "none")]
mod gpu;
#[cfg(target_os = "none")]
mod guest_tests;
#[cfg(target_os = "none")]
mod selftest;
#[cfg(target_os = "none")]
mod smp;

#[cfg(target_os = "none")]
mod kmain {
    use core::fmt::Write;

    use crate::cmdline::{Crash, Mode};
    use crate::exit::{exit_qemu, ExitCode};
    use crate::{
        acpi, arch, bootinfo, clock, cmdline, demo, gpu, heap, pci, selftest, serial, smp,
    };

    #[unsafe(no_mangle)]
    extern "C" fn kernel_main(start_info: u32) -> ! {
        // QEMU's TSC counts from VM reset, so this is the firmware + loader time.
        let entry_tsc = clock::rdtsc();
        serial::init();
        println!("ChrisOS: kernel entered (PVH)");
        let paint_start = clock::rdtsc();
        arch::paging::paint_stack();
        let paint_cycles = clock::rdtsc().wrapping_sub(paint_start);
        arch::gdt::init();
        arch::idt::init();
        arch::mask_legacy_pic();
        // SAFETY: `start_info` is QEMU's EBX and the low memory is still mapped.
        let boot = match unsafe { bootinfo::read(start_info as u64) } {
            Ok(boot) => boot,
            Err(e) => {
                println!("boot error: {}", e);
                exit_qemu(ExitCode::BootError);
            }
        };
        // The RSDP and the AP trampoline's page are in the first 2 MiB: before `protect` unmaps it.
        // SAFETY: the low memory is still mapped.
        let processors = match unsafe { acpi::find_rsdp(boot.rsdp) } {
            // SAFETY: as above; `rsdp` came from find_rsdp.
            Some(rsdp) => unsafe { acpi::processors(rsdp) },
            None => Err(acpi::AcpiError::NoRsdp),
        };
        let trampoline = smp::install_trampoline(&boot.memory);
        arch::paging::protect();
        let image = arch::paging::kernel_image();
        let heap = heap::init(&boot.memory, image.end);
        if heap.bytes == 0 {
            println!(
                "boot error: the memory map has no usable RAM above the kernel ({:#x})",
                image.end
            );
            exit_qemu(ExitCode::BootError);
        }
        let tsc = clock::calibrate();
        let args = cmdline::set(cmdline::parse(&boot.cmdline));
        println!(
            "cmdline: \"{}\"{}",
            boot.cmdline,
            if boot.cmdline_truncated {
                " (cut at 1024 bytes)"
            } else {
                ""
            }
        );
        for word in &args.unknown {
            println!("cmdline: ignoring unknown word \"{}\"", word);
        }
        let stack = arch::paging::boot_stack();
        println!(
            "memory: boot stack {} MiB at {:#x}, guard page below it, painted in {} us",
            (stack.end - stack.start) >> 20,
            stack.start,
            clock::cycles_to_us(paint_cycles)
        );
        println!(
            "memory: image {:#x}-{:#x}, heap {} MiB in {} region(s){}",
            image.start,
            image.end,
            heap.bytes >> 20,
            heap.regions,
            if boot.memory_truncated {
                " (memory map cut)"
            } else {
                ""
            }
        );
        match tsc {
            Some((hz, reference)) => {
                println!(
                    "clock: TSC {}.{:03} MHz (calibrated against the {})",
                    hz / 1_000_000,
                    (hz / 1000) % 1000,
                    match reference {
                        clock::Reference::AcpiPmTimer => "ACPI PM timer",
                        clock::Reference::Pit => "PIT",
                    }
                );
                println!(
                    "boot: kernel entered {} us after VM reset (TSC)",
                    clock::cycles_to_us(entry_tsc)
                );
            }
            None => {
                println!("clock: TSC calibration failed (no reference clock counted); times read 0")
            }
        }
        let cpus = smp::start(processors.as_ref().ok(), trampoline);
        match &processors {
            Ok(p) => println!(
                "acpi: RSDP at {:#x}, MADT through the {}: {} processor(s){}{}, local APIC at {:#x}",
                p.rsdp,
                p.root,
                p.apic_ids.len() + p.dropped,
                if p.disabled > 0 { " (+ disabled ones)" } else { "" },
                if p.dropped > 0 { " (list cut)" } else { "" },
                p.lapic_address
            ),
            Err(e) => println!("acpi: {}; running on the boot CPU only", e),
        }
        print!(
            "smp: {} of {} CPU(s) online (APIC ids",
            cpus.cpus, cpus.listed
        );
        for id in &cpus.apic_ids {
            print!(" {}", id);
        }
        print!(") in {} us", cpus.micros);
        if let Some(page) = trampoline.filter(|_| cpus.cpus > 1) {
            print!(", trampoline at {:#x}", page);
        }
        println!();
        if let Some(problem) = &cpus.problem {
            println!("smp: {}", problem);
        }
        if let Some(crash) = args.crash {
            crash_on_purpose(crash);
        }
        for dev in pci::devices() {
            println!(
                "pci: {} {:04x}:{:04x} class {:02x}.{:02x}",
                dev.location, dev.vendor, dev.device, dev.class, dev.subclass
            );
        }
        let report = gpu::init();
        if let Some(caps) = &report.caps {
            println!(
                "virtio-gpu: up in {} us: capset {} v{} glsl {} max texture {} link_shader {}",
                report.micros,
                caps.capset_id,
                caps.capset_version,
                caps.glsl_level,
                caps.max_texture_2d_size,
                caps.supports_link_shader
            );
        }
        print_summary(report);
        if report.virgl {
            if let Err(e) = gpu::console_init() {
                println!("virtio-gpu: console scanout failed: {}", e);
            }
        }
        if args.crash == Some(Crash::VirglError) {
            if let Err(e) = gpu::send_invalid_virgl() {
                println!("crash: sending the invalid VirGL command failed: {}", e);
            }
        }
        println!(
            "boot: ready {} us after kernel entry",
            clock::cycles_to_us(clock::rdtsc().wrapping_sub(entry_tsc))
        );

        let outcome = match args.mode {
            Mode::Selftest => selftest::run(&args.filter),
            Mode::Demo => {
                // The main job: the selftests, then the demo.
                let outcome = selftest::run(&args.filter);
                print_summary(report);
                let demo_ok = demo::run(args);
                selftest::Outcome {
                    passed: outcome.passed,
                    failed: outcome.failed + usize::from(!demo_ok),
                }
            }
        };
        exit_qemu(if outcome.failed == 0 {
            ExitCode::Success
        } else {
            ExitCode::TestsFailed
        })
    }

    fn print_summary(report: &gpu::GpuReport) {
        let mut line: heapless::String<256> = heapless::String::new();
        let _ = report.write_summary(&mut line);
        println!("{}", line);
    }

    fn crash_on_purpose(crash: Crash) {
        println!("crash: {:?} requested on the command line", crash);
        match crash {
            Crash::Panic => panic!("crash=panic requested on the command line"),
            // SAFETY: deliberately raises #UD; the fault handler reports it and exits.
            Crash::Fault => unsafe { core::arch::asm!("ud2", options(nomem, nostack)) },
            // SAFETY: deliberately writes through a null pointer; the first 2 MiB are unmapped, so this
            // raises #PF and the fault handler exits.
            Crash::PageFault => unsafe { core::ptr::null_mut::<u64>().write_volatile(0xdead) },
            Crash::StackOverflow => {
                let depth = recurse(core::hint::black_box(0));
                println!(
                    "crash: recursion returned at depth {} (no overflow?)",
                    depth
                );
            }
            Crash::VirglError => {
                println!("crash: an invalid VirGL command will be sent once the GPU is up")
            }
            Crash::Hang => loop {
                core::hint::spin_loop();
            },
            Crash::ApFault | Crash::ApStackOverflow => {
                if smp::cpu_count() < 2 {
                    println!(
                        "crash: {:?} needs an application processor; only the boot CPU is online",
                        crash
                    );
                    return;
                }
                let _ = smp::run_on_all(|cpu| {
                    if cpu != 1 {
                        return;
                    }
                    if crash == Crash::ApFault {
                        // SAFETY: deliberately raises #UD on CPU 1; the fault handler reports it
                        // and exits.
                        unsafe { core::arch::asm!("ud2", options(nomem, nostack)) };
                    } else {
                        let depth = recurse(core::hint::black_box(0));
                        println!(
                            "crash: recursion returned at depth {} (no overflow?)",
                            depth
                        );
                    }
                });
                println!("crash: {:?} returned (no fault on CPU 1?)", crash);
            }
        }
    }

    #[allow(unconditional_recursion)]
    fn recurse(depth: u64) -> u64 {
        let mut frame = [0u8; 4096];
        frame[(depth % 4096) as usize] = depth as u8;
        core::hint::black_box(&mut frame);
        recurse(depth + 1) + frame[0] as u64
    }

    #[panic_handler]
    fn panic(info: &core::panic::PanicInfo) -> ! {
        let out = &mut serial::RawWriter;
        let _ = write!(out, "\nKERNEL PANIC: {}", info.message());
        if let Some(location) = info.location() {
            let _ = write!(
                out,
                " at {}:{}:{}",
                location.file(),
                location.line(),
                location.column()
            );
        }
        let _ = write!(out, " on ");
        let _ = smp::write_cpu_name(out, arch::lapic::cpuid_id());
        let _ = writeln!(out);
        exit_qemu(ExitCode::Panic)
    }
}
