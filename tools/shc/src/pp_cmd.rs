//! `shc preprocess FILE`: the profile-2 preprocessor's expanded text on stdout.
//!
//! Owns: argument handling and exit codes of this command (0 ok, warnings on stderr; 1 errors,
//! the diagnostics on stderr and no text; 2 usage or I/O errors). Must never: reimplement a
//! preprocessor rule (it only calls `shader::front::pp`).
use shader::front::diag::Diagnostics;
use shader::front::pp::Preprocessor;

pub fn preprocess(file: &str) -> i32 {
    let src = match std::fs::read(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("shc preprocess: {}: cannot read: {}", file, e);
            return 2;
        }
    };
    let mut pp = Box::new(Preprocessor::new());
    let mut diag = Diagnostics::new(file);
    let ok = pp.run(&src, &mut diag);
    let mut log = String::new();
    let _ = diag.render(&src, &mut log);
    eprint!("{}", log);
    if !ok {
        return 1;
    }
    let mut text = String::new();
    let _ = pp.render(&src, &mut text);
    print!("{}", text);
    0
}
