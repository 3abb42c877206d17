//! Public handles and the fixed object tables behind them.
//!
//! A handle packs `generation << 16 | (slot + 1)`; zero is never valid, so handles are
//! `NonZeroU32` newtypes. Every slot keeps its own generation, bumped on every reuse and wrapping
//! through 1..=65535 (never 0). A destroyed handle therefore stays invalid while its slot is
//! reused up to 65,534 more times; the 65,535th reuse of that one slot brings the generation back
//! to the same value, and from then on the old handle names the new object (the spec's 16-bit
//! format cannot tell them apart). A caller that keeps a handle across that many create/destroy
//! cycles of one slot must not rely on it going stale.
//! Every object records an owner (0 = the kernel); lookups check it, and a handle of another
//! owner is answered exactly like a stale one (`StaleHandle`), so an owner learns nothing about
//! objects it does not own. Each table holds back `KERNEL_RESERVED` slots for the kernel owner:
//! other owners together can fill at most `capacity - KERNEL_RESERVED` slots while the kernel
//! owns fewer than `KERNEL_RESERVED` objects of that kind, so the kernel can always create one.
//!
//! This module must never know what the objects are: it only allocates, resolves and frees slots.

use alloc::vec::Vec;
use core::num::NonZeroU32;

use crate::error::{Error, ObjectKind, Result};
use crate::limits::KERNEL_RESERVED;

/// Owner id of the kernel itself.
pub const OWNER_KERNEL: u32 = 0;

/// Implemented by every handle newtype.
pub trait Handle: Copy {
    const KIND: ObjectKind;
    fn from_raw(raw: NonZeroU32) -> Self;
    fn raw(self) -> NonZeroU32;
}

macro_rules! handle_type {
    ($(#[$doc:meta])* $name:ident, $kind:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(NonZeroU32);

        impl $name {
            /// The packed value (generation << 16 | slot + 1).
            pub fn get(self) -> u32 {
                self.0.get()
            }
            /// Rebuilds a handle from a packed value (0 gives `None`). Validity is checked on use.
            pub fn from_u32(v: u32) -> Option<Self> {
                NonZeroU32::new(v).map($name)
            }
        }

        impl Handle for $name {
            const KIND: ObjectKind = $kind;
            fn from_raw(raw: NonZeroU32) -> Self {
                $name(raw)
            }
            fn raw(self) -> NonZeroU32 {
                self.0
            }
        }
    };
}

handle_type!(
    /// A rendering context (bound target, program, textures, matrices, state).
    ContextId,
    ObjectKind::Context
);
handle_type!(
    /// A render target (CPU colour + depth, plus device resources under VirGL).
    TargetId,
    ObjectKind::Target
);
handle_type!(
    /// A mesh (vertices, optional u16 indices, layout).
    MeshId,
    ObjectKind::Mesh
);
handle_type!(
    /// A texture (0xAARRGGBB texels, sampler state).
    TextureId,
    ObjectKind::Texture
);
handle_type!(
    /// A program instance (a linked program prepared for one context).
    ProgramId,
    ObjectKind::Program
);

/// Next generation after `g`: 1..=65535, skipping zero.
pub fn next_generation(g: u16) -> u16 {
    if g == u16::MAX {
        1
    } else {
        g + 1
    }
}

/// Packs a generation and a slot index into a handle value (`None` when the slot does not fit).
pub fn pack(generation: u16, slot: usize) -> Option<NonZeroU32> {
    let low = u32::try_from(slot).ok()?.checked_add(1)?;
    if low > 0xFFFF {
        return None;
    }
    NonZeroU32::new(((generation as u32) << 16) | low)
}

/// Splits a handle value into (generation, slot index).
pub fn unpack(raw: NonZeroU32) -> (u16, usize) {
    let v = raw.get();
    ((v >> 16) as u16, ((v & 0xFFFF) as usize).wrapping_sub(1))
}

struct Slot<T> {
    generation: u16,
    owner: u32,
    value: Option<T>,
}

/// A fixed-capacity table of `T` addressed by handles of type `H`.
pub struct Table<H: Handle, T> {
    slots: Vec<Slot<T>>,
    capacity: usize,
    _handle: core::marker::PhantomData<H>,
}

impl<H: Handle, T> Table<H, T> {
    pub fn new(capacity: usize) -> Self {
        let mut slots = Vec::with_capacity(capacity);
        for _ in 0..capacity {
            slots.push(Slot {
                generation: 0,
                owner: 0,
                value: None,
            });
        }
        Table {
            slots,
            capacity,
            _handle: core::marker::PhantomData,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Live objects.
    pub fn live(&self) -> usize {
        self.slots.iter().filter(|s| s.value.is_some()).count()
    }

    /// Slots held back for the kernel owner right now: `KERNEL_RESERVED` minus the kernel's
    /// live objects (never more than the capacity).
    pub fn reserved(&self) -> usize {
        let kernel = self
            .slots
            .iter()
            .filter(|s| s.value.is_some() && s.owner == OWNER_KERNEL)
            .count();
        KERNEL_RESERVED.min(self.capacity).saturating_sub(kernel)
    }

    /// Takes the first free slot. A full table is `TableFull`; for an owner other than the
    /// kernel the slots reserved for the kernel count as taken.
    pub fn insert(&mut self, owner: u32, value: T) -> Result<H> {
        let reserved = if owner == OWNER_KERNEL {
            0
        } else {
            self.reserved()
        };
        let full = Error::TableFull {
            kind: H::KIND,
            capacity: self.capacity,
            reserved,
        };
        let free = self.capacity.saturating_sub(self.live());
        if free <= reserved {
            return Err(full);
        }
        let index = self
            .slots
            .iter()
            .position(|s| s.value.is_none())
            .ok_or(full.clone())?;
        let slot = self.slots.get_mut(index).ok_or(full.clone())?;
        let generation = next_generation(slot.generation);
        let raw = pack(generation, index).ok_or(full)?;
        slot.generation = generation;
        slot.owner = owner;
        slot.value = Some(value);
        Ok(H::from_raw(raw))
    }

    fn index_of(&self, h: H) -> Result<usize> {
        let (generation, index) = unpack(h.raw());
        match self.slots.get(index) {
            Some(s) if s.value.is_some() && s.generation == generation => Ok(index),
            _ => Err(Error::StaleHandle { kind: H::KIND }),
        }
    }

    /// A foreign object is answered exactly as a stale handle: nothing tells one owner that
    /// another owner's object exists.
    fn check_owner(&self, index: usize, owner: u32) -> Result<()> {
        match self.slots.get(index) {
            Some(s) if s.owner == owner => Ok(()),
            _ => Err(Error::StaleHandle { kind: H::KIND }),
        }
    }

    /// The object named by `h` if it is live and belongs to `owner`.
    pub fn get(&self, owner: u32, h: H) -> Result<&T> {
        let index = self.index_of(h)?;
        self.check_owner(index, owner)?;
        self.slots
            .get(index)
            .and_then(|s| s.value.as_ref())
            .ok_or(Error::StaleHandle { kind: H::KIND })
    }

    pub fn get_mut(&mut self, owner: u32, h: H) -> Result<&mut T> {
        let index = self.index_of(h)?;
        self.check_owner(index, owner)?;
        self.slots
            .get_mut(index)
            .and_then(|s| s.value.as_mut())
            .ok_or(Error::StaleHandle { kind: H::KIND })
    }

    /// Removes the object (owner checked) and returns it.
    pub fn remove(&mut self, owner: u32, h: H) -> Result<T> {
        let index = self.index_of(h)?;
        self.check_owner(index, owner)?;
        self.slots
            .get_mut(index)
            .and_then(|s| s.value.take())
            .ok_or(Error::StaleHandle { kind: H::KIND })
    }

    /// Handles of every live object of `owner`, in slot order.
    pub fn handles_of(&self, owner: u32) -> Vec<H> {
        self.iter_all()
            .filter(|(_, o, _)| *o == owner)
            .map(|(h, _, _)| h)
            .collect()
    }

    /// Every live object as (handle, owner, value), in slot order.
    pub fn iter_all(&self) -> impl Iterator<Item = (H, u32, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            let v = s.value.as_ref()?;
            let raw = pack(s.generation, i)?;
            Some((H::from_raw(raw), s.owner, v))
        })
    }

    /// Every live object mutably (for backend transitions that touch all objects).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.slots.iter_mut().filter_map(|s| s.value.as_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_handle_of_slot_zero() {
        let mut t: Table<MeshId, u8> = Table::new(2);
        let h = t.insert(0, 7).unwrap();
        assert_eq!(h.get(), 0x0001_0001);
        let h2 = t.insert(0, 8).unwrap();
        assert_eq!(h2.get(), 0x0001_0002);
    }

    #[test]
    fn full_table_is_an_error() {
        let mut t: Table<MeshId, u8> = Table::new(1);
        t.insert(0, 1).unwrap();
        assert_eq!(
            t.insert(0, 2),
            Err(Error::TableFull {
                kind: ObjectKind::Mesh,
                capacity: 1,
                reserved: 0
            })
        );
    }

    #[test]
    fn kernel_slot_is_reserved() {
        let mut t: Table<MeshId, u8> = Table::new(3);
        assert_eq!(t.reserved(), KERNEL_RESERVED);
        t.insert(5, 1).unwrap();
        t.insert(6, 2).unwrap();
        // Owner 5 cannot take the kernel's slot.
        assert_eq!(
            t.insert(5, 3),
            Err(Error::TableFull {
                kind: ObjectKind::Mesh,
                capacity: 3,
                reserved: 1
            })
        );
        let k = t.insert(OWNER_KERNEL, 4).unwrap();
        assert_eq!(t.reserved(), 0);
        // With the kernel's reservation used, a freed slot is anyone's.
        t.remove(OWNER_KERNEL, k).unwrap();
        assert_eq!(t.reserved(), 1);
        assert!(t.insert(7, 5).is_err());
        // The kernel may fill the whole table itself.
        let mut k2: Table<MeshId, u8> = Table::new(2);
        k2.insert(OWNER_KERNEL, 1).unwrap();
        k2.insert(OWNER_KERNEL, 2).unwrap();
        assert_eq!(k2.reserved(), 0);
        // A kernel object beyond the reservation leaves room for the others.
        let mut k3: Table<MeshId, u8> = Table::new(3);
        k3.insert(OWNER_KERNEL, 1).unwrap();
        k3.insert(9, 2).unwrap();
        k3.insert(9, 3).unwrap();
    }

    #[test]
    fn stale_and_foreign_handles_are_rejected() {
        let mut t: Table<TextureId, u8> = Table::new(3);
        let a = t.insert(1, 1).unwrap();
        // Foreign and stale are the same answer.
        assert_eq!(
            t.get(2, a).err(),
            Some(Error::StaleHandle {
                kind: ObjectKind::Texture
            })
        );
        t.remove(1, a).unwrap();
        let b = t.insert(1, 2).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            t.get(1, a).err(),
            Some(Error::StaleHandle {
                kind: ObjectKind::Texture
            })
        );
        assert_eq!(*t.get(1, b).unwrap(), 2);
        // A slot index beyond the table.
        let bogus = TextureId::from_u32(0x0001_00FF).unwrap();
        assert!(t.get(1, bogus).is_err());
    }

    /// The exact wrap: a stale handle is refused for 65,534 reuses of its slot and names the
    /// object of the 65,535th reuse (the documented limit of 16-bit generations).
    #[test]
    fn stale_handle_matches_after_exactly_65535_reuses() {
        let mut t: Table<MeshId, u32> = Table::new(1);
        let first = t.insert(0, 0).unwrap();
        t.remove(0, first).unwrap();
        for reuse in 1..65535u32 {
            let h = t.insert(0, reuse).unwrap();
            assert_ne!(h, first, "reuse {} gave the stale handle back", reuse);
            assert!(
                t.get(0, first).is_err(),
                "stale handle live at reuse {}",
                reuse
            );
            t.remove(0, h).unwrap();
        }
        let h = t.insert(0, 65535).unwrap();
        assert_eq!(h, first);
        assert_eq!(t.get(0, first), Ok(&65535));
    }

    #[test]
    fn generations_wrap_skipping_zero() {
        assert_eq!(next_generation(0), 1);
        assert_eq!(next_generation(65534), 65535);
        assert_eq!(next_generation(65535), 1);
        let mut t: Table<ContextId, ()> = Table::new(1);
        let mut last = 0u32;
        for _ in 0..70000u32 {
            let h = t.insert(0, ()).unwrap();
            assert_ne!(h.get() >> 16, 0);
            assert_ne!(h.get(), last);
            last = h.get();
            t.remove(0, h).unwrap();
        }
    }
}
