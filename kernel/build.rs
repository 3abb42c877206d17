//! Links the kernel with boot/linker.ld, only when building for the kernel target, and writes
//! `$OUT_DIR/compat_files.rs`: every file of the profile-2 compatibility suite
//! (tools/shc/tests/compat: corpus, known gaps, shaders, scenes) as `(name, include_str!(..))`
//! in `COMPAT_FILES`, and every file of the differential corpus (tools/shc/tests/diff, whose
//! multi-pass scenes the guest draws) in `DIFF_FILES`, for the `gfx3d::compat::*` guest tests.
fn embed_dir(dir: &std::path::Path, name: &str, out: &mut String) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| {
                    [".vert", ".frag", ".json", ".txt"]
                        .iter()
                        .any(|x| n.ends_with(x))
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    out.push_str(&format!("pub static {}: &[(&str, &str)] = &[\n", name));
    for n in &names {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            n,
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
}

fn compat_files(manifest: &std::path::Path) {
    let mut out = String::new();
    embed_dir(
        &manifest.join("../tools/shc/tests/compat"),
        "COMPAT_FILES",
        &mut out,
    );
    embed_dir(
        &manifest.join("../tools/shc/tests/diff"),
        "DIFF_FILES",
        &mut out,
    );
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("compat_files.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {}", dest.display(), e);
    }
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    compat_files(std::path::Path::new(&manifest));
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
