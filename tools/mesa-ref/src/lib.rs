//! Mesa reference renderer: renders scene files through Mesa's GLSL compiler and a Gallium
//! software driver (llvmpipe or softpipe), by EGL on the surfaceless platform (no display).
//!
//! Owns: loading libEGL at run time, choosing the driver (`GALLIUM_DRIVER`, once per process),
//! a GL 3.3 core context without surfaces, and drawing a [`scene::Scene`] exactly as the scene
//! format defines it (see `render`). It is host-only test and benchmark equipment.
//! Must never: fall back silently: a missing libEGL, a missing driver or a context that is not
//! the requested driver is an error that says what was missing.

mod render;
pub mod source;

use std::fmt;
use std::sync::Mutex;

use khronos_egl as egl;

pub use render::{Frame, Prepared};

/// The Gallium software drivers this tool can ask Mesa for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    Llvmpipe,
    Softpipe,
}

impl Driver {
    pub fn name(self) -> &'static str {
        match self {
            Driver::Llvmpipe => "llvmpipe",
            Driver::Softpipe => "softpipe",
        }
    }

    pub fn parse(s: &str) -> Option<Driver> {
        match s {
            "llvmpipe" => Some(Driver::Llvmpipe),
            "softpipe" => Some(Driver::Softpipe),
            _ => None,
        }
    }
}

/// Driver choice plus llvmpipe's thread count (`LP_NUM_THREADS`; `Some(0)` renders on the
/// calling thread, the fair comparison with a single-threaded renderer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    pub driver: Driver,
    pub llvmpipe_threads: Option<u32>,
}

impl DriverConfig {
    pub fn new(driver: Driver) -> DriverConfig {
        DriverConfig {
            driver,
            llvmpipe_threads: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MesaError(pub String);

impl fmt::Display for MesaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MesaError {}

pub(crate) fn fail<T>(msg: impl Into<String>) -> Result<T, MesaError> {
    Err(MesaError(msg.into()))
}

/// Mesa reads its driver variables when the EGL display is first initialised, once per process:
/// remember the first choice and refuse a different one later instead of rendering with the
/// wrong driver.
static PROCESS_DRIVER: Mutex<Option<DriverConfig>> = Mutex::new(None);

const EGL_PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// One EGL display + GL 3.3 core context, current on the thread that created it.
pub struct MesaRenderer {
    egl: egl::DynamicInstance<egl::EGL1_5>,
    display: egl::Display,
    context: egl::Context,
    pub(crate) gl: glow::Context,
    renderer: String,
    config: DriverConfig,
}

impl MesaRenderer {
    /// Load libEGL, select the driver, create a context and make it current on this thread.
    pub fn new(config: DriverConfig) -> Result<MesaRenderer, MesaError> {
        let mut chosen = PROCESS_DRIVER.lock().unwrap_or_else(|e| e.into_inner());
        match *chosen {
            Some(c) if c != config => {
                return fail(format!(
                "this process already initialised Mesa with {:?}; Mesa picks its driver once per \
                     process, so {:?} needs a separate process",
                c, config
            ))
            }
            Some(_) => {}
            None => {
                // Set while holding the lock and before libEGL exists in the process, so no other
                // thread of ours reads the environment concurrently through Mesa.
                std::env::set_var("GALLIUM_DRIVER", config.driver.name());
                std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
                match config.llvmpipe_threads {
                    Some(n) => std::env::set_var("LP_NUM_THREADS", n.to_string()),
                    None => std::env::remove_var("LP_NUM_THREADS"),
                }
            }
        }

        // SAFETY: libEGL.so.1 is the system's EGL loader (glvnd or Mesa), which implements the
        // EGL 1.5 entry points khronos-egl binds by name.
        let egl = unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required() }.map_err(|e| {
            MesaError(format!(
                "cannot load libEGL.so.1 with EGL 1.5 ({}); install the packages libegl1 libegl-mesa0 libgl1-mesa-dri",
                e
            ))
        })?;
        // SAFETY: the surfaceless platform takes EGL_DEFAULT_DISPLAY (null) as its native display.
        let display = unsafe {
            egl.get_platform_display(
                EGL_PLATFORM_SURFACELESS_MESA,
                egl::DEFAULT_DISPLAY,
                &[egl::ATTRIB_NONE],
            )
        }
        .map_err(|e| {
            MesaError(format!(
                "eglGetPlatformDisplay(surfaceless) failed: {} (is libegl-mesa0 installed?)",
                e
            ))
        })?;
        egl.initialize(display).map_err(|e| {
            MesaError(format!(
                "eglInitialize on the surfaceless platform failed: {} (driver {} missing? install libgl1-mesa-dri)",
                e,
                config.driver.name()
            ))
        })?;
        *chosen = Some(config);
        drop(chosen);

        egl.bind_api(egl::OPENGL_API)
            .map_err(|e| MesaError(format!("eglBindAPI(OpenGL) failed: {}", e)))?;
        let attrs = [
            egl::RENDERABLE_TYPE,
            egl::OPENGL_BIT,
            egl::SURFACE_TYPE,
            egl::DONT_CARE,
            egl::NONE,
        ];
        let cfg = egl
            .choose_first_config(display, &attrs)
            .map_err(|e| MesaError(format!("eglChooseConfig failed: {}", e)))?
            .ok_or_else(|| MesaError("no EGL config renders with desktop OpenGL".into()))?;
        let ctx_attrs = [
            egl::CONTEXT_MAJOR_VERSION,
            3,
            egl::CONTEXT_MINOR_VERSION,
            3,
            egl::CONTEXT_OPENGL_PROFILE_MASK,
            egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
            egl::NONE,
        ];
        let context = egl
            .create_context(display, cfg, None, &ctx_attrs)
            .map_err(|e| MesaError(format!("cannot create a GL 3.3 core context: {}", e)))?;
        egl.make_current(display, None, None, Some(context))
            .map_err(|e| MesaError(format!("eglMakeCurrent without surfaces failed: {}", e)))?;

        // SAFETY: the context is current on this thread; every name resolves through
        // eglGetProcAddress, which Mesa answers for core GL functions too.
        let gl = unsafe {
            glow::Context::from_loader_function(|name| {
                egl.get_proc_address(name)
                    .map_or(std::ptr::null(), |f| f as *const std::ffi::c_void)
            })
        };
        use glow::HasContext;
        // SAFETY: plain queries on the current context.
        let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) };
        let r = MesaRenderer {
            egl,
            display,
            context,
            gl,
            renderer,
            config,
        };
        if !r.renderer.contains(config.driver.name()) {
            return fail(format!(
                "asked Mesa for {} but the context renders with \"{}\"",
                config.driver.name(),
                r.renderer
            ));
        }
        Ok(r)
    }

    /// GL_RENDERER of the context (names the driver, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    pub fn renderer(&self) -> &str {
        &self.renderer
    }

    pub fn config(&self) -> DriverConfig {
        self.config
    }
}

impl Drop for MesaRenderer {
    fn drop(&mut self) {
        // The display is shared by every renderer of the process, so it is not terminated.
        let _ = self.egl.make_current(self.display, None, None, None);
        let _ = self.egl.destroy_context(self.display, self.context);
    }
}
