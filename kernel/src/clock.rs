//! Time: the TSC, calibrated once at boot against PIT channel 2, read as microseconds since boot.
//!
//! Must never: sleep with interrupts (there are none); waiting is busy polling.
use core::arch::asm;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::arch::port::{inb, outb};

/// The PIT input clock.
pub const PIT_HZ: u64 = 1_193_182;
/// Calibration window: 10 ms of PIT ticks.
const CALIBRATION_TICKS: u16 = 11_932;
/// Polls of the PIT output before calibration gives up (far more than 10 ms under TCG).
const POLL_LIMIT: u64 = 200_000_000;

static TSC_HZ: AtomicU64 = AtomicU64::new(0);
static BOOT_TSC: AtomicU64 = AtomicU64::new(0);

pub fn rdtsc() -> u64 {
    let lo: u32;
    let hi: u32;
    // SAFETY: rdtsc only reads the time-stamp counter.
    unsafe {
        asm!("rdtsc", out("eax") lo, out("edx") hi, options(nomem, nostack, preserves_flags))
    };
    ((hi as u64) << 32) | lo as u64
}

/// Busy-waits `ticks` PIT periods on channel 2 and returns the TSC cycles that passed, or None if
/// the PIT output never rose.
pub fn measure_pit_ticks(ticks: u16) -> Option<u64> {
    // SAFETY: ports 0x42/0x43/0x61 (PIT channel 2 and its gate) belong to this module; the speaker
    // output is kept off.
    unsafe {
        let gate = inb(0x61);
        outb(0x61, (gate & !0x02) & !0x01); // gate low: hold the counter
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

/// Calibrates the TSC; returns its frequency in Hz (None if the PIT did not respond).
pub fn calibrate() -> Option<u64> {
    BOOT_TSC.store(rdtsc(), Ordering::Relaxed);
    let cycles = measure_pit_ticks(CALIBRATION_TICKS)?;
    let hz = (cycles as u128 * PIT_HZ as u128 / CALIBRATION_TICKS as u128) as u64;
    if hz == 0 {
        return None;
    }
    TSC_HZ.store(hz, Ordering::Relaxed);
    Some(hz)
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
