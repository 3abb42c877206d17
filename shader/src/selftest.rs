//! Self-tests shared by the host (`cargo test`) and the in-guest runner (kernel `selftest` mode).
//!
//! Convention (same in every library crate): `TESTS` lists `(name, function)`; a function returns
//! `true` on success, or writes its failure reason to the writer and returns `false`. Names are
//! prefixed with the crate (`shader::`, `virtio_gpu::`, `gfx3d::`) so `filter=PREFIX` selects them.
use core::fmt::Write;

pub type SelfTest = (&'static str, fn(&mut dyn Write) -> bool);

pub static TESTS: &[SelfTest] = &[
    (
        "shader::frontend_compiles_examples",
        crate::program::compile::selftests::compiles_examples,
    ),
    (
        "shader::frontend_diagnostic_points_at_construct",
        crate::program::compile::selftests::diagnostic_points_at_construct,
    ),
    (
        "shader::frontend_rejects_other_stages",
        crate::program::compile::selftests::rejects_other_stages,
    ),
    (
        "shader::frontend_unroll_limit_is_exact",
        crate::program::compile::selftests::unroll_limit_is_exact,
    ),
    (
        "shader::ircore::verify_checks_matrix_columns",
        crate::back::raster::selftest::verify_checks_matrix_columns,
    ),
    (
        "shader::ircore::opt_keeps_constructed_matrix",
        crate::back::raster::selftest::opt_keeps_constructed_matrix,
    ),
    (
        "shader::ircore::mvp_is_column_major",
        crate::back::raster::selftest::mvp_is_column_major,
    ),
    (
        "shader::ircore::texel_order_is_bgra",
        crate::back::raster::selftest::texel_order_is_bgra,
    ),
    (
        "shader::ircore::quad_covers_each_pixel_once",
        crate::back::raster::selftest::quad_covers_each_pixel_once,
    ),
    (
        "shader::ircore::failed_relink_keeps_program",
        crate::back::raster::selftest::failed_relink_keeps_program,
    ),
    (
        "shader::simd_lanes_match_scalar",
        crate::back::exec::selftest::selftest_simd,
    ),
    ("shader::tgsi_emit", crate::back::tgsi::selftest_emit),
    ("shader::tgsi_checker", crate::back::tgsi::selftest_checker),
    (
        "shader::csir_round_trip",
        crate::program::csir::selftest_round_trip,
    ),
    ("shader::cache_lru", crate::program::cache::selftest_cache),
    (
        "shader::guest_handles",
        crate::program::guest::selftest_guest,
    ),
    (
        "shader::compiled_shader_cache_tgsi_csir",
        crate::program::csir::selftest_compiled_shader,
    ),
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
