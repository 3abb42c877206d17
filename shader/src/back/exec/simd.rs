//! The one module of this crate that holds `unsafe` code: run-time selection of the
//! instruction set the executor's and the rasterizer's lane loops are compiled for.
//!
//! The hot loops (the interpreter's `run_body`, the rasterizer's `raster_body`) are plain
//! 32-lane loops that LLVM vectorizes for whatever features the enclosing function has. They
//! are `#[inline(always)]` and get compiled twice: once for the crate's target (SSE2 on x86_64,
//! the only form the kernel target can run) and once inside [`Simd::run`]'s AVX2 trampoline,
//! a `#[target_feature(enable = "avx2")]` function, where the same loops become 8 lanes per
//! instruction. No fused multiply-add is enabled and LLVM does not reassociate float
//! arithmetic, so both forms compute the same IEEE operations in the same order: the same bits
//! (the `simd_paths_*` tests render every picture through each path the machine can run).
//!
//! The unsafe parts and why they are sound (CPUID itself is a safe intrinsic):
//! - `xgetbv`: executed only when CPUID.1:ECX.OSXSAVE says the OS enabled XSAVE (otherwise it
//!   would fault). The kernel leaves CR4.OSXSAVE clear, so there AVX2 is never detected and the
//!   kernel stays on the SSE2 path.
//! - the AVX2 trampoline and `texel`'s AVX2 colour pack: called only through a [`Simd`] whose
//!   `avx2` flag was set by [`Simd::detect`] (CPU has AVX, AVX2 and POPCNT, and XCR0 says the
//!   OS saves the YMM state), and the field is private, so no other code can claim AVX2. (The
//!   trampoline also enables POPCNT, which every AVX2 CPU has, for the rasterizer's lane
//!   counts; it is checked all the same.)
//!
//! - [`zmm_available`]: the same CPUID and XGETBV steps, for AVX-512F/DQ and the opmask and
//!   ZMM state (XCR0 bits 5, 6, 7); XGETBV only after `avx2_available` saw OSXSAVE.
//!
//! It must never: claim a feature the CPU or the OS does not provide, or keep global state (a
//! caller keeps the detected [`Simd`], see `Regs`).
#![allow(unsafe_code)]

/// An instruction set the lane loops can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The crate's target features (SSE2 on x86_64): always available.
    Base,
    /// x86_64 AVX2 (256-bit lanes), when the CPU and the OS support it.
    Avx2,
}

/// A checked choice of instruction set (only [`Simd::detect`] and [`Simd::with`] make one, and
/// they never claim what the machine lacks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    avx2: bool,
}

impl Simd {
    /// The target's base features only.
    pub const BASE: Simd = Simd { avx2: false };

    /// The widest instruction set this CPU and OS support.
    pub fn detect() -> Simd {
        Simd {
            avx2: avx2_available(),
        }
    }

    /// `isa` when this machine can run it, else None.
    pub fn with(isa: Isa) -> Option<Simd> {
        match isa {
            Isa::Base => Some(Simd::BASE),
            Isa::Avx2 if avx2_available() => Some(Simd { avx2: true }),
            Isa::Avx2 => None,
        }
    }

    pub fn isa(self) -> Isa {
        if self.avx2 {
            Isa::Avx2
        } else {
            Isa::Base
        }
    }

    /// Runs `f` compiled for this instruction set: `f` should be a closure around an
    /// `#[inline(always)]` body, so the body is inlined into the trampoline and compiled with
    /// its features.
    #[inline(always)]
    pub(crate) fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is only true when `avx2_available` found AVX2 usable.
            return unsafe { avx2(f) };
        }
        f()
    }

    /// `texel::pack_lanes` on this instruction set (its AVX2 form is a separate function: the
    /// SSE2 form is written with `safe_arch`, whose wrappers exist for the target's features).
    #[inline(always)]
    pub(crate) fn pack_lanes(
        self,
        c: &[[f32; super::lanes::LANES]; 4],
        out: &mut [u32; super::lanes::LANES],
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is only true when `avx2_available` found AVX2 usable.
            return unsafe { super::texel::pack_lanes_avx2(c, out) };
        }
        super::texel::pack_lanes(c, out)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(target_arch = "x86_64")]
fn avx2_available() -> bool {
    use core::arch::x86_64::__cpuid;
    // CPUID (a safe intrinsic) exists on every x86_64 CPU and only reads identification.
    let max = __cpuid(0).eax;
    if max < 7 {
        return false;
    }
    let (l1, l7) = (__cpuid(1), core::arch::x86_64::__cpuid_count(7, 0));
    let osxsave = l1.ecx & (1 << 27) != 0;
    let avx = l1.ecx & (1 << 28) != 0;
    let avx2 = l7.ebx & (1 << 5) != 0;
    let popcnt = l1.ecx & (1 << 23) != 0;
    if !(osxsave && avx && avx2 && popcnt) {
        return false;
    }
    // SAFETY: XGETBV is enabled when CPUID reports OSXSAVE (checked above).
    let xcr0 = unsafe { xcr0() };
    // The OS saves SSE (bit 1) and AVX (bit 2) state.
    xcr0 & 0b110 == 0b110
}

/// Whether the CPU and the OS let code use the 16-lane (ZMM) form of the compiled shader code
/// (`jit::Form::Zmm`): AVX-512F and AVX-512DQ (VPMOVM2D / VPMOVD2M, VANDPS on ZMM, KTESTW) on
/// top of what [`Simd::detect`] needs for AVX2, and XCR0 saying the OS saves the opmask
/// (bit 5) and the ZMM state (bits 6 and 7) as well as SSE and AVX (bits 1 and 2). Only
/// detection: this crate never runs ZMM code itself (the host's `jitmem` does, after this
/// check).
pub fn zmm_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid_count;
        if !avx2_available() {
            return false;
        }
        // (avx2_available checked that leaf 7 exists and that XGETBV is enabled.)
        let l7 = __cpuid_count(7, 0);
        let f = l7.ebx & (1 << 16) != 0;
        let dq = l7.ebx & (1 << 17) != 0;
        if !(f && dq) {
            return false;
        }
        // SAFETY: XGETBV is enabled: avx2_available found CPUID's OSXSAVE set.
        let xcr0 = unsafe { xcr0() };
        xcr0 & 0b1110_0110 == 0b1110_0110
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    core::arch::x86_64::_xgetbv(0)
}

#[cfg(not(target_arch = "x86_64"))]
fn avx2_available() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_is_always_available_and_detect_is_stable() {
        assert_eq!(Simd::with(Isa::Base), Some(Simd::BASE));
        assert_eq!(Simd::detect(), Simd::detect());
        let d = Simd::detect();
        assert_eq!(Simd::with(d.isa()), Some(d));
        assert_eq!(Simd::BASE.run(|| 41 + 1), 42);
        assert_eq!(d.run(|| 41 + 1), 42);
    }
}
