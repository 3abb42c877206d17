//! Every TGSI text the shader compiler's golden corpus records (shader/tests/out/tgsi) is
//! created as a shader object on the real renderer through vtest. The host must accept each one
//! without a context error: this is the end-to-end check that the emitter's output parses under
//! virglrenderer's rules, kept as text so this crate stays independent of the shader crate.
use std::path::PathBuf;

use virtio_gpu::context::VirglContext;
use virtio_gpu::protocol::{SHADER_FRAGMENT, SHADER_VERTEX};
use virtio_gpu::transport::GpuTransport3d;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shader/tests/out/tgsi");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {}", dir.display(), e)) {
        let path = entry.expect("directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("tgsi") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read golden TGSI");
        // Goldens that record an emission error (over the 3600-byte budget) are not TGSI.
        if text.starts_with("error:") {
            continue;
        }
        out.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            text,
        ));
    }
    out.sort();
    out
}

#[test]
fn every_golden_tgsi_is_accepted_by_virglrenderer() {
    let shaders = corpus();
    assert!(
        shaders.len() >= 20,
        "expected the golden TGSI corpus, found {} files",
        shaders.len()
    );
    let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
    let mut t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut ctx = VirglContext::create(&mut t).expect("context");
    for (name, text) in &shaders {
        let stage = if text.starts_with("VERT") {
            SHADER_VERTEX
        } else if text.starts_with("FRAG") {
            SHADER_FRAGMENT
        } else {
            panic!("{}: neither VERT nor FRAG", name)
        };
        let handle = ctx.alloc_handle().expect("handle");
        ctx.enc(&mut t, |e| e.create_shader(handle, stage, text))
            .unwrap_or_else(|e| panic!("{}: {:?}", name, e));
        ctx.flush(&mut t)
            .unwrap_or_else(|e| panic!("{}: {:?}", name, e));
        t.wait_idle(ctx.ctx)
            .unwrap_or_else(|e| panic!("{}: {:?}", name, e));
        let errors = server.host_errors();
        assert!(
            errors.is_empty(),
            "{}: virglrenderer rejected it: {:?}\n{}",
            name,
            errors,
            text
        );
    }
    assert!(!t.is_lost(), "transport lost");
}
