//! RGBA8 images with row 0 at the top of the picture, and their PNG files.
//!
//! Owns: the one picture layout both renderers hand over (RGBA bytes, row 0 = top), conversion
//! from the software target's `0xAARRGGBB` pixels, PNG write and read. Must never: flip rows
//! implicitly; a renderer whose memory has row 0 at the bottom (GL readback) flips before it
//! builds an [`Image`].

use std::fmt;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::Path;

/// An RGBA8 picture, `width * height * 4` bytes, row 0 is the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

#[derive(Debug)]
pub struct ImageError(pub String);

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ImageError {}

impl Image {
    /// A picture filled with one RGBA colour.
    pub fn filled(width: u32, height: u32, rgba: [u8; 4]) -> Image {
        Image {
            width,
            height,
            rgba: rgba.repeat(width as usize * height as usize),
        }
    }

    /// From `0xAARRGGBB` pixels, row 0 = top (the software target's layout).
    pub fn from_argb(width: u32, height: u32, pixels: &[u32]) -> Result<Image, ImageError> {
        if pixels.len() != width as usize * height as usize {
            return Err(ImageError(format!(
                "{} pixels given for a {}x{} image ({} expected)",
                pixels.len(),
                width,
                height,
                width as usize * height as usize
            )));
        }
        let mut rgba = Vec::with_capacity(pixels.len() * 4);
        for p in pixels {
            let [a, r, g, b] = p.to_be_bytes();
            rgba.extend_from_slice(&[r, g, b, a]);
        }
        Ok(Image {
            width,
            height,
            rgba,
        })
    }

    /// From RGBA rows stored bottom row first (what `glReadPixels` returns).
    pub fn from_rgba_bottom_up(
        width: u32,
        height: u32,
        bottom_up: &[u8],
    ) -> Result<Image, ImageError> {
        let row = width as usize * 4;
        if bottom_up.len() != row * height as usize {
            return Err(ImageError(format!(
                "{} bytes given for a {}x{} RGBA image",
                bottom_up.len(),
                width,
                height
            )));
        }
        let rgba = bottom_up
            .chunks_exact(row)
            .rev()
            .flatten()
            .copied()
            .collect();
        Ok(Image {
            width,
            height,
            rgba,
        })
    }

    /// Pixel (x, y), y = 0 being the top row; transparent black outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        if x >= self.width || y >= self.height {
            return [0; 4];
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        match self.rgba.get(i..i + 4) {
            Some(&[r, g, b, a]) => [r, g, b, a],
            _ => [0; 4],
        }
    }
}

/// Write an RGBA8 PNG; its first row is row 0 of the image (the top).
pub fn write_png(path: &Path, image: &Image) -> Result<(), ImageError> {
    let file = File::create(path)
        .map_err(|e| ImageError(format!("cannot create {}: {}", path.display(), e)))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), image.width, image.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let fail =
        |e: png::EncodingError| ImageError(format!("cannot write {}: {}", path.display(), e));
    let mut w = enc.write_header().map_err(fail)?;
    w.write_image_data(&image.rgba).map_err(fail)?;
    w.finish().map_err(fail)
}

/// Read an 8-bit RGBA PNG (as written by [`write_png`]).
pub fn read_png(path: &Path) -> Result<Image, ImageError> {
    let file = File::open(path)
        .map_err(|e| ImageError(format!("cannot open {}: {}", path.display(), e)))?;
    let fail = |e: png::DecodingError| ImageError(format!("cannot read {}: {}", path.display(), e));
    let mut reader = png::Decoder::new(BufReader::new(file))
        .read_info()
        .map_err(fail)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| ImageError(format!("{}: image too large", path.display())))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(fail)?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return Err(ImageError(format!(
            "{}: expected 8-bit RGBA, found {:?} {:?}",
            path.display(),
            info.color_type,
            info.bit_depth
        )));
    }
    buf.truncate(info.buffer_size());
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba: buf,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argb_becomes_rgba_bytes() {
        let img = Image::from_argb(2, 1, &[0x80112233, 0xFF000000]).unwrap();
        assert_eq!(img.rgba, vec![0x11, 0x22, 0x33, 0x80, 0, 0, 0, 0xFF]);
        assert!(Image::from_argb(2, 2, &[0; 3]).is_err());
    }

    #[test]
    fn bottom_up_rows_are_flipped() {
        // Two rows: bottom row red, top row blue (GL readback order: bottom first).
        let gl = [255, 0, 0, 255, 0, 0, 255, 255];
        let img = Image::from_rgba_bottom_up(1, 2, &gl).unwrap();
        assert_eq!(img.pixel(0, 0), [0, 0, 255, 255]);
        assert_eq!(img.pixel(0, 1), [255, 0, 0, 255]);
    }

    #[test]
    fn png_round_trip_keeps_the_first_row_on_top() {
        let mut img = Image::filled(3, 2, [0, 0, 0, 255]);
        img.rgba[0..4].copy_from_slice(&[200, 100, 50, 25]);
        let path = std::env::temp_dir().join(format!("scene-png-{}.png", std::process::id()));
        write_png(&path, &img).unwrap();
        let back = read_png(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(back, img);
        assert_eq!(back.pixel(0, 0), [200, 100, 50, 25]);
    }
}
