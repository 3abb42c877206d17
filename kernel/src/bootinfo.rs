//! Reads the PVH `hvm_start_info` that QEMU passes in EBX: the command line (`-append`) and the
//! memory map (and the ACPI RSDP address). Everything is copied into a `BootInfo` value, because the first 2 MiB (where QEMU
//! puts these tables) are unmapped right after.
//!
//! Must never: trust the table beyond its documented layout (lengths are capped, magic is checked).
use heapless::{String, Vec};

/// `hvm_start_info.magic`.
const START_INFO_MAGIC: u32 = 0x336e_c578;
/// Longest command line kept; longer ones are cut and reported.
pub const CMDLINE_MAX: usize = 1024;
/// Most memory map entries kept.
pub const MEMMAP_MAX: usize = 64;
/// `hvm_memmap_table_entry.type` for usable RAM.
const MEMMAP_RAM: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemRegion {
    pub start: u64,
    pub size: u64,
    /// E820 type: 1 RAM, 2 reserved, 3 ACPI, ...
    pub kind: u32,
}

impl MemRegion {
    pub fn end(&self) -> u64 {
        self.start.saturating_add(self.size)
    }
    pub fn is_ram(&self) -> bool {
        self.kind == MEMMAP_RAM
    }
}

pub struct BootInfo {
    pub cmdline: String<CMDLINE_MAX>,
    pub cmdline_truncated: bool,
    pub memory: Vec<MemRegion, MEMMAP_MAX>,
    pub memory_truncated: bool,
    /// `rsdp_paddr`: where the loader found the ACPI RSDP (0: it did not say).
    pub rsdp: u64,
}

#[derive(Debug)]
pub enum BootInfoError {
    NoStartInfo,
    BadMagic(u32),
    NoMemoryMap { version: u32 },
}

impl core::fmt::Display for BootInfoError {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        match self {
            Self::NoStartInfo => write!(
                f,
                "EBX held no hvm_start_info pointer (not booted through PVH?)"
            ),
            Self::BadMagic(m) => write!(
                f,
                "hvm_start_info magic is {:#x}, expected {:#x}",
                m, START_INFO_MAGIC
            ),
            Self::NoMemoryMap { version } => {
                write!(
                    f,
                    "hvm_start_info version {} has no memory map (need version >= 1)",
                    version
                )
            }
        }
    }
}

/// Copies the start info at physical address `paddr`.
///
/// # Safety
/// `paddr` must be the value QEMU passed in EBX and the low identity map must still be in place.
pub unsafe fn read(paddr: u64) -> Result<BootInfo, BootInfoError> {
    if paddr == 0 {
        return Err(BootInfoError::NoStartInfo);
    }
    let base = paddr as *const u8;
    // SAFETY: the caller guarantees `paddr` points at an identity-mapped hvm_start_info; fields are
    // read unaligned at their documented offsets.
    unsafe {
        let magic = (base as *const u32).read_unaligned();
        if magic != START_INFO_MAGIC {
            return Err(BootInfoError::BadMagic(magic));
        }
        let version = (base.add(4) as *const u32).read_unaligned();
        let cmdline_paddr = (base.add(24) as *const u64).read_unaligned();
        let rsdp = (base.add(32) as *const u64).read_unaligned();
        let mut info = BootInfo {
            cmdline: String::new(),
            cmdline_truncated: false,
            memory: Vec::new(),
            memory_truncated: false,
            rsdp,
        };
        if cmdline_paddr != 0 {
            let text = cmdline_paddr as *const u8;
            let mut i = 0;
            loop {
                let byte = text.add(i).read();
                if byte == 0 {
                    break;
                }
                let ch = if byte.is_ascii() && !byte.is_ascii_control() {
                    byte as char
                } else {
                    ' '
                };
                if info.cmdline.push(ch).is_err() {
                    info.cmdline_truncated = true;
                    break;
                }
                i += 1;
            }
        }
        if version < 1 {
            return Err(BootInfoError::NoMemoryMap { version });
        }
        let memmap_paddr = (base.add(40) as *const u64).read_unaligned();
        let entries = (base.add(48) as *const u32).read_unaligned();
        for index in 0..entries as usize {
            let entry = (memmap_paddr as *const u8).add(index * 24);
            let region = MemRegion {
                start: (entry as *const u64).read_unaligned(),
                size: (entry.add(8) as *const u64).read_unaligned(),
                kind: (entry.add(16) as *const u32).read_unaligned(),
            };
            if info.memory.push(region).is_err() {
                info.memory_truncated = true;
                break;
            }
        }
        Ok(info)
    }
}
