//! COM1 (16550 UART at 0x3F8) console and the `print!`/`println!` macros.
//!
//! Owns the serial port. Lines end in a bare `\n` (no `\r`): the console is a pipe into
//! run-qemu.sh, and the final `N passed, N failed` line must be exactly that text.
//! Must never: allocate (it is used by the panic and fault paths).
use core::fmt::{self, Write};

use crate::arch::port::{inb, outb};

const COM1: u16 = 0x3F8;

static LOCK: spin::Mutex<()> = spin::Mutex::new(());

/// Programs COM1 for 115200 8N1 with FIFOs on.
pub fn init() {
    // SAFETY: COM1's registers belong to this module alone.
    unsafe {
        outb(COM1 + 1, 0x00); // no interrupts
        outb(COM1 + 3, 0x80); // DLAB on
        outb(COM1, 0x01); // divisor 1 = 115200 baud
        outb(COM1 + 1, 0x00);
        outb(COM1 + 3, 0x03); // 8N1, DLAB off
        outb(COM1 + 2, 0xC7); // FIFO on, cleared, 14-byte threshold
        outb(COM1 + 4, 0x03); // DTR | RTS
    }
}

fn put_byte(byte: u8) {
    // SAFETY: COM1's registers belong to this module alone; the status read has no side effect.
    unsafe {
        while inb(COM1 + 5) & 0x20 == 0 {
            core::hint::spin_loop();
        }
        outb(COM1, byte);
    }
}

/// Writes without taking the console lock: for the panic and fault paths, which may run while the
/// lock is held by the code that failed.
pub struct RawWriter;

impl Write for RawWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        s.bytes().for_each(put_byte);
        Ok(())
    }
}

#[doc(hidden)]
pub fn _print(args: fmt::Arguments) {
    let _guard = LOCK.lock();
    let _ = RawWriter.write_fmt(args);
}

#[macro_export]
macro_rules! print {
    ($($arg:tt)*) => ($crate::serial::_print(format_args!($($arg)*)));
}

#[macro_export]
macro_rules! println {
    () => ($crate::print!("\n"));
    ($($arg:tt)*) => ($crate::serial::_print(format_args!("{}\n", format_args!($($arg)*))));
}
