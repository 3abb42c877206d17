//! Symmetric multiprocessing: starting the application processors (APs) and the work queue that
//! hands them jobs.
//!
//! Bring-up (boot CPU, once): `install_trampoline` copies boot/ap.s's real-mode trampoline into a
//! free RAM page below 1 MiB while the first 2 MiB are still mapped; `start` then gives every AP
//! the MADT lists its tables (a 4 MiB stack above an unmapped 2 MiB guard page, a 64 KiB fault
//! stack, its own GDT and TSS with IST1 on that fault stack), and starts them one at a time with
//! INIT, STARTUP, STARTUP through the local APIC. Each AP loads its GDT/TSS and the shared IDT
//! (so faults on it are reported like the boot CPU's), enables its APIC, says it is online and
//! idles: it halts with interrupts on until the wake-up IPI says its queue has a job.
//!
//! Work queue: each CPU has a fixed-capacity queue (`QUEUE_CAPACITY` jobs, a `spin::Mutex`).
//! `run_on_all(|cpu| ..)` and `parallel_for(n, |index, cpu| ..)` run a closure on every online CPU
//! (the caller's CPU takes part) and return once every CPU has finished, so the closure may borrow
//! from the caller's stack. One section runs at a time; a call made while one is running (from a
//! job, on any CPU) does not queue: `parallel_for` runs its indices inline, `run_on_all` returns
//! `Err(Busy)`.
//! Must never: return from a section while a job can still touch its closure, or start an AP after
//! one failed to start (a late AP would share the hand-over words with the next one).
use alloc::alloc::{alloc, alloc_zeroed, Layout};
use core::fmt::{self, Write};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use heapless::{Deque, Vec};

use crate::arch::gdt::{self, CpuTables};
use crate::arch::{idt, lapic, paging};
use crate::bootinfo::MemRegion;

/// Most CPUs used (the boot CPU included); further MADT entries are reported and left idle.
pub const MAX_CPUS: usize = 16;
/// Jobs one CPU's queue holds; a submitter waits for room beyond that.
pub const QUEUE_CAPACITY: usize = 8;
/// Each application processor's stack (the boot CPU's is 16 MiB, see boot/linker.ld).
pub const AP_STACK_SIZE: usize = 4 << 20;
/// The unmapped page under each AP stack: one 2 MiB page of the identity map.
const GUARD_SIZE: usize = 2 << 20;
/// How long an AP may take from its first STARTUP IPI to `ap_main` saying it is online.
const START_TIMEOUT_US: u64 = 2_000_000;
/// INIT to STARTUP delay, and STARTUP to the second STARTUP (Intel's MP start-up sequence).
const INIT_DELAY_US: u64 = 10_000;
const STARTUP_DELAY_US: u64 = 200;
/// Spins of a waiting submitter between re-sent wake-ups (a lost IPI cannot hang a section).
const REWAKE_SPINS: u32 = 1 << 16;
/// Lowest page the trampoline may use (page 0 holds the real-mode IVT and BIOS data).
const TRAMPOLINE_MIN: u64 = 0x1000;
/// Preferred trampoline page (the classic start-up page).
const TRAMPOLINE_PREFERRED: u64 = 0x8000;
const LOW_MEMORY_END: u64 = 0x10_0000;

/// A queued job: a type-erased call into a closure that lives on the submitter's stack.
#[derive(Clone, Copy)]
struct Job {
    call: unsafe fn(*const (), usize),
    context: *const (),
    done: *const AtomicUsize,
}

// SAFETY: a job only carries pointers to a `Sync` closure and an atomic counter, both kept alive by
// the submitter until `done` shows the job finished.
unsafe impl Send for Job {}

/// # Safety
/// `context` must point to a live `F`.
unsafe fn call_closure<F: Fn(usize) + Sync>(context: *const (), cpu: usize) {
    // SAFETY: the caller guarantees `context` is a live `&F`.
    let f = unsafe { &*(context as *const F) };
    f(cpu)
}

struct Cpu {
    /// APIC id + 1 once the slot is assigned (0: free).
    tag: AtomicU32,
    online: AtomicBool,
    tables: AtomicPtr<CpuTables>,
    fault_stack_top: AtomicU64,
    /// Start of the unmapped guard page below the stack (0: none, the boot CPU's is paging.rs's).
    guard: AtomicU64,
    /// Jobs this CPU has finished.
    jobs: AtomicU64,
    queue: spin::Mutex<Deque<Job, QUEUE_CAPACITY>>,
}

impl Cpu {
    const fn new() -> Self {
        Cpu {
            tag: AtomicU32::new(0),
            online: AtomicBool::new(false),
            tables: AtomicPtr::new(core::ptr::null_mut()),
            fault_stack_top: AtomicU64::new(0),
            guard: AtomicU64::new(0),
            jobs: AtomicU64::new(0),
            queue: spin::Mutex::new(Deque::new()),
        }
    }

    fn apic_id(&self) -> Option<u32> {
        self.tag.load(Ordering::Acquire).checked_sub(1)
    }
}

static CPUS: [Cpu; MAX_CPUS] = [const { Cpu::new() }; MAX_CPUS];
/// Online CPUs: indices 0..COUNT (0 is the boot CPU).
static COUNT: AtomicUsize = AtomicUsize::new(1);
/// Held for the whole of a `run_on_all` / `parallel_for` section.
static SECTION: spin::Mutex<()> = spin::Mutex::new(());

unsafe extern "C" {
    static ap_trampoline_start: u8;
    static ap_trampoline_end: u8;
    static mut ap_boot_rsp: u64;
    static mut ap_boot_cpu: u32;
}

/// Copies the AP trampoline into a free RAM page below 1 MiB and returns its address. Call before
/// `paging::protect` (the page is in the first 2 MiB, which then become unmapped: the APs run the
/// trampoline with paging off, so they never need the mapping).
pub fn install_trampoline(memory: &[MemRegion]) -> Option<u64> {
    let start = &raw const ap_trampoline_start as u64;
    let len = (&raw const ap_trampoline_end as u64).saturating_sub(start);
    if len == 0 || len > 4096 {
        return None;
    }
    let fits = |page: u64| {
        memory
            .iter()
            .any(|r| r.is_ram() && r.start <= page && page + 4096 <= r.end())
    };
    let page = if fits(TRAMPOLINE_PREFERRED) {
        TRAMPOLINE_PREFERRED
    } else {
        (TRAMPOLINE_MIN..LOW_MEMORY_END)
            .step_by(4096)
            .find(|&p| fits(p))?
    };
    // SAFETY: `page` is firmware-listed RAM below 1 MiB that nothing uses after boot (the heap
    // starts above the image, the start info was copied out), and it is still mapped (the caller
    // runs this before paging::protect). The source is the trampoline's bytes in the image.
    unsafe { core::ptr::copy_nonoverlapping(start as *const u8, page as *mut u8, len as usize) };
    Some(page)
}

/// What `start` did.
pub struct Report {
    /// Online CPUs, the boot CPU included.
    pub cpus: usize,
    /// Processors the MADT lists (enabled ones).
    pub listed: usize,
    /// APIC ids of the online CPUs, by CPU index.
    pub apic_ids: Vec<u32, MAX_CPUS>,
    pub micros: u64,
    /// Why not every listed processor is online (None: all are).
    pub problem: Option<heapless::String<160>>,
}

impl Report {
    fn note(&mut self, args: fmt::Arguments) {
        if self.problem.is_none() {
            let mut text = heapless::String::new();
            let _ = text.write_fmt(args);
            self.problem = Some(text);
        }
    }
}

static REPORT: spin::Once<Report> = spin::Once::new();

/// The bring-up result (a one-CPU report before `start`).
pub fn report() -> &'static Report {
    REPORT.call_once(|| Report {
        cpus: 1,
        listed: 1,
        apic_ids: Vec::new(),
        micros: 0,
        problem: None,
    })
}

/// Upper bound on polls per microsecond of waiting, so a wait ends even when the TSC calibration
/// failed (then `now_us` reads 0): one poll (rdtsc and a division) takes well over 1 ns.
const POLLS_PER_US_MAX: u64 = 1000;

/// Polls `done` until it is true or `us` microseconds have passed; returns its last answer.
fn wait_until(us: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = crate::clock::now_us() + us;
    for _ in 0..us.saturating_mul(POLLS_PER_US_MAX) {
        if done() {
            return true;
        }
        if crate::clock::now_us() >= end {
            break;
        }
        core::hint::spin_loop();
    }
    done()
}

fn wait_us(us: u64) {
    wait_until(us, || false);
}

/// Per-AP memory, allocated for every AP before the first one starts (unmapping a guard page is
/// only safe while no other CPU can hold it in its TLB).
fn allocate_ap(index: usize) -> Option<u64> {
    let stack_layout = Layout::from_size_align(GUARD_SIZE + AP_STACK_SIZE, GUARD_SIZE).ok()?;
    let fault_layout = Layout::from_size_align(gdt::FAULT_STACK_SIZE, 16).ok()?;
    let tables_layout = Layout::new::<CpuTables>();
    // SAFETY: the layouts have non-zero sizes; the blocks are leaked (APs run forever).
    let (stack, fault, tables) = unsafe {
        (
            alloc(stack_layout),
            alloc_zeroed(fault_layout),
            alloc(tables_layout) as *mut CpuTables,
        )
    };
    if stack.is_null() || fault.is_null() || tables.is_null() {
        return None;
    }
    let guard = stack as u64;
    // SAFETY: `tables` is a fresh allocation of the right layout; the guard is the first 2 MiB of
    // a leaked 2 MiB-aligned block no one else will touch, and no AP runs yet.
    unsafe {
        tables.write(CpuTables::new());
        paging::unmap_guard(guard);
    }
    let cpu = &CPUS[index];
    cpu.tables.store(tables, Ordering::Release);
    cpu.fault_stack_top.store(
        fault as u64 + gdt::FAULT_STACK_SIZE as u64,
        Ordering::Release,
    );
    cpu.guard.store(guard, Ordering::Release);
    Some(guard + (GUARD_SIZE + AP_STACK_SIZE) as u64)
}

/// Starts every processor `processors` lists (after the heap and the clock are up).
pub fn start(
    processors: Option<&crate::acpi::Processors>,
    trampoline: Option<u64>,
) -> &'static Report {
    let started = crate::clock::now_us();
    let mut report = Report {
        cpus: 1,
        listed: 1,
        apic_ids: Vec::new(),
        micros: 0,
        problem: None,
    };
    let boot_id = match lapic::init() {
        Ok(_) => lapic::id(),
        Err(e) => {
            report.note(format_args!("{}", e));
            lapic::cpuid_id()
        }
    };
    CPUS[0].tag.store(boot_id + 1, Ordering::Release);
    CPUS[0].online.store(true, Ordering::Release);
    let _ = report.apic_ids.push(boot_id);
    let mut others: Vec<u32, MAX_CPUS> = Vec::new();
    if let Some(p) = processors {
        report.listed = p.apic_ids.len().max(1) + p.dropped;
        for &id in p.apic_ids.iter().filter(|&&id| id != boot_id) {
            if others.push(id).is_err() || others.len() > MAX_CPUS - 1 {
                others.pop();
                let listed = report.listed;
                report.note(format_args!(
                    "only {} CPUs are used (MAX_CPUS), the MADT lists {}",
                    MAX_CPUS, listed
                ));
                break;
            }
        }
    }
    if report.problem.is_none() && !others.is_empty() {
        match trampoline {
            None => report.note(format_args!(
                "no free RAM page below 1 MiB for the AP trampoline"
            )),
            Some(page) => start_aps(&others, page, &mut report),
        }
    }
    report.micros = crate::clock::now_us().saturating_sub(started);
    report.cpus = COUNT.load(Ordering::Acquire);
    REPORT.call_once(|| report)
}

fn start_aps(others: &[u32], page: u64, report: &mut Report) {
    let mut tops: Vec<u64, MAX_CPUS> = Vec::new();
    for index in 1..=others.len() {
        match allocate_ap(index) {
            Some(top) => {
                let _ = tops.push(top);
            }
            None => {
                report.note(format_args!("no memory for CPU {}'s stacks", index));
                break;
            }
        }
    }
    for (i, (&apic_id, &top)) in others.iter().zip(tops.iter()).enumerate() {
        let index = i + 1;
        let cpu = &CPUS[index];
        cpu.tag.store(apic_id + 1, Ordering::Release);
        // SAFETY: the hand-over words are read only by the AP being started now; the previous AP
        // is online (it has read them) or we stopped starting APs.
        unsafe {
            (&raw mut ap_boot_rsp).write_volatile(top);
            (&raw mut ap_boot_cpu).write_volatile(index as u32);
        }
        core::sync::atomic::fence(Ordering::SeqCst);
        if !lapic::send_init(apic_id) {
            report.note(format_args!(
                "the INIT IPI to APIC id {} was not accepted",
                apic_id
            ));
            return;
        }
        wait_us(INIT_DELAY_US);
        let vector = (page >> 12) as u8;
        let mut online = false;
        for _ in 0..2 {
            if !lapic::send_startup(apic_id, vector) {
                break;
            }
            wait_us(STARTUP_DELAY_US);
            if cpu.online.load(Ordering::Acquire) {
                online = true;
                break;
            }
        }
        if !online {
            online = wait_until(START_TIMEOUT_US, || cpu.online.load(Ordering::Acquire));
        }
        if !online {
            report.note(format_args!(
                "CPU {} (APIC id {}) did not start within {} ms; no further CPUs started",
                index,
                apic_id,
                START_TIMEOUT_US / 1000
            ));
            return;
        }
        let _ = report.apic_ids.push(apic_id);
        COUNT.store(index + 1, Ordering::Release);
    }
}

/// Where boot/ap.s lands on each AP, on its own stack.
#[unsafe(no_mangle)]
extern "C" fn ap_main(index: u32) -> ! {
    let index = index as usize;
    let Some(cpu) = CPUS.get(index) else {
        crate::arch::halt_forever()
    };
    // SAFETY: `start_aps` gave this index its own tables and fault stack before sending the IPIs,
    // and only this CPU loads them.
    unsafe {
        gdt::load(
            cpu.tables.load(Ordering::Acquire),
            cpu.fault_stack_top.load(Ordering::Acquire),
        )
    };
    idt::load();
    lapic::enable_this_cpu();
    cpu.online.store(true, Ordering::Release);
    loop {
        let job = cpu.queue.lock().pop_front();
        match job {
            Some(job) => {
                // SAFETY: the submitter keeps the closure and the counter alive until `done`
                // counts this job; nothing here touches them after the increment.
                unsafe { (job.call)(job.context, index) };
                cpu.jobs.fetch_add(1, Ordering::Relaxed);
                // SAFETY: as above; this is the job's last use of its pointers.
                unsafe { (*job.done).fetch_add(1, Ordering::Release) };
            }
            None => {
                // Interrupts are off here. `sti` delays interrupts by one instruction, so a wake-up
                // IPI sent after the check below still ends the `hlt`.
                if cpu.queue.lock().is_empty() {
                    // SAFETY: the only interrupts that can arrive are the wake-up IPI and the
                    // spurious vector, both with gates that just return.
                    unsafe { core::arch::asm!("sti", "hlt", "cli", options(nomem, nostack)) };
                }
            }
        }
    }
}

fn wake(index: usize) {
    if let Some(apic_id) = CPUS[index].apic_id() {
        lapic::send_fixed(apic_id, idt::WAKE_VECTOR);
    }
}

fn submit(index: usize, job: Job) {
    loop {
        if CPUS[index].queue.lock().push_back(job).is_ok() {
            break;
        }
        wake(index);
        core::hint::spin_loop();
    }
    wake(index);
}

/// Runs `f(cpu)` on CPUs 0..cpus (the caller as CPU 0) and returns when all have finished.
/// The caller holds SECTION.
fn run_section<F: Fn(usize) + Sync>(cpus: usize, f: &F) {
    let done = AtomicUsize::new(0);
    let job = Job {
        call: call_closure::<F>,
        context: f as *const F as *const (),
        done: &done,
    };
    for index in 1..cpus {
        submit(index, job);
    }
    f(0);
    let mut spins = 0u32;
    while done.load(Ordering::Acquire) < cpus - 1 {
        core::hint::spin_loop();
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(REWAKE_SPINS) {
            (1..cpus)
                .filter(|&index| !CPUS[index].queue.lock().is_empty())
                .for_each(wake);
        }
    }
    // Every job has incremented `done` as its last access: `f` and `done` may now go.
}

/// A section is already running (the call came from inside a job).
#[derive(Debug, PartialEq, Eq)]
pub struct Busy;

/// Online CPUs (1 until `start` brings up the others).
pub fn cpu_count() -> usize {
    COUNT.load(Ordering::Acquire)
}

/// Runs `f(cpu)` once on every online CPU (`cpu` = 0..cpu_count(), 0 on the caller) and returns
/// when all have finished.
pub fn run_on_all<F: Fn(usize) + Sync>(f: F) -> Result<(), Busy> {
    let _section = SECTION.try_lock().ok_or(Busy)?;
    run_section(cpu_count(), &f);
    Ok(())
}

/// Calls `f(index, cpu)` for every index in 0..n, spread over every online CPU (the caller's
/// included), and returns when all are done. Which CPU runs which index varies from run to run:
/// `f` must give the same result wherever it runs (each index writes only its own output).
pub fn parallel_for<F: Fn(usize, usize) + Sync>(n: usize, f: F) {
    parallel_for_on(cpu_count(), n, f)
}

/// `parallel_for` on at most `cpus` CPUs (clamped to 1..=cpu_count()). Inside a job it runs every
/// index inline on the current CPU.
pub fn parallel_for_on<F: Fn(usize, usize) + Sync>(cpus: usize, n: usize, f: F) {
    let Some(_section) = SECTION.try_lock() else {
        let cpu = current_cpu().unwrap_or(0);
        (0..n).for_each(|i| f(i, cpu));
        return;
    };
    let next = AtomicUsize::new(0);
    let worker = |cpu: usize| loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= n {
            break;
        }
        f(index, cpu);
    };
    run_section(cpus.clamp(1, cpu_count()).min(n.max(1)), &worker);
}

/// The index of the CPU with this APIC id, if it has one.
fn index_of(apic_id: u32) -> Option<usize> {
    CPUS.iter().position(|c| c.apic_id() == Some(apic_id))
}

/// The calling CPU's index (by its CPUID APIC id); None before `start` on an unknown id.
pub fn current_cpu() -> Option<usize> {
    index_of(lapic::cpuid_id())
}

/// The APIC id of CPU `index`, if it is online.
pub fn apic_id_of(index: usize) -> Option<u32> {
    let cpu = CPUS.get(index)?;
    if cpu.online.load(Ordering::Acquire) {
        cpu.apic_id()
    } else {
        None
    }
}

/// Jobs CPU `index` has finished (0 for the boot CPU, which runs its share inline).
pub fn jobs_done(index: usize) -> u64 {
    CPUS.get(index)
        .map_or(0, |c| c.jobs.load(Ordering::Relaxed))
}

/// "CPU n (APIC id m)" for the fault and panic reports (reads only atomics; never locks).
pub fn write_cpu_name(out: &mut dyn Write, apic_id: u32) -> fmt::Result {
    match index_of(apic_id) {
        Some(index) => write!(out, "CPU {} (APIC id {})", index, apic_id),
        None => write!(out, "CPU ? (APIC id {})", apic_id),
    }
}

/// The CPU whose stack guard page holds `address`.
pub fn stack_guard_owner(address: u64) -> Option<usize> {
    CPUS.iter().position(|c| {
        let guard = c.guard.load(Ordering::Acquire);
        guard != 0 && (guard..guard + GUARD_SIZE as u64).contains(&address)
    })
}

/// Gfx3D's software draws on every online CPU: each band of a draw is one index of a
/// [`parallel_for`] (see `shader::back::raster::parallel`). A job is taken through its own
/// lock exactly once, so the lock never waits; inside a job (a nested section) the bands run
/// inline on the current CPU.
pub struct Cpus;

impl gfx3d::Workers for Cpus {
    fn count(&self) -> usize {
        cpu_count()
    }

    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let cells: alloc::vec::Vec<spin::Mutex<&mut (dyn FnMut() + Send)>> = jobs
            .iter_mut()
            .map(|job| spin::Mutex::new(&mut **job))
            .collect();
        parallel_for(cells.len(), |index, _| {
            if let Some(cell) = cells.get(index) {
                (cell.lock())();
            }
        });
    }
}
