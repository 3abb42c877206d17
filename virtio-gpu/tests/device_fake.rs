//! The virtio device driver against a fake virtio-gpu: a host-side model of the control queue
//! that answers like QEMU (and runs every SUBMIT_3D through the stream checker), with fault
//! injection: a device that stops answering, answers with an error, or answers malformed.
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::rc::Rc;
use virtio_drivers::transport::{DeviceStatus, DeviceType, InterruptStatus, Transport};
use virtio_drivers::{BufferDirection, Hal, PhysAddr};
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::device::{DeviceConfig, DeviceState, VirglDevice};
use virtio_gpu::proto::*;
use virtio_gpu::protocol::*;
use virtio_gpu::scenes;
use virtio_gpu::{GpuError, GpuTransport3d, ResourceDesc};
use zerocopy::{FromBytes, Immutable, IntoBytes};

struct TestHal;

fn layout(pages: usize) -> Layout {
    Layout::from_size_align(pages * 4096, 4096).unwrap()
}

unsafe impl Hal for TestHal {
    fn dma_alloc(pages: usize, _dir: BufferDirection) -> (PhysAddr, NonNull<u8>) {
        let p = unsafe { alloc_zeroed(layout(pages)) };
        (p as u64, NonNull::new(p).unwrap())
    }
    unsafe fn dma_dealloc(_paddr: PhysAddr, vaddr: NonNull<u8>, pages: usize) -> i32 {
        unsafe { dealloc(vaddr.as_ptr(), layout(pages)) };
        0
    }
    unsafe fn mmio_phys_to_virt(paddr: PhysAddr, _size: usize) -> NonNull<u8> {
        NonNull::new(paddr as *mut u8).unwrap()
    }
    unsafe fn share(buffer: NonNull<[u8]>, _dir: BufferDirection) -> PhysAddr {
        buffer.as_ptr() as *mut u8 as u64
    }
    unsafe fn unshare(_paddr: PhysAddr, _buffer: NonNull<[u8]>, _dir: BufferDirection) {}
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Fault {
    None,
    Silent,
    ErrorResponse,
    Short,
    WrongType,
    WrongFence,
}

#[derive(Default)]
struct FakeRes {
    target: u32,
    format: u32,
    width: u32,
    /// Rows of one layer (a cube's faces follow one another in `data`).
    height: u32,
    backing: Option<(u64, usize)>,
    data: Vec<u8>,
    attached: bool,
}

impl FakeRes {
    /// Copies the box `(x, y, w, h)` of `bpp`-byte texels between the guest backing (rows
    /// `stride` apart from `offset`) and the host copy; the error is the virtio response code.
    fn copy_rows(
        &mut self,
        to_host: bool,
        bpp: usize,
        (offset, stride): (usize, usize),
        (x, y, w, h): (usize, usize, usize, usize),
        z: usize,
    ) -> Result<(), u32> {
        let Some((addr, len)) = self.backing else {
            return Err(0x1205);
        };
        let host_stride = self.width as usize * bpp;
        let n = w * bpp;
        for row in 0..h {
            let g_at = offset + row * stride;
            let h_at = (z * self.height as usize + y + row) * host_stride + x * bpp;
            if g_at + n > len || h_at + n > self.data.len() {
                return Err(0x1205);
            }
            // The test owns the backing memory the device under test handed over.
            let guest =
                unsafe { std::slice::from_raw_parts_mut((addr as usize + g_at) as *mut u8, n) };
            if to_host {
                self.data[h_at..h_at + n].copy_from_slice(guest);
            } else {
                guest.copy_from_slice(&self.data[h_at..h_at + n]);
            }
        }
        Ok(())
    }
}

struct Host {
    capsets: Vec<(u32, u32, Vec<u8>)>,
    contexts: BTreeMap<u32, StreamChecker>,
    resources: BTreeMap<u32, FakeRes>,
    surfaces: BTreeMap<(u32, u32), u32>,
    cbuf: BTreeMap<u32, u32>,
    stream_errors: Vec<String>,
    commands: Vec<u32>,
    /// Types of the commands that came with FLAG_FENCE.
    fenced: Vec<u32>,
    /// Every TRANSFER_TO_HOST_3D: (resource, level, box z, offset, stride, the guest bytes of
    /// its first row at that offset).
    uploads: Vec<(u32, u32, u32, u64, u32, Vec<u8>)>,
}

struct State {
    status: DeviceStatus,
    driver_features: u64,
    queue: Option<(u32, u64, u64, u64)>,
    next_avail: u16,
    fault: Fault,
    fault_from: usize,
    handled: usize,
    host: Host,
}

struct FakeTransport {
    features: u64,
    state: Rc<RefCell<State>>,
}

fn rd16(a: u64) -> u16 {
    unsafe { std::ptr::read_volatile(a as *const u16) }
}
fn rd32a(a: u64) -> u32 {
    unsafe { std::ptr::read_volatile(a as *const u32) }
}
fn rd64a(a: u64) -> u64 {
    unsafe { std::ptr::read_volatile(a as *const u64) }
}

fn caps_blob(feature_version: u32) -> Vec<u8> {
    let mut b = vec![0u8; 1024];
    let put = |b: &mut Vec<u8>, at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(&mut b, 0, 2);
    put(&mut b, 4, 0xFFFF_FFFF); // sampler formats
    put(&mut b, 264, 430); // glsl level
    put(&mut b, 280, 8);
    put(&mut b, 356, 16);
    put(&mut b, 484, 16384); // max texture 2d
    put(&mut b, 556, feature_version);
    b
}

fn resp(ty: u32, req: &[u8], extra: &[u8]) -> Vec<u8> {
    let h = CtrlHeader::parse(req).unwrap_or_default();
    let mut r = CtrlHeader {
        ty,
        flags: h.flags & FLAG_FENCE,
        fence_id: h.fence_id,
        ctx_id: h.ctx_id,
        ring_idx: 0,
    }
    .to_bytes()
    .to_vec();
    r.extend_from_slice(extra);
    r
}

impl Host {
    fn bpp(format: u32) -> usize {
        if format == FORMAT_R8_UNORM {
            1
        } else {
            4
        }
    }

    fn handle(&mut self, req: &[u8]) -> Vec<u8> {
        let g = |at| rd32(req, at).unwrap_or(0);
        let ty = g(0);
        self.commands.push(ty);
        if g(4) & FLAG_FENCE != 0 {
            self.fenced.push(ty);
        }
        let ok = |req: &[u8]| resp(RESP_OK_NODATA, req, &[]);
        let err = |req: &[u8], code: u32| resp(code, req, &[]);
        match ty {
            CMD_GET_CAPSET_INFO => {
                let i = g(24) as usize;
                match self.capsets.get(i) {
                    Some((id, v, blob)) => {
                        let mut e = Vec::new();
                        for x in [*id, *v, blob.len() as u32, 0] {
                            e.extend_from_slice(&x.to_le_bytes());
                        }
                        resp(RESP_OK_CAPSET_INFO, req, &e)
                    }
                    None => err(req, 0x1205),
                }
            }
            CMD_GET_CAPSET => match self.capsets.iter().find(|c| c.0 == g(24)) {
                Some((_, _, blob)) => resp(RESP_OK_CAPSET, req, blob),
                None => err(req, 0x1205),
            },
            CMD_GET_DISPLAY_INFO => {
                let mut e = vec![0u8; 16 * 24];
                e[8..12].copy_from_slice(&1024u32.to_le_bytes());
                e[12..16].copy_from_slice(&768u32.to_le_bytes());
                e[16..20].copy_from_slice(&1u32.to_le_bytes());
                resp(RESP_OK_DISPLAY_INFO, req, &e)
            }
            CMD_CTX_CREATE => {
                self.contexts.insert(g(16), StreamChecker::new());
                ok(req)
            }
            CMD_CTX_DESTROY => {
                if self.contexts.remove(&g(16)).is_none() {
                    return err(req, 0x1204);
                }
                ok(req)
            }
            CMD_RESOURCE_CREATE_3D | CMD_RESOURCE_CREATE_2D => {
                let id = g(24);
                if id == 0 || self.resources.contains_key(&id) {
                    return err(req, 0x1203);
                }
                let r = if ty == CMD_RESOURCE_CREATE_3D {
                    let (w, h) = (g(40), g(44));
                    FakeRes {
                        target: g(28),
                        format: g(32),
                        width: w,
                        height: h,
                        data: vec![
                            0;
                            w as usize
                                * h as usize
                                * g(52).max(1) as usize
                                * Self::bpp(g(32))
                        ],
                        ..Default::default()
                    }
                } else {
                    let (w, h) = (g(32), g(36));
                    FakeRes {
                        target: 2,
                        format: g(28),
                        width: w,
                        height: h,
                        data: vec![0; w as usize * h as usize * 4],
                        attached: true,
                        ..Default::default()
                    }
                };
                self.resources.insert(id, r);
                ok(req)
            }
            CMD_TRANSFER_TO_HOST_2D => {
                let (x, y, w, h) = (
                    g(24) as usize,
                    g(28) as usize,
                    g(32) as usize,
                    g(36) as usize,
                );
                let offset = rd64(req, 40).unwrap_or(0) as usize;
                let Some(r) = self.resources.get_mut(&g(48)) else {
                    return err(req, 0x1203);
                };
                let stride = r.width as usize * 4;
                match r.copy_rows(true, 4, (offset, stride), (x, y, w, h), 0) {
                    Ok(()) => ok(req),
                    Err(code) => err(req, code),
                }
            }
            CMD_SET_SCANOUT => {
                if g(44) != 0 && !self.resources.contains_key(&g(44)) {
                    return err(req, 0x1203);
                }
                ok(req)
            }
            CMD_RESOURCE_FLUSH => {
                if !self.resources.contains_key(&g(40)) {
                    return err(req, 0x1203);
                }
                ok(req)
            }
            CMD_RESOURCE_ATTACH_BACKING => match self.resources.get_mut(&g(24)) {
                Some(r) if g(28) == 1 => {
                    r.backing = Some((rd64(req, 32).unwrap_or(0), g(40) as usize));
                    ok(req)
                }
                _ => err(req, 0x1203),
            },
            CMD_CTX_ATTACH_RESOURCE | CMD_CTX_DETACH_RESOURCE => {
                if !self.contexts.contains_key(&g(16)) {
                    return err(req, 0x1204);
                }
                match self.resources.get_mut(&g(24)) {
                    Some(r) => {
                        r.attached = ty == CMD_CTX_ATTACH_RESOURCE;
                        ok(req)
                    }
                    None => err(req, 0x1203),
                }
            }
            CMD_RESOURCE_UNREF => match self.resources.remove(&g(24)) {
                Some(_) => ok(req),
                None => err(req, 0x1203),
            },
            CMD_TRANSFER_TO_HOST_3D | CMD_TRANSFER_FROM_HOST_3D => {
                let (x, y, w, h) = (
                    g(24) as usize,
                    g(28) as usize,
                    g(36) as usize,
                    g(40) as usize,
                );
                let offset = rd64(req, 48).unwrap_or(0) as usize;
                let stride = g(64) as usize;
                let Some(r) = self.resources.get_mut(&g(56)) else {
                    return err(req, 0x1203);
                };
                if !r.attached {
                    return err(req, 0x1205);
                }
                let _ = r.target;
                let (to_host, bpp) = (ty == CMD_TRANSFER_TO_HOST_3D, Self::bpp(r.format));
                let z = g(32) as usize;
                if to_host {
                    let row = match r.backing {
                        Some((addr, len)) if offset + w * bpp <= len => {
                            // The test owns the backing memory the device handed over.
                            unsafe {
                                std::slice::from_raw_parts(
                                    (addr as usize + offset) as *const u8,
                                    w * bpp,
                                )
                            }
                            .to_vec()
                        }
                        _ => Vec::new(),
                    };
                    self.uploads
                        .push((g(56), g(60), z as u32, offset as u64, stride as u32, row));
                    if g(60) != 0 {
                        // The fake keeps level 0 only; the log above is what tests read.
                        return ok(req);
                    }
                }
                match r.copy_rows(to_host, bpp, (offset, stride), (x, y, w, h), z) {
                    Ok(()) => ok(req),
                    Err(code) => err(req, code),
                }
            }
            CMD_SUBMIT_3D => {
                let ctx = g(16);
                let n = g(24) as usize / 4;
                let words: Vec<u32> = (0..n).map(|i| g(32 + i * 4)).collect();
                let Some(checker) = self.contexts.get_mut(&ctx) else {
                    return err(req, 0x1204);
                };
                let mut cmds = Vec::new();
                let r =
                    checker.check_with(&words, |c| cmds.push((c.cmd, c.obj, c.payload.to_vec())));
                if let Err(e) = r {
                    // Like virglrenderer: the guest still gets OK_NODATA, the host logs an error.
                    self.stream_errors
                        .push(format!("context {} error: {}", ctx, e));
                    return ok(req);
                }
                // A tiny renderer: surfaces, framebuffer and CLEAR of colour buffer 0.
                for (cmd, obj, p) in cmds {
                    match (cmd, obj) {
                        (CCMD_CREATE_OBJECT, OBJ_SURFACE) => {
                            self.surfaces.insert((ctx, p[0]), p[1]);
                        }
                        (CCMD_SET_FRAMEBUFFER_STATE, _) if p[0] >= 1 => {
                            self.cbuf.insert(ctx, p[2]);
                        }
                        (CCMD_CLEAR, _) if p[0] & CLEAR_COLOR0 != 0 => {
                            let c = |i: usize| {
                                (f32::from_bits(p[1 + i]).clamp(0.0, 1.0) * 255.0).round() as u8
                            };
                            let px = [c(2), c(1), c(0), c(3)];
                            let res = self
                                .cbuf
                                .get(&ctx)
                                .and_then(|s| self.surfaces.get(&(ctx, *s)))
                                .copied();
                            if let Some(r) = res.and_then(|id| self.resources.get_mut(&id)) {
                                for chunk in r.data.chunks_exact_mut(4) {
                                    chunk.copy_from_slice(&px);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                ok(req)
            }
            _ => err(req, 0x1200),
        }
    }
}

impl FakeTransport {
    fn new(capsets: Vec<(u32, u32, Vec<u8>)>, features: u64) -> (Self, Rc<RefCell<State>>) {
        let state = Rc::new(RefCell::new(State {
            status: DeviceStatus::empty(),
            driver_features: 0,
            queue: None,
            next_avail: 0,
            fault: Fault::None,
            fault_from: usize::MAX,
            handled: 0,
            host: Host {
                capsets,
                contexts: BTreeMap::new(),
                resources: BTreeMap::new(),
                surfaces: BTreeMap::new(),
                cbuf: BTreeMap::new(),
                stream_errors: Vec::new(),
                commands: Vec::new(),
                fenced: Vec::new(),
                uploads: Vec::new(),
            },
        }));
        (
            FakeTransport {
                features,
                state: state.clone(),
            },
            state,
        )
    }
}

impl Transport for FakeTransport {
    fn device_type(&self) -> DeviceType {
        DeviceType::GPU
    }
    fn read_device_features(&mut self) -> u64 {
        self.features
    }
    fn write_driver_features(&mut self, f: u64) {
        self.state.borrow_mut().driver_features = f;
    }
    fn max_queue_size(&mut self, _q: u16) -> u32 {
        64
    }
    fn notify(&mut self, _q: u16) {
        let mut st = self.state.borrow_mut();
        let Some((size, desc, avail, used)) = st.queue else {
            return;
        };
        loop {
            let avail_idx = rd16(avail + 2);
            if st.next_avail == avail_idx {
                return;
            }
            let slot = (st.next_avail as u32 % size) as u64;
            let head = rd16(avail + 4 + 2 * slot);
            let mut req = Vec::new();
            let mut outs = Vec::new();
            let mut i = head;
            loop {
                let d = desc + 16 * i as u64;
                let (addr, len, flags, next) = (rd64a(d), rd32a(d + 8), rd16(d + 12), rd16(d + 14));
                if flags & 2 != 0 {
                    outs.push((addr, len as usize));
                } else {
                    req.extend_from_slice(unsafe {
                        std::slice::from_raw_parts(addr as *const u8, len as usize)
                    });
                }
                if flags & 1 == 0 {
                    break;
                }
                i = next;
            }
            let n = st.handled;
            st.handled += 1;
            let fault = if n >= st.fault_from {
                st.fault
            } else {
                Fault::None
            };
            if fault == Fault::Silent {
                return;
            }
            let mut r = st.host.handle(&req);
            match fault {
                Fault::ErrorResponse => r = resp(0x1200, &req, &[]),
                Fault::Short => r.truncate(8),
                Fault::WrongType => r[0..4].copy_from_slice(&RESP_OK_DISPLAY_INFO.to_le_bytes()),
                Fault::WrongFence => r[8] ^= 0xFF,
                _ => {}
            }
            let mut written = 0;
            for (addr, len) in outs {
                let n = len.min(r.len() - written);
                unsafe {
                    std::ptr::copy_nonoverlapping(r.as_ptr().add(written), addr as *mut u8, n)
                };
                written += n;
            }
            let used_idx = rd16(used + 2);
            let uslot = (used_idx as u32 % size) as u64;
            unsafe {
                std::ptr::write_volatile((used + 4 + 8 * uslot) as *mut u32, head as u32);
                std::ptr::write_volatile((used + 8 + 8 * uslot) as *mut u32, written as u32);
                std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
                std::ptr::write_volatile((used + 2) as *mut u16, used_idx.wrapping_add(1));
            }
            st.next_avail = st.next_avail.wrapping_add(1);
        }
    }
    fn get_status(&self) -> DeviceStatus {
        self.state.borrow().status
    }
    fn set_status(&mut self, s: DeviceStatus) {
        self.state.borrow_mut().status = s;
    }
    fn set_guest_page_size(&mut self, _s: u32) {}
    fn requires_legacy_layout(&self) -> bool {
        false
    }
    fn queue_set(&mut self, _q: u16, size: u32, d: PhysAddr, a: PhysAddr, u: PhysAddr) {
        self.state.borrow_mut().queue = Some((size, d, a, u));
    }
    fn queue_unset(&mut self, _q: u16) {
        self.state.borrow_mut().queue = None;
    }
    fn queue_used(&mut self, _q: u16) -> bool {
        self.state.borrow().queue.is_some()
    }
    fn ack_interrupt(&mut self) -> InterruptStatus {
        InterruptStatus::empty()
    }
    fn read_config_generation(&self) -> u32 {
        0
    }
    fn read_config_space<T: FromBytes + IntoBytes>(
        &self,
        offset: usize,
    ) -> virtio_drivers::Result<T> {
        let n = self.state.borrow().host.capsets.len() as u32;
        let mut cfg = Vec::new();
        for v in [0u32, 0, 1, n] {
            cfg.extend_from_slice(&v.to_le_bytes());
        }
        let end = offset + std::mem::size_of::<T>();
        cfg.get(offset..end)
            .and_then(|s| T::read_from_bytes(s).ok())
            .ok_or(virtio_drivers::Error::ConfigSpaceTooSmall)
    }
    fn write_config_space<T: IntoBytes + Immutable>(
        &mut self,
        _o: usize,
        _v: T,
    ) -> virtio_drivers::Result<()> {
        Ok(())
    }
}

const FEATURES: u64 = (1 << 0) | (1 << 32);

fn quick() -> DeviceConfig {
    DeviceConfig {
        spin_budget: 10_000,
        ..DeviceConfig::default()
    }
}

fn device(
    capsets: Vec<(u32, u32, Vec<u8>)>,
) -> (VirglDevice<TestHal, FakeTransport>, Rc<RefCell<State>>) {
    let (t, st) = FakeTransport::new(capsets, FEATURES);
    (VirglDevice::new(t, quick()).expect("device init"), st)
}

fn standard() -> Vec<(u32, u32, Vec<u8>)> {
    vec![
        (CAPSET_VIRGL, 1, caps_blob(0)[..308].to_vec()),
        (CAPSET_VIRGL2, 2, caps_blob(10)),
    ]
}

#[test]
fn negotiates_virgl_and_prefers_virgl2() {
    let (dev, st) = device(standard());
    assert_eq!(st.borrow().driver_features & 1, 1, "VIRGL negotiated");
    let caps = dev.caps();
    assert_eq!(caps.capset_id, CAPSET_VIRGL2);
    assert_eq!(caps.glsl_level, 430);
    assert_eq!(caps.max_texture_2d_size, 16384);
    assert!(caps.supports_link_shader);
    assert!(caps.sampler_formats.supports(FORMAT_B8G8R8A8_UNORM));
}

#[test]
fn falls_back_to_virgl_v1() {
    let (dev, _) = device(vec![(CAPSET_VIRGL, 1, caps_blob(0)[..308].to_vec())]);
    assert_eq!(dev.caps().capset_id, CAPSET_VIRGL);
    assert!(!dev.caps().supports_link_shader);
    assert_eq!(
        dev.caps().max_texture_2d_size,
        virtio_gpu::caps::V1_DEFAULT_MAX_TEXTURE_SIZE
    );
}

#[test]
fn refuses_device_without_virgl() {
    let (t, _) = FakeTransport::new(standard(), 1 << 32);
    let e = VirglDevice::<TestHal, _>::new(t, quick()).err();
    assert_eq!(
        e,
        Some(GpuError::Unsupported {
            what: "VIRGL feature"
        })
    );
}

#[test]
fn refuses_device_without_virgl_capset() {
    let (t, _) = FakeTransport::new(vec![(5, 1, vec![0; 64])], FEATURES);
    assert!(matches!(
        VirglDevice::<TestHal, _>::new(t, quick()),
        Err(GpuError::Unsupported { .. })
    ));
}

#[test]
fn context_cycles_64_and_resource_cycles_128() {
    let (mut dev, st) = device(standard());
    for _ in 0..64 {
        let c = dev.ctx_create().unwrap();
        dev.ctx_destroy(c).unwrap();
    }
    let c = dev.ctx_create().unwrap();
    for _ in 0..128 {
        let r = dev
            .resource_create_3d(c, &ResourceDesc::texture(1, 1))
            .unwrap();
        dev.resource_destroy(c, r).unwrap();
    }
    assert_eq!(dev.live_resources(), 0);
    dev.ctx_destroy(c).unwrap();
    assert_eq!(dev.live_contexts(), 0);
    assert!(st.borrow().host.resources.is_empty());
    assert!(st.borrow().host.contexts.is_empty());
}

#[test]
fn transfer_round_trip_through_backing() {
    let (mut dev, _) = device(standard());
    let c = dev.ctx_create().unwrap();
    let r = dev
        .resource_create_3d(c, &ResourceDesc::texture(8, 4))
        .unwrap();
    let data: Vec<u8> = (0..8 * 4 * 4).map(|i| i as u8).collect();
    dev.transfer_to_host_3d(c, r, Box3d::new_2d(8, 4), 32, &data)
        .unwrap();
    let mut out = vec![0u8; data.len()];
    dev.transfer_from_host_3d(c, r, Box3d::new_2d(8, 4), 32, &mut out)
        .unwrap();
    assert_eq!(out, data);
    // A sub-box lands at its place.
    let sub = [0xAAu8; 2 * 4];
    dev.transfer_to_host_3d(
        c,
        r,
        Box3d {
            x: 3,
            y: 2,
            z: 0,
            w: 2,
            h: 1,
            d: 1,
        },
        8,
        &sub,
    )
    .unwrap();
    dev.transfer_from_host_3d(c, r, Box3d::new_2d(8, 4), 32, &mut out)
        .unwrap();
    assert_eq!(&out[2 * 32 + 12..2 * 32 + 20], &sub);
    assert_eq!(out[2 * 32 + 11], data[2 * 32 + 11]);
}

#[test]
fn per_level_transfers_land_at_their_level_offsets() {
    // An 8x4 cube with its full chain (8x4 is not square: a 2D texture; then a 4x4 cube).
    let (mut dev, st) = device(standard());
    let c = dev.ctx_create().unwrap();
    let d = ResourceDesc::texture(8, 4).with_levels(4);
    assert_eq!(d.last_level, 3);
    assert_eq!(
        [0, 1, 2, 3].map(|l| d.level_size(l)),
        [(8, 4), (4, 2), (2, 1), (1, 1)]
    );
    // Levels one after another: 128 + 32 + 8 + 4 bytes.
    assert_eq!(
        [0, 1, 2, 3].map(|l| d.level_offset(l)),
        [Some(0), Some(128), Some(160), Some(168)]
    );
    assert_eq!(d.backing_bytes(), Some(172));
    let r = dev.resource_create_3d(c, &d).unwrap();
    for level in 0..4u32 {
        let (w, h) = d.level_size(level);
        let data: Vec<u8> = (0..w * h * 4).map(|i| (level * 50 + i) as u8).collect();
        dev.transfer_level_to_host_3d(c, r, level, Box3d::new_2d(w, h), w * 4, &data)
            .unwrap();
    }
    // Out of range: level 4, or a level-1 box of level 0's size.
    assert!(dev
        .transfer_level_to_host_3d(c, r, 4, Box3d::new_2d(1, 1), 4, &[0; 4])
        .is_err());
    assert!(dev
        .transfer_level_to_host_3d(c, r, 1, Box3d::new_2d(8, 4), 32, &[0; 128])
        .is_err());
    let cube = ResourceDesc::cube_texture(4).with_levels(3);
    let rc = dev.resource_create_3d(c, &cube).unwrap();
    // Level 1 of face 5: after level 0's six 4x4 faces, five 2x2 faces in.
    dev.transfer_level_to_host_3d(
        c,
        rc,
        1,
        Box3d {
            z: 5,
            ..Box3d::new_2d(2, 2)
        },
        8,
        &[7; 16],
    )
    .unwrap();
    let ups = st.borrow().host.uploads.clone();
    assert_eq!(ups.len(), 5, "{ups:?}");
    for (level, u) in ups.iter().take(4).enumerate() {
        let level = level as u32;
        let (w, _) = d.level_size(level);
        let first: Vec<u8> = (0..w * 4).map(|i| (level * 50 + i) as u8).collect();
        assert_eq!(
            (u.0, u.1, u.2, u.3, u.4, &u.5),
            (r.0, level, 0, d.level_offset(level).unwrap(), w * 4, &first),
            "level {level}"
        );
    }
    let u = &ups[4];
    assert_eq!(
        (u.0, u.1, u.2, u.3, u.4, &u.5),
        (rc.0, 1, 5, 6 * 64 + 5 * 16, 8, &vec![7u8; 8])
    );
    // A chain longer than the texture's is refused, and buffers have one level.
    assert!(dev
        .resource_create_3d(c, &ResourceDesc::texture(8, 4).with_levels(5))
        .is_err());
    assert!(dev
        .resource_create_3d(c, &ResourceDesc::buffer(64, 0).with_levels(2))
        .is_err());
}

#[test]
fn clear_scene_runs_through_the_device() {
    let (mut dev, st) = device(standard());
    let mut why = String::new();
    assert!(scenes::run_scene("clear", &mut dev, &mut why), "{}", why);
    assert!(
        st.borrow().host.stream_errors.is_empty(),
        "{:?}",
        st.borrow().host.stream_errors
    );
    assert!(st.borrow().host.commands.contains(&CMD_SUBMIT_3D));
}

#[test]
fn every_scene_stream_passes_the_host_checks() {
    let (mut dev, st) = device(standard());
    for name in scenes::SCENES {
        let mut why = String::new();
        // The fake renders only clears, so pixel checks of the other scenes fail; their
        // streams must still be accepted.
        let _ = scenes::run_scene_with(
            name,
            &mut dev,
            &mut why,
            scenes::SceneParams {
                resource_cycles: 4,
                context_cycles: 4,
            },
        );
        assert_eq!(dev.state(), DeviceState::Ready, "scene {}: {}", name, why);
    }
    assert!(
        st.borrow().host.stream_errors.is_empty(),
        "{:?}",
        st.borrow().host.stream_errors
    );
}

fn inject(fault: Fault) -> GpuError {
    let (mut dev, st) = device(standard());
    let c = dev.ctx_create().unwrap();
    {
        let mut s = st.borrow_mut();
        s.fault = fault;
        s.fault_from = s.handled;
    }
    let e = dev.submit_3d(c, &[cmd0(CCMD_NOP, 0, 0)]).unwrap_err();
    assert_eq!(
        dev.state(),
        DeviceState::Lost,
        "{:?} must make the device lost",
        fault
    );
    assert!(dev.is_lost());
    // Lost stays lost: nothing else is sent.
    let sent = st.borrow().handled;
    assert_eq!(dev.ctx_create().unwrap_err(), GpuError::Lost);
    assert_eq!(dev.submit_3d(c, &[0]).unwrap_err(), GpuError::Lost);
    assert_eq!(st.borrow().handled, sent);
    e
}

#[test]
fn silent_device_times_out_and_is_lost() {
    assert_eq!(
        inject(Fault::Silent),
        GpuError::Timeout {
            command: CMD_SUBMIT_3D
        }
    );
}

#[test]
fn error_response_makes_the_device_lost() {
    assert_eq!(
        inject(Fault::ErrorResponse),
        GpuError::DeviceError {
            command: CMD_SUBMIT_3D,
            response: 0x1200
        }
    );
}

#[test]
fn short_response_is_malformed() {
    assert!(matches!(inject(Fault::Short), GpuError::Malformed { .. }));
}

#[test]
fn wrong_response_type_is_malformed() {
    assert!(matches!(
        inject(Fault::WrongType),
        GpuError::Malformed {
            reason: "unexpected response type",
            ..
        }
    ));
}

#[test]
fn wrong_fence_is_malformed() {
    assert!(matches!(
        inject(Fault::WrongFence),
        GpuError::Malformed {
            reason: "response fence id differs",
            ..
        }
    ));
}

#[test]
fn silent_device_during_init_is_an_error_not_a_hang() {
    let (t, st) = FakeTransport::new(standard(), FEATURES);
    st.borrow_mut().fault = Fault::Silent;
    st.borrow_mut().fault_from = 0;
    assert!(matches!(
        VirglDevice::<TestHal, _>::new(t, quick()),
        Err(GpuError::Timeout { .. })
    ));
}

#[test]
fn bad_stream_is_seen_by_the_host_model() {
    let (mut dev, st) = device(standard());
    let c = dev.ctx_create().unwrap();
    // CLEAR with 7 payload dwords: the host rejects it (and still answers OK_NODATA).
    dev.submit_3d(c, &[cmd0(CCMD_CLEAR, 0, 7), 4, 0, 0, 0, 0, 0, 0])
        .unwrap();
    assert_eq!(st.borrow().host.stream_errors.len(), 1);
}

#[test]
fn unfenced_control_commands_still_work() {
    let (t, st) = FakeTransport::new(standard(), FEATURES);
    let cfg = DeviceConfig {
        fence_every_command: false,
        ..quick()
    };
    let mut dev = VirglDevice::<TestHal, _>::new(t, cfg).unwrap();
    let mut why = String::new();
    assert!(scenes::run_scene("clear", &mut dev, &mut why), "{}", why);
    assert!(st.borrow().host.stream_errors.is_empty());
}

#[test]
fn unfenced_submits_leave_only_transfers_fenced() {
    let (t, st) = FakeTransport::new(standard(), FEATURES);
    let cfg = DeviceConfig {
        fence_every_command: false,
        fence_submits: false,
        ..quick()
    };
    let mut dev = VirglDevice::<TestHal, _>::new(t, cfg).unwrap();
    let mut why = String::new();
    // The scene renders, then reads the target back and checks its pixels.
    assert!(scenes::run_scene("clear", &mut dev, &mut why), "{}", why);
    let host = &st.borrow().host;
    assert!(host.stream_errors.is_empty());
    assert!(host.commands.contains(&CMD_SUBMIT_3D));
    assert!(
        !host.fenced.contains(&CMD_SUBMIT_3D),
        "SUBMIT_3D sent with FLAG_FENCE: {:x?}",
        host.fenced
    );
    assert!(
        host.fenced.contains(&CMD_TRANSFER_FROM_HOST_3D),
        "the readback stays fenced: {:x?}",
        host.fenced
    );
    assert!(host
        .fenced
        .iter()
        .all(|t| *t == CMD_TRANSFER_TO_HOST_3D || *t == CMD_TRANSFER_FROM_HOST_3D));
    assert_eq!(dev.stats.fenced as usize, host.fenced.len());
}

#[test]
fn virgl_context_frees_handles_with_their_objects() {
    let (mut dev, st) = device(standard());
    let mut c = virtio_gpu::VirglContext::create(&mut dev).unwrap();
    let h = c.alloc_handle().unwrap();
    c.enc(&mut dev, |e| {
        e.create_dsa(h, &virtio_gpu::encode::DsaState::default())
    })
    .unwrap();
    c.destroy_object(&mut dev, OBJ_DSA, h).unwrap();
    assert!(
        c.destroy_object(&mut dev, OBJ_DSA, h).is_err(),
        "double destroy refused"
    );
    assert_eq!(c.alloc_handle().unwrap(), h, "freed handle reused");
    c.destroy(&mut dev).unwrap();
    assert!(
        st.borrow().host.stream_errors.is_empty(),
        "{:?}",
        st.borrow().host.stream_errors
    );
    assert!(st.borrow().host.contexts.is_empty());
}

#[test]
fn reporting_runner_prints_kernel_test_lines() {
    let (mut dev, _) = device(standard());
    let mut out = String::new();
    let (passed, failed) = scenes::run_all_reporting(
        &mut dev,
        &mut out,
        scenes::SceneParams {
            resource_cycles: 2,
            context_cycles: 2,
        },
    );
    assert_eq!((passed + failed) as usize, scenes::SCENES.len());
    assert!(
        out.contains("test virtio_gpu::scene::clear ... ok"),
        "{}",
        out
    );
    assert!(
        passed >= 3,
        "clear, resource_cycles and context_cycles pass on the fake: {}",
        out
    );
}

#[test]
fn two_d_console_resource_flushes_its_backing() {
    let (mut dev, st) = device(standard());
    let r = dev.resource_create_2d(FORMAT_B8G8R8A8_UNORM, 8, 4).unwrap();
    for (i, b) in dev.backing_mut(r).unwrap().iter_mut().enumerate() {
        *b = i as u8;
    }
    dev.flush_2d(
        r,
        Rect {
            x: 0,
            y: 0,
            width: 8,
            height: 4,
        },
    )
    .unwrap();
    let want: Vec<u8> = (0..128).map(|i| i as u8).collect();
    assert_eq!(st.borrow().host.resources[&r.0].data, want);
    assert!(
        dev.flush_2d(
            r,
            Rect {
                x: 4,
                y: 0,
                width: 8,
                height: 1
            }
        )
        .is_err(),
        "rectangle outside refused"
    );
    dev.present(
        0,
        r,
        Rect {
            x: 0,
            y: 0,
            width: 8,
            height: 4,
        },
    )
    .unwrap();
    // 2D resources are not reachable through the 3D calls.
    let c = dev.ctx_create().unwrap();
    assert!(dev.resource_destroy(c, r).is_err());
    dev.resource_destroy_2d(r).unwrap();
    assert!(st.borrow().host.resources.is_empty());
    assert!(dev.backing_mut(r).is_err());
}

#[test]
fn present_sets_the_scanout_only_when_it_changes() {
    let (mut dev, st) = device(standard());
    let full = |w| Rect {
        x: 0,
        y: 0,
        width: w,
        height: 4,
    };
    let a = dev.resource_create_2d(FORMAT_B8G8R8A8_UNORM, 8, 4).unwrap();
    let b = dev.resource_create_2d(FORMAT_B8G8R8A8_UNORM, 8, 4).unwrap();
    let sent = |st: &Rc<RefCell<State>>, from: usize| -> Vec<u32> {
        st.borrow().host.commands[from..]
            .iter()
            .copied()
            .filter(|t| *t == CMD_SET_SCANOUT || *t == CMD_RESOURCE_FLUSH)
            .collect()
    };
    let n = st.borrow().host.commands.len();
    dev.present(0, a, full(8)).unwrap();
    dev.present(0, a, full(8)).unwrap();
    dev.present(0, a, full(4)).unwrap();
    dev.present(0, b, full(8)).unwrap();
    dev.present(0, a, full(8)).unwrap();
    dev.present(1, a, full(8)).unwrap();
    use CMD_RESOURCE_FLUSH as F;
    use CMD_SET_SCANOUT as S;
    assert_eq!(
        sent(&st, n),
        vec![S, F, F, S, F, S, F, S, F, S, F],
        "same resource and rect again: only RESOURCE_FLUSH"
    );
    // A destroyed resource is off the scanout; a new one with the same id is set again.
    dev.resource_destroy_2d(a).unwrap();
    let c = dev.resource_create_2d(FORMAT_B8G8R8A8_UNORM, 8, 4).unwrap();
    assert_eq!(c.0, a.0, "the fake reuses the id");
    let n = st.borrow().host.commands.len();
    dev.present(0, c, full(8)).unwrap();
    assert_eq!(sent(&st, n), vec![S, F]);
}

#[test]
fn a_256_kib_shader_goes_through_the_device_in_several_submits() {
    let (mut dev, st) = device(standard());
    let before = st
        .borrow()
        .host
        .commands
        .iter()
        .filter(|&&c| c == CMD_SUBMIT_3D)
        .count();
    let mut why = String::new();
    // The fake renders only clears: the pixel check fails, the stream must pass.
    let _ = scenes::run_scene("longest_shader", &mut dev, &mut why);
    assert_eq!(dev.state(), DeviceState::Ready, "{}", why);
    let submits = st
        .borrow()
        .host
        .commands
        .iter()
        .filter(|&&c| c == CMD_SUBMIT_3D)
        .count()
        - before;
    assert!(submits >= 17, "{} submits", submits);
    assert!(
        st.borrow().host.stream_errors.is_empty(),
        "{:?}",
        st.borrow().host.stream_errors
    );
}

#[test]
fn cube_faces_transfer_as_layers() {
    // Each face is its own z; the device puts face z at z x height rows into the backing and
    // sends that offset, so the host (here the fake) gets each face in its layer.
    let (mut dev, _) = device(standard());
    let c = dev.ctx_create().unwrap();
    let r = dev
        .resource_create_3d(c, &ResourceDesc::cube_texture(4))
        .unwrap();
    let face = |z: u32| Box3d {
        z,
        ..Box3d::new_2d(4, 4)
    };
    for z in 0..6u32 {
        let data = vec![0x10 * (z as u8 + 1); 64];
        dev.transfer_to_host_3d(c, r, face(z), 16, &data).unwrap();
    }
    for z in 0..6u32 {
        let mut out = vec![0u8; 64];
        dev.transfer_from_host_3d(c, r, face(z), 16, &mut out)
            .unwrap();
        assert!(out.iter().all(|&b| b == 0x10 * (z as u8 + 1)), "face {}", z);
    }
    // A seventh layer does not exist; a 2D texture has layer 0 only.
    assert!(dev
        .transfer_to_host_3d(c, r, face(6), 16, &[0u8; 64])
        .is_err());
    let t = dev
        .resource_create_3d(c, &ResourceDesc::texture(4, 4))
        .unwrap();
    assert!(dev
        .transfer_to_host_3d(c, t, face(1), 16, &[0u8; 64])
        .is_err());
}
