//! Host-only vtest client: drives `virgl_test_server` over its UNIX socket, so complete VirGL
//! streams run against the real renderer without a VM.
//!
//! Owns: `VtestServer` (starts a private server, waits for its socket, kills it on drop, and
//! scans its stderr for host context errors) and `VtestTransport` (a `GpuTransport3d` where every
//! context is one vtest connection, using protocol version 0: inline transfer data).
//! Must never: be compiled into the kernel (it needs `std`), or leave a server running.
use crate::caps::HostCaps;
use crate::error::{GpuError, Result};
use crate::handles::IdPool;
use crate::limits::{MAX_CONTEXTS, MAX_RESOURCES};
use crate::proto::Box3d;
use crate::protocol::{CAPSET_VIRGL2, HOST_ERROR_MARKERS};
use crate::transport::{transfer_span, CtxId, GpuTransport3d, ResId, ResourceDesc};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::string::{String, ToString};
use std::time::{Duration, Instant};
use std::vec::Vec;
use std::{format, fs, vec};

// vtest command ids (vtest_protocol.h).
const VCMD_GET_CAPS2: u32 = 9;
const VCMD_RESOURCE_CREATE: u32 = 2;
const VCMD_RESOURCE_UNREF: u32 = 3;
const VCMD_TRANSFER_GET: u32 = 4;
const VCMD_TRANSFER_PUT: u32 = 5;
const VCMD_SUBMIT_CMD: u32 = 6;
const VCMD_RESOURCE_BUSY_WAIT: u32 = 7;
const VCMD_CREATE_RENDERER: u32 = 8;
const VCMD_RES_CREATE_SIZE: u32 = 10;
const VCMD_TRANSFER_HDR_SIZE: u32 = 11;
const VCMD_BUSY_WAIT_SIZE: u32 = 2;
const VCMD_BUSY_WAIT_FLAG_WAIT: u32 = 1;

/// The server binary the tests start.
pub const SERVER_BINARY: &str = "virgl_test_server";
const SOCKET_WAIT: Duration = Duration::from_secs(15);
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// A private `virgl_test_server` that lives as long as this value.
pub struct VtestServer {
    child: Child,
    dir: PathBuf,
    socket: PathBuf,
    stderr_path: PathBuf,
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

impl VtestServer {
    /// Starts `virgl_test_server --use-egl-surfaceless --socket-path=PATH` on a fresh private
    /// path and waits until the socket exists. A missing binary is an error that says how to get
    /// it (never a silent skip).
    pub fn start() -> core::result::Result<Self, String> {
        let bin = find_in_path(SERVER_BINARY).ok_or_else(|| {
            format!(
                "{} not found in PATH: install the Debian package virgl-server (run the project setup)",
                SERVER_BINARY
            )
        })?;
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("chrisos-vtest-{}-{}", std::process::id(), n));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {}", dir.display(), e))?;
        let socket = dir.join("vtest.sock");
        let stderr_path = dir.join("stderr.txt");
        let stderr = fs::File::create(&stderr_path).map_err(|e| e.to_string())?;
        let child = Command::new(bin)
            .arg("--use-egl-surfaceless")
            .arg(format!("--socket-path={}", socket.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(stderr))
            .spawn()
            .map_err(|e| format!("cannot start {}: {}", SERVER_BINARY, e))?;
        let mut server = VtestServer {
            child,
            dir,
            socket,
            stderr_path,
        };
        let t0 = Instant::now();
        while !server.socket.exists() {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!(
                    "{} exited with {} before opening its socket; stderr:\n{}",
                    SERVER_BINARY,
                    status,
                    server.stderr_text()
                ));
            }
            if t0.elapsed() > SOCKET_WAIT {
                return Err(format!(
                    "{} did not open {} within {:?}",
                    SERVER_BINARY,
                    server.socket.display(),
                    SOCKET_WAIT
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(server)
    }

    pub fn socket_path(&self) -> &Path {
        &self.socket
    }

    /// Everything the server (and its per-client forks) wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// Lines of stderr that report a host-side context error (see [`host_error_lines`]).
    pub fn host_errors(&self) -> Vec<String> {
        host_error_lines(&self.stderr_text())
    }
}

/// The complete lines of a vtest server's stderr that report a host-side error.
///
/// Only complete lines count: the forked children write to the same file, and a read can land
/// in the middle of a write, so a last line without its newline may be a disconnect's
/// `..._INPUT_READ` cut short (it is seen whole on the next read).
pub fn host_error_lines(text: &str) -> Vec<String> {
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end + 1],
        None => "",
    };
    complete
        .lines()
        .filter(|l| {
            HOST_ERROR_MARKERS.iter().any(|m| l.contains(m))
                // Every disconnect logs INPUT_READ; any other client failure is an error.
                || (l.contains("client failed") && !l.contains("INPUT_READ"))
        })
        .map(|l| l.to_string())
        .collect()
}

#[cfg(test)]
mod stderr_tests {
    use super::host_error_lines;

    #[test]
    fn a_disconnect_cut_short_is_not_an_error() {
        let cut =
            "client failed: VTEST_CLIENT_ERROR_INPUT_READ\nclient failed: VTEST_CLIENT_ERROR_INPUT";
        assert!(host_error_lines(cut).is_empty());
        let whole = "client failed: VTEST_CLIENT_ERROR_INPUT_READ\n";
        assert!(host_error_lines(whole).is_empty());
    }

    #[test]
    fn real_errors_are_reported() {
        let text = "vrend_report_context_error: context error reported 3 \"x\" Illegal shader 0\n\
                    client failed: VTEST_CLIENT_ERROR_COMMAND_DISPATCH\n";
        assert_eq!(host_error_lines(text).len(), 2);
    }
}

impl Drop for VtestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

struct Conn {
    stream: UnixStream,
    resources: BTreeMap<u32, ResourceDesc>,
    ids: IdPool,
}

fn io_err(what: &'static str, e: std::io::Error) -> GpuError {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
            GpuError::Timeout { command: 0 }
        }
        _ => GpuError::Transport {
            what,
            code: e.raw_os_error().unwrap_or(-1),
        },
    }
}

impl Conn {
    fn open(socket: &Path, name: &str) -> Result<Conn> {
        // The server creates its socket file at bind() and only accepts after listen(): a
        // connection in between is refused. Retry for a bounded time instead of failing on it.
        let t0 = Instant::now();
        let stream = loop {
            match UnixStream::connect(socket) {
                Ok(s) => break s,
                Err(e)
                    if e.kind() == std::io::ErrorKind::ConnectionRefused
                        && t0.elapsed() < SOCKET_WAIT =>
                {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(io_err("vtest connect", e)),
            }
        };
        stream
            .set_read_timeout(Some(IO_TIMEOUT))
            .map_err(|e| io_err("vtest timeout", e))?;
        stream
            .set_write_timeout(Some(IO_TIMEOUT))
            .map_err(|e| io_err("vtest timeout", e))?;
        let mut c = Conn {
            stream,
            resources: BTreeMap::new(),
            ids: IdPool::new("vtest resource", MAX_RESOURCES)?,
        };
        c.send(&[name.len() as u32, VCMD_CREATE_RENDERER], name.as_bytes())?;
        Ok(c)
    }

    fn send(&mut self, words: &[u32], bytes: &[u8]) -> Result<()> {
        let mut buf = Vec::with_capacity(words.len() * 4 + bytes.len());
        for w in words {
            buf.extend_from_slice(&w.to_le_bytes());
        }
        buf.extend_from_slice(bytes);
        self.stream
            .write_all(&buf)
            .map_err(|e| io_err("vtest write", e))
    }

    fn recv(&mut self, out: &mut [u8]) -> Result<()> {
        self.stream
            .read_exact(out)
            .map_err(|e| io_err("vtest read (server closed the connection?)", e))
    }

    fn recv_words<const N: usize>(&mut self) -> Result<[u32; N]> {
        let mut b = vec![0u8; N * 4];
        self.recv(&mut b)?;
        let mut w = [0u32; N];
        for (i, x) in w.iter_mut().enumerate() {
            *x = u32::from_le_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
        }
        Ok(w)
    }

    /// Round trip that also proves the server still serves this connection.
    fn busy_wait(&mut self) -> Result<()> {
        self.send(
            &[
                VCMD_BUSY_WAIT_SIZE,
                VCMD_RESOURCE_BUSY_WAIT,
                0,
                VCMD_BUSY_WAIT_FLAG_WAIT,
            ],
            &[],
        )?;
        let r = self.recv_words::<3>()?;
        if r[0] != 1 || r[1] != VCMD_RESOURCE_BUSY_WAIT {
            return Err(GpuError::Malformed {
                command: VCMD_RESOURCE_BUSY_WAIT,
                reason: "unexpected busy-wait reply",
            });
        }
        Ok(())
    }

    fn caps(&mut self) -> Result<HostCaps> {
        self.send(&[0, VCMD_GET_CAPS2], &[])?;
        let h = self.recv_words::<2>()?;
        if h[1] != CAPSET_VIRGL2 || h[0] == 0 || h[0] as usize > 1 + crate::limits::MAX_CAPSET_BYTES
        {
            return Err(GpuError::Malformed {
                command: VCMD_GET_CAPS2,
                reason: "unexpected caps reply",
            });
        }
        let mut blob = vec![0u8; h[0] as usize - 1];
        self.recv(&mut blob)?;
        HostCaps::parse(CAPSET_VIRGL2, 1, &blob).ok_or(GpuError::Malformed {
            command: VCMD_GET_CAPS2,
            reason: "capset too short",
        })
    }
}

/// `GpuTransport3d` over vtest. Each context is its own connection (vtest serves one context per
/// connection); resources belong to the connection that created them.
pub struct VtestTransport {
    socket: PathBuf,
    caps: HostCaps,
    ctx_ids: IdPool,
    conns: BTreeMap<u32, Conn>,
    lost: bool,
    /// Statistics: submits and dwords sent.
    pub submits: u64,
    pub dwords: u64,
}

impl VtestTransport {
    /// Connects once to read the host capabilities.
    pub fn connect(socket: &Path) -> Result<Self> {
        let mut probe = Conn::open(socket, "chrisos-probe")?;
        let caps = probe.caps()?;
        drop(probe);
        Ok(VtestTransport {
            socket: socket.to_path_buf(),
            caps,
            ctx_ids: IdPool::new("vtest context", MAX_CONTEXTS)?,
            conns: BTreeMap::new(),
            lost: false,
            submits: 0,
            dwords: 0,
        })
    }

    fn conn(&mut self, ctx: CtxId) -> Result<&mut Conn> {
        if self.lost {
            return Err(GpuError::Lost);
        }
        self.conns.get_mut(&ctx.0).ok_or(GpuError::UnknownId {
            pool: "vtest context",
            id: ctx.0,
        })
    }

    fn fail<T>(&mut self, e: GpuError) -> Result<T> {
        self.lost = true;
        Err(e)
    }

    /// Waits until the renderer finished everything submitted to `ctx`.
    pub fn wait_idle(&mut self, ctx: CtxId) -> Result<()> {
        let r = self.conn(ctx)?.busy_wait();
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn check_res(&mut self, ctx: CtxId, res: ResId) -> Result<ResourceDesc> {
        let c = self.conn(ctx)?;
        c.resources.get(&res.0).copied().ok_or(GpuError::UnknownId {
            pool: "vtest resource",
            id: res.0,
        })
    }
}

/// The header of a vtest TRANSFER_PUT / TRANSFER_GET of `span` bytes of mip level `level`.
fn transfer_header(
    op: u32,
    res: ResId,
    level: u32,
    stride: u32,
    bx: Box3d,
    span: usize,
) -> [u32; 13] {
    [
        VCMD_TRANSFER_HDR_SIZE,
        op,
        res.0,
        level,
        stride,
        0, // layer stride
        bx.x,
        bx.y,
        bx.z,
        bx.w,
        bx.h,
        bx.d,
        span as u32,
    ]
}

impl GpuTransport3d for VtestTransport {
    fn caps(&self) -> &HostCaps {
        &self.caps
    }

    fn ctx_create(&mut self) -> Result<CtxId> {
        if self.lost {
            return Err(GpuError::Lost);
        }
        let id = self.ctx_ids.alloc()?;
        match Conn::open(&self.socket, "chrisos") {
            Ok(c) => {
                self.conns.insert(id, c);
                Ok(CtxId(id))
            }
            Err(e) => {
                let _ = self.ctx_ids.free(id);
                self.fail(e)
            }
        }
    }

    fn ctx_destroy(&mut self, ctx: CtxId) -> Result<()> {
        let mut c = self.conns.remove(&ctx.0).ok_or(GpuError::UnknownId {
            pool: "vtest context",
            id: ctx.0,
        })?;
        self.ctx_ids.free(ctx.0)?;
        // One last round trip: an error from earlier commands of this context surfaces here.
        let r = if self.lost { Ok(()) } else { c.busy_wait() };
        drop(c);
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn resource_create_3d(&mut self, ctx: CtxId, d: &ResourceDesc) -> Result<ResId> {
        // The kernel driver's limits exactly (the host refuses e.g. a 16385x1 texture).
        d.check(self.caps.max_texture_2d_size)?;
        let c = self.conn(ctx)?;
        let id = c.ids.alloc()?;
        let r = c.send(
            &[
                VCMD_RES_CREATE_SIZE,
                VCMD_RESOURCE_CREATE,
                id,
                d.target,
                d.format,
                d.bind,
                d.width,
                d.height,
                d.depth,
                d.array_size,
                d.last_level,
                d.nr_samples,
            ],
            &[],
        );
        match r {
            Ok(()) => {
                c.resources.insert(id, *d);
                Ok(ResId(id))
            }
            Err(e) => self.fail(e),
        }
    }

    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> Result<()> {
        self.check_res(ctx, res)?;
        let c = self.conn(ctx)?;
        c.resources.remove(&res.0);
        c.ids.free(res.0)?;
        let r = c.send(&[1, VCMD_RESOURCE_UNREF, res.0], &[]);
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn transfer_level_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> Result<()> {
        let d = self.check_res(ctx, res)?;
        if level > d.last_level {
            return Err(GpuError::OutOfRange {
                what: "transfer mip level",
                value: level as u64,
                limit: d.last_level as u64,
            });
        }
        let span = transfer_span(bx, stride, d.bytes_per_texel).ok_or(GpuError::Invalid {
            what: "empty transfer box",
        })?;
        let data = data.get(..span).ok_or(GpuError::OutOfRange {
            what: "transfer data bytes",
            value: data.len() as u64,
            limit: span as u64,
        })?;
        let c = self.conn(ctx)?;
        let r = c.send(
            &transfer_header(VCMD_TRANSFER_PUT, res, level, stride, bx, span),
            data,
        );
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> Result<()> {
        let d = self.check_res(ctx, res)?;
        let span = transfer_span(bx, stride, d.bytes_per_texel).ok_or(GpuError::Invalid {
            what: "empty transfer box",
        })?;
        let out_len = out.len();
        let out = out.get_mut(..span).ok_or(GpuError::OutOfRange {
            what: "readback bytes",
            value: out_len as u64,
            limit: span as u64,
        })?;
        let c = self.conn(ctx)?;
        let r = c
            .send(
                &transfer_header(VCMD_TRANSFER_GET, res, 0, stride, bx, span),
                &[],
            )
            .and_then(|_| c.recv(out));
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> Result<()> {
        if dwords.is_empty() {
            return Ok(());
        }
        let c = self.conn(ctx)?;
        let mut words = Vec::with_capacity(dwords.len() + 2);
        words.push(dwords.len() as u32);
        words.push(VCMD_SUBMIT_CMD);
        words.extend_from_slice(dwords);
        let r = c.send(&words, &[]).and_then(|_| c.busy_wait());
        match r {
            Ok(()) => {
                self.submits += 1;
                self.dwords += dwords.len() as u64;
                Ok(())
            }
            Err(e) => self.fail(e),
        }
    }

    fn is_lost(&self) -> bool {
        self.lost
    }
}
