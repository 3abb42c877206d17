//! Error values of the whole crate.
//!
//! Owns: `GpuError`, the one error type every module returns, and its text rendering.
//! Must never: panic or allocate while rendering an error.
use core::fmt;

/// Everything that can go wrong between the encoder and the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuError {
    /// The device did not answer a command within the polling budget.
    Timeout { command: u32 },
    /// The device answered with an error response type (0x12xx).
    DeviceError { command: u32, response: u32 },
    /// The device answered with something that is not a valid response for the command.
    Malformed { command: u32, reason: &'static str },
    /// The device (or the vtest connection) is lost; nothing more is sent.
    Lost,
    /// A bounded pool ran out.
    PoolExhausted { pool: &'static str, limit: u32 },
    /// A handle or id that is not live was used.
    UnknownId { pool: &'static str, id: u32 },
    /// A value is out of the range the protocol or this driver allows.
    OutOfRange {
        what: &'static str,
        value: u64,
        limit: u64,
    },
    /// A command does not fit even in an empty batch (or the batch capacity is invalid).
    TooLarge {
        what: &'static str,
        dwords: usize,
        capacity: usize,
    },
    /// Invalid argument combination.
    Invalid { what: &'static str },
    /// The device lacks something this driver needs.
    Unsupported { what: &'static str },
    /// A transport-level failure (socket, DMA allocation, queue).
    Transport { what: &'static str, code: i32 },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GpuError::Timeout { command } => {
                write!(
                    f,
                    "device did not answer command 0x{:04x} within the timeout",
                    command
                )
            }
            GpuError::DeviceError { command, response } => write!(
                f,
                "device answered command 0x{:04x} with error response 0x{:04x}",
                command, response
            ),
            GpuError::Malformed { command, reason } => {
                write!(
                    f,
                    "malformed response to command 0x{:04x}: {}",
                    command, reason
                )
            }
            GpuError::Lost => write!(f, "device lost"),
            GpuError::PoolExhausted { pool, limit } => {
                write!(f, "{} pool exhausted (limit {})", pool, limit)
            }
            GpuError::UnknownId { pool, id } => write!(f, "{} id {} is not live", pool, id),
            GpuError::OutOfRange { what, value, limit } => {
                write!(f, "{} is {}, the limit is {}", what, value, limit)
            }
            GpuError::TooLarge {
                what,
                dwords,
                capacity,
            } => write!(
                f,
                "{} needs {} dwords, the batch holds {}",
                what, dwords, capacity
            ),
            GpuError::Invalid { what } => write!(f, "invalid argument: {}", what),
            GpuError::Unsupported { what } => write!(f, "unsupported by the device: {}", what),
            GpuError::Transport { what, code } => {
                write!(f, "transport failure: {} (code {})", what, code)
            }
        }
    }
}

pub type Result<T> = core::result::Result<T, GpuError>;
