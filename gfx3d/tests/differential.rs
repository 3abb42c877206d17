//! Every differential scene rendered by the software backend and by the VirGL backend (through
//! vtest against virgl_test_server), compared pixel by pixel: at most 1% may differ, and only
//! along edges.
use gfx3d::compare::compare;
use gfx3d::linked::Linked;
use gfx3d::scenes::{self, SCENES, SCENE_HEIGHT, SCENE_WIDTH};
use gfx3d::virgl::VirglDevice;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

#[test]
fn software_and_virgl_agree_on_every_scene() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut hw: Gfx3d<Linked> = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglDevice::new(t))))
        .unwrap();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let mut report = String::new();
    for (name, _) in SCENES {
        let a =
            scenes::run(&mut sw, 1, name).unwrap_or_else(|e| panic!("software {}: {}", name, e));
        let b = match scenes::run(&mut hw, 1, name) {
            Ok(b) => b,
            Err(e) => {
                report.push_str(&format!("{}: virgl failed: {}\n", name, e));
                continue;
            }
        };
        let c = compare(&a, &b, SCENE_WIDTH, SCENE_HEIGHT);
        let distinct = a.iter().filter(|&&p| p != a[0]).count();
        eprintln!(
            "{:20} differing {:4} off-edge {:2} (pixels unlike the first: {})",
            name, c.differing, c.off_edge, distinct
        );
        if !c.agrees() {
            report.push_str(&format!("{}: {:?}\n", name, c));
        }
    }
    assert_eq!(hw.backend_name(), "virgl");
    let errors = server.host_errors();
    assert!(
        report.is_empty() && errors.is_empty(),
        "{}\nhost errors: {:?}\n{}",
        report,
        errors,
        server.stderr_text()
    );
}

#[test]
fn software_and_virgl_agree_on_demo_frames() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut hw: Gfx3d<Linked> = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglDevice::new(t))))
        .unwrap();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let (w, h) = (160u32, 120u32);
    let ds = gfx3d::demo::Demo::new(&mut sw, 1, w, h).unwrap();
    let dh = gfx3d::demo::Demo::new(&mut hw, 1, w, h).unwrap();
    for frame in [0u32, 17, 90] {
        let mut a = vec![0u32; (w * h) as usize];
        let mut b = vec![0u32; (w * h) as usize];
        ds.frame(&mut sw, frame).unwrap();
        ds.read(&mut sw, &mut a).unwrap();
        dh.frame(&mut hw, frame).unwrap();
        dh.read(&mut hw, &mut b).unwrap();
        let c = compare(&a, &b, w, h);
        eprintln!(
            "demo frame {:3}: differing {} off-edge {}",
            frame, c.differing, c.off_edge
        );
        assert!(c.agrees(), "frame {}: {:?}", frame, c);
    }
    let errors = server.host_errors();
    assert!(errors.is_empty(), "host errors: {:?}", errors);
}
