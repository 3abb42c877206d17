//! Presenting a VirGL target (brief orient2, session 8): targets are drawn GL-native (host row
//! 0 is the picture's bottom row), but the host's display reads a resource without
//! VIRGL_RESOURCE_Y_0_TOP top row first. `present_scanout` therefore shows a kept scanout copy
//! of the target filled by one host BLIT with the source flipped vertically; these tests read
//! that copy back through a transfer (in the scanout hook, as the display would see it) and
//! check it is the target's picture top row first, that the present sends no transfer, and
//! that the copy is counted and freed with its target.
use std::sync::{Arc, Mutex};

use gfx3d::glsl::{TRI_FRAG, TRI_VERT};
use gfx3d::linked::Linked;
use gfx3d::virgl::{ScanoutHooks, VirglBackend};
use gfx3d::*;
use virtio_gpu::proto::Box3d;
use virtio_gpu::protocol::{CCMD_BLIT, CCMD_DRAW_VBO};
use virtio_gpu::vtest::{VtestServer, VtestTransport};
use virtio_gpu::{GpuTransport3d, ResId};

mod common;
use common::{tri_layout, Logged, TransportLog};

type G = Gfx3d<Linked>;
const W: u32 = 12;
const H: u32 = 8;

/// The display's view of the shown resource: read through the inner transport (not logged).
fn show(t: &mut Logged<VtestTransport>, res: ResId, w: u32, h: u32) -> virtio_gpu::Result<()> {
    let ctx = t.log.lock().unwrap().ctx.expect("a context");
    let mut bytes = vec![0u8; (w * h * 4) as usize];
    t.inner
        .transfer_from_host_3d(ctx, res, Box3d::new_2d(w, h), w * 4, &mut bytes)?;
    let px = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    t.log.lock().unwrap().shown.push((res, w, h, px));
    Ok(())
}

fn virgl() -> (VtestServer, G, Arc<Mutex<TransportLog>>) {
    let server = common::vtest_server();
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let (t, log) = Logged::new(t);
    let hooks = ScanoutHooks {
        present: show,
        primary: |_| Ok(()),
    };
    let mut g: G = Gfx3d::new();
    g.boot(
        BackendMode::Virgl,
        Some(Box::new(VirglBackend::new(t).with_scanout(hooks))),
    )
    .unwrap();
    (server, g, log)
}

/// A picture that differs from its own vertical mirror: a green clear, a red rectangle over
/// the lower left and a blue one over the upper right, of unequal heights.
fn draw(g: &mut G, c: ContextId, t: TargetId) {
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let quad = |g: &mut G, [x0, y0, x1, y1]: [f32; 4], rgba: [f32; 4]| {
        let mut v = Vec::new();
        for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
            v.extend_from_slice(&[x, y, 0.0, 1.0]);
            v.extend_from_slice(&rgba);
        }
        let m = g.mesh_create(0, Usage::Static).unwrap();
        g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
        m
    };
    let a = quad(g, [-1.0, -1.0, 0.0, -0.5], [1.0, 0.0, 0.0, 1.0]);
    let b = quad(g, [0.25, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]);
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 1.0, 0.0, 1.0], true).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, a).unwrap();
    g.draw(0, c, b).unwrap();
    g.end(0, c).unwrap();
}

fn rows_reversed(px: &[u32], w: u32) -> Vec<u32> {
    px.chunks_exact(w as usize)
        .rev()
        .flatten()
        .copied()
        .collect()
}

#[test]
fn the_presented_copy_is_the_picture_top_row_first() {
    let (server, mut g, log) = virgl();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    draw(&mut g, c, t);
    let mut picture = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut picture).unwrap();
    // The picture is not its own mirror (so an unflipped copy would differ), and it is the
    // one drawn: blue at the top right, red at the bottom left (B8G8R8A8 words).
    assert_ne!(picture, rows_reversed(&picture, W));
    assert_eq!(picture[(W - 1) as usize], 0xFF00_00FF);
    assert_eq!(picture[((H - 1) * W) as usize], 0xFFFF_0000);

    let before = {
        let l = log.lock().unwrap();
        (l.transfers(), l.submits.len())
    };
    g.present_scanout(0, t).unwrap();
    {
        let l = log.lock().unwrap();
        assert_eq!(l.shown.len(), 1);
        let (res, w, h, px) = &l.shown[0];
        assert_eq!((*w, *h), (W, H));
        assert_eq!(px, &picture, "the scanout copy of {res:?}");
        // The first present makes the copy: one submit of one BLIT, no transfer either way.
        assert_eq!(l.transfers(), before.0);
        assert_eq!(l.submits[before.1..], [vec![CCMD_BLIT]]);
    }
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

#[test]
fn the_scanout_copy_is_kept_counted_and_freed_with_its_target() {
    let (server, mut g, log) = virgl();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    draw(&mut g, c, t);
    let backing = g.stats().gpu_backing_bytes;
    let creates = log.lock().unwrap().creates;
    g.present_scanout(0, t).unwrap();
    // One resource of the target's size and format (B8G8R8A8: 4 bytes a pixel).
    assert_eq!(log.lock().unwrap().creates, creates + 1);
    assert_eq!(g.stats().gpu_backing_bytes, backing + u64::from(W * H * 4));
    // Redrawn and presented again: the same copy, updated.
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [1.0, 1.0, 0.0, 1.0], true).unwrap();
    g.end(0, c).unwrap();
    g.present_scanout(0, t).unwrap();
    assert_eq!(log.lock().unwrap().creates, creates + 1);
    assert_eq!(g.stats().gpu_backing_bytes, backing + u64::from(W * H * 4));
    let shown = {
        let l = log.lock().unwrap();
        assert_eq!(l.shown.len(), 2);
        assert_eq!(l.shown[0].0, l.shown[1].0);
        assert!(l.shown[1].3.iter().all(|&p| p == 0xFFFF_FF00));
        l.shown[0].0
    };
    // Destroying the target frees the copy and its bytes.
    g.target_destroy(0, t).unwrap();
    assert!(log.lock().unwrap().destroys.contains(&shown));
    let t2 = g.target_create(0, c, W, H).unwrap();
    g.present_scanout(0, t2).unwrap();
    // drop_owner frees everything, the copy included.
    g.drop_owner(0);
    assert_eq!(g.stats().gpu_backing_bytes, 0);
    assert_eq!(g.stats().live_target, 0);
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

/// Once a target has its scanout copy, each frame drawn into it refreshes the copy with the
/// BLIT at the end of the frame's own batch (after its draws, in the same submit), and the
/// present that follows submits nothing: one submit per presented frame fewer. The copy shown
/// is each frame's picture.
#[test]
fn a_presented_target_s_frames_carry_its_copy_and_present_submits_nothing() {
    let (server, mut g, log) = virgl();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    draw(&mut g, c, t);
    g.present_scanout(0, t).unwrap();
    for frame in 0..3 {
        let before = log.lock().unwrap().submits.len();
        draw(&mut g, c, t);
        let frame_submits = log.lock().unwrap().submits.len() - before;
        g.present_scanout(0, t).unwrap();
        let mut picture = vec![0u32; (W * H) as usize];
        g.target_read(0, t, &mut picture).unwrap();
        let l = log.lock().unwrap();
        // The frame's batch: its draws, then the copy's BLIT, last.
        assert_eq!(frame_submits, 1, "frame {frame}");
        assert_eq!(
            l.submits.len(),
            before + 1,
            "frame {frame}: the present submitted"
        );
        let batch = &l.submits[before];
        assert_eq!(batch.last(), Some(&CCMD_BLIT), "frame {frame}: {batch:?}");
        let draw_at = batch.iter().rposition(|&c| c == CCMD_DRAW_VBO);
        assert_eq!(
            draw_at,
            Some(batch.len() - 2),
            "frame {frame}: the BLIT follows the draws: {batch:?}"
        );
        assert_eq!(batch.iter().filter(|&&c| c == CCMD_BLIT).count(), 1);
        let (_, _, _, px) = l.shown.last().unwrap();
        assert_eq!(l.shown.len(), frame + 2);
        assert_eq!(
            px, &picture,
            "frame {frame}: the copy is the frame's picture"
        );
    }
    // A frame into another target does not touch the presented one's copy.
    let other = g.target_create(0, c, W, H).unwrap();
    let before = log.lock().unwrap().submits.len();
    draw(&mut g, c, other);
    {
        let l = log.lock().unwrap();
        assert!(l.submits[before..]
            .iter()
            .flatten()
            .all(|&c| c != CCMD_BLIT));
    }
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
