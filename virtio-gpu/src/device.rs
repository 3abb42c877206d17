//! The virtio-gpu device driver with VirGL: feature negotiation, the control queue with bounded
//! waits, capset parsing, context/resource id pools, guest backing, and the `Lost` state.
//!
//! Owns: `VirglDevice`, generic over virtio-drivers' `Hal` and `Transport`, implementing
//! `GpuTransport3d` so the same encoder and scenes run in the kernel.
//! Must never: wait without a bound, trust a response before `proto::check_response`, send
//! anything after the device became `Lost`, or free memory the device may still write.
use crate::caps::{HostCaps, CAPS_V1_SIZE};
use crate::error::{GpuError, Result};
use crate::handles::IdPool;
use crate::limits::*;
use crate::proto::*;
use crate::protocol::{CAPSET_VIRGL, CAPSET_VIRGL2, TARGET_BUFFER};
use crate::transport::{transfer_span, CtxId, GpuTransport3d, ResId, ResourceDesc};
use alloc::collections::BTreeMap;
use core::ptr::NonNull;
use virtio_drivers::queue::VirtQueue;
use virtio_drivers::transport::{DeviceStatus, DeviceType, Transport};
use virtio_drivers::{BufferDirection, Hal, PhysAddr, PAGE_SIZE};

bitflags::bitflags! {
    /// virtio-gpu feature bits this driver knows.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct GpuFeatures: u64 {
        const VIRGL = 1 << 0;
        const EDID = 1 << 1;
        const RESOURCE_BLOB = 1 << 3;
        const CONTEXT_INIT = 1 << 4;
        const RING_INDIRECT_DESC = 1 << 28;
        const RING_EVENT_IDX = 1 << 29;
        const VERSION_1 = 1 << 32;
    }
}

/// How long one control command may take.
#[derive(Debug, Clone, Copy)]
pub struct DeviceConfig {
    /// Poll iterations before a command counts as unanswered (used when `clock` is `None`).
    pub spin_budget: u64,
    /// Optional monotonic clock in nanoseconds; with it, `timeout_ns` bounds each command.
    pub clock: Option<fn() -> u64>,
    pub timeout_ns: u64,
    /// Fence every command (QEMU then answers only after the host finished it). When false,
    /// only transfers and (with `fence_submits`) SUBMIT_3D are fenced: QEMU handles the control
    /// queue in order, and unfenced commands are answered without waiting for its fence poll.
    pub fence_every_command: bool,
    /// With `fence_every_command` false: also fence SUBMIT_3D. When false, SUBMIT_3D is answered
    /// once QEMU has decoded the batch and handed it to the host's GL (the host renders while the
    /// guest builds the next batch); transfers stay fenced, and a readback (TRANSFER_FROM_HOST_3D)
    /// is ordered after every earlier batch of its context by the host, so it still sees them.
    pub fence_submits: bool,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            spin_budget: DEFAULT_SPIN_BUDGET,
            clock: None,
            timeout_ns: DEFAULT_TIMEOUT_NS,
            fence_every_command: true,
            fence_submits: true,
        }
    }
}

/// Device state: `Lost` is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceState {
    Ready,
    Lost,
}

/// Physically contiguous DMA memory from the HAL (virtio-drivers keeps its own `Dma` private).
struct DmaBuf<H: Hal> {
    paddr: PhysAddr,
    vaddr: NonNull<u8>,
    pages: usize,
    _h: core::marker::PhantomData<H>,
}

impl<H: Hal> DmaBuf<H> {
    fn new(bytes: usize, dir: BufferDirection) -> Result<Self> {
        let pages = bytes.div_ceil(PAGE_SIZE).max(1);
        let (paddr, vaddr) = H::dma_alloc(pages, dir);
        if paddr == 0 {
            return Err(GpuError::Transport {
                what: "DMA allocation",
                code: pages as i32,
            });
        }
        Ok(DmaBuf {
            paddr,
            vaddr,
            pages,
            _h: core::marker::PhantomData,
        })
    }
    fn len(&self) -> usize {
        self.pages * PAGE_SIZE
    }
    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: `dma_alloc` returned `pages` zeroed, exclusively owned pages at `vaddr`; the
        // device only touches them while a request that names them is in flight, and requests are
        // synchronous, so no other reference exists while this one lives.
        unsafe { core::slice::from_raw_parts_mut(self.vaddr.as_ptr(), self.len()) }
    }
}

impl<H: Hal> Drop for DmaBuf<H> {
    fn drop(&mut self) {
        // SAFETY: the values come from `dma_alloc` in `new` and are released exactly once.
        let _ = unsafe { H::dma_dealloc(self.paddr, self.vaddr, self.pages) };
    }
}

struct Resource<H: Hal> {
    desc: ResourceDesc,
    ctx: u32,
    backing: DmaBuf<H>,
    bytes: usize,
}

/// Counters for stats and tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeviceStats {
    pub commands: u64,
    pub submits: u64,
    pub dwords: u64,
    pub transfers: u64,
    /// Nanoseconds spent polling for responses (with a `clock`), all commands.
    pub wait_ns: u64,
    /// The part of `wait_ns` spent on fenced commands (answered only after the host's fence).
    pub fenced_wait_ns: u64,
    /// Fenced commands sent.
    pub fenced: u64,
}

/// A virtio-gpu device driven with VirGL.
pub struct VirglDevice<H: Hal, T: Transport> {
    transport: T,
    control: VirtQueue<H, CONTROL_QUEUE_SIZE>,
    cmd: Option<DmaBuf<H>>,
    resp: Option<DmaBuf<H>>,
    fence: u64,
    state: DeviceState,
    /// A command the device never answered: its buffers must never be freed.
    in_flight: bool,
    caps: HostCaps,
    features: GpuFeatures,
    ctx_ids: IdPool,
    res_ids: IdPool,
    resources: BTreeMap<u32, Resource<H>>,
    config: DeviceConfig,
    /// Ids of every capset the device listed (VirGL or not), in its order.
    capset_ids: heapless::Vec<u32, { MAX_CAPSETS as usize }>,
    /// What each scanout shows since our last SET_SCANOUT (resource id, rect); None: unknown.
    scanouts: [Option<(u32, [u32; 4])>; MAX_SCANOUTS],
    pub stats: DeviceStats,
}

const CMD_BYTES: usize = Submit3dHeader::SIZE + MAX_BATCH_DWORDS * 4;

impl<H: Hal, T: Transport> VirglDevice<H, T> {
    /// Initialises the device: negotiates VIRGL, sets up the control queue and reads the
    /// capsets (VIRGL2 preferred). Fails if the device is not a GPU, lacks VIRGL or a VirGL
    /// capset, or does not answer.
    pub fn new(mut transport: T, config: DeviceConfig) -> Result<Self> {
        if transport.device_type() != DeviceType::GPU {
            return Err(GpuError::Unsupported {
                what: "device is not a virtio-gpu",
            });
        }
        let offered = GpuFeatures::from_bits_truncate(transport.read_device_features());
        let wanted = GpuFeatures::VIRGL | GpuFeatures::VERSION_1;
        let features = transport.begin_init(wanted);
        if !features.contains(GpuFeatures::VIRGL) || !offered.contains(GpuFeatures::VIRGL) {
            transport.set_status(DeviceStatus::FAILED);
            return Err(GpuError::Unsupported {
                what: "VIRGL feature",
            });
        }
        let control = match VirtQueue::<H, CONTROL_QUEUE_SIZE>::new(&mut transport, 0, false, false)
        {
            Ok(q) => q,
            Err(_) => {
                transport.set_status(DeviceStatus::FAILED);
                return Err(GpuError::Transport {
                    what: "control queue setup",
                    code: 0,
                });
            }
        };
        transport.finish_init();
        let mut dev = VirglDevice {
            transport,
            control,
            cmd: Some(DmaBuf::new(CMD_BYTES, BufferDirection::DriverToDevice)?),
            resp: Some(DmaBuf::new(
                RESPONSE_BYTES,
                BufferDirection::DeviceToDriver,
            )?),
            fence: 0,
            state: DeviceState::Ready,
            in_flight: false,
            caps: HostCaps::default(),
            features,
            ctx_ids: IdPool::new("context", MAX_CONTEXTS)?,
            res_ids: IdPool::new("resource", MAX_RESOURCES)?,
            resources: BTreeMap::new(),
            config,
            capset_ids: heapless::Vec::new(),
            scanouts: [None; MAX_SCANOUTS],
            stats: DeviceStats::default(),
        };
        dev.read_capsets()?;
        Ok(dev)
    }

    /// Changes `DeviceConfig::fence_submits` (the kernel's bench compares both ways in one boot).
    pub fn set_fence_submits(&mut self, on: bool) {
        self.config.fence_submits = on;
    }

    pub fn state(&self) -> DeviceState {
        self.state
    }
    pub fn features(&self) -> GpuFeatures {
        self.features
    }
    pub fn live_resources(&self) -> u32 {
        self.res_ids.live()
    }
    pub fn live_contexts(&self) -> u32 {
        self.ctx_ids.live()
    }
    /// Ids of every capset the device listed at initialisation (1 = VIRGL, 2 = VIRGL2).
    pub fn capset_ids(&self) -> &[u32] {
        &self.capset_ids
    }

    fn lose<R>(&mut self, e: GpuError) -> Result<R> {
        self.state = DeviceState::Lost;
        Err(e)
    }

    fn next_fence(&mut self) -> u64 {
        self.fence = self.fence.wrapping_add(1);
        self.fence
    }

    /// Sends the `cmd_len` bytes already written at the start of the command buffer and waits
    /// (bounded) for the response. Any failure makes the device `Lost`.
    fn request(
        &mut self,
        command: u32,
        cmd_len: usize,
        fence: u64,
        expected: u32,
        min_resp: usize,
        resp_cap: usize,
    ) -> Result<usize> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        let (Some(cmd), Some(resp)) = (self.cmd.as_mut(), self.resp.as_mut()) else {
            return self.lose(GpuError::Lost);
        };
        let resp_cap = resp_cap.min(resp.len()).max(HDR_SIZE);
        if cmd_len > cmd.len() {
            return Err(GpuError::TooLarge {
                what: "control command",
                dwords: cmd_len / 4,
                capacity: cmd.len() / 4,
            });
        }
        resp.bytes()[..HDR_SIZE].fill(0);
        let fenced_kind = match command {
            CMD_SUBMIT_3D => self.config.fence_submits,
            CMD_TRANSFER_TO_HOST_3D | CMD_TRANSFER_FROM_HOST_3D => true,
            _ => false,
        };
        let fenced = self.config.fence_every_command || fenced_kind;
        if !fenced {
            // Clear FLAG_FENCE (header bytes 4..8) of a command that needs no completion fence.
            if let Some(flags) = cmd.bytes().get_mut(4..8) {
                flags.fill(0);
            }
        }
        let cmd_bytes: &[u8] = &cmd.bytes()[..cmd_len];
        let resp_bytes: &mut [u8] = &mut resp.bytes()[..resp_cap];
        let inputs = [cmd_bytes];
        let mut outputs = [resp_bytes];
        self.stats.commands += 1;
        // SAFETY: both buffers are DMA memory owned by `self` that stays allocated until the
        // token is popped below; if it never is (timeout), `in_flight` makes `Drop` leak them.
        let token = match unsafe { self.control.add(&inputs, &mut outputs) } {
            Ok(t) => t,
            Err(_) => {
                return self.lose(GpuError::Transport {
                    what: "control queue add",
                    code: 0,
                })
            }
        };
        if self.control.should_notify() {
            self.transport.notify(0);
        }
        let start = self.config.clock.map(|c| c());
        let mut spins: u64 = 0;
        while !self.control.can_pop() {
            spins += 1;
            let expired = match (self.config.clock, start) {
                (Some(c), Some(s)) => c().wrapping_sub(s) > self.config.timeout_ns,
                _ => spins > self.config.spin_budget,
            };
            if expired {
                self.in_flight = true;
                return self.lose(GpuError::Timeout { command });
            }
            core::hint::spin_loop();
        }
        if let (Some(c), Some(s)) = (self.config.clock, start) {
            let waited = c().wrapping_sub(s);
            self.stats.wait_ns = self.stats.wait_ns.wrapping_add(waited);
            if fenced {
                self.stats.fenced_wait_ns = self.stats.fenced_wait_ns.wrapping_add(waited);
            }
        }
        if fenced {
            self.stats.fenced += 1;
        }
        // SAFETY: the same buffers that were passed to `add` for this token.
        let used = match unsafe { self.control.pop_used(token, &inputs, &mut outputs) } {
            Ok(n) => n as usize,
            Err(_) => {
                self.in_flight = true;
                return self.lose(GpuError::Malformed {
                    command,
                    reason: "device used another descriptor chain",
                });
            }
        };
        let valid = used.min(resp_cap);
        let r = match self.resp.as_mut() {
            Some(b) => check_response(command, &b.bytes()[..valid], expected, min_resp, fence),
            None => Err(GpuError::Lost),
        };
        match r {
            Ok(_) => Ok(valid),
            Err(e) => self.lose(e),
        }
    }

    /// Writes `bytes` at the start of the command buffer.
    fn put_cmd(&mut self, bytes: &[u8]) -> Result<()> {
        let cmd = self.cmd.as_mut().ok_or(GpuError::Lost)?;
        let dst = cmd
            .bytes()
            .get_mut(..bytes.len())
            .ok_or(GpuError::TooLarge {
                what: "control command",
                dwords: bytes.len() / 4,
                capacity: CMD_BYTES / 4,
            })?;
        dst.copy_from_slice(bytes);
        Ok(())
    }

    fn simple<const N: usize>(
        &mut self,
        command: u32,
        build: impl FnOnce(u64) -> [u8; N],
    ) -> Result<()> {
        let fence = self.next_fence();
        let b = build(fence);
        self.put_cmd(&b)?;
        self.request(command, N, fence, RESP_OK_NODATA, HDR_SIZE, HDR_SIZE)?;
        Ok(())
    }

    fn read_capsets(&mut self) -> Result<()> {
        let n: u32 = self
            .transport
            .read_config_space(CONFIG_NUM_CAPSETS)
            .map_err(|_| GpuError::Transport {
                what: "config space",
                code: 0,
            })?;
        if n > MAX_CAPSETS {
            return self.lose(GpuError::OutOfRange {
                what: "num_capsets",
                value: n as u64,
                limit: MAX_CAPSETS as u64,
            });
        }
        let mut best: Option<HostCaps> = None;
        for index in 0..n {
            let fence = self.next_fence();
            self.put_cmd(
                &GetCapsetInfo {
                    capset_index: index,
                }
                .to_bytes(fence),
            )?;
            let len = self.request(
                CMD_GET_CAPSET_INFO,
                GetCapsetInfo::SIZE,
                fence,
                RESP_OK_CAPSET_INFO,
                CAPSET_INFO_RESP_SIZE,
                CAPSET_INFO_RESP_SIZE,
            )?;
            let info =
                self.resp_slice(len)
                    .and_then(parse_capset_info)
                    .ok_or(GpuError::Malformed {
                        command: CMD_GET_CAPSET_INFO,
                        reason: "short capset info",
                    })?;
            let _ = self.capset_ids.push(info.capset_id);
            if info.capset_id != CAPSET_VIRGL && info.capset_id != CAPSET_VIRGL2 {
                continue;
            }
            let size = info.max_size as usize;
            if !(CAPS_V1_SIZE..=MAX_CAPSET_BYTES).contains(&size) || info.max_version == 0 {
                continue;
            }
            let version = info.max_version.min(2);
            let fence = self.next_fence();
            self.put_cmd(
                &GetCapset {
                    capset_id: info.capset_id,
                    capset_version: version,
                }
                .to_bytes(fence),
            )?;
            let len = self.request(
                CMD_GET_CAPSET,
                GetCapset::SIZE,
                fence,
                RESP_OK_CAPSET,
                HDR_SIZE + size,
                HDR_SIZE + size,
            )?;
            let parsed = self
                .resp_slice(len)
                .and_then(|r| r.get(HDR_SIZE..HDR_SIZE + size))
                .and_then(|blob| HostCaps::parse(info.capset_id, version, blob));
            if let Some(c) = parsed {
                best = Some(HostCaps::better(best, c));
            }
        }
        match best {
            Some(c) => {
                self.caps = c;
                Ok(())
            }
            None => Err(GpuError::Unsupported {
                what: "no VIRGL or VIRGL2 capset",
            }),
        }
    }

    fn resp_slice(&mut self, len: usize) -> Option<&[u8]> {
        let r = self.resp.as_mut()?;
        r.bytes().get(..len).map(|s| s as &[u8])
    }

    /// GET_DISPLAY_INFO: the scanouts the device reports.
    pub fn display_info(&mut self) -> Result<[DisplayMode; MAX_SCANOUTS]> {
        let fence = self.next_fence();
        self.put_cmd(&GetDisplayInfo { ctx_id: 0 }.to_bytes(fence))?;
        let len = self.request(
            CMD_GET_DISPLAY_INFO,
            HDR_SIZE,
            fence,
            RESP_OK_DISPLAY_INFO,
            DISPLAY_INFO_SIZE,
            DISPLAY_INFO_SIZE,
        )?;
        self.resp_slice(len)
            .and_then(parse_display_info)
            .ok_or(GpuError::Malformed {
                command: CMD_GET_DISPLAY_INFO,
                reason: "short display info",
            })
    }

    /// Creates a 2D resource (RESOURCE_CREATE_2D) with guest backing, for a console or a
    /// software-rendered scanout. Fill it through `backing_mut`, then `flush_2d`.
    pub fn resource_create_2d(&mut self, format: u32, width: u32, height: u32) -> Result<ResId> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        for (what, v) in [("2D width", width), ("2D height", height)] {
            if v == 0 || v > MAX_RESOURCE_DIM {
                return Err(GpuError::OutOfRange {
                    what,
                    value: v as u64,
                    limit: MAX_RESOURCE_DIM as u64,
                });
            }
        }
        let desc = ResourceDesc::tex2d(width, height, format, 0, 4);
        let bytes = desc
            .backing_bytes()
            .filter(|&b| b <= MAX_BACKING_BYTES)
            .ok_or(GpuError::OutOfRange {
                what: "2D backing bytes",
                value: width as u64 * height as u64 * 4,
                limit: MAX_BACKING_BYTES as u64,
            })?;
        let backing = DmaBuf::<H>::new(bytes, BufferDirection::DriverToDevice)?;
        let id = self.res_ids.alloc()?;
        let paddr = backing.paddr;
        let steps = self
            .simple(CMD_RESOURCE_CREATE_2D, |f| {
                ResourceCreate2d {
                    resource_id: id,
                    format,
                    width,
                    height,
                }
                .to_bytes(f)
            })
            .and_then(|_| self.attach_backing(id, paddr, bytes));
        self.keep_resource(
            id,
            steps,
            Resource {
                desc,
                ctx: 0,
                backing,
                bytes,
            },
        )
    }

    /// The guest copy of a 2D resource (row pitch = width * 4).
    pub fn backing_mut(&mut self, res: ResId) -> Result<&mut [u8]> {
        match self.resources.get_mut(&res.0) {
            Some(r) if r.ctx == 0 => {
                let n = r.bytes;
                Ok(&mut r.backing.bytes()[..n])
            }
            _ => Err(GpuError::UnknownId {
                pool: "2D resource",
                id: res.0,
            }),
        }
    }

    /// TRANSFER_TO_HOST_2D of `rect` of a 2D resource, then RESOURCE_FLUSH of it.
    pub fn flush_2d(&mut self, res: ResId, rect: Rect) -> Result<()> {
        let stride = match self.resources.get(&res.0) {
            Some(r) if r.ctx == 0 => {
                let inside = rect
                    .x
                    .checked_add(rect.width)
                    .is_some_and(|e| e <= r.desc.width)
                    && rect
                        .y
                        .checked_add(rect.height)
                        .is_some_and(|e| e <= r.desc.height);
                if !inside {
                    return Err(GpuError::Invalid {
                        what: "2D flush rectangle outside the resource",
                    });
                }
                r.desc.stride() as u64
            }
            _ => {
                return Err(GpuError::UnknownId {
                    pool: "2D resource",
                    id: res.0,
                })
            }
        };
        let offset = rect.y as u64 * stride + rect.x as u64 * 4;
        self.simple(CMD_TRANSFER_TO_HOST_2D, |f| {
            TransferToHost2d {
                rect,
                offset,
                resource_id: res.0,
            }
            .to_bytes(f)
        })?;
        self.flush_rect(res, rect)
    }

    /// Releases a 2D resource and its backing.
    pub fn resource_destroy_2d(&mut self, res: ResId) -> Result<()> {
        match self.resources.get(&res.0) {
            Some(r) if r.ctx == 0 => self.release(res.0),
            _ => Err(GpuError::UnknownId {
                pool: "2D resource",
                id: res.0,
            }),
        }
    }

    /// Shows a resource on a scanout (SET_SCANOUT then RESOURCE_FLUSH). SET_SCANOUT is left out
    /// when our last one already put `res` with `rect` on `scanout` (the host then only redraws
    /// it: RESOURCE_FLUSH updates every scanout showing the resource).
    pub fn present(&mut self, scanout: u32, res: ResId, rect: Rect) -> Result<()> {
        let key = (res.0, [rect.x, rect.y, rect.width, rect.height]);
        let slot = scanout as usize;
        if self.scanouts.get(slot).copied().flatten() != Some(key) {
            if let Some(s) = self.scanouts.get_mut(slot) {
                *s = None;
            }
            self.simple(CMD_SET_SCANOUT, |f| {
                SetScanout {
                    rect,
                    scanout_id: scanout,
                    resource_id: res.0,
                }
                .to_bytes(f)
            })?;
            if let Some(s) = self.scanouts.get_mut(slot) {
                *s = Some(key);
            }
        }
        self.flush_rect(res, rect)
    }

    fn resource(&self, ctx: CtxId, res: ResId) -> Result<&Resource<H>> {
        match self.resources.get(&res.0) {
            Some(r) if r.ctx == ctx.0 => Ok(r),
            _ => Err(GpuError::UnknownId {
                pool: "resource",
                id: res.0,
            }),
        }
    }

    fn transfer(
        &mut self,
        to_host: bool,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
    ) -> Result<()> {
        let r = self.resource(ctx, res)?;
        let (stride, offset) = if r.desc.target == TARGET_BUFFER {
            (0, bx.x as u64)
        } else {
            // Levels lie one after another in the backing, each with all its layers.
            let s = r.desc.level_stride(level);
            let h = r.desc.level_size(level).1;
            let base = r.desc.level_offset(level).ok_or(GpuError::Invalid {
                what: "transfer level outside the backing",
            })?;
            (
                s,
                base + (bx.z as u64 * h as u64 + bx.y as u64) * s as u64
                    + bx.x as u64 * r.desc.bytes_per_texel as u64,
            )
        };
        let t = Transfer3d {
            to_host,
            ctx_id: ctx.0,
            bx,
            offset,
            resource_id: res.0,
            level,
            stride,
            layer_stride: 0,
        };
        let command = t.command();
        self.stats.transfers += 1;
        self.simple(command, |f| t.to_bytes(f))
    }

    /// The resource `res` whatever its context; only for use after `resource` checked the owner.
    fn resource_mut(&mut self, res: ResId) -> Result<&mut Resource<H>> {
        self.resources.get_mut(&res.0).ok_or(GpuError::UnknownId {
            pool: "resource",
            id: res.0,
        })
    }

    /// Checks a 3D transfer of `have` caller bytes, rows `stride` apart (0: packed), against the
    /// device state and the resource, and says where its rows are on both sides.
    fn plan_rows(
        &self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        have: usize,
        what: &'static str,
    ) -> Result<RowPlan> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        let (row, rows, rstride) = self.box_rows(ctx, res, level, bx)?;
        let desc = self.resource(ctx, res)?.desc;
        let bpp = desc.bytes_per_texel;
        let stride = if stride == 0 { row as u32 } else { stride };
        let span = transfer_span(bx, stride, bpp).ok_or(GpuError::Invalid {
            what: "empty transfer",
        })?;
        if have < span || (stride as usize) < row {
            return Err(GpuError::OutOfRange {
                what,
                value: have as u64,
                limit: span as u64,
            });
        }
        Ok(RowPlan {
            row,
            rows,
            stride,
            rstride,
            // Level `level` starts after the levels above it; a layer (cube face) z starts
            // z x (the level's height) rows into its level.
            base: desc.level_offset(level).unwrap_or(0) as usize
                + (bx.z as usize * desc.level_size(level).1 as usize + bx.y as usize) * rstride
                + (bx.x * bpp) as usize,
        })
    }

    /// Validates a box against a resource and returns (row bytes, rows, resource stride).
    fn box_rows(
        &self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
    ) -> Result<(usize, usize, usize)> {
        let r = self.resource(ctx, res)?;
        let d = r.desc;
        if level > d.last_level {
            return Err(GpuError::OutOfRange {
                what: "transfer mip level",
                value: level as u64,
                limit: d.last_level as u64,
            });
        }
        let (lw, lh) = d.level_size(level);
        // One layer at a time: z selects a cube face (0 on every other resource).
        if bx.w == 0 || bx.h == 0 || bx.d != 1 || bx.z >= d.array_size.max(1) {
            return Err(GpuError::Invalid {
                what: "transfer box must be non-empty, one layer deep, within the layers",
            });
        }
        let fits = bx.x.checked_add(bx.w).is_some_and(|e| e <= lw)
            && bx.y.checked_add(bx.h).is_some_and(|e| e <= lh);
        if !fits {
            return Err(GpuError::OutOfRange {
                what: "transfer box end",
                value: (bx.x as u64 + bx.w as u64).max(bx.y as u64 + bx.h as u64),
                limit: lw.max(lh) as u64,
            });
        }
        Ok((
            (bx.w * d.bytes_per_texel) as usize,
            bx.h as usize,
            d.level_stride(level) as usize,
        ))
    }

    fn attach_backing(&mut self, id: u32, addr: u64, bytes: usize) -> Result<()> {
        self.simple(CMD_RESOURCE_ATTACH_BACKING, |f| {
            ResourceAttachBacking {
                resource_id: id,
                addr,
                length: bytes as u32,
            }
            .to_bytes(f)
        })
    }

    fn flush_rect(&mut self, res: ResId, rect: Rect) -> Result<()> {
        self.simple(CMD_RESOURCE_FLUSH, |f| {
            ResourceFlush {
                rect,
                resource_id: res.0,
            }
            .to_bytes(f)
        })
    }

    /// Records resource `id` when all its creation `steps` succeeded; otherwise frees the id and
    /// keeps the backing alive if the device may still be writing to it.
    fn keep_resource(&mut self, id: u32, steps: Result<()>, r: Resource<H>) -> Result<ResId> {
        match steps {
            Ok(()) => {
                self.resources.insert(id, r);
                Ok(ResId(id))
            }
            Err(e) => {
                if self.in_flight {
                    core::mem::forget(r.backing);
                }
                let _ = self.res_ids.free(id);
                Err(e)
            }
        }
    }

    fn release(&mut self, id: u32) -> Result<()> {
        let Some(r) = self.resources.remove(&id) else {
            return Err(GpuError::UnknownId {
                pool: "resource",
                id,
            });
        };
        let ctx = r.ctx;
        // The host takes a destroyed resource off its scanouts; a new one may reuse the id.
        for s in self.scanouts.iter_mut() {
            if s.is_some_and(|(res, _)| res == id) {
                *s = None;
            }
        }
        // 2D resources (ctx 0) were never attached to a context.
        let a = if ctx == 0 {
            Ok(())
        } else {
            self.simple(CMD_CTX_DETACH_RESOURCE, |f| {
                CtxDetachResource {
                    ctx_id: ctx,
                    resource_id: id,
                }
                .to_bytes(f)
            })
        };
        // UNREF also detaches the backing on the host.
        let u = a.and_then(|_| {
            self.simple(CMD_RESOURCE_UNREF, |f| {
                ResourceUnref {
                    ctx_id: 0,
                    resource_id: id,
                }
                .to_bytes(f)
            })
        });
        if u.is_ok() || !self.in_flight {
            drop(r);
        } else {
            core::mem::forget(r.backing);
        }
        let _ = self.res_ids.free(id);
        u
    }
}

/// Where the rows of a checked transfer lie: `row` bytes each, `rows` of them, `stride` apart in
/// the caller's bytes and `rstride` apart from `base` in the backing.
struct RowPlan {
    row: usize,
    rows: usize,
    stride: u32,
    rstride: usize,
    base: usize,
}

impl RowPlan {
    /// The bytes of row `y` in the caller's buffer.
    fn caller(&self, y: usize) -> core::ops::Range<usize> {
        let at = y * self.stride as usize;
        at..at + self.row
    }
    /// The bytes of row `y` in the resource's backing.
    fn backing(&self, y: usize) -> core::ops::Range<usize> {
        let at = self.base + y * self.rstride;
        at..at + self.row
    }
}

impl<H: Hal, T: Transport> GpuTransport3d for VirglDevice<H, T> {
    fn caps(&self) -> &HostCaps {
        &self.caps
    }

    fn ctx_create(&mut self) -> Result<CtxId> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        let id = self.ctx_ids.alloc()?;
        let r = self.simple(CMD_CTX_CREATE, |f| {
            CtxCreate {
                ctx_id: id,
                context_init: 0,
                debug_name: b"chrisos",
            }
            .to_bytes(f)
        });
        match r {
            Ok(()) => Ok(CtxId(id)),
            Err(e) => {
                let _ = self.ctx_ids.free(id);
                Err(e)
            }
        }
    }

    fn ctx_destroy(&mut self, ctx: CtxId) -> Result<()> {
        if !self.ctx_ids.is_live(ctx.0) {
            return Err(GpuError::UnknownId {
                pool: "context",
                id: ctx.0,
            });
        }
        let owned: alloc::vec::Vec<u32> = self
            .resources
            .iter()
            .filter(|(_, r)| r.ctx == ctx.0)
            .map(|(&id, _)| id)
            .collect();
        let mut first_err = None;
        for id in owned {
            if let Err(e) = self.release(id) {
                first_err.get_or_insert(e);
            }
        }
        let r = self.simple(CMD_CTX_DESTROY, |f| {
            CtxDestroy { ctx_id: ctx.0 }.to_bytes(f)
        });
        let _ = self.ctx_ids.free(ctx.0);
        match first_err {
            Some(e) => Err(e),
            None => r,
        }
    }

    fn resource_create_3d(&mut self, ctx: CtxId, d: &ResourceDesc) -> Result<ResId> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        if !self.ctx_ids.is_live(ctx.0) {
            return Err(GpuError::UnknownId {
                pool: "context",
                id: ctx.0,
            });
        }
        // The same limits as the vtest transport (one function for both).
        let bytes = d.check(self.caps.max_texture_2d_size)?;
        let backing = DmaBuf::<H>::new(bytes, BufferDirection::Both)?;
        let id = self.res_ids.alloc()?;
        let c = ResourceCreate3d {
            resource_id: id,
            target: d.target,
            format: d.format,
            bind: d.bind,
            width: d.width,
            height: d.height,
            depth: d.depth,
            array_size: d.array_size,
            last_level: d.last_level,
            nr_samples: d.nr_samples,
            flags: 0,
        };
        let paddr = backing.paddr;
        let steps = self
            .simple(CMD_RESOURCE_CREATE_3D, |f| c.to_bytes(f))
            .and_then(|_| self.attach_backing(id, paddr, bytes))
            .and_then(|_| {
                self.simple(CMD_CTX_ATTACH_RESOURCE, |f| {
                    CtxAttachResource {
                        ctx_id: ctx.0,
                        resource_id: id,
                    }
                    .to_bytes(f)
                })
            });
        self.keep_resource(
            id,
            steps,
            Resource {
                desc: *d,
                ctx: ctx.0,
                backing,
                bytes,
            },
        )
    }

    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> Result<()> {
        self.resource(ctx, res)?;
        self.release(res.0)
    }

    fn transfer_level_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> Result<()> {
        let p = self.plan_rows(
            ctx,
            res,
            level,
            bx,
            stride,
            data.len(),
            "transfer data bytes",
        )?;
        let r = self.resource_mut(res)?;
        let limit = r.bytes;
        let mem = r.backing.bytes();
        for y in 0..p.rows {
            let src = data.get(p.caller(y));
            let at = p.backing(y);
            let dst = if at.end <= limit {
                mem.get_mut(at)
            } else {
                None
            };
            match (src, dst) {
                (Some(s), Some(d)) => d.copy_from_slice(s),
                _ => {
                    return Err(GpuError::Invalid {
                        what: "transfer outside the backing",
                    })
                }
            }
        }
        self.transfer(true, ctx, res, level, bx)
    }

    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> Result<()> {
        let p = self.plan_rows(ctx, res, 0, bx, stride, out.len(), "readback bytes")?;
        self.transfer(false, ctx, res, 0, bx)?;
        let mem = self.resource_mut(res)?.backing.bytes();
        for y in 0..p.rows {
            let src = mem.get(p.backing(y));
            let dst = out.get_mut(p.caller(y));
            match (src, dst) {
                (Some(s), Some(d)) => d.copy_from_slice(s),
                _ => {
                    return Err(GpuError::Invalid {
                        what: "readback outside the backing",
                    })
                }
            }
        }
        Ok(())
    }

    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> Result<()> {
        if self.state == DeviceState::Lost {
            return Err(GpuError::Lost);
        }
        if dwords.is_empty() {
            return Ok(());
        }
        if dwords.len() > MAX_BATCH_DWORDS {
            return Err(GpuError::TooLarge {
                what: "SUBMIT_3D",
                dwords: dwords.len(),
                capacity: MAX_BATCH_DWORDS,
            });
        }
        if !self.ctx_ids.is_live(ctx.0) {
            return Err(GpuError::UnknownId {
                pool: "context",
                id: ctx.0,
            });
        }
        let fence = self.next_fence();
        let hdr = Submit3dHeader {
            ctx_id: ctx.0,
            size_bytes: (dwords.len() * 4) as u32,
        }
        .to_bytes(fence);
        {
            let cmd = self.cmd.as_mut().ok_or(GpuError::Lost)?;
            let mem = cmd.bytes();
            mem[..Submit3dHeader::SIZE].copy_from_slice(&hdr);
            for (i, w) in dwords.iter().enumerate() {
                let at = Submit3dHeader::SIZE + i * 4;
                mem[at..at + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        let n = Submit3dHeader::SIZE + dwords.len() * 4;
        self.request(CMD_SUBMIT_3D, n, fence, RESP_OK_NODATA, HDR_SIZE, HDR_SIZE)?;
        self.stats.submits += 1;
        self.stats.dwords += dwords.len() as u64;
        Ok(())
    }

    fn is_lost(&self) -> bool {
        self.state == DeviceState::Lost
    }
}

impl<H: Hal, T: Transport> Drop for VirglDevice<H, T> {
    fn drop(&mut self) {
        // Reset first: a reset device no longer touches guest memory.
        self.transport.set_status(DeviceStatus::empty());
        if self.in_flight {
            // The device never answered; do not hand its buffers back to the allocator.
            if let Some(b) = self.cmd.take() {
                core::mem::forget(b);
            }
            if let Some(b) = self.resp.take() {
                core::mem::forget(b);
            }
            for (_, r) in core::mem::take(&mut self.resources) {
                core::mem::forget(r.backing);
            }
        }
    }
}
