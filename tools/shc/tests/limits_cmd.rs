//! `shc limits` lists every fixed capacity, the compile work budget included.
use std::process::Command;

#[test]
fn limits_lists_the_work_budget() {
    let o = Command::new(env!("CARGO_BIN_EXE_shc"))
        .arg("limits")
        .output()
        .expect("run shc");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        v["compile_work_steps_max"].as_u64(),
        Some(shader::limits::WORK_MAX as u64)
    );
    assert_eq!(
        v["unroll_iterations_max"].as_u64(),
        Some(shader::limits::UNROLL_MAX as u64)
    );
}
