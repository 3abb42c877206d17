//! BLIT and RESOURCE_COPY_REGION in virgl_protocol.h's layout (brief D, session 7): the
//! commands Gfx3D uses to build a render target's mip chain on the host.
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::proto::Box3d;
use virtio_gpu::protocol::*;
use virtio_gpu::{CollectSink, CommandBuffer};

fn stream(
    f: impl FnOnce(&mut Encoder<'_, CollectSink>) -> virtio_gpu::Result<()>,
) -> virtio_gpu::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(64).unwrap();
    let mut sink = CollectSink::default();
    {
        let mut e = Encoder::new(&mut cb, &mut sink);
        f(&mut e)?;
        e.flush().unwrap();
    }
    let w = sink.batches.concat();
    StreamChecker::new().check(&w).unwrap();
    Ok(w)
}

fn side(resource: u32, level: u32, w: u32, h: u32) -> BlitSide {
    BlitSide {
        resource,
        level,
        format: FORMAT_B8G8R8A8_UNORM,
        bx: Box3d::new_2d(w, h),
    }
}

#[test]
fn blit_is_21_dwords_dst_then_src() {
    let w = stream(|e| e.blit(&side(7, 2, 5, 3), &side(7, 1, 11, 6), BLIT_FILTER_LINEAR)).unwrap();
    assert_eq!(w.len(), 1 + BLIT_SIZE as usize);
    assert_eq!(w[0], cmd0(CCMD_BLIT, 0, BLIT_SIZE));
    assert_eq!(w[0], 16 | 21 << 16);
    // S0: mask RGBA, filter LINEAR at bit 8; no scissor (words 2, 3).
    assert_eq!(w[1..4], [0xF | 1 << 8, 0, 0]);
    let f = FORMAT_B8G8R8A8_UNORM;
    assert_eq!(w[4..13], [7, 2, f, 0, 0, 0, 5, 3, 1]);
    assert_eq!(w[13..22], [7, 1, f, 0, 0, 0, 11, 6, 1]);
    let n = stream(|e| e.blit(&side(7, 2, 5, 3), &side(7, 1, 11, 6), BLIT_FILTER_NEAREST));
    assert_eq!(n.unwrap()[1], 0xF);
}

#[test]
fn blit_refuses_what_the_host_would() {
    let ok = side(7, 1, 4, 4);
    let bad = [
        side(0, 1, 4, 4),     // no resource
        side(7, 15, 4, 4),    // past the last level of a 16384 texture
        side(7, 1, 0, 4),     // empty box
        side(7, 1, 16385, 1), // beyond the largest resource
        BlitSide {
            format: FORMAT_Z32_FLOAT,
            ..ok
        },
        BlitSide {
            bx: Box3d { z: 1, ..ok.bx },
            ..ok
        },
    ];
    for b in bad {
        assert!(
            stream(|e| e.blit(&b, &ok, BLIT_FILTER_LINEAR)).is_err(),
            "{b:?}"
        );
        assert!(
            stream(|e| e.blit(&ok, &b, BLIT_FILTER_LINEAR)).is_err(),
            "{b:?}"
        );
    }
    assert!(stream(|e| e.blit(&ok, &ok, 2)).is_err());
    let f = BlitSide {
        format: FORMAT_R32G32B32A32_FLOAT,
        ..ok
    };
    assert!(stream(|e| e.blit(&f, &f, BLIT_FILTER_LINEAR)).is_ok());
}

#[test]
fn a_flipped_source_sends_y_at_the_far_edge_and_a_negative_height() {
    let dst = side(3, 0, 6, 4);
    let src = side(9, 0, 6, 4).flipped_y();
    assert_eq!(src.bx.y, 4);
    assert_eq!(src.bx.h as i32, -4);
    let w = stream(|e| e.blit(&dst, &src, BLIT_FILTER_NEAREST)).unwrap();
    let f = FORMAT_B8G8R8A8_UNORM;
    assert_eq!(w[4..13], [3, 0, f, 0, 0, 0, 6, 4, 1]);
    assert_eq!(w[13..22], [9, 0, f, 0, 4, 0, 6, (-4i32) as u32, 1]);
    // A flipped box inside a row band: rows 2..5 read from row 4 down.
    let band = BlitSide {
        bx: Box3d {
            y: 2,
            ..Box3d::new_2d(6, 3)
        },
        ..side(9, 0, 6, 3)
    }
    .flipped_y();
    assert_eq!((band.bx.y, band.bx.h as i32), (5, -3));
    assert!(stream(|e| e.blit(&dst, &band, BLIT_FILTER_NEAREST)).is_ok());
    // A negative width mirrors too (gallium allows it for the source).
    let mirrored = BlitSide {
        bx: Box3d {
            x: 6,
            w: (-6i32) as u32,
            ..Box3d::new_2d(6, 4)
        },
        ..side(9, 0, 6, 4)
    };
    assert!(stream(|e| e.blit(&dst, &mirrored, BLIT_FILTER_NEAREST)).is_ok());
}

#[test]
fn a_flipped_box_is_refused_where_it_cannot_be() {
    let ok = side(3, 0, 6, 4);
    let flipped = side(9, 0, 6, 4).flipped_y();
    // Not as the destination (gallium: negative extents only for the source).
    assert!(stream(|e| e.blit(&flipped, &ok, BLIT_FILTER_NEAREST)).is_err());
    // A negative height reaching above row 0.
    let above = BlitSide {
        bx: Box3d {
            y: 3,
            h: (-4i32) as u32,
            ..ok.bx
        },
        ..ok
    };
    assert!(stream(|e| e.blit(&ok, &above, BLIT_FILTER_NEAREST)).is_err());
    // Beyond the largest resource, and flipping twice (an empty box to refuse).
    let far = BlitSide {
        bx: Box3d {
            y: 16385,
            h: (-1i32) as u32,
            ..ok.bx
        },
        ..ok
    };
    assert!(stream(|e| e.blit(&ok, &far, BLIT_FILTER_NEAREST)).is_err());
    let twice = flipped.flipped_y();
    assert_eq!(twice.bx.h, 0);
    assert!(stream(|e| e.blit(&ok, &twice, BLIT_FILTER_NEAREST)).is_err());
    // A copy region takes no signed box.
    assert!(stream(|e| e.copy_region(3, 0, (0, 0), 9, 0, flipped.bx)).is_err());
}

#[test]
fn copy_region_is_13_dwords() {
    let bx = Box3d {
        x: 1,
        y: 2,
        ..Box3d::new_2d(9, 4)
    };
    let w = stream(|e| e.copy_region(5, 0, (3, 0), 8, 1, bx)).unwrap();
    assert_eq!(w.len(), 1 + COPY_REGION_SIZE as usize);
    assert_eq!(w[0], cmd0(CCMD_RESOURCE_COPY_REGION, 0, COPY_REGION_SIZE));
    assert_eq!(w[0], 17 | 13 << 16);
    assert_eq!(w[1..], [5, 0, 3, 0, 0, 8, 1, 1, 2, 0, 9, 4, 1]);
    assert!(stream(|e| e.copy_region(0, 0, (0, 0), 8, 0, bx)).is_err());
    assert!(stream(|e| e.copy_region(5, 0, (0, 0), 8, 0, Box3d::new_2d(0, 1))).is_err());
    assert!(stream(|e| e.copy_region(5, 0, (16380, 0), 8, 0, bx)).is_err());
    assert!(stream(|e| e.copy_region(5, 15, (0, 0), 8, 0, bx)).is_err());
}

#[test]
fn the_checker_refuses_short_blits_and_copies() {
    let mut s = vec![cmd0(CCMD_BLIT, 0, 20)];
    s.extend([0u32; 20]);
    assert!(StreamChecker::new().check(&s).is_err());
    let mut s = vec![cmd0(CCMD_RESOURCE_COPY_REGION, 0, 13)];
    s.extend([0u32; 13]);
    assert!(StreamChecker::new().check(&s).is_err(), "empty box");
}
