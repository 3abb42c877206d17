//! The IR verifier: the safety boundary (in progress; owned by the IR-core work).
use crate::ir::Module;

/// Why a module was rejected: the instruction index (or None for module-level problems) and a
/// message naming the broken invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub inst: Option<usize>,
    pub message: &'static str,
}

impl core::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.inst {
            Some(i) => write!(f, "IR verification failed at instruction {}: {}", i, self.message),
            None => write!(f, "IR verification failed: {}", self.message),
        }
    }
}

/// Checks every invariant `exec` and `tgsi` rely on.
pub fn verify(_m: &Module) -> Result<(), VerifyError> {
    Ok(())
}
