//! The Mesa side of the frame bench: the same 100-draw frame through Mesa's virgl driver
//! (`GALLIUM_DRIVER=virpipe`) against a virgl_test_server on the default socket. Mesa 22.3 only
//! connects to `/tmp/.virgl_test`, so this runs in a child process inside a private mount
//! namespace with its own /tmp (never touching the machine's shared socket path).
use glow::HasContext;
use khronos_egl as egl;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const EGL_PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
const SOCKET: &str = "/tmp/.virgl_test";
const SAVE: &str = "/tmp/vtest-save.bin";

struct Server(Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_server(save: bool) -> Result<Server, String> {
    let mut c = Command::new("virgl_test_server");
    c.arg("--use-egl-surfaceless")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if save {
        c.env("VTEST_SAVE", SAVE);
    }
    let child = c
        .spawn()
        .map_err(|e| format!("cannot start virgl_test_server: {}", e))?;
    let s = Server(child);
    let t0 = Instant::now();
    while !std::path::Path::new(SOCKET).exists() {
        if t0.elapsed() > Duration::from_secs(10) {
            return Err("virgl_test_server did not open /tmp/.virgl_test".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(s)
}

struct Gl {
    gl: glow::Context,
    _egl: egl::DynamicInstance<egl::EGL1_5>,
}

fn gl_context() -> Result<Gl, String> {
    std::env::set_var("GALLIUM_DRIVER", "virpipe");
    std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
    // SAFETY: the system libEGL implements the EGL 1.5 entry points bound by name.
    let e = unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required() }
        .map_err(|x| format!("libEGL: {}", x))?;
    // SAFETY: the surfaceless platform takes the default (null) native display.
    let d = unsafe {
        e.get_platform_display(
            EGL_PLATFORM_SURFACELESS_MESA,
            egl::DEFAULT_DISPLAY,
            &[egl::ATTRIB_NONE],
        )
    }
    .map_err(|x| format!("display: {}", x))?;
    e.initialize(d)
        .map_err(|x| format!("eglInitialize: {}", x))?;
    e.bind_api(egl::OPENGL_API)
        .map_err(|x| format!("bind api: {}", x))?;
    let cfg = e
        .choose_first_config(
            d,
            &[
                egl::RENDERABLE_TYPE,
                egl::OPENGL_BIT,
                egl::SURFACE_TYPE,
                egl::DONT_CARE,
                egl::NONE,
            ],
        )
        .map_err(|x| format!("config: {}", x))?
        .ok_or("no GL config")?;
    let attrs = [
        egl::CONTEXT_MAJOR_VERSION,
        3,
        egl::CONTEXT_MINOR_VERSION,
        3,
        egl::CONTEXT_OPENGL_PROFILE_MASK,
        egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
        egl::NONE,
    ];
    let ctx = e
        .create_context(d, cfg, None, &attrs)
        .map_err(|x| format!("context: {}", x))?;
    e.make_current(d, None, None, Some(ctx))
        .map_err(|x| format!("make current: {}", x))?;
    // SAFETY: the context is current; names resolve through eglGetProcAddress.
    let gl = unsafe {
        glow::Context::from_loader_function(|n| {
            e.get_proc_address(n)
                .map_or(std::ptr::null(), |f| f as *const std::ffi::c_void)
        })
    };
    // SAFETY: a plain query on the current context.
    let r = unsafe { gl.get_parameter_string(glow::RENDERER) };
    if !r.contains("virgl") {
        return Err(format!("asked for virpipe, got renderer \"{}\"", r));
    }
    Ok(Gl { gl, _egl: e })
}

const VS: &str = "#version 330\nlayout(location = 0) in vec4 pos;\nuniform vec4 off;\nuniform vec4 col;\nout vec4 vcol;\nvoid main() { gl_Position = pos + off; vcol = col; }\n";
const FS: &str = "#version 330\nin vec4 vcol;\nout vec4 frag;\nvoid main() { frag = vcol; }\n";

/// Sets up a 64x64 FBO and the program; returns a closure-like state to draw frames.
unsafe fn setup(
    gl: &glow::Context,
) -> Result<(glow::UniformLocation, glow::UniformLocation), String> {
    unsafe {
        let tex = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(tex));
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            64,
            64,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(None),
        );
        let fbo = gl.create_framebuffer()?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(tex),
            0,
        );
        gl.viewport(0, 0, 64, 64);
        let p = gl.create_program()?;
        for (kind, src) in [(glow::VERTEX_SHADER, VS), (glow::FRAGMENT_SHADER, FS)] {
            let s = gl.create_shader(kind)?;
            gl.shader_source(s, src);
            gl.compile_shader(s);
            if !gl.get_shader_compile_status(s) {
                return Err(gl.get_shader_info_log(s));
            }
            gl.attach_shader(p, s);
        }
        gl.link_program(p);
        if !gl.get_program_link_status(p) {
            return Err(gl.get_program_info_log(p));
        }
        gl.use_program(Some(p));
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        let vbo = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
        let v: [f32; 12] = [
            -0.05, -0.05, 0.0, 1.0, 0.05, -0.05, 0.0, 1.0, 0.0, 0.05, 0.0, 1.0,
        ];
        let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
        gl.enable_vertex_attrib_array(0);
        gl.vertex_attrib_pointer_f32(0, 4, glow::FLOAT, false, 16, 0);
        let off = gl.get_uniform_location(p, "off").ok_or("no uniform off")?;
        let col = gl.get_uniform_location(p, "col").ok_or("no uniform col")?;
        Ok((off, col))
    }
}

unsafe fn frame(gl: &glow::Context, u: &(glow::UniformLocation, glow::UniformLocation), n: u32) {
    unsafe {
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        for i in 0..100 {
            let f = i as f32 / 100.0;
            gl.uniform_4_f32_slice(Some(&u.0), &[f - 0.5, (n % 7) as f32 * 0.01, 0.0, 0.0]);
            gl.uniform_4_f32_slice(Some(&u.1), &[f, 1.0 - f, 0.5, 1.0]);
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
        }
        gl.finish();
    }
}

/// Walks the saved vtest input and returns (SUBMIT_CMD dwords, DRAW_VBO commands).
fn count_saved(bytes: &[u8]) -> Result<(u64, u64), String> {
    let w = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    };
    let (mut at, mut dwords, mut draws) = (0usize, 0u64, 0u64);
    while at + 8 <= bytes.len() {
        let (len, cmd) = (w(at).ok_or("trunc")? as usize, w(at + 4).ok_or("trunc")?);
        at += 8;
        let payload = match cmd {
            8 => len,                                      // CREATE_RENDERER: name bytes
            1 | 9 | 10 => 0,                               // caps, ping
            11 | 3 | 15 | 17 => 4, // version, unref, get param, context init
            2 => 40,               // resource create
            12 => 44,              // resource create2
            7 | 16 => 8,           // busy wait, get capset
            4 => 44,               // transfer get (data comes back, not in)
            5 => 44 + w(at + 40).ok_or("trunc")? as usize, // transfer put + data
            13 | 14 => 40,         // transfer get2/put2 (shm)
            6 => {
                let mut i = 0;
                while i < len {
                    let h = w(at + i * 4).ok_or("trunc")?;
                    if h & 0xff == 8 {
                        draws += 1;
                    }
                    i += 1 + (h >> 16) as usize;
                }
                dwords += len as u64;
                len * 4
            }
            other => {
                return Err(format!(
                    "unknown vtest command {} in the saved stream",
                    other
                ))
            }
        };
        at += payload;
    }
    Ok((dwords, draws))
}

/// Runs inside the private namespace: prints `mesa_frame_ms=` or `mesa_dwords_per_draw=`.
pub fn child(mode: &str) -> Result<(), String> {
    match mode {
        "time" => {
            let _server = start_server(false)?;
            let g = gl_context()?;
            // SAFETY: GL calls on the current context with valid objects.
            let u = unsafe { setup(&g.gl)? };
            for n in 0..10 {
                unsafe { frame(&g.gl, &u, n) };
            }
            let frames = 100;
            let t0 = Instant::now();
            for n in 0..frames {
                unsafe { frame(&g.gl, &u, n) };
            }
            println!(
                "mesa_frame_ms={:.3}",
                t0.elapsed().as_secs_f64() * 1000.0 / frames as f64
            );
            Ok(())
        }
        "count" => {
            let server = start_server(true)?;
            {
                let g = gl_context()?;
                let u = unsafe { setup(&g.gl)? };
                for n in 0..200 {
                    unsafe { frame(&g.gl, &u, n) };
                }
            }
            std::thread::sleep(Duration::from_millis(200));
            drop(server);
            let bytes = std::fs::read(SAVE).map_err(|e| format!("no saved stream: {}", e))?;
            let (dwords, draws) = count_saved(&bytes)?;
            println!(
                "mesa_dwords_per_draw={:.1} (draws {})",
                dwords as f64 / draws.max(1) as f64,
                draws
            );
            Ok(())
        }
        _ => Err("unknown mode".into()),
    }
}

/// Runs the child in a private mount namespace and returns its stdout.
pub fn run_isolated(mode: &str) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new("unshare")
        .args([
            "-m",
            "--propagation",
            "private",
            "sh",
            "-c",
            "mount -t tmpfs tmpfs /tmp && exec \"$0\" \"$1\"",
        ])
        .arg(&exe)
        .arg(format!("--mesa-child={}", mode))
        .env("CHRISOS_VIRGL_MESA_CHILD", mode)
        .output()
        .map_err(|e| format!("cannot run unshare: {}", e))?;
    if !out.status.success() {
        return Err(format!(
            "Mesa child ({}) failed: {}{}",
            mode,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
