//! Links the kernel with boot/linker.ld, only when building for the kernel target.
fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let boot = std::path::Path::new(&manifest).join("../boot");
    println!(
        "cargo:rerun-if-changed={}",
        boot.join("linker.ld").display()
    );
    println!("cargo:rerun-if-changed={}", boot.join("pvh.s").display());
    println!("cargo:rerun-if-changed={}", boot.join("isr.s").display());
    println!("cargo:rerun-if-changed={}", boot.join("ap.s").display());
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("none") {
        println!(
            "cargo:rustc-link-arg-bins=-T{}",
            boot.join("linker.ld").display()
        );
        println!("cargo:rustc-link-arg-bins=--gc-sections");
        println!("cargo:rustc-link-arg-bins=-znorelro");
    }
}
