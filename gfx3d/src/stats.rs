//! Public statistics. Every field is maintained (the old struct's never-written fields are gone).
//! Event counters reset; live counts and memory totals do not (they describe what exists).

/// Which backend renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Software,
    Virgl,
    Mock,
}

/// The boot request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendMode {
    /// VirGL when available, else software; a later device loss degrades to software.
    Auto,
    Software,
    /// VirGL or failure; a device loss is reported, never hidden.
    Virgl,
    Mock,
}

/// A snapshot of the statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Device submissions (SUBMIT_3D) and their VirGL dwords.
    pub submits: u64,
    pub dwords: u64,
    pub draws: u64,
    pub triangles: u64,
    /// Device uploads (buffers, textures) and their bytes.
    pub uploads: u64,
    pub bytes_up: u64,
    /// Device-to-CPU transfers of a target.
    pub readbacks: u64,
    /// Frames ended.
    pub frames: u64,
    pub cpu_mesh_bytes: u64,
    pub cpu_texture_bytes: u64,
    pub gpu_backing_bytes: u64,
    pub target_bytes: u64,
    pub depth_bytes: u64,
    pub live_mesh: u32,
    pub live_tex: u32,
    pub live_target: u32,
    pub live_prog: u32,
    pub live_ctx: u32,
    /// Slots of each table held back for the kernel owner right now (`limits::KERNEL_RESERVED`
    /// minus the kernel's live objects of that kind): other owners cannot take them.
    pub reserved_ctx: u32,
    pub reserved_target: u32,
    pub reserved_mesh: u32,
    pub reserved_tex: u32,
    pub reserved_prog: u32,
    pub virgl_obj_live: u32,
    pub virgl_obj_peak: u32,
    /// Shader compiles answered by the compile cache, and those that ran the compiler.
    pub compile_hits: u32,
    pub compile_misses: u32,
    pub backend: Backend,
    pub forced: bool,
    pub degraded: bool,
}

/// The resettable event counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    pub submits: u64,
    pub dwords: u64,
    pub draws: u64,
    pub triangles: u64,
    pub uploads: u64,
    pub bytes_up: u64,
    pub readbacks: u64,
    pub frames: u64,
}
