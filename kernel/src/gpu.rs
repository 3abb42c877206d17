//! The kernel's virtio-gpu: finds 1af4:1050, brings it up with the virtio-gpu crate's
//! `VirglDevice` over virtio-drivers' `PciTransport` and [`KernelHal`], and keeps it in the
//! [`GPU`] singleton. Also owns the 2D console resource the scanout returns to, and
//! [`SharedGpu`], a `GpuTransport3d` that reaches the singleton one call at a time (what Gfx3D's
//! VirGL backend drives in the kernel).
//!
//! Must never: hold the [`GPU`] lock across a call back into code that may take it again (every
//! `SharedGpu` call locks for exactly one device call), or leave the device half-initialised
//! (a failed bring-up drops the transport, whose device was reset by `VirglDevice`).
use core::fmt::Write;

use virtio_drivers::transport::pci::PciTransport;
use virtio_gpu::device::{DeviceConfig, VirglDevice};
use virtio_gpu::proto::{Box3d, Rect};
use virtio_gpu::protocol::{CAPSET_VIRGL, CAPSET_VIRGL2, FORMAT_B8G8R8A8_UNORM};
use virtio_gpu::transport::ResourceDesc;
use virtio_gpu::{CtxId, GpuTransport3d, HostCaps, ResId};

use crate::hal::KernelHal;
use crate::{clock, pci};

pub type Device = VirglDevice<KernelHal, PciTransport>;

/// The device behind the lock. `VirglDevice` holds raw DMA pointers and so is not `Send` by
/// itself; the kernel runs on one CPU without interrupts, and the lock serialises every use.
pub struct GpuCell(pub Device);
// SAFETY: one CPU, no interrupt handlers touch the device; all access goes through `GPU`'s lock.
unsafe impl Send for GpuCell {}

/// The virtio-gpu device, once `init` brought it up with VIRGL.
pub static GPU: spin::Mutex<Option<GpuCell>> = spin::Mutex::new(None);

/// The 2D console resource (the scanout's "primary" picture) and its size.
static CONSOLE: spin::Mutex<Option<(ResId, u32, u32)>> = spin::Mutex::new(None);

/// Console background (dark blue-grey), 0xXXRRGGBB in a B8G8R8X8 resource.
const CONSOLE_COLOUR: u32 = 0xFF20_2838;
/// Every device command may take this long before the device counts as lost.
const COMMAND_TIMEOUT_NS: u64 = 30_000_000_000;
pub const CAPSETS_MAX: usize = 16;
/// Fence only SUBMIT_3D (see FENCE_SUBMITS) and transfers: QEMU serves the control queue in order,
/// and answers an unfenced command without waiting for its fence poll. Measured: the demo loop (frame + SET_SCANOUT
/// + RESOURCE_FLUSH) went from 37-44 to 60 fps at 640x480, every test still passing.
const FENCE_EVERY_COMMAND: bool = false;
/// SUBMIT_3D unfenced: QEMU answers once virglrenderer decoded the batch and issued its GL calls,
/// so the guest builds the next frame while the host renders (a readback's fenced transfer is
/// ordered after the batches by the host). Measured in the demo: see docs/ARCHITECTURE.md.
pub const FENCE_SUBMITS: bool = false;

#[derive(Clone, Debug, Default)]
pub struct GpuReport {
    /// A 1af4:1050 function was found on bus 0.
    pub present: bool,
    /// The device is up with VIRGL negotiated and a VirGL capset read.
    pub virgl: bool,
    /// Every capset id the device lists.
    pub capsets: heapless::Vec<u32, CAPSETS_MAX>,
    /// The chosen capset's caps.
    pub caps: Option<HostCaps>,
    /// The first enabled scanout (width, height).
    pub display: Option<(u32, u32)>,
    /// Why bring-up stopped early.
    pub error: Option<heapless::String<128>>,
    /// Microseconds bring-up took.
    pub micros: u64,
}

impl GpuReport {
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
        for (i, id) in self.capsets.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            match *id {
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

static REPORT: spin::Once<GpuReport> = spin::Once::new();

/// The result of the boot-time bring-up (None before `init` ran).
pub fn report() -> Option<&'static GpuReport> {
    REPORT.get()
}

/// Brings the device up once; later calls return the first report.
pub fn init() -> &'static GpuReport {
    REPORT.call_once(|| {
        let start = clock::now_us();
        let mut report = bring_up();
        report.micros = clock::now_us().saturating_sub(start);
        report
    })
}

fn now_ns() -> u64 {
    clock::now_us().saturating_mul(1000)
}

fn bring_up() -> GpuReport {
    let mut report = GpuReport::default();
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
    let transport = match PciTransport::new::<KernelHal, _>(&mut root, dev.location) {
        Ok(t) => t,
        Err(e) => return report.fail(format_args!("PciTransport::new: {:?}", e)),
    };
    let config = DeviceConfig {
        clock: Some(now_ns),
        timeout_ns: COMMAND_TIMEOUT_NS,
        fence_every_command: FENCE_EVERY_COMMAND,
        fence_submits: FENCE_SUBMITS,
        ..Default::default()
    };
    let mut device = match VirglDevice::<KernelHal, _>::new(transport, config) {
        Ok(d) => d,
        Err(e) => return report.fail(format_args!("VirglDevice::new: {}", e)),
    };
    for id in device.capset_ids() {
        let _ = report.capsets.push(*id);
    }
    report.caps = Some(*device.caps());
    match device.display_info() {
        Ok(modes) => {
            report.display = modes
                .iter()
                .find(|m| m.enabled)
                .map(|m| (m.rect.width, m.rect.height));
        }
        Err(e) => return report.fail(format_args!("GET_DISPLAY_INFO: {}", e)),
    }
    report.virgl = true;
    *GPU.lock() = Some(GpuCell(device));
    report
}

/// Runs `f` on the device (None when there is none). Never call it from inside `f`.
pub fn with<R>(f: impl FnOnce(&mut Device) -> R) -> Option<R> {
    let mut guard = GPU.lock();
    guard.as_mut().map(|cell| f(&mut cell.0))
}

/// Creates the 2D console resource (display size, one colour) and shows it on scanout 0.
pub fn console_init() -> virtio_gpu::Result<()> {
    let Some((w, h)) = report().and_then(|r| r.display) else {
        return Err(virtio_gpu::GpuError::Unsupported {
            what: "no enabled scanout",
        });
    };
    let r = with(|dev| -> virtio_gpu::Result<ResId> {
        let res = dev.resource_create_2d(FORMAT_B8G8R8A8_UNORM, w, h)?;
        for px in dev.backing_mut(res)?.chunks_exact_mut(4) {
            px.copy_from_slice(&CONSOLE_COLOUR.to_le_bytes());
        }
        let rect = Rect {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        dev.present(0, res, rect)?;
        dev.flush_2d(res, rect)?;
        Ok(res)
    })
    .unwrap_or(Err(virtio_gpu::GpuError::Lost))?;
    *CONSOLE.lock() = Some((r, w, h));
    Ok(())
}

/// Shows the console resource on scanout 0 again.
pub fn console_show() -> virtio_gpu::Result<()> {
    let console = *CONSOLE.lock();
    let Some((res, w, h)) = console else {
        return console_init();
    };
    with(|dev| {
        dev.present(
            0,
            res,
            Rect {
                x: 0,
                y: 0,
                width: w,
                height: h,
            },
        )
    })
    .unwrap_or(Err(virtio_gpu::GpuError::Lost))
}

/// For `crash=virgl`: a CLEAR with no framebuffer bound. virglrenderer rejects it and reports a
/// context error on QEMU's stderr only, while the guest sees success.
pub fn send_invalid_virgl() -> virtio_gpu::Result<()> {
    with(|dev| {
        let ctx = dev.ctx_create()?;
        // VIRGL_CCMD_CLEAR (7), 8 dwords: buffers, rgba, depth (f64), stencil.
        let r = dev.submit_3d(ctx, &[(8 << 16) | 7, 1, 0, 0, 0, 0, 0, 0, 0]);
        let d = dev.ctx_destroy(ctx);
        r.and(d)
    })
    .unwrap_or(Err(virtio_gpu::GpuError::Lost))
}

/// A `GpuTransport3d` over the [`GPU`] singleton: each call locks the device for that call only,
/// so Gfx3D's backend can own a transport while the kernel keeps the device.
pub struct SharedGpu {
    caps: HostCaps,
}

impl SharedGpu {
    /// None when the device is not up.
    pub fn new() -> Option<SharedGpu> {
        with(|dev| SharedGpu { caps: *dev.caps() })
    }
}

fn locked<R>(f: impl FnOnce(&mut Device) -> virtio_gpu::Result<R>) -> virtio_gpu::Result<R> {
    with(f).unwrap_or(Err(virtio_gpu::GpuError::Lost))
}

/// Where device time goes, for the demo's frame breakdown: calls and microseconds per kind of
/// `SharedGpu` call (each includes its round trip to QEMU), and the driver's polling time.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuTimes {
    pub submits: u64,
    pub submit_us: u64,
    pub transfers: u64,
    pub transfer_us: u64,
    /// SET_SCANOUT + RESOURCE_FLUSH pairs.
    pub presents: u64,
    pub present_us: u64,
    /// Every other call (create/destroy).
    pub others: u64,
    pub other_us: u64,
    /// Fenced commands and the microseconds spent polling for their answers (the fence waits).
    pub fenced: u64,
    pub fence_wait_us: u64,
}

impl GpuTimes {
    /// Microseconds of every device call.
    pub fn device_us(&self) -> u64 {
        self.submit_us + self.transfer_us + self.present_us + self.other_us
    }
    /// `self - earlier`, field by field.
    pub fn since(&self, e: &GpuTimes) -> GpuTimes {
        GpuTimes {
            submits: self.submits.saturating_sub(e.submits),
            submit_us: self.submit_us.saturating_sub(e.submit_us),
            transfers: self.transfers.saturating_sub(e.transfers),
            transfer_us: self.transfer_us.saturating_sub(e.transfer_us),
            presents: self.presents.saturating_sub(e.presents),
            present_us: self.present_us.saturating_sub(e.present_us),
            others: self.others.saturating_sub(e.others),
            other_us: self.other_us.saturating_sub(e.other_us),
            fenced: self.fenced.saturating_sub(e.fenced),
            fence_wait_us: self.fence_wait_us.saturating_sub(e.fence_wait_us),
        }
    }
}

static TIMES: spin::Mutex<GpuTimes> = spin::Mutex::new(GpuTimes {
    submits: 0,
    submit_us: 0,
    transfers: 0,
    transfer_us: 0,
    presents: 0,
    present_us: 0,
    others: 0,
    other_us: 0,
    fenced: 0,
    fence_wait_us: 0,
});

#[derive(Clone, Copy)]
enum Kind {
    Submit,
    Transfer,
    Present,
    Other,
}

/// The running totals (with the driver's fence counters).
pub fn times() -> GpuTimes {
    let mut t = *TIMES.lock();
    if let Some((n, ns)) = with(|d| (d.stats.fenced, d.stats.fenced_wait_ns)) {
        t.fenced = n;
        t.fence_wait_us = ns / 1000;
    }
    t
}

/// `locked`, timed under `kind`.
fn timed<R>(
    kind: Kind,
    f: impl FnOnce(&mut Device) -> virtio_gpu::Result<R>,
) -> virtio_gpu::Result<R> {
    let t0 = clock::now_us();
    let r = locked(f);
    let us = clock::now_us().saturating_sub(t0);
    let mut guard = TIMES.lock();
    let t = &mut *guard;
    let (n, total) = match kind {
        Kind::Submit => (&mut t.submits, &mut t.submit_us),
        Kind::Transfer => (&mut t.transfers, &mut t.transfer_us),
        Kind::Present => (&mut t.presents, &mut t.present_us),
        Kind::Other => (&mut t.others, &mut t.other_us),
    };
    *n += 1;
    *total += us;
    r
}

impl GpuTransport3d for SharedGpu {
    fn caps(&self) -> &HostCaps {
        &self.caps
    }
    fn ctx_create(&mut self) -> virtio_gpu::Result<CtxId> {
        timed(Kind::Other, |d| d.ctx_create())
    }
    fn ctx_destroy(&mut self, ctx: CtxId) -> virtio_gpu::Result<()> {
        timed(Kind::Other, |d| d.ctx_destroy(ctx))
    }
    fn resource_create_3d(&mut self, ctx: CtxId, desc: &ResourceDesc) -> virtio_gpu::Result<ResId> {
        timed(Kind::Other, |d| d.resource_create_3d(ctx, desc))
    }
    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> virtio_gpu::Result<()> {
        timed(Kind::Other, |d| d.resource_destroy(ctx, res))
    }
    fn transfer_level_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> virtio_gpu::Result<()> {
        timed(Kind::Transfer, |d| {
            d.transfer_level_to_host_3d(ctx, res, level, bx, stride, data)
        })
    }
    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> virtio_gpu::Result<()> {
        timed(Kind::Transfer, |d| {
            d.transfer_from_host_3d(ctx, res, bx, stride, out)
        })
    }
    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> virtio_gpu::Result<()> {
        timed(Kind::Submit, |d| d.submit_3d(ctx, dwords))
    }
    fn is_lost(&self) -> bool {
        with(|d| d.is_lost()).unwrap_or(true)
    }
}

/// Scanout hooks for Gfx3D's VirGL backend: a colour target becomes scanout 0; "primary" is
/// the console resource.
pub fn scanout_hooks<T>() -> gfx3d::virgl::ScanoutHooks<T> {
    gfx3d::virgl::ScanoutHooks {
        present: |_, res, w, h| {
            timed(Kind::Present, |d| {
                d.present(
                    0,
                    res,
                    Rect {
                        x: 0,
                        y: 0,
                        width: w,
                        height: h,
                    },
                )
            })
        },
        primary: |_| console_show(),
    }
}
