//! The transport abstraction: what one VirGL encoder needs from whatever carries its batches to a
//! virglrenderer (the virtio device in the kernel, a vtest socket on the host).
//!
//! Owns: `GpuTransport3d`, `ResourceDesc`, `CtxId`/`ResId`, and `CtxSink` (a transport bound
//! to one context, used as the batch sink).
//! Must never: know about a specific transport's wire format.
use crate::batch::Sink;
use crate::caps::HostCaps;
use crate::error::{GpuError, Result};
use crate::limits::{MAX_ARRAY_LAYERS, MAX_BACKING_BYTES, MAX_MIP_LEVELS, MAX_RESOURCE_DIM};
use crate::proto::Box3d;
use crate::protocol::*;

/// A virtio-gpu context id (never 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CtxId(pub u32);

/// A resource id (never 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResId(pub u32);

/// Creation parameters of a 3D resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceDesc {
    pub target: u32,
    pub format: u32,
    pub bind: u32,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub array_size: u32,
    pub last_level: u32,
    pub nr_samples: u32,
    /// Bytes per texel of the guest copy (for backing sizes and transfer strides).
    pub bytes_per_texel: u32,
}

impl ResourceDesc {
    /// A B8G8R8A8 2D render target that can be read back.
    pub fn color_target(w: u32, h: u32) -> Self {
        ResourceDesc::tex2d(
            w,
            h,
            FORMAT_B8G8R8A8_UNORM,
            BIND_RENDER_TARGET | BIND_SAMPLER_VIEW,
            4,
        )
    }
    /// An R32G32B32A32_FLOAT 2D render target (HDR) that can be sampled and read back.
    pub fn float_color_target(w: u32, h: u32) -> Self {
        ResourceDesc::tex2d(
            w,
            h,
            FORMAT_R32G32B32A32_FLOAT,
            BIND_RENDER_TARGET | BIND_SAMPLER_VIEW,
            16,
        )
    }
    /// A Z32_FLOAT depth buffer.
    pub fn depth_target(w: u32, h: u32) -> Self {
        ResourceDesc::tex2d(w, h, FORMAT_Z32_FLOAT, BIND_DEPTH_STENCIL, 4)
    }
    /// A B8G8R8A8 texture.
    pub fn texture(w: u32, h: u32) -> Self {
        ResourceDesc::tex2d(w, h, FORMAT_B8G8R8A8_UNORM, BIND_SAMPLER_VIEW, 4)
    }
    /// A B8G8R8A8 cube texture of six `size` x `size` faces (layers 0..6, +x, -x, +y, -y, +z,
    /// -z; a transfer box's z is the face). The guest copy holds the faces one after another.
    pub fn cube_texture(size: u32) -> Self {
        ResourceDesc {
            target: TARGET_TEXTURE_CUBE,
            array_size: CUBE_FACES,
            ..ResourceDesc::texture(size, size)
        }
    }
    /// A B8G8R8A8 2D array texture of `layers` layers of `w` x `h` texels (a transfer box's z
    /// is the layer). The guest copy holds each level's layers one after another.
    pub fn array_texture(w: u32, h: u32, layers: u32) -> Self {
        ResourceDesc {
            target: TARGET_TEXTURE_2D_ARRAY,
            array_size: layers,
            ..ResourceDesc::texture(w, h)
        }
    }
    /// The same resource with `levels` mip levels (`last_level = levels - 1`; 0 is taken as 1).
    /// Level i is max(1, width >> i) x max(1, height >> i); the guest copy holds the levels
    /// one after another, each with all its layers ([`ResourceDesc::level_offset`]).
    pub fn with_levels(self, levels: u32) -> Self {
        ResourceDesc {
            last_level: levels.max(1) - 1,
            ..self
        }
    }
    /// Width and height of mip level `level` (max(1, size >> level)).
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        let s = |v: u32| v.checked_shr(level).unwrap_or(0).max(1);
        (s(self.width), s(self.height))
    }
    /// Row pitch of level `level` in the guest copy (tightly packed).
    pub fn level_stride(&self, level: u32) -> u32 {
        self.level_size(level)
            .0
            .saturating_mul(self.bytes_per_texel)
    }
    /// Bytes of one level (all its layers) in the guest copy.
    fn level_bytes(&self, level: u32) -> Option<u64> {
        let (w, h) = self.level_size(level);
        (w as u64)
            .checked_mul(h as u64)?
            .checked_mul(self.depth.max(1) as u64)?
            .checked_mul(self.array_size.max(1) as u64)?
            .checked_mul(self.bytes_per_texel as u64)
    }
    /// Where level `level` starts in the guest copy: the bytes of levels 0..level.
    pub fn level_offset(&self, level: u32) -> Option<u64> {
        let mut at = 0u64;
        for l in 0..level {
            at = at.checked_add(self.level_bytes(l)?)?;
        }
        Some(at)
    }
    pub fn tex2d(w: u32, h: u32, format: u32, bind: u32, bpp: u32) -> Self {
        ResourceDesc {
            target: TARGET_TEXTURE_2D,
            format,
            bind,
            width: w,
            height: h,
            depth: 1,
            array_size: 1,
            last_level: 0,
            nr_samples: 0,
            bytes_per_texel: bpp,
        }
    }
    /// A byte buffer (vertex, index or constant data).
    pub fn buffer(bytes: u32, bind: u32) -> Self {
        ResourceDesc {
            target: TARGET_BUFFER,
            format: FORMAT_R8_UNORM,
            bind,
            width: bytes,
            height: 1,
            depth: 1,
            array_size: 1,
            last_level: 0,
            nr_samples: 0,
            bytes_per_texel: 1,
        }
    }
    /// Bytes of a tightly packed guest copy of every level (levels one after another).
    pub fn backing_bytes(&self) -> Option<usize> {
        let n = self
            .level_offset(self.last_level.min(MAX_MIP_LEVELS))?
            .checked_add(self.level_bytes(self.last_level.min(MAX_MIP_LEVELS))?)?;
        usize::try_from(n).ok()
    }
    /// The limits both transports apply before creating a resource (so vtest refuses what the
    /// kernel's driver refuses): a 2D texture is 1..=`min(MAX_RESOURCE_DIM, host max)` texels
    /// on each axis (`host_max_2d` from the capset; 0 = unknown), depth and array size 1 (a
    /// cube: six square faces), levels 1 up to the full chain (`last_level` at most
    /// log2(max(width, height)), and below `MAX_MIP_LEVELS`); a buffer is 1..=`MAX_BACKING_BYTES` bytes wide, height and depth 1; bytes per
    /// texel 1..=16; the guest copy at most `MAX_BACKING_BYTES`. Returns the backing bytes.
    pub fn check(&self, host_max_2d: u32) -> Result<usize> {
        let bad = |what| Err(GpuError::Invalid { what });
        if self.bytes_per_texel == 0 || self.bytes_per_texel > 16 {
            return bad("resource bytes per texel must be 1..=16");
        }
        let layers_ok = match self.target {
            TARGET_TEXTURE_CUBE => self.array_size == CUBE_FACES,
            TARGET_TEXTURE_2D_ARRAY => (1..=MAX_ARRAY_LAYERS).contains(&self.array_size),
            _ => self.array_size == 1,
        };
        if self.depth != 1 || !layers_ok || self.nr_samples > 1 {
            return bad("resource must have depth 1, one layer (a cube 6, a 2D array 1..=256), no multisampling");
        }
        if self.target == TARGET_BUFFER && self.last_level != 0 {
            return bad("buffer resource must have one level");
        }
        // The full chain ends at 1x1: level log2(max(w, h)).
        let top = 31u32.saturating_sub(self.width.max(self.height).max(1).leading_zeros());
        if self.last_level > top || self.last_level >= MAX_MIP_LEVELS {
            return Err(GpuError::OutOfRange {
                what: "resource last mip level",
                value: self.last_level as u64,
                limit: top.min(MAX_MIP_LEVELS - 1) as u64,
            });
        }
        let max = if host_max_2d == 0 {
            MAX_RESOURCE_DIM
        } else {
            host_max_2d.min(MAX_RESOURCE_DIM)
        };
        match self.target {
            TARGET_BUFFER => {
                if self.height != 1 {
                    return bad("buffer resource must have height 1");
                }
                range(
                    "buffer resource bytes",
                    self.width,
                    MAX_BACKING_BYTES as u32,
                )?;
            }
            TARGET_TEXTURE_2D | TARGET_TEXTURE_2D_ARRAY => {
                range("resource width", self.width, max)?;
                range("resource height", self.height, max)?;
            }
            TARGET_TEXTURE_CUBE => {
                range("resource width", self.width, max)?;
                if self.height != self.width {
                    return bad("cube resource faces must be square");
                }
            }
            _ => {
                return bad(
                    "resource target must be BUFFER, TEXTURE_2D, TEXTURE_CUBE or TEXTURE_2D_ARRAY",
                )
            }
        }
        self.backing_bytes()
            .filter(|&b| b <= MAX_BACKING_BYTES)
            .ok_or(GpuError::OutOfRange {
                what: "resource backing bytes",
                value: self.width as u64 * self.height as u64 * self.bytes_per_texel as u64,
                limit: MAX_BACKING_BYTES as u64,
            })
    }

    pub fn stride(&self) -> u32 {
        self.width.saturating_mul(self.bytes_per_texel)
    }
}

fn range(what: &'static str, v: u32, max: u32) -> Result<()> {
    if v == 0 || v > max {
        return Err(GpuError::OutOfRange {
            what,
            value: v as u64,
            limit: max as u64,
        });
    }
    Ok(())
}

/// What a VirGL renderer connection offers. Both transports implement it, so the encoder, the
/// scenes and Gfx3D run unchanged on either.
pub trait GpuTransport3d {
    /// Capabilities of the host (from the preferred capset).
    fn caps(&self) -> &HostCaps;
    /// Creates a rendering context.
    fn ctx_create(&mut self) -> Result<CtxId>;
    /// Destroys a context and everything the transport attached to it.
    fn ctx_destroy(&mut self, ctx: CtxId) -> Result<()>;
    /// Creates a resource usable by `ctx`, with guest backing for transfers, attached to `ctx`.
    fn resource_create_3d(&mut self, ctx: CtxId, desc: &ResourceDesc) -> Result<ResId>;
    /// Detaches and releases a resource and its backing.
    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> Result<()>;
    /// Copies `data` (rows `stride` bytes apart) into the box of the resource's level 0.
    fn transfer_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> Result<()> {
        self.transfer_level_to_host_3d(ctx, res, 0, bx, stride, data)
    }
    /// Copies `data` (rows `stride` bytes apart) into the box of mip level `level` of the
    /// resource (the box is in that level's texels; `level <= last_level`).
    fn transfer_level_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> Result<()>;
    /// Reads the box of the resource (level 0) into `out` (rows `stride` bytes apart).
    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> Result<()>;
    /// Submits one batch of VirGL dwords to `ctx` and waits until the host consumed it.
    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> Result<()>;
    /// True once the transport gave up (device lost / connection closed).
    fn is_lost(&self) -> bool;
}

/// A transport bound to one context: the batch sink of an encoder.
pub struct CtxSink<'a, T: GpuTransport3d + ?Sized> {
    pub transport: &'a mut T,
    pub ctx: CtxId,
}

impl<T: GpuTransport3d + ?Sized> Sink for CtxSink<'_, T> {
    fn submit(&mut self, dwords: &[u32]) -> Result<()> {
        self.transport.submit_3d(self.ctx, dwords)
    }
}

/// Bytes a transfer of `bx` with row pitch `stride` touches in a linear buffer.
pub fn transfer_span(bx: Box3d, stride: u32, bpp: u32) -> Option<usize> {
    if bx.w == 0 || bx.h == 0 || bx.d == 0 {
        return None;
    }
    let row = (bx.w as u64).checked_mul(bpp as u64)?;
    let n = (stride as u64)
        .checked_mul(bx.h as u64 - 1)?
        .checked_add(row)?;
    usize::try_from(n).ok()
}
