//! Test-side VirGL stream checker: walks a batch and applies the length and value rules of
//! virglrenderer's decoder (`vrend_decode.c`), plus object bookkeeping across batches.
//!
//! Owns: `StreamChecker`, usable in host tests and in the kernel's selftests.
//! Must never: accept a stream the host would reject for its lengths, or panic on any input.
use crate::protocol::*;
use core::fmt;

/// Why a stream was rejected: the dword offset of the offending command and the rule broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub cmd: u32,
    pub obj: u32,
    pub len: u32,
    pub reason: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dword {}: command {} (object {}, length {}): {}",
            self.offset, self.cmd, self.obj, self.len, self.reason
        )
    }
}

/// One decoded command (header fields and its payload).
#[derive(Debug, Clone, Copy)]
pub struct Command<'a> {
    pub offset: usize,
    pub cmd: u32,
    pub obj: u32,
    pub payload: &'a [u32],
}

const HANDLE_WORDS: usize = 128; // tracks object handles 1..=4096

/// Stateful checker: object handles and long-shader progress persist across batches, as they do
/// on the host.
#[derive(Clone)]
pub struct StreamChecker {
    live: [u64; HANDLE_WORDS],
    /// Long shader in progress per stage: (handle, bytes received, bytes expected).
    long_shader: [Option<(u32, u32, u32)>; SHADER_TYPES as usize],
    pub framebuffer_set: bool,
    pub commands: u64,
    pub draws: u64,
}

impl Default for StreamChecker {
    fn default() -> Self {
        StreamChecker {
            live: [0; HANDLE_WORDS],
            long_shader: [None; SHADER_TYPES as usize],
            framebuffer_set: false,
            commands: 0,
            draws: 0,
        }
    }
}

fn bit(h: u32) -> Option<(usize, u64)> {
    let i = h.checked_sub(1)? as usize;
    if i >= HANDLE_WORDS * 64 {
        return None;
    }
    Some((i / 64, 1u64 << (i % 64)))
}

impl StreamChecker {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_live(&self, h: u32) -> bool {
        bit(h).is_some_and(|(w, m)| self.live.get(w).is_some_and(|x| x & m != 0))
    }

    fn set_live(&mut self, h: u32, on: bool) -> bool {
        match bit(h) {
            Some((w, m)) => match self.live.get_mut(w) {
                Some(x) => {
                    if on {
                        *x |= m
                    } else {
                        *x &= !m
                    }
                    true
                }
                None => false,
            },
            None => false,
        }
    }

    /// Checks one batch; on success calls `visit` for each command in order.
    pub fn check_with(
        &mut self,
        stream: &[u32],
        mut visit: impl FnMut(&Command<'_>),
    ) -> Result<usize, DecodeError> {
        let mut at = 0usize;
        let mut count = 0usize;
        while at < stream.len() {
            let header = stream[at];
            let cmd = header & 0xff;
            let obj = (header >> 8) & 0xff;
            let len = header >> 16;
            let err = |reason| DecodeError {
                offset: at,
                cmd,
                obj,
                len,
                reason,
            };
            if cmd >= CCMD_MAX {
                return Err(err("command id beyond the host's table"));
            }
            let end = at + 1 + len as usize;
            if end > stream.len() {
                return Err(err("length runs past the end of the batch"));
            }
            let payload = &stream[at + 1..end];
            self.check_command(cmd, obj, payload).map_err(err)?;
            visit(&Command {
                offset: at,
                cmd,
                obj,
                payload,
            });
            count += 1;
            self.commands += 1;
            at = end;
        }
        Ok(count)
    }

    pub fn check(&mut self, stream: &[u32]) -> Result<usize, DecodeError> {
        self.check_with(stream, |_| {})
    }

    fn check_command(&mut self, cmd: u32, obj: u32, p: &[u32]) -> Result<(), &'static str> {
        let len = p.len() as u32;
        let get = |i: usize| p.get(i).copied().unwrap_or(0);
        match cmd {
            CCMD_NOP => Ok(()),
            CCMD_CREATE_OBJECT => self.check_create(obj, p),
            CCMD_BIND_OBJECT => {
                if len != BIND_OBJECT_SIZE {
                    return Err("BIND_OBJECT length must be 1");
                }
                if !matches!(
                    obj,
                    OBJ_BLEND | OBJ_RASTERIZER | OBJ_DSA | OBJ_VERTEX_ELEMENTS
                ) {
                    return Err("BIND_OBJECT of an unbindable object type");
                }
                let h = get(0);
                if h != 0 && !self.is_live(h) {
                    return Err("BIND_OBJECT of a handle that was never created");
                }
                Ok(())
            }
            CCMD_DESTROY_OBJECT => {
                if len != DESTROY_OBJECT_SIZE {
                    return Err("DESTROY_OBJECT length must be 1");
                }
                if !self.is_live(get(0)) {
                    return Err("DESTROY_OBJECT of a handle that is not live");
                }
                self.set_live(get(0), false);
                Ok(())
            }
            CCMD_SET_VIEWPORT_STATE => {
                if len < 1 || !(len - 1).is_multiple_of(6) {
                    return Err("viewport length must be 1 + 6n");
                }
                let n = (len - 1) / 6;
                if n > 16 || get(0) > 16 - n {
                    return Err("viewport slots out of range");
                }
                Ok(())
            }
            CCMD_SET_FRAMEBUFFER_STATE => {
                if len < 2 {
                    return Err("framebuffer state shorter than 2");
                }
                let nr = get(0);
                if nr > 8 || len != 2 + nr {
                    return Err("framebuffer length must be 2 + nr_cbufs (<= 8)");
                }
                for i in 0..nr as usize {
                    let h = get(2 + i);
                    if h != 0 && !self.is_live(h) {
                        return Err("framebuffer colour surface is not live");
                    }
                }
                if get(1) != 0 && !self.is_live(get(1)) {
                    return Err("framebuffer depth surface is not live");
                }
                self.framebuffer_set = nr > 0;
                Ok(())
            }
            CCMD_SET_VERTEX_BUFFERS => {
                if !len.is_multiple_of(3) || len / 3 > 32 {
                    return Err("vertex buffers length must be 3n (n <= 32)");
                }
                Ok(())
            }
            CCMD_CLEAR => {
                if len != CLEAR_SIZE {
                    return Err("CLEAR length must be exactly 8");
                }
                if get(0) & CLEAR_COLOR0 != 0 && !self.framebuffer_set {
                    return Err("CLEAR of colour without a bound colour surface");
                }
                Ok(())
            }
            CCMD_DRAW_VBO => {
                if len != DRAW_VBO_SIZE
                    && len != DRAW_VBO_SIZE_TESS
                    && len != DRAW_VBO_SIZE_INDIRECT
                {
                    return Err("DRAW_VBO length must be 12, 14 or 20");
                }
                if get(1) == 0 {
                    return Err("DRAW_VBO with zero count");
                }
                if get(9) > get(10) {
                    return Err("DRAW_VBO min index above max index");
                }
                if get(3) != 0 && get(0) != 0 {
                    return Err("indexed DRAW_VBO with start != 0 (the host ignores start)");
                }
                if get(3) == 0
                    && (get(9) != get(0) || get(10) != get(0).wrapping_add(get(1)).wrapping_sub(1))
                {
                    return Err("non-indexed DRAW_VBO with an index range other than [start, start+count-1]");
                }
                self.draws += 1;
                Ok(())
            }
            CCMD_RESOURCE_INLINE_WRITE => {
                if len < 12 {
                    return Err("RESOURCE_INLINE_WRITE shorter than 12");
                }
                let (w, h, d) = (get(8) as u64, get(9) as u64, get(10) as u64);
                if w == 0 || h == 0 || d == 0 {
                    return Err("RESOURCE_INLINE_WRITE with an empty box");
                }
                let data_bytes = (len as u64 - 11) * 4;
                let stride = get(3) as u64;
                let need = stride * (h - 1) + w; // at least one byte per texel
                if need > data_bytes {
                    return Err("RESOURCE_INLINE_WRITE data shorter than its box");
                }
                Ok(())
            }
            CCMD_SET_SAMPLER_VIEWS | CCMD_BIND_SAMPLER_STATES => {
                if len < 2 {
                    return Err("sampler command shorter than 2");
                }
                if get(0) >= SHADER_TYPES {
                    return Err("sampler command shader type out of range");
                }
                let n = len - 2;
                if n > 32 || get(1) > 32 - n {
                    return Err("sampler slots out of range");
                }
                for i in 0..n as usize {
                    let h = get(2 + i);
                    if h != 0 && !self.is_live(h) {
                        return Err("sampler view/state handle is not live");
                    }
                }
                Ok(())
            }
            CCMD_SET_INDEX_BUFFER => {
                if len != 1 && len != 3 {
                    return Err("SET_INDEX_BUFFER length must be 1 or 3");
                }
                Ok(())
            }
            CCMD_SET_CONSTANT_BUFFER => {
                if len < 2 {
                    return Err("SET_CONSTANT_BUFFER shorter than 2");
                }
                if get(0) >= SHADER_TYPES {
                    return Err("SET_CONSTANT_BUFFER shader type out of range");
                }
                Ok(())
            }
            CCMD_SET_SCISSOR_STATE => {
                if len < 1 || !(len - 1).is_multiple_of(2) {
                    return Err("scissor length must be 1 + 2n");
                }
                // One viewport slot on this host (PIPE_MAX_VIEWPORTS is 16).
                if get(0) + (len - 1) / 2 > 16 {
                    return Err("scissor slots out of range");
                }
                Ok(())
            }
            CCMD_BLIT => {
                if len != BLIT_SIZE {
                    return Err("BLIT length must be 21");
                }
                // Both sides: a non-empty box (w, h, d at payload words 9..=11 and 18..=20).
                if [9, 10, 11, 18, 19, 20].iter().any(|&i| get(i) == 0) {
                    return Err("BLIT with an empty box");
                }
                Ok(())
            }
            CCMD_RESOURCE_COPY_REGION => {
                if len != COPY_REGION_SIZE {
                    return Err("RESOURCE_COPY_REGION length must be 13");
                }
                if [10, 11, 12].iter().any(|&i| get(i) == 0) {
                    return Err("RESOURCE_COPY_REGION with an empty box");
                }
                Ok(())
            }
            CCMD_SET_BLEND_COLOR => {
                if len != BLEND_COLOR_SIZE {
                    return Err("SET_BLEND_COLOR length must be 4");
                }
                Ok(())
            }
            CCMD_BIND_SHADER => {
                if len != BIND_SHADER_SIZE {
                    return Err("BIND_SHADER length must be 2");
                }
                if get(1) >= SHADER_TYPES {
                    return Err("BIND_SHADER type out of range");
                }
                if get(0) != 0 && !self.is_live(get(0)) {
                    return Err("BIND_SHADER of a shader that is not live");
                }
                Ok(())
            }
            CCMD_LINK_SHADER => {
                if len != LINK_SHADER_SIZE {
                    return Err("LINK_SHADER length must be 6");
                }
                for i in 0..6 {
                    let h = get(i);
                    if h != 0 && !self.is_live(h) {
                        return Err("LINK_SHADER of a shader that is not live");
                    }
                }
                Ok(())
            }
            _ => Err("command not used by this project (the checker does not know its rules)"),
        }
    }

    fn check_create(&mut self, obj: u32, p: &[u32]) -> Result<(), &'static str> {
        let len = p.len() as u32;
        if len < 1 {
            return Err("CREATE_OBJECT without a handle");
        }
        let handle = p[0];
        if handle == 0 {
            return Err("CREATE_OBJECT with handle 0");
        }
        let get = |i: usize| p.get(i).copied().unwrap_or(0);
        let exact = |n: u32, why| if len == n { Ok(()) } else { Err(why) };
        match obj {
            OBJ_BLEND => exact(BLEND_SIZE, "blend length must be 11")?,
            OBJ_DSA => exact(DSA_SIZE, "DSA length must be 5")?,
            OBJ_RASTERIZER => exact(RS_SIZE, "rasterizer length must be 9")?,
            OBJ_SURFACE => exact(SURFACE_SIZE, "surface length must be 5")?,
            OBJ_SAMPLER_VIEW => exact(SAMPLER_VIEW_SIZE, "sampler view length must be 6")?,
            OBJ_SAMPLER_STATE => {
                exact(SAMPLER_STATE_SIZE, "sampler state length must be 9")?;
                let mip = (get(1) >> 11) & 3;
                if mip == 3 {
                    return Err("sampler state with an invalid mip filter");
                }
            }
            OBJ_VERTEX_ELEMENTS => {
                if !(len - 1).is_multiple_of(4) {
                    return Err("vertex elements length must be 1 + 4n");
                }
                for i in 0..((len - 1) / 4) as usize {
                    if get(1 + i * 4 + 2) >= 32 {
                        return Err("vertex element buffer index >= 32");
                    }
                }
            }
            OBJ_SHADER => return self.check_shader(p),
            _ => return Err("CREATE_OBJECT of an object type this project does not use"),
        }
        if self.is_live(handle) {
            return Err("CREATE_OBJECT of a handle that is already live");
        }
        self.set_live(handle, true);
        Ok(())
    }

    fn check_shader(&mut self, p: &[u32]) -> Result<(), &'static str> {
        let len = p.len() as u32;
        if len < SHADER_HDR_SIZE {
            return Err("shader packet shorter than its 5-word header");
        }
        let (handle, ty, offlen, num_tokens, so) = (p[0], p[1], p[2], p[3], p[4]);
        if so != 0 {
            return Err("stream-output shaders are not used by this project");
        }
        if ty >= SHADER_TYPES {
            return Err("shader type out of range");
        }
        let text = &p[SHADER_HDR_SIZE as usize..];
        let pkt_bytes = text.len() as u32 * 4;
        let slot = self
            .long_shader
            .get_mut(ty as usize)
            .ok_or("shader type out of range")?;
        let (finished, last_word) = if offlen & SHADER_OFFSET_CONT == 0 {
            if slot.is_some() {
                return Err("new shader while a long shader of this type is in progress");
            }
            if offlen == 0 {
                return Err("shader with zero text length");
            }
            if num_tokens < 16 {
                return Err("shader token count too small to be an upper bound");
            }
            let expected = offlen.div_ceil(4) * 4;
            if pkt_bytes > expected {
                // The host's "Invalid expected token count".
                return Err("shader packet carries more text than its announced length");
            }
            if expected > pkt_bytes {
                *slot = Some((handle, pkt_bytes, expected));
                (false, None)
            } else {
                (true, text.last().copied())
            }
        } else {
            let (h, got, expected) = slot.ok_or("shader continuation without a first packet")?;
            // The host translates with the token count of the packet that completes the text.
            if num_tokens < 16 {
                return Err("shader continuation token count too small to be an upper bound");
            }
            if h != handle {
                return Err("shader continuation for another handle");
            }
            if offlen & !SHADER_OFFSET_CONT != got {
                return Err("shader continuation offset differs from the bytes received");
            }
            let now = got + pkt_bytes;
            if now > expected {
                return Err("shader continuation past the announced length");
            }
            if now == expected {
                *slot = None;
                (true, text.last().copied())
            } else {
                *slot = Some((h, now, expected));
                (false, None)
            }
        };
        if finished {
            let w = last_word.ok_or("shader packet without text")?;
            if !w.to_le_bytes().contains(&0) {
                return Err("shader text is not NUL-terminated in its last dword");
            }
        }
        if offlen & SHADER_OFFSET_CONT == 0 {
            if self.is_live(handle) {
                return Err("shader handle already live");
            }
            self.set_live(handle, true);
        }
        Ok(())
    }
}
