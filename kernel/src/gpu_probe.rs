//! Temporary virtio-gpu bring-up: proves the PCI transport, the Hal and VIRGL negotiation, and
//! reads the display info and capsets. The full driver (virtio-gpu crate) replaces the commands here.
//!
//! Hand-over to later code: after `probe` the device is reset and its transport waits in
//! [`GPU_TRANSPORT`]. A driver takes it with `take_transport()` and starts its own initialisation
//! (`Transport::begin_init` resets the device again) using [`crate::hal::KernelHal`] as its `Hal`.
//! Must never: leave a queue the device can still write to after its memory is freed (the device
//! is reset before the probe's queue is dropped).
use core::fmt::Write;

use bitflags::bitflags;
use virtio_drivers::queue::VirtQueue;
use virtio_drivers::transport::pci::PciTransport;
use virtio_drivers::transport::{DeviceStatus, Transport};

use crate::hal::KernelHal;
use crate::pci;

bitflags! {
    /// The feature bits the probe understands.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct GpuFeatures: u64 {
        /// VIRTIO_GPU_F_VIRGL: 3D commands (VirGL) are supported.
        const VIRGL = 1 << 0;
        /// VIRTIO_F_VERSION_1: must be accepted when a modern device offers it.
        const VERSION_1 = 1 << 32;
    }
}

const CONTROL_QUEUE: u16 = 0;
const QUEUE_SIZE: usize = 16;

const CMD_GET_DISPLAY_INFO: u32 = 0x0100;
const CMD_GET_CAPSET_INFO: u32 = 0x0108;
const CMD_CTX_CREATE: u32 = 0x0200;
const CMD_CTX_DESTROY: u32 = 0x0201;
const CMD_SUBMIT_3D: u32 = 0x0207;
const RESP_OK_NODATA: u32 = 0x1100;
const RESP_OK_DISPLAY_INFO: u32 = 0x1101;
const RESP_OK_CAPSET_INFO: u32 = 0x1102;
/// virtio_gpu_config.num_capsets
const CONFIG_NUM_CAPSETS: usize = 12;
const HEADER_SIZE: usize = 24;
const MAX_SCANOUTS: usize = 16;
pub const CAPSETS_MAX: usize = 8;

pub const CAPSET_VIRGL: u32 = 1;
pub const CAPSET_VIRGL2: u32 = 2;

/// The device after the probe: reset, ready for a driver's own `begin_init`.
pub static GPU_TRANSPORT: spin::Mutex<Option<PciTransport>> = spin::Mutex::new(None);

/// Takes the virtio-gpu transport (once). Drive it with `KernelHal` as the `Hal`.
#[allow(dead_code)] // the entry point for the virtio-gpu driver, which is not wired in yet
pub fn take_transport() -> Option<PciTransport> {
    GPU_TRANSPORT.lock().take()
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Capset {
    pub id: u32,
    pub max_version: u32,
    pub max_size: u32,
}

#[derive(Clone, Debug, Default)]
pub struct ProbeReport {
    /// A 1af4:1050 function was found on bus 0.
    pub present: bool,
    /// The device offered VIRGL and we negotiated it.
    pub virgl: bool,
    pub capsets: heapless::Vec<Capset, CAPSETS_MAX>,
    /// The first enabled scanout (width, height).
    pub display: Option<(u32, u32)>,
    /// Why the probe stopped early.
    pub error: Option<heapless::String<128>>,
    /// Microseconds the probe took.
    pub micros: u64,
}

impl ProbeReport {
    fn fail(mut self, args: core::fmt::Arguments) -> Self {
        let mut text = heapless::String::new();
        let _ = text.write_fmt(args);
        self.error = Some(text);
        self
    }

    /// The one-line summary, e.g. `virtio-gpu: virgl=yes capsets=VIRGL,VIRGL2 display=1280x800`.
    pub fn write_summary(&self, out: &mut dyn Write) -> core::fmt::Result {
        if !self.present {
            return write!(out, "virtio-gpu: not present (no 1af4:1050 on PCI bus 0)");
        }
        write!(
            out,
            "virtio-gpu: virgl={} capsets=",
            if self.virgl { "yes" } else { "no" }
        )?;
        if self.capsets.is_empty() {
            write!(out, "none")?;
        }
        for (i, capset) in self.capsets.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            match capset.id {
                CAPSET_VIRGL => write!(out, "{}VIRGL", sep)?,
                CAPSET_VIRGL2 => write!(out, "{}VIRGL2", sep)?,
                other => write!(out, "{}{}", sep, other)?,
            }
        }
        match self.display {
            Some((w, h)) => write!(out, " display={}x{}", w, h)?,
            None => write!(out, " display=none")?,
        }
        if let Some(error) = &self.error {
            write!(out, " error=\"{}\"", error)?;
        }
        Ok(())
    }
}

static REPORT: spin::Once<ProbeReport> = spin::Once::new();

/// The result of the boot-time probe (None before `probe` ran).
pub fn report() -> Option<&'static ProbeReport> {
    REPORT.get()
}

fn header(kind: u32) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[0..4].copy_from_slice(&kind.to_le_bytes());
    h
}

fn le32(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// Finds the device, negotiates VIRGL, asks for the display info and every capset, then resets the
/// device and parks its transport in [`GPU_TRANSPORT`]. Runs once; later calls return the first
/// report.
pub fn probe() -> &'static ProbeReport {
    REPORT.call_once(|| {
        let start = crate::clock::now_us();
        let mut report = run_probe();
        report.micros = crate::clock::now_us().saturating_sub(start);
        report
    })
}

fn run_probe() -> ProbeReport {
    let mut report = ProbeReport::default();
    let Some(dev) = pci::find(pci::VIRTIO_VENDOR, pci::VIRTIO_GPU_DEVICE) else {
        return report;
    };
    report.present = true;
    let mut root = pci::root();
    // The Hal maps MMIO 1:1 through the boot identity map, which ends at 4 GiB.
    match root.bars(dev.location) {
        Ok(bars) => {
            for (index, bar) in bars.iter().enumerate() {
                if let Some((address, size)) = bar.as_ref().and_then(|b| b.memory_address_size()) {
                    if address.saturating_add(size) > 1 << 32 {
                        return report.fail(format_args!(
                            "BAR{} at {:#x} (+{:#x}) is above the 4 GiB identity map",
                            index, address, size
                        ));
                    }
                }
            }
        }
        Err(e) => return report.fail(format_args!("reading BARs: {:?}", e)),
    }
    pci::enable_device(&mut root, dev.location);
    let mut transport = match PciTransport::new::<KernelHal, _>(&mut root, dev.location) {
        Ok(t) => t,
        Err(e) => return report.fail(format_args!("PciTransport::new: {:?}", e)),
    };
    let negotiated = transport.begin_init(GpuFeatures::VIRGL | GpuFeatures::VERSION_1);
    report.virgl = negotiated.contains(GpuFeatures::VIRGL);
    let num_capsets: u32 = transport.read_config_space(CONFIG_NUM_CAPSETS).unwrap_or(0);
    let mut queue = match VirtQueue::<KernelHal, QUEUE_SIZE>::new(
        &mut transport,
        CONTROL_QUEUE,
        false,
        false,
    ) {
        Ok(q) => q,
        Err(e) => {
            transport.set_status(DeviceStatus::empty());
            return report.fail(format_args!("control queue: {:?}", e));
        }
    };
    transport.finish_init();

    let mut result = query(&mut report, &mut queue, &mut transport, num_capsets);
    if result.is_ok() && crate::cmdline::get().crash == Some(crate::cmdline::Crash::VirglError) {
        result = send_invalid_virgl(&mut queue, &mut transport);
    }
    // Reset before `queue` (and its DMA memory) is dropped, so the device forgets the rings.
    transport.set_status(DeviceStatus::empty());
    drop(queue);
    *GPU_TRANSPORT.lock() = Some(transport);
    match result {
        Ok(()) => report,
        Err(e) => report.fail(format_args!("{}", e)),
    }
}

fn query(
    report: &mut ProbeReport,
    queue: &mut VirtQueue<KernelHal, QUEUE_SIZE>,
    transport: &mut PciTransport,
    num_capsets: u32,
) -> Result<(), &'static str> {
    let request = header(CMD_GET_DISPLAY_INFO);
    let mut response = [0u8; HEADER_SIZE + MAX_SCANOUTS * 24];
    queue
        .add_notify_wait_pop(&[&request], &mut [&mut response], transport)
        .map_err(|_| "GET_DISPLAY_INFO: queue error")?;
    if le32(&response, 0) != RESP_OK_DISPLAY_INFO {
        return Err("GET_DISPLAY_INFO: device did not answer OK_DISPLAY_INFO");
    }
    for scanout in 0..MAX_SCANOUTS {
        let at = HEADER_SIZE + scanout * 24;
        let (w, h, enabled) = (
            le32(&response, at + 8),
            le32(&response, at + 12),
            le32(&response, at + 16),
        );
        if enabled != 0 {
            report.display = Some((w, h));
            break;
        }
    }
    for index in 0..num_capsets.min(CAPSETS_MAX as u32) {
        let mut request = [0u8; HEADER_SIZE + 8];
        request[..HEADER_SIZE].copy_from_slice(&header(CMD_GET_CAPSET_INFO));
        request[HEADER_SIZE..HEADER_SIZE + 4].copy_from_slice(&index.to_le_bytes());
        let mut response = [0u8; HEADER_SIZE + 16];
        queue
            .add_notify_wait_pop(&[&request], &mut [&mut response], transport)
            .map_err(|_| "GET_CAPSET_INFO: queue error")?;
        if le32(&response, 0) != RESP_OK_CAPSET_INFO {
            return Err("GET_CAPSET_INFO: device did not answer OK_CAPSET_INFO");
        }
        let capset = Capset {
            id: le32(&response, HEADER_SIZE),
            max_version: le32(&response, HEADER_SIZE + 4),
            max_size: le32(&response, HEADER_SIZE + 8),
        };
        let _ = report.capsets.push(capset);
    }
    Ok(())
}

fn send_ok_nodata(
    queue: &mut VirtQueue<KernelHal, QUEUE_SIZE>,
    transport: &mut PciTransport,
    request: &[u8],
    what: &'static str,
) -> Result<(), &'static str> {
    let mut response = [0u8; HEADER_SIZE];
    queue
        .add_notify_wait_pop(&[request], &mut [&mut response], transport)
        .map_err(|_| what)?;
    if le32(&response, 0) != RESP_OK_NODATA {
        return Err(what);
    }
    Ok(())
}

/// For `crash=virgl`: creates context 1, submits a CLEAR with no framebuffer bound (virglrenderer
/// rejects it and reports a context error on QEMU's stderr, while the guest still sees OK_NODATA),
/// then destroys the context.
fn send_invalid_virgl(
    queue: &mut VirtQueue<KernelHal, QUEUE_SIZE>,
    transport: &mut PciTransport,
) -> Result<(), &'static str> {
    const CTX: u32 = 1;
    let mut create = [0u8; HEADER_SIZE + 72];
    create[..HEADER_SIZE].copy_from_slice(&header(CMD_CTX_CREATE));
    create[16..20].copy_from_slice(&CTX.to_le_bytes());
    let name = b"crash-virgl";
    create[24..28].copy_from_slice(&(name.len() as u32).to_le_bytes());
    create[32..32 + name.len()].copy_from_slice(name);
    send_ok_nodata(queue, transport, &create, "CTX_CREATE failed")?;

    // VIRGL_CCMD_CLEAR (7), 8 dwords: buffers, rgba, depth (f64), stencil.
    let clear: [u32; 9] = [(8 << 16) | 7, 1, 0, 0, 0, 0, 0, 0, 0];
    let mut submit = [0u8; HEADER_SIZE + 8 + 36];
    submit[..HEADER_SIZE].copy_from_slice(&header(CMD_SUBMIT_3D));
    submit[16..20].copy_from_slice(&CTX.to_le_bytes());
    submit[24..28].copy_from_slice(&36u32.to_le_bytes());
    for (i, word) in clear.iter().enumerate() {
        let at = HEADER_SIZE + 8 + i * 4;
        submit[at..at + 4].copy_from_slice(&word.to_le_bytes());
    }
    send_ok_nodata(queue, transport, &submit, "SUBMIT_3D failed")?;

    let mut destroy = header(CMD_CTX_DESTROY);
    destroy[16..20].copy_from_slice(&CTX.to_le_bytes());
    send_ok_nodata(queue, transport, &destroy, "CTX_DESTROY failed")
}
