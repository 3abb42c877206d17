//! Guest screenshots: QEMU's debug console (port 0xe9), which run-qemu.sh sends to
//! out/screenshot.ppm (`-debugcon file:...`). QMP screendump is black for a GL scanout, so the
//! guest reads its target back and writes a binary PPM here; the host converts it.
//!
//! Must never: be used for text logs (the file must hold exactly one PPM image).
use crate::arch::port::outb;

const DEBUGCON: u16 = 0xe9;

pub fn write_bytes(bytes: &[u8]) {
    for &b in bytes {
        // SAFETY: port 0xe9 is QEMU's debug console; writing it has no other effect.
        unsafe { outb(DEBUGCON, b) };
    }
}

/// Writes a `P6` PPM of `pixels` (row 0 = top, `0xAARRGGBB`, alpha dropped). Returns false and
/// writes nothing when the slice does not hold `width * height` pixels.
pub fn write_ppm(width: u32, height: u32, pixels: &[u32]) -> bool {
    let count = (width as usize).checked_mul(height as usize);
    if count != Some(pixels.len()) || pixels.is_empty() {
        return false;
    }
    let mut header: heapless::String<32> = heapless::String::new();
    let _ = core::fmt::write(&mut header, format_args!("P6\n{} {}\n255\n", width, height));
    write_bytes(header.as_bytes());
    for &p in pixels {
        write_bytes(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
    }
    true
}
