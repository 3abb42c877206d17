//! virtio-gpu control protocol: typed commands and responses with their exact wire layouts.
//!
//! Owns: the byte layout (little-endian) of every control command the project sends and every
//! response it reads, and the checks a response must pass (type, length, fence).
//! Must never: touch a device or trust a response before `check_response` accepted it.
use crate::error::{GpuError, Result};

// Command types.
pub const CMD_GET_DISPLAY_INFO: u32 = 0x0100;
pub const CMD_RESOURCE_CREATE_2D: u32 = 0x0101;
pub const CMD_RESOURCE_UNREF: u32 = 0x0102;
pub const CMD_SET_SCANOUT: u32 = 0x0103;
pub const CMD_RESOURCE_FLUSH: u32 = 0x0104;
pub const CMD_TRANSFER_TO_HOST_2D: u32 = 0x0105;
pub const CMD_RESOURCE_ATTACH_BACKING: u32 = 0x0106;
pub const CMD_RESOURCE_DETACH_BACKING: u32 = 0x0107;
pub const CMD_GET_CAPSET_INFO: u32 = 0x0108;
pub const CMD_GET_CAPSET: u32 = 0x0109;
pub const CMD_CTX_CREATE: u32 = 0x0200;
pub const CMD_CTX_DESTROY: u32 = 0x0201;
pub const CMD_CTX_ATTACH_RESOURCE: u32 = 0x0202;
pub const CMD_CTX_DETACH_RESOURCE: u32 = 0x0203;
pub const CMD_RESOURCE_CREATE_3D: u32 = 0x0204;
pub const CMD_TRANSFER_TO_HOST_3D: u32 = 0x0205;
pub const CMD_TRANSFER_FROM_HOST_3D: u32 = 0x0206;
pub const CMD_SUBMIT_3D: u32 = 0x0207;

// Response types.
pub const RESP_OK_NODATA: u32 = 0x1100;
pub const RESP_OK_DISPLAY_INFO: u32 = 0x1101;
pub const RESP_OK_CAPSET_INFO: u32 = 0x1102;
pub const RESP_OK_CAPSET: u32 = 0x1103;
pub const RESP_ERR_FIRST: u32 = 0x1200;
pub const RESP_ERR_LAST: u32 = 0x12FF;

pub const FLAG_FENCE: u32 = 1;

/// Feature bits of the device.
pub const FEATURE_VIRGL: u64 = 1 << 0;
pub const FEATURE_EDID: u64 = 1 << 1;
pub const FEATURE_CONTEXT_INIT: u64 = 1 << 4;
pub const FEATURE_VERSION_1: u64 = 1 << 32;

/// Device configuration offsets.
pub const CONFIG_NUM_SCANOUTS: usize = 8;
pub const CONFIG_NUM_CAPSETS: usize = 12;

pub const HDR_SIZE: usize = 24;
pub const MAX_SCANOUTS: usize = 16;
pub const DISPLAY_INFO_SIZE: usize = HDR_SIZE + MAX_SCANOUTS * 24;
pub const CAPSET_INFO_RESP_SIZE: usize = HDR_SIZE + 16;
pub const DEBUG_NAME_BYTES: usize = 64;

/// Little-endian writer over a fixed array; every command is built through it so layouts are
/// visible in one place per command.
struct Wr<const N: usize> {
    b: [u8; N],
    at: usize,
}

impl<const N: usize> Wr<N> {
    fn new() -> Self {
        Wr { b: [0; N], at: 0 }
    }
    fn u32(mut self, v: u32) -> Self {
        // A layout bug must fail the size tests, not panic at run time: writes past N are
        // dropped and `finish` reports the short/long length through the tests.
        if let Some(d) = self.b.get_mut(self.at..self.at + 4) {
            d.copy_from_slice(&v.to_le_bytes());
        }
        self.at += 4;
        self
    }
    fn u64(self, v: u64) -> Self {
        self.u32(v as u32).u32((v >> 32) as u32)
    }
    fn bytes(mut self, s: &[u8]) -> Self {
        for (i, &c) in s.iter().enumerate() {
            if let Some(d) = self.b.get_mut(self.at + i) {
                *d = c;
            }
        }
        self.at += s.len();
        self
    }
    fn rect(self, r: Rect) -> Self {
        self.u32(r.x).u32(r.y).u32(r.width).u32(r.height)
    }
    fn box3d(self, b: Box3d) -> Self {
        self.u32(b.x).u32(b.y).u32(b.z).u32(b.w).u32(b.h).u32(b.d)
    }
    fn finish(self) -> [u8; N] {
        debug_assert_eq!(self.at, N, "wire layout size");
        self.b
    }
}

/// The 24-byte control header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CtrlHeader {
    pub ty: u32,
    pub flags: u32,
    pub fence_id: u64,
    pub ctx_id: u32,
    pub ring_idx: u8,
}

impl CtrlHeader {
    pub const SIZE: usize = HDR_SIZE;
    pub fn new(ty: u32, ctx_id: u32) -> Self {
        CtrlHeader {
            ty,
            flags: 0,
            fence_id: 0,
            ctx_id,
            ring_idx: 0,
        }
    }
    fn put<const N: usize>(&self, w: Wr<N>) -> Wr<N> {
        w.u32(self.ty)
            .u32(self.flags)
            .u64(self.fence_id)
            .u32(self.ctx_id)
            .bytes(&[self.ring_idx, 0, 0, 0])
    }
    pub fn to_bytes(&self) -> [u8; HDR_SIZE] {
        self.put(Wr::<HDR_SIZE>::new()).finish()
    }
    /// Reads a header; `None` when fewer than 24 bytes are given.
    pub fn parse(b: &[u8]) -> Option<Self> {
        Some(CtrlHeader {
            ty: rd32(b, 0)?,
            flags: rd32(b, 4)?,
            fence_id: rd64(b, 8)?,
            ctx_id: rd32(b, 16)?,
            ring_idx: *b.get(20)?,
        })
    }
}

pub fn rd32(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}
pub fn rd64(b: &[u8], at: usize) -> Option<u64> {
    Some(rd32(b, at)? as u64 | (rd32(b, at + 4)? as u64) << 32)
}

/// A rectangle of the 2D commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// A 3D box of the 3D transfers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Box3d {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub w: u32,
    pub h: u32,
    pub d: u32,
}

impl Box3d {
    pub fn new_2d(w: u32, h: u32) -> Self {
        Box3d {
            x: 0,
            y: 0,
            z: 0,
            w,
            h,
            d: 1,
        }
    }
    /// The box of `len` bytes of a buffer resource.
    pub fn linear(len: u32) -> Self {
        Box3d::new_2d(len, 1)
    }
}

fn fenced(ty: u32, ctx: u32, fence: u64) -> CtrlHeader {
    CtrlHeader {
        ty,
        flags: FLAG_FENCE,
        fence_id: fence,
        ctx_id: ctx,
        ring_idx: 0,
    }
}

/// Declares a fenced control command: its struct, type, wire size and the fields written after
/// the header, in wire order. `ctx` names the field that carries the context id, or is `0` for
/// the 2D commands, which have none. One declaration per command keeps the layout in one place.
macro_rules! wire_cmd {
    (
        $(#[$doc:meta])*
        $name:ident = $ty:expr, $size:literal bytes, ctx $ctx:tt,
        { $($field:ident : $fty:ty),* $(,)? }
        |$s:ident, $w:ident| $body:expr
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $name {
            $(pub $field: $fty,)*
        }
        impl $name {
            pub const TYPE: u32 = $ty;
            pub const SIZE: usize = $size;
            pub fn to_bytes(&self, fence: u64) -> [u8; $size] {
                let $s = self;
                let $w = fenced(Self::TYPE, wire_cmd!(@ctx $s $ctx), fence).put(Wr::<$size>::new());
                $body.finish()
            }
        }
    };
    (@ctx $s:ident 0) => {
        0
    };
    (@ctx $s:ident $f:ident) => {
        $s.$f
    };
}

macro_rules! header_only_cmd {
    ($name:ident, $ty:expr) => {
        wire_cmd! {
            $name = $ty, 24 bytes, ctx ctx_id,
            { ctx_id: u32 }
            |_s, w| w
        }
    };
}

header_only_cmd!(GetDisplayInfo, CMD_GET_DISPLAY_INFO);
header_only_cmd!(CtxDestroy, CMD_CTX_DESTROY);

macro_rules! resource_id_cmd {
    ($name:ident, $ty:expr, $doc:expr) => {
        wire_cmd! {
            #[doc = $doc]
            $name = $ty, 32 bytes, ctx ctx_id,
            { ctx_id: u32, resource_id: u32 }
            |s, w| w.u32(s.resource_id).u32(0)
        }
    };
}

wire_cmd! {
    /// RESOURCE_CREATE_2D (40 bytes).
    ResourceCreate2d = CMD_RESOURCE_CREATE_2D, 40 bytes, ctx 0,
    { resource_id: u32, format: u32, width: u32, height: u32 }
    |s, w| w.u32(s.resource_id).u32(s.format).u32(s.width).u32(s.height)
}

resource_id_cmd!(
    ResourceUnref,
    CMD_RESOURCE_UNREF,
    "RESOURCE_UNREF (32 bytes)."
);
resource_id_cmd!(
    ResourceDetachBacking,
    CMD_RESOURCE_DETACH_BACKING,
    "RESOURCE_DETACH_BACKING (32 bytes)."
);
resource_id_cmd!(
    CtxAttachResource,
    CMD_CTX_ATTACH_RESOURCE,
    "CTX_ATTACH_RESOURCE (32 bytes)."
);
resource_id_cmd!(
    CtxDetachResource,
    CMD_CTX_DETACH_RESOURCE,
    "CTX_DETACH_RESOURCE (32 bytes)."
);

wire_cmd! {
    /// SET_SCANOUT (48 bytes).
    SetScanout = CMD_SET_SCANOUT, 48 bytes, ctx 0,
    { rect: Rect, scanout_id: u32, resource_id: u32 }
    |s, w| w.rect(s.rect).u32(s.scanout_id).u32(s.resource_id)
}

wire_cmd! {
    /// RESOURCE_FLUSH (48 bytes).
    ResourceFlush = CMD_RESOURCE_FLUSH, 48 bytes, ctx 0,
    { rect: Rect, resource_id: u32 }
    |s, w| w.rect(s.rect).u32(s.resource_id).u32(0)
}

wire_cmd! {
    /// TRANSFER_TO_HOST_2D (56 bytes).
    TransferToHost2d = CMD_TRANSFER_TO_HOST_2D, 56 bytes, ctx 0,
    { rect: Rect, offset: u64, resource_id: u32 }
    |s, w| w.rect(s.rect).u64(s.offset).u32(s.resource_id).u32(0)
}

wire_cmd! {
    /// RESOURCE_ATTACH_BACKING with one memory entry (32 + 16 = 48 bytes).
    ResourceAttachBacking = CMD_RESOURCE_ATTACH_BACKING, 48 bytes, ctx 0,
    { resource_id: u32, addr: u64, length: u32 }
    |s, w| w.u32(s.resource_id).u32(1).u64(s.addr).u32(s.length).u32(0)
}

wire_cmd! {
    /// GET_CAPSET_INFO (32 bytes).
    GetCapsetInfo = CMD_GET_CAPSET_INFO, 32 bytes, ctx 0,
    { capset_index: u32 }
    |s, w| w.u32(s.capset_index).u32(0)
}

wire_cmd! {
    /// GET_CAPSET (32 bytes).
    GetCapset = CMD_GET_CAPSET, 32 bytes, ctx 0,
    { capset_id: u32, capset_version: u32 }
    |s, w| w.u32(s.capset_id).u32(s.capset_version)
}

/// CTX_CREATE (96 bytes): the debug name is cut to 64 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CtxCreate<'a> {
    pub ctx_id: u32,
    pub context_init: u32,
    pub debug_name: &'a [u8],
}
impl CtxCreate<'_> {
    pub const TYPE: u32 = CMD_CTX_CREATE;
    pub const SIZE: usize = 96;
    pub fn to_bytes(&self, fence: u64) -> [u8; 96] {
        let n = self.debug_name.len().min(DEBUG_NAME_BYTES);
        let name = self.debug_name.get(..n).unwrap_or(&[]);
        let mut padded = [0u8; DEBUG_NAME_BYTES];
        if let Some(d) = padded.get_mut(..n) {
            d.copy_from_slice(name);
        }
        fenced(Self::TYPE, self.ctx_id, fence)
            .put(Wr::<96>::new())
            .u32(n as u32)
            .u32(self.context_init)
            .bytes(&padded)
            .finish()
    }
}

wire_cmd! {
    /// RESOURCE_CREATE_3D (72 bytes).
    ResourceCreate3d = CMD_RESOURCE_CREATE_3D, 72 bytes, ctx 0,
    {
        resource_id: u32,
        target: u32,
        format: u32,
        bind: u32,
        width: u32,
        height: u32,
        depth: u32,
        array_size: u32,
        last_level: u32,
        nr_samples: u32,
        flags: u32,
    }
    |s, w| w
        .u32(s.resource_id)
        .u32(s.target)
        .u32(s.format)
        .u32(s.bind)
        .u32(s.width)
        .u32(s.height)
        .u32(s.depth)
        .u32(s.array_size)
        .u32(s.last_level)
        .u32(s.nr_samples)
        .u32(s.flags)
        .u32(0)
}

/// TRANSFER_TO_HOST_3D / TRANSFER_FROM_HOST_3D (72 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Transfer3d {
    pub to_host: bool,
    pub ctx_id: u32,
    pub bx: Box3d,
    pub offset: u64,
    pub resource_id: u32,
    pub level: u32,
    pub stride: u32,
    pub layer_stride: u32,
}
impl Transfer3d {
    pub const SIZE: usize = 72;
    pub fn command(&self) -> u32 {
        if self.to_host {
            CMD_TRANSFER_TO_HOST_3D
        } else {
            CMD_TRANSFER_FROM_HOST_3D
        }
    }
    pub fn to_bytes(&self, fence: u64) -> [u8; 72] {
        fenced(self.command(), self.ctx_id, fence)
            .put(Wr::<72>::new())
            .box3d(self.bx)
            .u64(self.offset)
            .u32(self.resource_id)
            .u32(self.level)
            .u32(self.stride)
            .u32(self.layer_stride)
            .finish()
    }
}

wire_cmd! {
    /// SUBMIT_3D header (32 bytes); the command dwords follow it in the same buffer.
    Submit3dHeader = CMD_SUBMIT_3D, 32 bytes, ctx ctx_id,
    { ctx_id: u32, size_bytes: u32 }
    |s, w| w.u32(s.size_bytes).u32(0)
}

/// Checks a response: at least a header, not an error type, the expected type, at least
/// `min_len` bytes, and (for fenced commands) the same fence id. Returns the header.
pub fn check_response(
    command: u32,
    resp: &[u8],
    expected_type: u32,
    min_len: usize,
    fence: u64,
) -> Result<CtrlHeader> {
    let hdr = CtrlHeader::parse(resp).ok_or(GpuError::Malformed {
        command,
        reason: "response shorter than its header",
    })?;
    if (RESP_ERR_FIRST..=RESP_ERR_LAST).contains(&hdr.ty) {
        return Err(GpuError::DeviceError {
            command,
            response: hdr.ty,
        });
    }
    if hdr.ty != expected_type {
        return Err(GpuError::Malformed {
            command,
            reason: "unexpected response type",
        });
    }
    if resp.len() < min_len {
        return Err(GpuError::Malformed {
            command,
            reason: "response shorter than its type needs",
        });
    }
    if hdr.flags & FLAG_FENCE != 0 && hdr.fence_id != fence {
        return Err(GpuError::Malformed {
            command,
            reason: "response fence id differs",
        });
    }
    Ok(hdr)
}

/// One scanout of the DISPLAY_INFO response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DisplayMode {
    pub rect: Rect,
    pub enabled: bool,
    pub flags: u32,
}

/// Decodes the scanouts of an OK_DISPLAY_INFO response (already checked).
pub fn parse_display_info(resp: &[u8]) -> Option<[DisplayMode; MAX_SCANOUTS]> {
    let mut out = [DisplayMode::default(); MAX_SCANOUTS];
    for (i, m) in out.iter_mut().enumerate() {
        let at = HDR_SIZE + i * 24;
        m.rect = Rect {
            x: rd32(resp, at)?,
            y: rd32(resp, at + 4)?,
            width: rd32(resp, at + 8)?,
            height: rd32(resp, at + 12)?,
        };
        m.enabled = rd32(resp, at + 16)? != 0;
        m.flags = rd32(resp, at + 20)?;
    }
    Some(out)
}

/// Body of an OK_CAPSET_INFO response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CapsetInfo {
    pub capset_id: u32,
    pub max_version: u32,
    pub max_size: u32,
}

pub fn parse_capset_info(resp: &[u8]) -> Option<CapsetInfo> {
    Some(CapsetInfo {
        capset_id: rd32(resp, HDR_SIZE)?,
        max_version: rd32(resp, HDR_SIZE + 4)?,
        max_size: rd32(resp, HDR_SIZE + 8)?,
    })
}
