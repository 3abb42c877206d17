//! The VirGL command batch: a fixed-capacity dword buffer that is submitted as one SUBMIT_3D.
//!
//! Owns: `CommandBuffer` and the `Sink` trait through which full batches leave. A command that
//! would not fit flushes the batch first; a command larger than the whole batch is refused.
//! Must never: split one command across two submits, grow past its capacity, or stay poisoned
//! after a failed submit (the next frame starts from an empty batch).
use crate::error::{GpuError, Result};
use crate::limits::{MAX_BATCH_DWORDS, MIN_BATCH_DWORDS};
use alloc::vec::Vec;

/// Where full batches go (a transport bound to one context, or a test collector).
pub trait Sink {
    fn submit(&mut self, dwords: &[u32]) -> Result<()>;
}

/// A sink that keeps every submitted batch (tests, benches, golden streams).
#[derive(Default, Debug)]
pub struct CollectSink {
    pub batches: Vec<Vec<u32>>,
}

impl Sink for CollectSink {
    fn submit(&mut self, dwords: &[u32]) -> Result<()> {
        self.batches.push(dwords.to_vec());
        Ok(())
    }
}

impl CollectSink {
    /// All submitted dwords, batches concatenated.
    pub fn all(&self) -> Vec<u32> {
        self.batches.concat()
    }
}

/// A bounded batch of VirGL dwords.
pub struct CommandBuffer {
    buf: Vec<u32>,
    capacity: usize,
    submits: u64,
    dwords_submitted: u64,
}

impl CommandBuffer {
    pub fn new(capacity: usize) -> Result<Self> {
        if !(MIN_BATCH_DWORDS..=MAX_BATCH_DWORDS).contains(&capacity) {
            return Err(GpuError::OutOfRange {
                what: "batch capacity (dwords)",
                value: capacity as u64,
                limit: MAX_BATCH_DWORDS as u64,
            });
        }
        Ok(CommandBuffer {
            buf: Vec::with_capacity(capacity),
            capacity,
            submits: 0,
            dwords_submitted: 0,
        })
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    pub fn free(&self) -> usize {
        self.capacity - self.buf.len()
    }
    pub fn as_slice(&self) -> &[u32] {
        &self.buf
    }
    /// Number of SUBMIT_3D sent through this buffer.
    pub fn submits(&self) -> u64 {
        self.submits
    }
    pub fn dwords_submitted(&self) -> u64 {
        self.dwords_submitted
    }

    /// Makes room for `need` dwords, flushing first when they do not fit behind the current
    /// content.
    pub fn reserve<S: Sink + ?Sized>(&mut self, need: usize, sink: &mut S) -> Result<()> {
        if need == 0 || need > self.capacity {
            return Err(GpuError::TooLarge {
                what: "command",
                dwords: need,
                capacity: self.capacity,
            });
        }
        if self.buf.len() + need > self.capacity {
            self.flush(sink)?;
        }
        Ok(())
    }

    /// Appends one whole command (header and payload) after `reserve` made room for it.
    pub fn push_command<S: Sink + ?Sized>(&mut self, sink: &mut S, words: &[u32]) -> Result<()> {
        self.reserve(words.len(), sink)?;
        self.buf.extend_from_slice(words);
        Ok(())
    }

    /// Appends dwords after a `reserve` that covered them (the caller wrote the header itself).
    pub(crate) fn extend_reserved(&mut self, words: &[u32]) -> Result<()> {
        if self.buf.len() + words.len() > self.capacity {
            return Err(GpuError::TooLarge {
                what: "reserved command",
                dwords: words.len(),
                capacity: self.free(),
            });
        }
        self.buf.extend_from_slice(words);
        Ok(())
    }

    /// Submits the batch if it holds anything. The batch is empty afterwards even when the
    /// submit failed, so one error does not poison later frames.
    pub fn flush<S: Sink + ?Sized>(&mut self, sink: &mut S) -> Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let r = sink.submit(&self.buf);
        if r.is_ok() {
            self.submits += 1;
            self.dwords_submitted += self.buf.len() as u64;
        }
        self.buf.clear();
        r
    }

    /// Drops the content without submitting it.
    pub fn discard(&mut self) {
        self.buf.clear();
    }
}
