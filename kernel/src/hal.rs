//! The virtio-drivers `Hal`: DMA memory from the kernel heap, identity-mapped.
//!
//! Physical address == virtual address for everything below 4 GiB (boot/pvh.s maps it so and the
//! heap lives there), so sharing a buffer is just taking its address: no bounce buffers, no IOMMU.
//! Must never: return memory outside the identity map, or non-zeroed DMA pages.
use core::alloc::Layout;
use core::ptr::NonNull;

use virtio_drivers::{BufferDirection, Hal, PhysAddr, PAGE_SIZE};

/// The kernel's DMA/MMIO glue; pass it as the `H` type parameter of virtio-drivers types.
pub struct KernelHal;

fn dma_layout(pages: usize) -> Option<Layout> {
    Layout::from_size_align(pages.checked_mul(PAGE_SIZE)?, PAGE_SIZE).ok()
}

// SAFETY: allocations are page-aligned, zeroed, owned by the caller until `dma_dealloc`, and their
// physical address equals their virtual address because the heap is inside the identity map.
unsafe impl Hal for KernelHal {
    fn dma_alloc(pages: usize, _direction: BufferDirection) -> (PhysAddr, NonNull<u8>) {
        let Some(layout) = dma_layout(pages.max(1)) else {
            return (0, NonNull::dangling());
        };
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc::alloc::alloc_zeroed(layout) };
        match NonNull::new(ptr) {
            Some(p) => (p.as_ptr() as PhysAddr, p),
            None => (0, NonNull::dangling()),
        }
    }

    unsafe fn dma_dealloc(_paddr: PhysAddr, vaddr: NonNull<u8>, pages: usize) -> i32 {
        match dma_layout(pages.max(1)) {
            Some(layout) => {
                // SAFETY: `vaddr` came from `dma_alloc` with the same page count.
                unsafe { alloc::alloc::dealloc(vaddr.as_ptr(), layout) };
                0
            }
            None => -1,
        }
    }

    unsafe fn mmio_phys_to_virt(paddr: PhysAddr, _size: usize) -> NonNull<u8> {
        // BARs sit below 4 GiB on q35 with our memory size; the identity map covers them.
        NonNull::new(paddr as *mut u8).unwrap_or(NonNull::dangling())
    }

    unsafe fn share(buffer: NonNull<[u8]>, _direction: BufferDirection) -> PhysAddr {
        buffer.as_ptr() as *mut u8 as PhysAddr
    }

    unsafe fn unshare(_paddr: PhysAddr, _buffer: NonNull<[u8]>, _direction: BufferDirection) {}
}
