//! Time: the TSC, calibrated once at boot, read as microseconds since boot.
//!
//! Reference clock: the ACPI PM timer of q35's ICH9 (3.579545 MHz, free running). Each end of the
//! calibration interval is a (TSC, PM timer) pair read back to back, keeping the tightest of
//! several tries, so a vCPU descheduled by host load (the host is shared) does not skew the result.
//! Polling PIT channel 2 for its terminal count does get skewed (the end is seen late, by whole
//! host time slices: up to 3x measured under load), so the PIT is only the fallback for machines
//! without the ICH9 PM timer.
//! Must never: sleep with interrupts (there are none); waiting is busy polling.
use core::arch::asm;
use core::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use virtio_drivers::transport::pci::bus::{ConfigurationAccess, DeviceFunction};

use crate::arch::port::{inb, inl, outb};

/// The PIT input clock.
pub const PIT_HZ: u64 = 1_193_182;
/// The ACPI PM timer clock.
pub const PM_TIMER_HZ: u64 = 3_579_545;
const PM_TIMER_MASK: u32 = 0x00FF_FFFF;
/// Calibration interval on the PM timer.
const CALIBRATION_US: u64 = 20_000;
/// Back-to-back (TSC, PM timer) reads per sample; the tightest pair is kept.
const PAIR_TRIES: usize = 16;
/// PIT fallback: 10 ms windows, the shortest of three counts.
const PIT_CALIBRATION_TICKS: u16 = 11_932;
const PIT_CALIBRATION_WINDOWS: usize = 3;
/// Polls before a reference clock is declared dead (far more than the intervals used here).
const POLL_LIMIT: u64 = 200_000_000;

static TSC_HZ: AtomicU64 = AtomicU64::new(0);
static BOOT_TSC: AtomicU64 = AtomicU64::new(0);
static SOURCE: AtomicU8 = AtomicU8::new(0);

/// What the TSC was calibrated against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    AcpiPmTimer,
    Pit,
}

pub fn rdtsc() -> u64 {
    let lo: u32;
    let hi: u32;
    // SAFETY: rdtsc only reads the time-stamp counter.
    unsafe {
        asm!("rdtsc", out("eax") lo, out("edx") hi, options(nomem, nostack, preserves_flags))
    };
    ((hi as u64) << 32) | lo as u64
}

/// The PM timer's I/O port, when the ICH9 LPC bridge (00:1f.0) has ACPI I/O decoding enabled.
pub fn pm_timer_port() -> Option<u16> {
    let cam = crate::pci::PortCam;
    let lpc = DeviceFunction {
        bus: 0,
        device: 0x1f,
        function: 0,
    };
    if cam.read_word(lpc, 0x00) != 0x2918_8086 {
        return None;
    }
    let pmbase = cam.read_word(lpc, 0x40) & 0xFF80; // PMBASE
    let acpi_enabled = cam.read_word(lpc, 0x44) & 0x80 != 0; // ACPI_CNTL.ACPI_EN
    if pmbase == 0 || !acpi_enabled {
        return None;
    }
    Some(pmbase as u16 + 0x08) // PM1_TMR
}

fn read_pm(port: u16) -> u32 {
    // SAFETY: the PM timer register is read-only and owned by this module.
    unsafe { inl(port) & PM_TIMER_MASK }
}

/// A TSC value and the PM timer value read at (nearly) the same moment.
fn paired_sample(port: u16) -> (u64, u32) {
    let mut best = (u64::MAX, 0u64, 0u32);
    for _ in 0..PAIR_TRIES {
        let before = rdtsc();
        let pm = read_pm(port);
        let after = rdtsc();
        let width = after.wrapping_sub(before);
        if width < best.0 {
            best = (width, before + width / 2, pm);
        }
    }
    (best.1, best.2)
}

/// An interval measured on the TSC and on a reference clock at once.
#[derive(Clone, Copy, Debug)]
pub struct Interval {
    pub tsc_cycles: u64,
    pub reference_us: u64,
}

/// Waits at least `us` microseconds of PM timer time and returns the TSC cycles over the same
/// interval. None if the PM timer does not move. (Valid while the wait stays under the timer's
/// 4.6 s wrap.)
pub fn measure_against_pm_timer(port: u16, us: u64) -> Option<Interval> {
    let needed = (us * PM_TIMER_HZ / 1_000_000) as u32;
    let (tsc_a, pm_a) = paired_sample(port);
    let mut polls = 0u64;
    while read_pm(port).wrapping_sub(pm_a) & PM_TIMER_MASK < needed {
        polls += 1;
        if polls > POLL_LIMIT {
            return None;
        }
    }
    let (tsc_b, pm_b) = paired_sample(port);
    let ticks = pm_b.wrapping_sub(pm_a) & PM_TIMER_MASK;
    Some(Interval {
        tsc_cycles: tsc_b.wrapping_sub(tsc_a),
        reference_us: ticks as u64 * 1_000_000 / PM_TIMER_HZ,
    })
}

/// Busy-waits `ticks` PIT periods on channel 2 and returns the TSC cycles that passed, or None if
/// the PIT output never rose.
pub fn measure_pit_ticks(ticks: u16) -> Option<u64> {
    // SAFETY: ports 0x42/0x43/0x61 (PIT channel 2 and its gate) belong to this module; the speaker
    // output is kept off.
    unsafe {
        let gate = inb(0x61);
        outb(0x61, gate & !0x03); // gate low: hold the counter
        outb(0x43, 0b1011_0000); // channel 2, lobyte/hibyte, mode 0 (interrupt on terminal count)
        outb(0x42, ticks as u8);
        outb(0x42, (ticks >> 8) as u8);
        let start = rdtsc();
        outb(0x61, (gate & !0x02) | 0x01); // gate high: count
        let mut polls = 0u64;
        while inb(0x61) & 0x20 == 0 {
            polls += 1;
            if polls > POLL_LIMIT {
                outb(0x61, gate);
                return None;
            }
        }
        let end = rdtsc();
        outb(0x61, gate);
        Some(end.wrapping_sub(start))
    }
}

fn calibrate_with_pit() -> Option<u64> {
    let mut best: Option<u64> = None;
    for _ in 0..PIT_CALIBRATION_WINDOWS {
        let cycles = measure_pit_ticks(PIT_CALIBRATION_TICKS)?;
        best = Some(best.map_or(cycles, |b| b.min(cycles)));
    }
    Some((best? as u128 * PIT_HZ as u128 / PIT_CALIBRATION_TICKS as u128) as u64)
}

/// Calibrates the TSC; returns its frequency in Hz and the reference used (None if no reference
/// clock responded).
pub fn calibrate() -> Option<(u64, Reference)> {
    BOOT_TSC.store(rdtsc(), Ordering::Relaxed);
    let (hz, reference) = match pm_timer_port() {
        Some(port) => {
            let interval = measure_against_pm_timer(port, CALIBRATION_US)?;
            let hz = interval.tsc_cycles as u128 * 1_000_000 / interval.reference_us.max(1) as u128;
            (hz as u64, Reference::AcpiPmTimer)
        }
        None => (calibrate_with_pit()?, Reference::Pit),
    };
    if hz == 0 {
        return None;
    }
    TSC_HZ.store(hz, Ordering::Relaxed);
    SOURCE.store(reference as u8 + 1, Ordering::Relaxed);
    Some((hz, reference))
}

/// TSC frequency found at boot (0 before calibration or if it failed).
pub fn tsc_hz() -> u64 {
    TSC_HZ.load(Ordering::Relaxed)
}

/// Converts TSC cycles to microseconds (0 when uncalibrated).
pub fn cycles_to_us(cycles: u64) -> u64 {
    match tsc_hz() {
        0 => 0,
        hz => (cycles as u128 * 1_000_000 / hz as u128) as u64,
    }
}

/// Microseconds since calibration started.
pub fn now_us() -> u64 {
    cycles_to_us(rdtsc().wrapping_sub(BOOT_TSC.load(Ordering::Relaxed)))
}
