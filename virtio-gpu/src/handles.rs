//! Bounded id pools: VirGL object handles per context, and the device's context and resource ids.
//!
//! Owns: `IdPool`, a fixed-capacity bitset that hands out the lowest free id (so freed ids are
//! reused) and refuses when full.
//! Must never: hand out 0, hand out a live id twice, or grow past its capacity.
use crate::error::{GpuError, Result};

/// Words of the largest pool (64 x 64 = 4096 ids).
const POOL_WORDS: usize = 64;

/// A pool of ids `1..=capacity`.
#[derive(Clone)]
pub struct IdPool {
    bits: [u64; POOL_WORDS],
    capacity: u32,
    live: u32,
    peak: u32,
    name: &'static str,
}

impl IdPool {
    /// Largest capacity any pool may have.
    pub const MAX_CAPACITY: u32 = (POOL_WORDS * 64) as u32;

    pub fn new(name: &'static str, capacity: u32) -> Result<Self> {
        if capacity == 0 || capacity > Self::MAX_CAPACITY {
            return Err(GpuError::OutOfRange {
                what: "id pool capacity",
                value: capacity as u64,
                limit: Self::MAX_CAPACITY as u64,
            });
        }
        Ok(IdPool {
            bits: [0; POOL_WORDS],
            capacity,
            live: 0,
            peak: 0,
            name,
        })
    }

    /// Takes the lowest free id.
    pub fn alloc(&mut self) -> Result<u32> {
        if self.live >= self.capacity {
            return Err(GpuError::PoolExhausted {
                pool: self.name,
                limit: self.capacity,
            });
        }
        for (wi, w) in self.bits.iter_mut().enumerate() {
            if *w != u64::MAX {
                let bit = (!*w).trailing_zeros();
                let index = wi as u32 * 64 + bit;
                if index >= self.capacity {
                    break;
                }
                *w |= 1 << bit;
                self.live += 1;
                self.peak = self.peak.max(self.live);
                return Ok(index + 1);
            }
        }
        Err(GpuError::PoolExhausted {
            pool: self.name,
            limit: self.capacity,
        })
    }

    fn locate(&self, id: u32) -> Option<(usize, u32)> {
        if id == 0 || id > self.capacity {
            return None;
        }
        let index = id - 1;
        Some(((index / 64) as usize, index % 64))
    }

    pub fn is_live(&self, id: u32) -> bool {
        match self.locate(id) {
            Some((w, b)) => self.bits.get(w).is_some_and(|x| x & (1 << b) != 0),
            None => false,
        }
    }

    /// Returns an id to the pool; an id that is not live is an error.
    pub fn free(&mut self, id: u32) -> Result<()> {
        let unknown = GpuError::UnknownId {
            pool: self.name,
            id,
        };
        let (w, b) = self.locate(id).ok_or(unknown)?;
        let word = self.bits.get_mut(w).ok_or(unknown)?;
        if *word & (1 << b) == 0 {
            return Err(unknown);
        }
        *word &= !(1 << b);
        self.live -= 1;
        Ok(())
    }

    pub fn live(&self) -> u32 {
        self.live
    }
    pub fn peak(&self) -> u32 {
        self.peak
    }
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Visits every live id (used to destroy everything a context still holds).
    pub fn for_each_live(&self, mut f: impl FnMut(u32)) {
        for (wi, &w) in self.bits.iter().enumerate() {
            let mut rest = w;
            while rest != 0 {
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                f(wi as u32 * 64 + bit + 1);
            }
        }
    }

    pub fn clear(&mut self) {
        self.bits = [0; POOL_WORDS];
        self.live = 0;
    }
}
