//! PCI configuration space through the legacy ports 0xCF8/0xCFC, as a virtio-drivers
//! `ConfigurationAccess`, and a bus-0 device list.
//!
//! Bus 0 is all QEMU's q35 machine puts our devices on (no bridges are used). There is one CPU and
//! no interrupt handlers, so the two-step address/data access cannot be interleaved.
//! Must never: change a device's configuration except through `enable_device`.
use virtio_drivers::transport::pci::bus::{Command, ConfigurationAccess, DeviceFunction, PciRoot};

use crate::arch::port::{inl, outl};

const CONFIG_ADDRESS: u16 = 0xCF8;
const CONFIG_DATA: u16 = 0xCFC;
/// Most functions listed from bus 0.
pub const DEVICES_MAX: usize = 64;

pub const VIRTIO_VENDOR: u16 = 0x1af4;
/// virtio 1.0 GPU: 0x1040 + device type 16.
pub const VIRTIO_GPU_DEVICE: u16 = 0x1050;

/// Configuration mechanism #1 over I/O ports.
pub struct PortCam;

fn address(df: DeviceFunction, offset: u8) -> u32 {
    0x8000_0000
        | (df.bus as u32) << 16
        | ((df.device as u32) & 0x1F) << 11
        | ((df.function as u32) & 0x7) << 8
        | (offset as u32 & 0xFC)
}

impl ConfigurationAccess for PortCam {
    fn read_word(&self, df: DeviceFunction, offset: u8) -> u32 {
        // SAFETY: 0xCF8/0xCFC are the PCI configuration ports, owned by this module.
        unsafe {
            outl(CONFIG_ADDRESS, address(df, offset));
            inl(CONFIG_DATA)
        }
    }

    fn write_word(&mut self, df: DeviceFunction, offset: u8, data: u32) {
        // SAFETY: as in read_word.
        unsafe {
            outl(CONFIG_ADDRESS, address(df, offset));
            outl(CONFIG_DATA, data);
        }
    }

    unsafe fn unsafe_clone(&self) -> Self {
        PortCam
    }
}

pub fn root() -> PciRoot<PortCam> {
    PciRoot::new(PortCam)
}

#[derive(Clone, Copy, Debug)]
pub struct PciDevice {
    pub location: DeviceFunction,
    pub vendor: u16,
    pub device: u16,
    pub class: u8,
    pub subclass: u8,
}

/// Every function on bus 0.
pub fn devices() -> heapless::Vec<PciDevice, DEVICES_MAX> {
    let mut list = heapless::Vec::new();
    for (location, info) in root().enumerate_bus(0) {
        let entry = PciDevice {
            location,
            vendor: info.vendor_id,
            device: info.device_id,
            class: info.class,
            subclass: info.subclass,
        };
        if list.push(entry).is_err() {
            break;
        }
    }
    list
}

/// The first function with this vendor and device id.
pub fn find(vendor: u16, device: u16) -> Option<PciDevice> {
    devices()
        .into_iter()
        .find(|d| d.vendor == vendor && d.device == device)
}

/// Turns on memory/I/O decoding and bus mastering (the device DMAs into our queues).
pub fn enable_device(root: &mut PciRoot<PortCam>, location: DeviceFunction) {
    let (_, command) = root.get_status_command(location);
    root.set_command(
        location,
        command | Command::IO_SPACE | Command::MEMORY_SPACE | Command::BUS_MASTER,
    );
}
