//! Image encoding for screenshots: binary PPM (P6) from 0xAARRGGBB pixels, row 0 = top. The
//! kernel streams it over the debug console; the host converts it. Pure; no I/O here.

use alloc::vec::Vec;

/// A binary PPM of `width` x `height` pixels (missing pixels are black, extra ones ignored).
pub fn ppm(width: u32, height: u32, pixels: &[u32]) -> Vec<u8> {
    use core::fmt::Write;
    let mut header = alloc::string::String::new();
    let _ = write!(header, "P6\n{} {}\n255\n", width, height);
    let n = width as usize * height as usize;
    let mut out = Vec::with_capacity(header.len() + n * 3);
    out.extend_from_slice(header.as_bytes());
    for i in 0..n {
        let p = pixels.get(i).copied().unwrap_or(0);
        out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn ppm_layout() {
        let b = super::ppm(2, 1, &[0xFF11_2233, 0x0044_5566]);
        assert_eq!(&b[..11], b"P6\n2 1\n255\n");
        assert_eq!(&b[11..], &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66]);
        assert_eq!(super::ppm(1, 1, &[]).len(), 11 + 3);
    }
}
