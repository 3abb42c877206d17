//! The compile cache: 8 successful compiles keyed by (source hash, stage, exact source bytes).
//!
//! Owns: lookup, insertion, least-recently-used eviction and the hit/miss/eviction counters. A
//! hit returns a copy of the cached result renamed to the caller's own shader name, so names in
//! diagnostics and dumps always belong to the caller (the old design leaked the first caller's
//! name).
//! Must never: return a result for different source bytes or another stage (the hash only
//! narrows the search, the bytes decide), cache a failed compile, or keep global state (the cache
//! is a value; the kernel owns its single instance).
//!
//! Eviction policy: when all 8 entries are full, the least recently used one (by lookup or
//! insertion) is replaced. Deterministic, and a working set of up to 8 sources never thrashes
//! (the old `hash & 7` slot choice could evict a hot entry while others sat idle).
use heapless::Vec;

use crate::limits::{CACHE_ENTRIES, COMPILER_VERSION, P2_SRC_MAX};
use crate::program::compile::{CompileOptions, Workspace};

/// A compile result the cache can hold.
pub trait Cacheable: Clone {
    /// Gives a copy of a cached result the caller's own name.
    fn rename(&mut self, name: &str);
}

impl Cacheable for crate::program::compile::Shader {
    /// Same rule as the compiler: an empty name shows as "shader", a long one is cut.
    fn rename(&mut self, name: &str) {
        self.name =
            crate::front::diag::bounded_string(if name.is_empty() { "shader" } else { name });
    }
}

/// [`CompileCache::get_or_compile`] with the real compiler: a hit skips every phase and the
/// result carries `name`.
#[allow(clippy::result_large_err)] // the compiler's own result type
pub fn compile_cached(
    cache: &mut CompileCache<crate::program::compile::Shader>,
    stage: u32,
    source: &[u8],
    name: &str,
) -> Result<crate::program::compile::Shader, crate::front::diag::Diagnostics> {
    cache.get_or_compile(stage, source, name, || {
        crate::program::compile::compile(stage, source, name)
    })
}

/// The compile path the specification describes ("for uncached source, sh_compile() executes
/// lex -> parse -> semantic analysis -> IR optimization -> IR verification -> TGSI emission"):
/// a value the caller owns (the kernel keeps one for the guest API), holding the 8-entry cache
/// and the clock read around each phase. A hit skips every phase and returns the cached shader
/// (its phase times are those of the run that filled the entry) under the caller's name; a miss
/// runs the whole pipeline and caches a success. Failures are never cached.
///
/// The options are part of the key: the same source compiled in two profiles is two entries.
///
/// Size: a few MiB (8 sources of up to 64 KiB, 8 shaders and the frontend's [`Workspace`]): keep
/// it in a `Box` or a static.
pub struct Compiler {
    cache: CompileCache<crate::program::compile::Shader>,
    clock: fn() -> u64,
    ws: Workspace,
}

fn no_clock() -> u64 {
    0
}

impl Default for Compiler {
    fn default() -> Self {
        Self::new()
    }
}

impl Compiler {
    /// A compiler that records no phase times (every time is 0).
    pub const fn new() -> Compiler {
        Compiler::with_clock(no_clock)
    }

    /// A compiler reading `clock` around each phase (the kernel passes rdtsc).
    pub const fn with_clock(clock: fn() -> u64) -> Compiler {
        Compiler {
            cache: CompileCache::new(),
            clock,
            ws: Workspace::new(),
        }
    }

    /// Compiles `source` for `stage` with the default options, through the cache.
    #[allow(clippy::result_large_err)] // the compiler's own result type
    pub fn compile(
        &mut self,
        stage: u32,
        source: &[u8],
        name: &str,
    ) -> Result<crate::program::compile::Shader, crate::front::diag::Diagnostics> {
        self.compile_with(stage, source, name, &CompileOptions::default())
    }

    /// Compiles `source` for `stage` with `opts`, through the cache.
    #[allow(clippy::result_large_err)] // the compiler's own result type
    pub fn compile_with(
        &mut self,
        stage: u32,
        source: &[u8],
        name: &str,
        opts: &CompileOptions,
    ) -> Result<crate::program::compile::Shader, crate::front::diag::Diagnostics> {
        let clock = self.clock;
        let ws = &mut self.ws;
        self.cache
            .get_or_compile(key(stage, opts), source, name, || {
                crate::program::compile::compile_timed_in(ws, stage, source, name, opts, clock)
            })
    }

    /// Hits, misses, evictions and entries of the cache.
    pub fn stats(&self) -> CacheStats {
        self.cache.stats()
    }

    /// Drops every cached entry (the counters are kept).
    pub fn clear(&mut self) {
        self.cache.clear();
    }
}

/// The cache's stage key: the stage in the low byte, the profile above it (so profile-1 keys are
/// unchanged from before profiles existed).
fn key(stage: u32, opts: &CompileOptions) -> u32 {
    match opts.profile.number() {
        1 => stage,
        p => (stage & 0xff) | p << 8,
    }
}

/// FNV-1a 32 over the source, seeded with the stage and the compiler version so the same text
/// compiled for two stages or by two compiler versions never shares a key.
pub fn source_hash(stage: u32, source: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261 ^ stage.wrapping_add(17u32.wrapping_mul(COMPILER_VERSION));
    for &b in source {
        h ^= b as u32;
        h = h.wrapping_mul(16_777_619);
    }
    h
}

/// Counters that tests and the kernel shell can read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u32,
    pub misses: u32,
    pub evictions: u32,
    /// Entries currently held (0..=8).
    pub entries: u32,
}

struct Entry<T> {
    hash: u32,
    stage: u32,
    source: Vec<u8, P2_SRC_MAX>,
    value: T,
    last_used: u64,
}

/// The cache itself.
pub struct CompileCache<T> {
    entries: Vec<Entry<T>, CACHE_ENTRIES>,
    clock: u64,
    stats: CacheStats,
}

impl<T: Cacheable> Default for CompileCache<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Cacheable> CompileCache<T> {
    pub const fn new() -> Self {
        CompileCache {
            entries: Vec::new(),
            clock: 0,
            stats: CacheStats {
                hits: 0,
                misses: 0,
                evictions: 0,
                entries: 0,
            },
        }
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            entries: self.entries.len() as u32,
            ..self.stats
        }
    }

    /// Drops every entry (counters are kept).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The cached result for exactly these bytes and stage, renamed to `name`; counts a hit or
    /// a miss.
    pub fn lookup(&mut self, stage: u32, source: &[u8], name: &str) -> Option<T> {
        let hash = source_hash(stage, source);
        self.clock = self.clock.wrapping_add(1);
        let now = self.clock;
        let found = self
            .entries
            .iter_mut()
            .find(|e| e.hash == hash && e.stage == stage && e.source.as_slice() == source);
        match found {
            Some(e) => {
                e.last_used = now;
                self.stats.hits = self.stats.hits.saturating_add(1);
                let mut v = e.value.clone();
                v.rename(name);
                Some(v)
            }
            None => {
                self.stats.misses = self.stats.misses.saturating_add(1);
                None
            }
        }
    }

    /// Stores a successful result, evicting the least recently used entry when full. Sources
    /// that cannot be compiled anyway (`P2_SRC_MAX` bytes or more) are not stored.
    pub fn insert(&mut self, stage: u32, source: &[u8], value: &T) {
        if source.len() >= P2_SRC_MAX {
            return;
        }
        let Ok(src) = Vec::from_slice(source) else {
            return;
        };
        let hash = source_hash(stage, source);
        self.clock = self.clock.wrapping_add(1);
        let entry = Entry {
            hash,
            stage,
            source: src,
            value: value.clone(),
            last_used: self.clock,
        };
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|e| e.hash == hash && e.stage == stage && e.source.as_slice() == source)
        {
            *e = entry;
            return;
        }
        if let Err(entry) = self.entries.push(entry) {
            let oldest = self
                .entries
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(i, _)| i);
            if let Some(slot) = oldest.and_then(|i| self.entries.get_mut(i)) {
                *slot = entry;
                self.stats.evictions = self.stats.evictions.saturating_add(1);
            }
        }
    }

    /// A hit returns the cached copy (renamed); a miss runs `compile` and caches a success.
    /// Failures are returned as they are and never cached (their diagnostics carry the
    /// caller's name).
    pub fn get_or_compile<E>(
        &mut self,
        stage: u32,
        source: &[u8],
        name: &str,
        compile: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        if let Some(v) = self.lookup(stage, source, name) {
            return Ok(v);
        }
        let v = compile()?;
        self.insert(stage, source, &v);
        Ok(v)
    }
}

/// Self-test: eight entries, LRU eviction on the ninth, the caller's name on a hit.
pub fn selftest_cache(w: &mut dyn core::fmt::Write) -> bool {
    #[derive(Clone)]
    struct V(u8, u8);
    impl Cacheable for V {
        fn rename(&mut self, name: &str) {
            self.1 = name.as_bytes().first().copied().unwrap_or(0);
        }
    }
    let mut c: CompileCache<V> = CompileCache::new();
    for i in 0..9u8 {
        let r: Result<V, ()> = c.get_or_compile(0, &[i], "a", || Ok(V(i, b'a')));
        if r.is_err() {
            return false;
        }
    }
    let s = c.stats();
    let hit = c.lookup(0, &[8], "zed");
    let evicted = c.lookup(0, &[0], "a").is_none();
    let ok = s.entries == 8
        && s.evictions == 1
        && s.misses == 9
        && matches!(hit, Some(V(8, b'z')))
        && evicted;
    if !ok {
        let _ = write!(w, "cache stats {:?}", s);
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;
    use heapless::String;

    #[derive(Clone, Debug, PartialEq)]
    struct Compiled {
        name: String<40>,
        serial: u32,
    }

    impl Cacheable for Compiled {
        fn rename(&mut self, name: &str) {
            self.name.clear();
            let _ = self.name.push_str(name);
        }
    }

    fn compiled(name: &str, serial: u32) -> Result<Compiled, ()> {
        let mut n = String::new();
        n.push_str(name).map_err(|_| ())?;
        Ok(Compiled { name: n, serial })
    }

    #[test]
    fn hits_skip_compilation_and_keep_the_callers_name() {
        let mut c: CompileCache<Compiled> = CompileCache::new();
        let mut runs = 0;
        let a = c
            .get_or_compile(0, b"void main(){}", "first", || {
                runs += 1;
                compiled("first", 1)
            })
            .unwrap();
        let b = c
            .get_or_compile(0, b"void main(){}", "second", || {
                runs += 1;
                compiled("second", 2)
            })
            .unwrap();
        assert_eq!(runs, 1);
        assert_eq!((a.name.as_str(), a.serial), ("first", 1));
        assert_eq!((b.name.as_str(), b.serial), ("second", 1));
        assert_eq!(
            c.stats(),
            CacheStats {
                hits: 1,
                misses: 1,
                evictions: 0,
                entries: 1
            }
        );
    }

    #[test]
    fn stage_and_exact_bytes_are_part_of_the_key() {
        let mut c: CompileCache<Compiled> = CompileCache::new();
        c.insert(0, b"abc", &compiled("x", 1).unwrap());
        assert!(c.lookup(1, b"abc", "y").is_none());
        assert!(c.lookup(0, b"abd", "y").is_none());
        assert!(c.lookup(0, b"abc ", "y").is_none());
        assert!(c.lookup(0, b"abc", "y").is_some());
        assert_eq!(c.stats().misses, 3);
        assert_ne!(source_hash(0, b"abc"), source_hash(1, b"abc"));
    }

    #[test]
    fn failures_are_not_cached() {
        let mut c: CompileCache<Compiled> = CompileCache::new();
        assert!(c
            .get_or_compile(0, b"bad", "n", || Err::<Compiled, u8>(7))
            .is_err());
        assert!(c
            .get_or_compile(0, b"bad", "n", || Err::<Compiled, u8>(7))
            .is_err());
        assert_eq!(
            c.stats(),
            CacheStats {
                hits: 0,
                misses: 2,
                evictions: 0,
                entries: 0
            }
        );
    }

    #[test]
    fn the_ninth_distinct_source_evicts_the_least_recently_used() {
        let mut c: CompileCache<Compiled> = CompileCache::new();
        let src = |i: u32| {
            let mut s: String<16> = String::new();
            let _ = write!(s, "src{}", i);
            s
        };
        for i in 0..8 {
            c.get_or_compile(0, src(i).as_bytes(), "n", || compiled("n", i))
                .unwrap();
        }
        assert_eq!(c.stats().entries, 8);
        // Touch source 0 so source 1 becomes the least recently used.
        assert!(c.lookup(0, src(0).as_bytes(), "n").is_some());
        c.get_or_compile(0, src(8).as_bytes(), "n", || compiled("n", 8))
            .unwrap();
        let s = c.stats();
        assert_eq!((s.entries, s.evictions), (8, 1));
        assert!(
            c.lookup(0, src(1).as_bytes(), "n").is_none(),
            "LRU entry evicted"
        );
        for i in [0, 2, 3, 4, 5, 6, 7, 8] {
            assert!(
                c.lookup(0, src(i).as_bytes(), "n").is_some(),
                "entry {} kept",
                i
            );
        }
    }

    #[test]
    fn real_compiles_hit_with_each_callers_name() {
        let mut c: CompileCache<crate::program::compile::Shader> = CompileCache::new();
        let src = b"#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let a = compile_cached(&mut c, 1, src, "first.frag").ok().unwrap();
        let b = compile_cached(&mut c, 1, src, "second.frag").ok().unwrap();
        assert_eq!(
            (a.name.as_str(), b.name.as_str()),
            ("first.frag", "second.frag")
        );
        assert_eq!(a.module, b.module);
        assert_eq!(c.stats().hits, 1);
        // Failures carry the caller's name and are not cached.
        let bad = b"void main() { x = 1; }";
        let e1 = compile_cached(&mut c, 0, bad, "one.vert").err().unwrap();
        let e2 = compile_cached(&mut c, 0, bad, "two.vert").err().unwrap();
        assert_eq!(
            (e1.name.as_str(), e2.name.as_str()),
            ("one.vert", "two.vert")
        );
        assert_eq!((c.stats().hits, c.stats().entries), (1, 1));
        // Same bytes, other stage: a miss (this one fails: no gl_Position).
        assert!(compile_cached(&mut c, 0, src, "v").is_err());
        assert_eq!(c.stats().hits, 1);
    }

    #[test]
    fn the_compiler_value_counts_hits_and_misses() {
        let mut c = std::boxed::Box::new(Compiler::new());
        let src = b"#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let a = c.compile(1, src, "a.frag").ok().unwrap();
        let b = c.compile(1, src, "b.frag").ok().unwrap();
        assert_eq!((a.name.as_str(), b.name.as_str()), ("a.frag", "b.frag"));
        assert_eq!(a.module, b.module);
        assert!(c.compile(1, b"void main( {", "bad").is_err());
        let s = c.stats();
        assert_eq!((s.hits, s.misses, s.entries), (1, 2, 1));
    }

    #[test]
    fn oversized_sources_are_not_stored() {
        let mut c: CompileCache<Compiled> = CompileCache::new();
        let big = std::vec![b'a'; P2_SRC_MAX];
        c.insert(0, &big, &compiled("n", 1).unwrap());
        assert_eq!(c.stats().entries, 0);
    }

    #[test]
    fn the_profile_is_part_of_the_key() {
        use crate::limits::Profile;
        let mut c = std::boxed::Box::new(Compiler::new());
        let src = b"out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let p2 = CompileOptions::profile(Profile::P2);
        let a = c.compile(1, src, "a").ok().unwrap();
        let b = c.compile_with(1, src, "b", &p2).ok().unwrap();
        assert_eq!((a.profile, b.profile), (Profile::P1, Profile::P2));
        assert_eq!(c.stats().misses, 2);
        let again = c.compile_with(1, src, "c", &p2).ok().unwrap();
        assert_eq!((again.profile, c.stats().hits), (Profile::P2, 1));
    }
}
