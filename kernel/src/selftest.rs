//! The in-guest selftest runner: runs every suite's tests whose name starts with the filter and
//! prints `test NAME ... ok` / `test NAME ... FAILED: reason`, then `N passed, N failed` alone on
//! the last line. The suites are the same `TESTS` lists the host runs through `cargo test`.
//!
//! Tests named `selftest_meta::` exist to prove the harness reports failures; they run only when
//! the filter explicitly starts with `selftest_meta`.
//! Must never: print anything after the final count line.
use core::fmt::{self, Write};

pub type SelfTest = (&'static str, fn(&mut dyn Write) -> bool);

/// Every suite, in run order.
pub const SUITES: &[&[SelfTest]] = &[
    crate::kernel_tests::TESTS,
    shader::selftest::TESTS,
    virtio_gpu::selftest::TESTS,
    gfx3d::selftest::TESTS,
    crate::guest_tests::SCENE_TESTS,
    crate::guest_tests::DIFF_TESTS,
    crate::guest_tests::COMPAT_TESTS,
    crate::guest_tests::PASS_TESTS,
    crate::guest_tests::OTHER_TESTS,
    crate::kernel_tests::META_TESTS,
];

const META_PREFIX: &str = "selftest_meta";
/// Longest failure reason kept per test.
const REASON_MAX: usize = 1024;

/// Collects a failure reason; text beyond the capacity is dropped and marked with `...`.
struct Reason {
    text: heapless::String<REASON_MAX>,
    cut: bool,
}

impl Write for Reason {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for ch in s.chars() {
            // Keep the report on one line.
            let ch = if ch == '\n' || ch == '\r' { ' ' } else { ch };
            if self.text.push(ch).is_err() {
                self.cut = true;
                break;
            }
        }
        Ok(())
    }
}

pub struct Outcome {
    pub passed: usize,
    pub failed: usize,
}

/// Whether the test `name` runs under `filter`.
pub fn selected(name: &str, filter: &str) -> bool {
    if name.starts_with(META_PREFIX) {
        return !filter.is_empty() && filter.starts_with(META_PREFIX) && name.starts_with(filter);
    }
    name.starts_with(filter)
}

/// Runs the selected tests and prints the report, ending with the count line.
pub fn run(filter: &str) -> Outcome {
    let mut outcome = Outcome {
        passed: 0,
        failed: 0,
    };
    let start = crate::clock::now_us();
    for suite in SUITES {
        for (name, test) in suite.iter() {
            if !selected(name, filter) {
                continue;
            }
            print!("test {} ... ", name);
            let mut reason = Reason {
                text: heapless::String::new(),
                cut: false,
            };
            if test(&mut reason) {
                println!("ok");
                outcome.passed += 1;
            } else {
                let text = if reason.text.is_empty() {
                    "(the test gave no reason)"
                } else {
                    reason.text.as_str()
                };
                println!("FAILED: {}{}", text, if reason.cut { "..." } else { "" });
                outcome.failed += 1;
            }
        }
    }
    let elapsed = crate::clock::now_us().saturating_sub(start);
    if outcome.passed + outcome.failed == 0 {
        println!("selftest: no test name starts with \"{}\"", filter);
    }
    let stack = crate::arch::paging::boot_stack();
    println!(
        "selftest: {} ms, boot stack high-water {} KiB of {} KiB",
        elapsed / 1000,
        crate::arch::paging::stack_high_water() / 1024,
        (stack.end - stack.start) / 1024
    );
    println!("{} passed, {} failed", outcome.passed, outcome.failed);
    outcome
}
