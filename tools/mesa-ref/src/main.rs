//! `mesa-ref`: render a scene file through Mesa (EGL surfaceless, llvmpipe or softpipe) into an
//! RGBA PNG whose first row is the top of the picture; optionally time frames for benchmarks.
//!
//! Exit codes: 0 success, 1 render errors (Mesa rejected a shader, bad scene, EGL/driver missing),
//! 2 usage or I/O errors.

use std::path::PathBuf;

use mesa_ref::{Driver, DriverConfig, MesaRenderer};

const USAGE: &str =
    "usage: mesa-ref VERT FRAG --scene SCENE.json [--out OUT.png] [--edges EDGES.png]
                [--driver llvmpipe|softpipe] [--threads N] [--time FRAMES]
  --driver   Gallium driver (default llvmpipe)
  --threads  llvmpipe worker threads (LP_NUM_THREADS; 0 = render on the calling thread)
  --edges    also write the triangle-edge mask used by the differential test (white = edge)
  --time     draw FRAMES timed frames and print ms/frame and Mpixels/s";

struct Args {
    vert: PathBuf,
    frag: PathBuf,
    scene: PathBuf,
    out: Option<PathBuf>,
    edges: Option<PathBuf>,
    config: DriverConfig,
    time: Option<u32>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut files = Vec::new();
    let (mut scene, mut out, mut edges, mut time) = (None, None, None, None);
    let mut config = DriverConfig::new(Driver::Llvmpipe);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{} needs a value", flag))
        };
        match a.as_str() {
            "--scene" => scene = Some(PathBuf::from(value(a)?)),
            "--out" => out = Some(PathBuf::from(value(a)?)),
            "--edges" => edges = Some(PathBuf::from(value(a)?)),
            "--driver" => {
                let v = value(a)?;
                config.driver = Driver::parse(&v)
                    .ok_or_else(|| format!("unknown driver {}; use llvmpipe or softpipe", v))?;
            }
            "--threads" => {
                let v = value(a)?;
                config.llvmpipe_threads = Some(
                    v.parse()
                        .map_err(|_| format!("--threads takes a number, found {}", v))?,
                );
            }
            "--time" => {
                let v = value(a)?;
                time = Some(
                    v.parse::<u32>()
                        .map_err(|_| format!("--time takes a frame count, found {}", v))?
                        .max(1),
                );
            }
            f if f.starts_with("--") => return Err(format!("unknown option {}", f)),
            f => files.push(PathBuf::from(f)),
        }
    }
    let [vert, frag]: [PathBuf; 2] = files
        .try_into()
        .map_err(|f: Vec<PathBuf>| format!("expected VERT and FRAG, found {} files", f.len()))?;
    let scene = scene.ok_or("missing --scene")?;
    if out.is_none() && edges.is_none() && time.is_none() {
        return Err("nothing to do: give --out, --edges or --time".into());
    }
    Ok(Args {
        vert,
        frag,
        scene,
        out,
        edges,
        config,
        time,
    })
}

fn run(a: &Args) -> Result<(), (i32, String)> {
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).map_err(|e| (2, format!("cannot read {}: {}", p.display(), e)))
    };
    let (vs, fs) = (read(&a.vert)?, read(&a.frag)?);
    let scene = scene::Scene::load(&a.scene).map_err(|e| (1, e.to_string()))?;
    let mut mesa = MesaRenderer::new(a.config).map_err(|e| (1, e.to_string()))?;
    let render_err = |e: mesa_ref::MesaError| (1, e.0);
    if let Some(frames) = a.time {
        let per_frame = mesa
            .time_frames(&vs, &fs, &scene, frames)
            .map_err(render_err)?;
        let ms = per_frame.as_secs_f64() * 1e3;
        let mpix =
            (scene.width as f64 * scene.height as f64) / per_frame.as_secs_f64().max(1e-12) / 1e6;
        println!(
            "renderer={} frames={} ms_per_frame={:.4} mpixels_per_s={:.3}",
            mesa.renderer(),
            frames,
            ms,
            mpix
        );
    }
    if a.out.is_some() || a.edges.is_some() {
        let frame = mesa.render_frame(&vs, &fs, &scene).map_err(render_err)?;
        if let Some(out) = &a.out {
            scene::write_png(out, &frame.image).map_err(|e| (2, e.to_string()))?;
        }
        if let Some(path) = &a.edges {
            let rgba = frame
                .edges
                .iter()
                .flat_map(|&e| {
                    if e {
                        [255, 255, 255, 255]
                    } else {
                        [0, 0, 0, 255]
                    }
                })
                .collect();
            let img = scene::Image {
                width: scene.width,
                height: scene.height,
                rgba,
            };
            scene::write_png(path, &img).map_err(|e| (2, e.to_string()))?;
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("mesa-ref: {}\n{}", e, USAGE);
            std::process::exit(2);
        }
    };
    if let Err((code, msg)) = run(&parsed) {
        eprintln!("mesa-ref: {}", msg);
        std::process::exit(code);
    }
}
