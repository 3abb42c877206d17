//! The kernel's own selftest suite (`kernel::`): heap, float math, clock, PCI, virtio-gpu bring-up.
//! Plus `selftest_meta::`, which fails on purpose so the harness's failure path can be checked.
//!
//! Must never: leave the machine in a state later tests notice (memory is freed, devices are not
//! reconfigured).
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::alloc::Layout;
use core::fmt::Write;

use crate::selftest::SelfTest;

pub const TESTS: &[SelfTest] = &[
    ("kernel::heap::alloc_16_mib", heap_alloc_16_mib),
    ("kernel::heap::many_small", heap_many_small),
    ("kernel::heap::free_and_reuse", heap_free_and_reuse),
    ("kernel::heap::dma_pages_zeroed_and_aligned", heap_dma_pages),
    ("kernel::math::libm_f32", math_libm_f32),
    ("kernel::math::sse_arithmetic", math_sse_arithmetic),
    (
        "kernel::clock::calibrated_and_monotonic",
        clock_calibrated_and_monotonic,
    ),
    (
        "kernel::clock::agrees_with_acpi_pm_timer",
        clock_agrees_with_pm_timer,
    ),
    ("kernel::clock::pit_counts", clock_pit_counts),
    ("kernel::pci::host_bridge_on_bus0", pci_host_bridge),
    ("kernel::pci::virtio_gpu_present", pci_virtio_gpu),
    ("kernel::gpu::virgl_up", gpu_virgl_up),
    (
        "kernel::smp::every_listed_cpu_started",
        smp_every_listed_cpu_started,
    ),
    ("kernel::smp::every_cpu_answers", smp_every_cpu_answers),
    (
        "kernel::smp::parallel_matches_one_cpu",
        smp_parallel_matches_one_cpu,
    ),
    (
        "kernel::smp::each_index_once_and_nested_calls",
        smp_each_index_once,
    ),
    ("kernel::smp::many_sections_in_a_row", smp_many_sections),
    (
        "kernel::cmdline::parses_every_word",
        cmdline_parses_every_word,
    ),
    (
        "kernel::selftest::meta_tests_need_an_explicit_filter",
        selftest_meta_selection,
    ),
];

pub const META_TESTS: &[SelfTest] = &[
    ("selftest_meta::passes", |_| true),
    ("selftest_meta::fails_on_purpose", meta_fails_on_purpose),
];

fn meta_fails_on_purpose(out: &mut dyn Write) -> bool {
    let _ = write!(
        out,
        "this test fails on purpose to prove the harness reports failures"
    );
    false
}

const MIB: usize = 1024 * 1024;

fn heap_alloc_16_mib(out: &mut dyn Write) -> bool {
    let size = 16 * MIB;
    let mut block: Vec<u8> = Vec::new();
    if block.try_reserve_exact(size).is_err() {
        let _ = write!(out, "could not allocate {} bytes", size);
        return false;
    }
    block.resize(size, 0);
    for (i, byte) in block.iter_mut().enumerate().step_by(4096) {
        *byte = (i / 4096) as u8;
    }
    let last = size - 1;
    block[last] = 0xA5;
    for (i, byte) in block.iter().enumerate().step_by(4096) {
        if *byte != (i / 4096) as u8 {
            let _ = write!(
                out,
                "byte {} reads {} after writing {}",
                i,
                byte,
                (i / 4096) as u8
            );
            return false;
        }
    }
    block[last] == 0xA5
}

fn heap_many_small(out: &mut dyn Write) -> bool {
    const COUNT: usize = 20_000;
    let pattern = |i: usize| {
        let v = i as u32;
        [v, v ^ 0x5555, v + 1, v + 2, v + 3, !v]
    };
    let mut boxes: Vec<Option<Box<[u32; 6]>>> =
        (0..COUNT).map(|i| Some(Box::new(pattern(i)))).collect();
    // Free every other one, then allocate again into the holes.
    for slot in boxes.iter_mut().step_by(2) {
        *slot = None;
    }
    for slot in boxes.iter_mut().step_by(2) {
        *slot = Some(Box::new([0; 6]));
    }
    let mut addresses: Vec<usize> = Vec::with_capacity(COUNT);
    for (i, slot) in boxes.iter().enumerate() {
        let expect = if i % 2 == 0 { [0; 6] } else { pattern(i) };
        match slot {
            Some(b) if **b == expect => addresses.push(&**b as *const _ as usize),
            other => {
                let _ = write!(out, "box {} holds {:?}, expected {:?}", i, other, expect);
                return false;
            }
        }
    }
    addresses.sort_unstable();
    if let Some(w) = addresses.windows(2).find(|w| w[1] - w[0] < 24) {
        let _ = write!(out, "allocations overlap: {:#x} and {:#x}", w[0], w[1]);
        return false;
    }
    true
}

/// Allocating more than the whole heap in total, one block at a time, only works if freed memory
/// is reused.
fn heap_free_and_reuse(out: &mut dyn Write) -> bool {
    let block = 64 * MIB;
    let rounds = (crate::heap::total_bytes() as usize / block) * 2 + 2;
    let Ok(layout) = Layout::from_size_align(block, 4096) else {
        return false;
    };
    for round in 0..rounds {
        // SAFETY: the layout is non-zero; the block is freed below with the same layout.
        let ptr = unsafe { alloc::alloc::alloc(layout) };
        if ptr.is_null() {
            let _ = write!(
                out,
                "round {} of {}: {} MiB not available again after free",
                round,
                rounds,
                block / MIB
            );
            return false;
        }
        // SAFETY: `ptr` is a live allocation of `block` bytes.
        unsafe {
            ptr.write_volatile(round as u8);
            ptr.add(block - 1).write_volatile(round as u8);
            alloc::alloc::dealloc(ptr, layout);
        }
    }
    true
}

fn heap_dma_pages(out: &mut dyn Write) -> bool {
    use virtio_drivers::{BufferDirection, Hal};
    let (paddr, vaddr) = crate::hal::KernelHal::dma_alloc(3, BufferDirection::Both);
    if paddr == 0 {
        let _ = write!(out, "dma_alloc(3) failed");
        return false;
    }
    let ok_align = paddr % 4096 == 0 && paddr == vaddr.as_ptr() as u64;
    // SAFETY: the 3 pages were just allocated for us.
    let zeroed = unsafe { core::slice::from_raw_parts(vaddr.as_ptr(), 3 * 4096) }
        .iter()
        .all(|&b| b == 0);
    // SAFETY: same pointer and page count as the allocation.
    let freed = unsafe { crate::hal::KernelHal::dma_dealloc(paddr, vaddr, 3) };
    if !ok_align || !zeroed || freed != 0 {
        let _ = write!(
            out,
            "paddr={:#x} vaddr={:p} aligned+identity={} zeroed={} dealloc={}",
            paddr, vaddr, ok_align, zeroed, freed
        );
        return false;
    }
    true
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance
}

fn math_libm_f32(out: &mut dyn Write) -> bool {
    // `black_box` keeps the compiler from folding these at build time: the guest must compute them.
    let bb = core::hint::black_box;
    let checks: [(&str, f32, f32); 8] = [
        (
            "sinf(pi/2)",
            libm::sinf(bb(core::f32::consts::FRAC_PI_2)),
            1.0,
        ),
        ("cosf(pi)", libm::cosf(bb(core::f32::consts::PI)), -1.0),
        (
            "sqrtf(2)^2",
            libm::sqrtf(bb(2.0)) * libm::sqrtf(bb(2.0)),
            2.0,
        ),
        ("powf(2,10)", libm::powf(bb(2.0), bb(10.0)), 1024.0),
        ("logf(expf(1.5))", libm::logf(libm::expf(bb(1.5))), 1.5),
        (
            "atan2f(1,1)",
            libm::atan2f(bb(1.0), bb(1.0)),
            core::f32::consts::FRAC_PI_4,
        ),
        ("floorf(-1.5)", libm::floorf(bb(-1.5)), -2.0),
        ("fmodf(7.5,2)", libm::fmodf(bb(7.5), bb(2.0)), 1.5),
    ];
    for (what, got, want) in checks {
        if !close(got, want, 1e-5) {
            let _ = write!(out, "{} = {}, expected {}", what, got, want);
            return false;
        }
    }
    true
}

fn math_sse_arithmetic(out: &mut dyn Write) -> bool {
    let bb = core::hint::black_box;
    let third = bb(1.0f32) / bb(3.0f32);
    let v = [bb(0.5f32), 1.5, -2.25, 4.0];
    let dot: f32 = v.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
    let as_int = bb(-2.75f32) as i32;
    if third * 3.0 != 1.0 || dot != 0.25 + 2.25 + 5.0625 + 16.0 || as_int != -2 {
        let _ = write!(
            out,
            "1/3*3={} dot={} int(-2.75)={}",
            third * 3.0,
            dot,
            as_int
        );
        return false;
    }
    if !(bb(0.0f32) / bb(0.0f32)).is_nan() || (bb(1.0f32) / bb(0.0f32)) != f32::INFINITY {
        let _ = write!(out, "IEEE special values are wrong");
        return false;
    }
    true
}

fn clock_calibrated_and_monotonic(out: &mut dyn Write) -> bool {
    let hz = crate::clock::tsc_hz();
    if !(50_000_000..=20_000_000_000).contains(&hz) {
        let _ = write!(
            out,
            "TSC frequency {} Hz is not plausible (calibration against the PIT failed?)",
            hz
        );
        return false;
    }
    let mut last = crate::clock::now_us();
    for _ in 0..10_000 {
        let now = crate::clock::now_us();
        if now < last {
            let _ = write!(out, "time went backwards: {} us then {} us", last, now);
            return false;
        }
        last = now;
    }
    true
}

/// The TSC clock must agree with the ACPI PM timer over a fresh 20 ms interval (within 5 %: both
/// ends are tight back-to-back readings, so host load does not enter).
fn clock_agrees_with_pm_timer(out: &mut dyn Write) -> bool {
    let Some(port) = crate::clock::pm_timer_port() else {
        let _ = write!(
            out,
            "no ACPI PM timer (ICH9 00:1f.0 with ACPI decoding) on this machine"
        );
        return false;
    };
    let Some(interval) = crate::clock::measure_against_pm_timer(port, 20_000) else {
        let _ = write!(out, "the PM timer at port {:#x} does not count", port);
        return false;
    };
    let tsc_us = crate::clock::cycles_to_us(interval.tsc_cycles);
    let reference = interval.reference_us;
    if tsc_us.abs_diff(reference) * 20 > reference {
        let _ = write!(
            out,
            "PM timer measured {} us, the TSC clock {} us",
            reference, tsc_us
        );
        return false;
    }
    true
}

/// PIT channel 2 counts and its terminal count is seen (the calibration fallback). Only a lower
/// bound is checked: host load can delay when the end is observed, never advance it.
fn clock_pit_counts(out: &mut dyn Write) -> bool {
    let ticks: u16 = 5966; // 5 ms
    let expected = ticks as u64 * 1_000_000 / crate::clock::PIT_HZ;
    match crate::clock::measure_pit_ticks(ticks) {
        None => {
            let _ = write!(out, "PIT channel 2 output never rose");
            false
        }
        Some(cycles) if crate::clock::cycles_to_us(cycles) * 10 < expected * 9 => {
            let measured = crate::clock::cycles_to_us(cycles);
            let _ = write!(
                out,
                "a {} us PIT interval took only {} us on the TSC clock",
                expected, measured
            );
            false
        }
        Some(_) => true,
    }
}

fn pci_host_bridge(out: &mut dyn Write) -> bool {
    let devices = crate::pci::devices();
    // QEMU q35: Intel 82G33 DRAM controller (host bridge) at 00:00.0.
    let found = devices
        .iter()
        .any(|d| d.location.device == 0 && d.class == 0x06 && d.subclass == 0x00);
    if !found {
        let _ = write!(
            out,
            "no host bridge (class 06.00) at 00:00.0 among {} functions",
            devices.len()
        );
    }
    found
}

fn pci_virtio_gpu(out: &mut dyn Write) -> bool {
    let expect = crate::cmdline::get().expect_gpu;
    let found = crate::pci::find(crate::pci::VIRTIO_VENDOR, crate::pci::VIRTIO_GPU_DEVICE);
    match (expect, found) {
        (true, Some(d)) if d.class == 0x03 => true,
        (true, Some(d)) => {
            let _ = write!(
                out,
                "1af4:1050 has class {:02x}, expected 03 (display)",
                d.class
            );
            false
        }
        (true, None) => {
            let _ = write!(out, "no 1af4:1050 on bus 0 (QEMU needs -device virtio-gpu-gl-pci; pass gpu=none if absent on purpose)");
            false
        }
        (false, None) => true,
        (false, Some(_)) => {
            let _ = write!(out, "gpu=none was given but 1af4:1050 is present");
            false
        }
    }
}

fn gpu_virgl_up(out: &mut dyn Write) -> bool {
    let Some(report) = crate::gpu::report() else {
        let _ = write!(out, "the virtio-gpu bring-up did not run");
        return false;
    };
    if !report.present {
        if crate::cmdline::get().expect_gpu {
            let _ = write!(out, "no virtio-gpu device");
            return false;
        }
        return true;
    }
    let has_virgl = report
        .capsets
        .iter()
        .any(|c| *c == virtio_gpu::protocol::CAPSET_VIRGL);
    if !report.virgl || !has_virgl || report.error.is_some() || report.display.is_none() {
        let _ = write!(out, "VIRGL did not come up: ");
        let _ = report.write_summary(out);
        return false;
    }
    true
}

fn cmdline_parses_every_word(out: &mut dyn Write) -> bool {
    use crate::cmdline::{parse, Crash, Mode};
    let args = parse(
        "selftest  filter=kernel::heap frames=120 backend=virgl crash=hang gpu=none bogus frames=x",
    );
    let ok = args.mode == Mode::Selftest
        && args.filter.as_str() == "kernel::heap"
        && args.frames == Some(120)
        && args.backend.as_str() == "virgl"
        && args.crash == Some(Crash::Hang)
        && !args.expect_gpu
        && args.unknown.len() == 2
        && args.unknown[0].as_str() == "bogus"
        && args.unknown[1].as_str() == "frames=x";
    if !ok {
        let _ = write!(out, "parsed as {:?}", args);
        return false;
    }
    let empty = parse("");
    if empty.mode != Mode::Demo
        || !empty.filter.is_empty()
        || empty.crash.is_some()
        || !empty.expect_gpu
    {
        let _ = write!(out, "empty command line parsed as {:?}", empty);
        return false;
    }
    for (word, want) in [
        ("crash=ap-fault", Crash::ApFault),
        ("crash=ap-stackoverflow", Crash::ApStackOverflow),
    ] {
        let args = parse(word);
        if args.crash != Some(want) || !args.unknown.is_empty() {
            let _ = write!(out, "{:?} parsed as {:?}", word, args);
            return false;
        }
    }
    let long = "x".repeat(crate::cmdline::FILTER_MAX + 1);
    let cut = parse(&alloc::format!("filter={}", long));
    if !cut.filter.is_empty() || cut.unknown.len() != 1 {
        let _ = write!(
            out,
            "an over-long filter was not rejected: {:?}",
            cut.filter
        );
        return false;
    }
    true
}

fn smp_every_listed_cpu_started(out: &mut dyn Write) -> bool {
    let report = crate::smp::report();
    if let Some(problem) = &report.problem {
        let _ = write!(out, "SMP bring-up: {}", problem);
        return false;
    }
    if report.cpus != report.listed || crate::smp::cpu_count() != report.cpus {
        let _ = write!(
            out,
            "{} CPU(s) online, the MADT lists {}, cpu_count() says {}",
            report.cpus,
            report.listed,
            crate::smp::cpu_count()
        );
        return false;
    }
    true
}

fn smp_every_cpu_answers(out: &mut dyn Write) -> bool {
    use crate::smp::{self, MAX_CPUS};
    use core::sync::atomic::{AtomicU32, Ordering};
    const NONE: u32 = u32::MAX;
    let own_id: [AtomicU32; MAX_CPUS] = [const { AtomicU32::new(NONE) }; MAX_CPUS];
    let cpuid_id: [AtomicU32; MAX_CPUS] = [const { AtomicU32::new(NONE) }; MAX_CPUS];
    let cpus = smp::cpu_count();
    let jobs_before: Vec<u64> = (0..cpus).map(smp::jobs_done).collect();
    let ran = smp::run_on_all(|cpu| {
        // Each CPU reads its id from its own local APIC: proof the job ran on that CPU.
        own_id[cpu].store(crate::arch::lapic::id(), Ordering::Relaxed);
        cpuid_id[cpu].store(crate::arch::lapic::cpuid_id(), Ordering::Relaxed);
    });
    if ran.is_err() {
        let _ = write!(out, "run_on_all said Busy outside any section");
        return false;
    }
    for cpu in 0..cpus {
        let want = smp::apic_id_of(cpu);
        let got = own_id[cpu].load(Ordering::Relaxed);
        if want != Some(got) || cpuid_id[cpu].load(Ordering::Relaxed) != got {
            let _ = write!(
                out,
                "CPU {} answered APIC id {} (CPUID {}), expected {:?}",
                cpu,
                got,
                cpuid_id[cpu].load(Ordering::Relaxed),
                want
            );
            return false;
        }
        if cpu > 0 && smp::jobs_done(cpu) != jobs_before[cpu] + 1 {
            let _ = write!(
                out,
                "CPU {} finished {} jobs for one run_on_all",
                cpu,
                smp::jobs_done(cpu) - jobs_before[cpu]
            );
            return false;
        }
    }
    for (cpu, id) in own_id.iter().enumerate().skip(cpus) {
        if id.load(Ordering::Relaxed) != NONE {
            let _ = write!(
                out,
                "slot {} beyond the {} online CPUs was written",
                cpu, cpus
            );
            return false;
        }
    }
    true
}

/// One row of a float-heavy test image (libm and SSE on whichever CPU runs it).
fn smp_test_row(y: usize, row: &[core::sync::atomic::AtomicU32]) {
    for (x, pixel) in row.iter().enumerate() {
        let fx = x as f32 * 0.071;
        let fy = y as f32 * 0.053;
        let v = libm::sinf(fx) * libm::cosf(fy) + libm::sqrtf(fx * fy + 1.0) / (1.0 + fy);
        pixel.store(v.to_bits(), core::sync::atomic::Ordering::Relaxed);
    }
}

fn smp_parallel_matches_one_cpu(out: &mut dyn Write) -> bool {
    use crate::smp;
    use core::sync::atomic::{AtomicU32, Ordering};
    const WIDTH: usize = 160;
    const HEIGHT: usize = 120;
    let image = || -> Vec<AtomicU32> { (0..WIDTH * HEIGHT).map(|_| AtomicU32::new(0)).collect() };
    let row = |img: &[AtomicU32], y: usize| smp_test_row(y, &img[y * WIDTH..(y + 1) * WIDTH]);
    // Reference: a plain loop on this CPU.
    let reference = image();
    (0..HEIGHT).for_each(|y| row(&reference, y));
    let one = image();
    smp::parallel_for_on(1, HEIGHT, |y, _| row(&one, y));
    let all = image();
    smp::parallel_for(HEIGHT, |y, _| row(&all, y));
    // Every CPU gets rows (static striding), so each one's arithmetic is compared.
    let cpus = smp::cpu_count();
    let strided = image();
    let busy = smp::run_on_all(|cpu| {
        (cpu..HEIGHT).step_by(cpus).for_each(|y| row(&strided, y));
    });
    if busy.is_err() {
        let _ = write!(out, "run_on_all said Busy outside any section");
        return false;
    }
    for (name, img) in [
        ("1 CPU", &one),
        ("every CPU", &all),
        ("rows strided over the CPUs", &strided),
    ] {
        if let Some(i) = (0..WIDTH * HEIGHT)
            .find(|&i| img[i].load(Ordering::Relaxed) != reference[i].load(Ordering::Relaxed))
        {
            let _ = write!(
                out,
                "{} ({} online): pixel ({}, {}) is {:#x}, a plain loop gives {:#x}",
                name,
                cpus,
                i % WIDTH,
                i / WIDTH,
                img[i].load(Ordering::Relaxed),
                reference[i].load(Ordering::Relaxed)
            );
            return false;
        }
    }
    true
}

fn smp_each_index_once(out: &mut dyn Write) -> bool {
    use crate::smp;
    use core::sync::atomic::{AtomicU32, Ordering};
    const OUTER: usize = 97;
    const INNER: usize = 5;
    let hits: Vec<AtomicU32> = (0..OUTER * INNER).map(|_| AtomicU32::new(0)).collect();
    let busy_inside = AtomicU32::new(0);
    smp::parallel_for(OUTER, |i, _| {
        // Nested calls do not queue: parallel_for runs inline, run_on_all refuses.
        smp::parallel_for(INNER, |j, _| {
            hits[i * INNER + j].fetch_add(1, Ordering::Relaxed);
        });
        if smp::run_on_all(|_| {}) == Err(smp::Busy) {
            busy_inside.fetch_add(1, Ordering::Relaxed);
        }
    });
    if let Some(i) = (0..OUTER * INNER).find(|&i| hits[i].load(Ordering::Relaxed) != 1) {
        let _ = write!(
            out,
            "index ({}, {}) ran {} times",
            i / INNER,
            i % INNER,
            hits[i].load(Ordering::Relaxed)
        );
        return false;
    }
    if busy_inside.load(Ordering::Relaxed) != OUTER as u32 {
        let _ = write!(
            out,
            "run_on_all inside a job said Busy {} times of {}",
            busy_inside.load(Ordering::Relaxed),
            OUTER
        );
        return false;
    }
    // Nothing left to do still works, and zero indices run nothing.
    smp::parallel_for(0, |_, _| {
        hits[0].fetch_add(1, Ordering::Relaxed);
    });
    if hits[0].load(Ordering::Relaxed) != 1 {
        let _ = write!(out, "parallel_for(0, ..) ran its closure");
        return false;
    }
    true
}

fn smp_many_sections(out: &mut dyn Write) -> bool {
    use crate::smp;
    use core::sync::atomic::{AtomicU32, Ordering};
    // Each section wakes the idle CPUs from `hlt` again; more sections than a queue holds.
    const SECTIONS: u32 = 3 * smp::QUEUE_CAPACITY as u32 + 7;
    let count = AtomicU32::new(0);
    for _ in 0..SECTIONS {
        if smp::run_on_all(|_| {
            count.fetch_add(1, Ordering::Relaxed);
        })
        .is_err()
        {
            let _ = write!(out, "run_on_all said Busy outside any section");
            return false;
        }
    }
    let want = SECTIONS * smp::cpu_count() as u32;
    if count.load(Ordering::Relaxed) != want {
        let _ = write!(
            out,
            "{} calls, expected {}",
            count.load(Ordering::Relaxed),
            want
        );
        return false;
    }
    true
}

fn selftest_meta_selection(out: &mut dyn Write) -> bool {
    use crate::selftest::selected;
    let cases = [
        ("selftest_meta::fails_on_purpose", "", false),
        ("selftest_meta::fails_on_purpose", "self", false),
        ("selftest_meta::fails_on_purpose", "selftest_meta::", true),
        ("selftest_meta::passes", "selftest_meta::fails", false),
        ("kernel::heap::alloc_16_mib", "", true),
        ("kernel::heap::alloc_16_mib", "kernel::heap", true),
        ("kernel::heap::alloc_16_mib", "shader::", false),
    ];
    for (name, filter, want) in cases {
        if selected(name, filter) != want {
            let _ = write!(out, "selected({:?}, {:?}) should be {}", name, filter, want);
            return false;
        }
    }
    true
}
