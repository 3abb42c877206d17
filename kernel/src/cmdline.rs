//! The kernel command line (`-append`): which job to run and the options for it.
//!
//! Words: `selftest` | `demo` (mode; `demo` is the default), `filter=PREFIX`, `frames=N`,
//! `backend=NAME`, `crash=panic|fault|pagefault|stackoverflow|virgl|hang|ap-fault|ap-stackoverflow`
//! (scripted failure checks),
//! `gpu=none` (QEMU was started without virtio-gpu on purpose).
//! Must never: fail on odd input; unknown words are collected and reported, not fatal.
use heapless::{String, Vec};

pub const FILTER_MAX: usize = 128;
pub const BACKEND_MAX: usize = 32;
pub const UNKNOWN_MAX: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Run the selected selftests and exit.
    Selftest,
    /// The main job (filled by later work; today: selftests, then the device summary).
    Demo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crash {
    Panic,
    /// `ud2`: an invalid-opcode fault.
    Fault,
    /// A write through a null pointer: a page fault.
    PageFault,
    /// Unbounded recursion: must end on the guard page below the boot stack, reported as #PF.
    StackOverflow,
    /// A VirGL CLEAR with no surface bound: virglrenderer rejects it on QEMU's stderr only, which
    /// run-qemu.sh must catch although the guest itself passes.
    VirglError,
    Hang,
    /// `ud2` on CPU 1 (the first application processor): reported like a boot-CPU fault.
    ApFault,
    /// Unbounded recursion on CPU 1: must end on the guard page below its stack, reported as #PF
    /// on its own fault stack.
    ApStackOverflow,
}

#[derive(Debug)]
pub struct BootArgs {
    pub mode: Mode,
    /// Only tests whose names start with this run. Empty: all ordinary tests.
    pub filter: String<FILTER_MAX>,
    /// For the demo: how many frames to draw (None: its default).
    pub frames: Option<u32>,
    /// For the demo: which Gfx3D backend (empty: its default).
    pub backend: String<BACKEND_MAX>,
    pub crash: Option<Crash>,
    /// False when the command line says QEMU has no virtio-gpu (`gpu=none`).
    pub expect_gpu: bool,
    /// Words that were not understood (reported at boot).
    pub unknown: Vec<String<FILTER_MAX>, UNKNOWN_MAX>,
}

fn copy<const N: usize>(text: &str) -> Result<String<N>, ()> {
    let mut out = String::new();
    out.push_str(text).map_err(|_| ())?;
    Ok(out)
}

pub fn parse(line: &str) -> BootArgs {
    let mut args = BootArgs {
        mode: Mode::Demo,
        filter: String::new(),
        frames: None,
        backend: String::new(),
        crash: None,
        expect_gpu: true,
        unknown: Vec::new(),
    };
    for word in line.split_ascii_whitespace() {
        let ok = match word.split_once('=') {
            None => match word {
                "selftest" => {
                    args.mode = Mode::Selftest;
                    true
                }
                "demo" => {
                    args.mode = Mode::Demo;
                    true
                }
                _ => false,
            },
            Some(("filter", v)) => copy(v).map(|s| args.filter = s).is_ok(),
            Some(("backend", v)) => copy(v).map(|s| args.backend = s).is_ok(),
            Some(("frames", v)) => v.parse().map(|n| args.frames = Some(n)).is_ok(),
            Some(("crash", v)) => {
                args.crash = match v {
                    "panic" => Some(Crash::Panic),
                    "fault" => Some(Crash::Fault),
                    "pagefault" => Some(Crash::PageFault),
                    "stackoverflow" => Some(Crash::StackOverflow),
                    "virgl" => Some(Crash::VirglError),
                    "hang" => Some(Crash::Hang),
                    "ap-fault" => Some(Crash::ApFault),
                    "ap-stackoverflow" => Some(Crash::ApStackOverflow),
                    _ => None,
                };
                args.crash.is_some()
            }
            Some(("gpu", "none")) => {
                args.expect_gpu = false;
                true
            }
            Some(_) => false,
        };
        if !ok {
            let mut kept: String<FILTER_MAX> = String::new();
            for ch in word.chars() {
                if kept.push(ch).is_err() {
                    break;
                }
            }
            let _ = args.unknown.push(kept);
        }
    }
    args
}

static ARGS: spin::Once<BootArgs> = spin::Once::new();

/// Stores the parsed command line for the rest of the kernel (called once at boot).
pub fn set(args: BootArgs) -> &'static BootArgs {
    ARGS.call_once(|| args)
}

/// The command line the kernel booted with. Before `set` runs it is the default (demo, no filter).
pub fn get() -> &'static BootArgs {
    ARGS.call_once(|| parse(""))
}
