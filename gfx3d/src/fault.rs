//! Fault injection for device-loss tests: [`FaultyTransport`] wraps any `GpuTransport3d` and
//! fails every call with `GpuError::Lost` once its shared switch is set, without touching the
//! wrapped device (which stays healthy). Used by the host vtest tests and the in-guest tests.
//!
//! It must never: change what the wrapped transport does while the switch is off, or touch the
//! wrapped transport once it is on.

use alloc::sync::Arc;
use core::sync::atomic::{AtomicBool, Ordering};

use virtio_gpu::proto::Box3d;
use virtio_gpu::transport::ResourceDesc;
use virtio_gpu::{CtxId, GpuError, GpuTransport3d, HostCaps, ResId};

/// Told of every context the wrapped device created or destroyed (so a test can destroy, on the
/// real device, the contexts a dead transport could no longer destroy).
pub trait CtxLog {
    fn created(&mut self, ctx: CtxId);
    fn destroyed(&mut self, ctx: CtxId);
}

/// Keeps no record.
pub struct NoLog;

impl CtxLog for NoLog {
    fn created(&mut self, _ctx: CtxId) {}
    fn destroyed(&mut self, _ctx: CtxId) {}
}

/// A transport that fails every call once `dead` is set.
pub struct FaultyTransport<T, L = NoLog> {
    inner: T,
    dead: Arc<AtomicBool>,
    log: L,
}

impl<T: GpuTransport3d> FaultyTransport<T, NoLog> {
    /// `inner`, failing once `dead` is set.
    pub fn new(inner: T, dead: Arc<AtomicBool>) -> Self {
        Self::with_log(inner, dead, NoLog)
    }
}

impl<T: GpuTransport3d, L: CtxLog> FaultyTransport<T, L> {
    /// `inner`, failing once `dead` is set, telling `log` of the contexts it creates and destroys.
    pub fn with_log(inner: T, dead: Arc<AtomicBool>, log: L) -> Self {
        FaultyTransport { inner, dead, log }
    }

    fn check(&self) -> virtio_gpu::Result<()> {
        if self.dead.load(Ordering::SeqCst) {
            Err(GpuError::Lost)
        } else {
            Ok(())
        }
    }
}

impl<T: GpuTransport3d, L: CtxLog> GpuTransport3d for FaultyTransport<T, L> {
    fn caps(&self) -> &HostCaps {
        self.inner.caps()
    }
    fn ctx_create(&mut self) -> virtio_gpu::Result<CtxId> {
        self.check()?;
        let c = self.inner.ctx_create()?;
        self.log.created(c);
        Ok(c)
    }
    fn ctx_destroy(&mut self, ctx: CtxId) -> virtio_gpu::Result<()> {
        self.check()?;
        self.inner.ctx_destroy(ctx)?;
        self.log.destroyed(ctx);
        Ok(())
    }
    fn resource_create_3d(&mut self, ctx: CtxId, desc: &ResourceDesc) -> virtio_gpu::Result<ResId> {
        self.check()?;
        self.inner.resource_create_3d(ctx, desc)
    }
    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> virtio_gpu::Result<()> {
        self.check()?;
        self.inner.resource_destroy(ctx, res)
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
        self.check()?;
        self.inner
            .transfer_level_to_host_3d(ctx, res, level, bx, stride, data)
    }
    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> virtio_gpu::Result<()> {
        self.check()?;
        self.inner.transfer_from_host_3d(ctx, res, bx, stride, out)
    }
    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> virtio_gpu::Result<()> {
        self.check()?;
        self.inner.submit_3d(ctx, dwords)
    }
    fn is_lost(&self) -> bool {
        self.dead.load(Ordering::SeqCst) || self.inner.is_lost()
    }
}
