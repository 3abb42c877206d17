//! ACPI, only as far as listing the processors: RSDP (from the PVH start info, else the BIOS-area
//! scan), RSDT or XSDT, and the MADT's local APIC (type 0) and x2APIC (type 9) entries.
//!
//! Read once at boot, before the first 2 MiB are unmapped (the RSDP and the EBDA live there); the
//! tables themselves sit in ACPI memory below 4 GiB, which the heap never claims.
//! Must never: trust a table beyond its checksum and its own length (lengths are capped, entries
//! with a zero length end the walk), or read outside the 4 GiB identity map.
use heapless::Vec;

/// Most processors kept from the MADT (more are counted in `Processors::dropped`).
pub const MADT_CPUS_MAX: usize = 64;
/// Longest table accepted (QEMU's are a few KiB).
const TABLE_MAX: u32 = 1 << 20;
/// Most RSDT/XSDT entries looked at.
const SDT_ENTRIES_MAX: usize = 64;
const SDT_HEADER: u64 = 36;
const IDENTITY_LIMIT: u64 = 1 << 32;

/// What the MADT says about the processors.
pub struct Processors {
    /// Physical address of the RSDP.
    pub rsdp: u64,
    /// "XSDT" or "RSDT": the table the MADT was found through.
    pub root: &'static str,
    /// APIC ids of the enabled (or online-capable) processors, in MADT order.
    pub apic_ids: Vec<u32, MADT_CPUS_MAX>,
    /// Entries marked neither enabled nor online capable.
    pub disabled: usize,
    /// Enabled processors beyond `MADT_CPUS_MAX`.
    pub dropped: usize,
    /// The local APIC address the MADT gives (type 5 override applied).
    pub lapic_address: u64,
}

#[derive(Debug)]
pub enum AcpiError {
    /// Neither the start info nor the BIOS areas hold a valid RSDP.
    NoRsdp,
    /// A table's address, length or checksum is wrong.
    BadTable { signature: [u8; 4], address: u64 },
    /// The RSDT/XSDT lists no MADT ("APIC").
    NoMadt,
}

impl core::fmt::Display for AcpiError {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        match self {
            Self::NoRsdp => write!(
                f,
                "no ACPI RSDP (not in the PVH start info, the EBDA or 0xE0000-0xFFFFF)"
            ),
            Self::BadTable { signature, address } => write!(
                f,
                "the ACPI table {} at {:#x} has a bad address, length or checksum",
                core::str::from_utf8(signature).unwrap_or("????"),
                address
            ),
            Self::NoMadt => write!(f, "the ACPI root table lists no MADT (\"APIC\")"),
        }
    }
}

/// # Safety
/// `address..address + size_of::<T>()` must be mapped (identity map, below 4 GiB).
unsafe fn read<T: Copy>(address: u64) -> T {
    // SAFETY: the caller guarantees the bytes are mapped; the read is unaligned-safe.
    unsafe { (address as *const T).read_unaligned() }
}

/// Sum of `len` bytes at `address`, mod 256.
///
/// # Safety
/// As for `read`, for the whole range.
unsafe fn checksum(address: u64, len: u64) -> u8 {
    let mut sum = 0u8;
    for i in 0..len {
        // SAFETY: the caller guarantees the range is mapped.
        sum = sum.wrapping_add(unsafe { read::<u8>(address + i) });
    }
    sum
}

fn in_identity_map(address: u64, len: u64) -> bool {
    address != 0
        && address
            .checked_add(len)
            .is_some_and(|end| end <= IDENTITY_LIMIT)
}

/// Whether an RSDP with a valid checksum starts at `address`.
///
/// # Safety
/// The first 2 MiB (and `address`) must be mapped.
unsafe fn is_rsdp(address: u64) -> bool {
    if !in_identity_map(address, 36) {
        return false;
    }
    // SAFETY: the caller guarantees the range is mapped.
    unsafe { read::<[u8; 8]>(address) == *b"RSD PTR " && checksum(address, 20) == 0 }
}

/// Finds the RSDP: `hint` (the start info's `rsdp_paddr`, 0 if none) first, then the first KiB of
/// the EBDA, then 0xE0000-0xFFFFF on 16-byte boundaries.
///
/// # Safety
/// The first 2 MiB must still be mapped.
pub unsafe fn find_rsdp(hint: u64) -> Option<u64> {
    // SAFETY: the caller guarantees the low memory is mapped; every probe is range-checked.
    unsafe {
        if is_rsdp(hint) {
            return Some(hint);
        }
        let ebda = (read::<u16>(0x40E) as u64) << 4;
        if (0x8_0000..0xA_0000).contains(&ebda) {
            if let Some(found) = (ebda..ebda + 1024).step_by(16).find(|&a| is_rsdp(a)) {
                return Some(found);
            }
        }
        (0xE_0000..0x10_0000).step_by(16).find(|&a| is_rsdp(a))
    }
}

/// Checks a system description table's header and checksum; returns its length.
///
/// # Safety
/// Low memory and the ACPI tables must be mapped (they are, below 4 GiB).
unsafe fn table(address: u64) -> Result<(u32, [u8; 4]), AcpiError> {
    let bad = |signature| AcpiError::BadTable { signature, address };
    if !in_identity_map(address, SDT_HEADER) {
        return Err(bad(*b"????"));
    }
    // SAFETY: the header is inside the identity map (checked above); the body is checked below.
    unsafe {
        let signature = read::<[u8; 4]>(address);
        let length = read::<u32>(address + 4);
        if (length as u64) < SDT_HEADER
            || length > TABLE_MAX
            || !in_identity_map(address, length as u64)
            || checksum(address, length as u64) != 0
        {
            return Err(bad(signature));
        }
        Ok((length, signature))
    }
}

/// Reads the processors from the MADT the RSDP at `rsdp` leads to.
///
/// # Safety
/// `rsdp` must come from `find_rsdp`; the low memory must still be mapped.
pub unsafe fn processors(rsdp: u64) -> Result<Processors, AcpiError> {
    // SAFETY: every address is range-checked and every table checksummed before its body is read.
    unsafe {
        let revision = read::<u8>(rsdp + 15);
        let xsdt = if revision >= 2 && checksum(rsdp, 36) == 0 {
            read::<u64>(rsdp + 24)
        } else {
            0
        };
        let (root, root_name, entry_size) = if xsdt != 0 {
            (xsdt, "XSDT", 8u64)
        } else {
            (read::<u32>(rsdp + 16) as u64, "RSDT", 4u64)
        };
        let (root_len, _) = table(root)?;
        let entries = ((root_len as u64 - SDT_HEADER) / entry_size) as usize;
        let mut madt = None;
        for i in 0..entries.min(SDT_ENTRIES_MAX) {
            let at = root + SDT_HEADER + i as u64 * entry_size;
            let address = if entry_size == 8 {
                read::<u64>(at)
            } else {
                read::<u32>(at) as u64
            };
            if in_identity_map(address, 4) && read::<[u8; 4]>(address) == *b"APIC" {
                madt = Some(address);
                break;
            }
        }
        let madt = madt.ok_or(AcpiError::NoMadt)?;
        let (madt_len, _) = table(madt)?;
        if madt_len < 44 {
            return Err(AcpiError::BadTable {
                signature: *b"APIC",
                address: madt,
            });
        }
        let mut out = Processors {
            rsdp,
            root: root_name,
            apic_ids: Vec::new(),
            disabled: 0,
            dropped: 0,
            lapic_address: read::<u32>(madt + 36) as u64,
        };
        let end = madt + madt_len as u64;
        let mut at = madt + 44;
        while at + 2 <= end {
            let kind = read::<u8>(at);
            let len = read::<u8>(at + 1) as u64;
            if len < 2 || at + len > end {
                break;
            }
            let cpu = match (kind, len) {
                // Processor local APIC: uid u8, APIC id u8, flags u32.
                (0, 8..) => Some((read::<u8>(at + 3) as u32, read::<u32>(at + 4))),
                // Processor local x2APIC: reserved u16, x2APIC id u32, flags u32, uid u32.
                (9, 16..) => Some((read::<u32>(at + 4), read::<u32>(at + 8))),
                // Local APIC address override: reserved u16, address u64.
                (5, 12..) => {
                    out.lapic_address = read::<u64>(at + 4);
                    None
                }
                _ => None,
            };
            if let Some((apic_id, flags)) = cpu {
                // Bit 0: enabled; bit 1: online capable (may be started).
                if flags & 0b11 == 0 {
                    out.disabled += 1;
                } else if !out.apic_ids.contains(&apic_id) && out.apic_ids.push(apic_id).is_err() {
                    out.dropped += 1;
                }
            }
            at += len;
        }
        Ok(out)
    }
}
