//! A VirGL rendering context as Gfx3D uses it: the transport context id, its command batch and
//! its object-handle pool, kept together so handles are freed exactly when their objects are
//! destroyed.
//!
//! Owns: `VirglContext`.
//! Must never: hold a reference to the transport (it is passed to each call, so one transport
//! can serve many contexts), or free a handle whose DESTROY_OBJECT was not encoded.
use crate::batch::CommandBuffer;
use crate::encode::Encoder;
use crate::error::Result;
use crate::handles::IdPool;
use crate::limits::{DEFAULT_BATCH_DWORDS, MAX_OBJECT_HANDLES};
use crate::transport::{CtxId, CtxSink, GpuTransport3d};

pub struct VirglContext {
    pub ctx: CtxId,
    pub cb: CommandBuffer,
    pub handles: IdPool,
}

impl VirglContext {
    /// Creates the transport context with a default-sized batch and handle pool.
    pub fn create<T: GpuTransport3d + ?Sized>(t: &mut T) -> Result<Self> {
        Self::create_with(t, DEFAULT_BATCH_DWORDS, MAX_OBJECT_HANDLES)
    }

    pub fn create_with<T: GpuTransport3d + ?Sized>(
        t: &mut T,
        batch_dwords: usize,
        handles: u32,
    ) -> Result<Self> {
        let cb = CommandBuffer::new(batch_dwords)?;
        let handles = IdPool::new("object handle", handles)?;
        let ctx = t.ctx_create()?;
        Ok(VirglContext { ctx, cb, handles })
    }

    /// Runs encoder calls against this context's batch; full batches are submitted to `t`.
    pub fn enc<T: GpuTransport3d + ?Sized, R>(
        &mut self,
        t: &mut T,
        f: impl FnOnce(&mut Encoder<'_, CtxSink<'_, T>>) -> Result<R>,
    ) -> Result<R> {
        let mut sink = CtxSink {
            transport: t,
            ctx: self.ctx,
        };
        let mut e = Encoder::new(&mut self.cb, &mut sink);
        f(&mut e)
    }

    /// Takes an object handle (exhaustion is `PoolExhausted`).
    pub fn alloc_handle(&mut self) -> Result<u32> {
        self.handles.alloc()
    }

    /// Encodes DESTROY_OBJECT and returns the handle to the pool.
    pub fn destroy_object<T: GpuTransport3d + ?Sized>(
        &mut self,
        t: &mut T,
        obj_type: u32,
        handle: u32,
    ) -> Result<()> {
        if !self.handles.is_live(handle) {
            return Err(crate::GpuError::UnknownId {
                pool: "object handle",
                id: handle,
            });
        }
        self.enc(t, |e| e.destroy_object(obj_type, handle))?;
        self.handles.free(handle)
    }

    /// Submits what is batched.
    pub fn flush<T: GpuTransport3d + ?Sized>(&mut self, t: &mut T) -> Result<()> {
        self.enc(t, |e| e.flush())
    }

    /// Flushes, then destroys the transport context (the host frees every object with it).
    pub fn destroy<T: GpuTransport3d + ?Sized>(mut self, t: &mut T) -> Result<()> {
        let f = self.flush(t);
        let d = t.ctx_destroy(self.ctx);
        f.and(d)
    }
}
