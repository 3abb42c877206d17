//! Self-tests shared by the host (`cargo test`) and the in-guest runner (kernel `selftest` mode).
//!
//! Convention (same in every library crate): `TESTS` lists `(name, function)`; a function returns
//! `true` on success, or writes its failure reason to the writer and returns `false`. Names are
//! prefixed with the crate (`shader::`, `virtio_gpu::`, `gfx3d::`) so `filter=PREFIX` selects them.
use core::fmt::Write;

pub type SelfTest = (&'static str, fn(&mut dyn Write) -> bool);

pub static TESTS: &[SelfTest] = &[
    ("shader::frontend_compiles_examples", crate::compile::selftests::compiles_examples),
    ("shader::frontend_diagnostic_points_at_construct", crate::compile::selftests::diagnostic_points_at_construct),
    ("shader::frontend_rejects_other_stages", crate::compile::selftests::rejects_other_stages),
    ("shader::frontend_unroll_limit_is_exact", crate::compile::selftests::unroll_limit_is_exact),
];

#[cfg(test)]
mod tests {
    #[test]
    fn all_selftests_pass() {
        let mut failures = std::string::String::new();
        for (name, run) in super::TESTS {
            let mut reason = std::string::String::new();
            if !run(&mut reason) {
                failures.push_str(&std::format!("{}: {}\n", name, reason));
            }
        }
        assert!(failures.is_empty(), "{}", failures);
    }
}
