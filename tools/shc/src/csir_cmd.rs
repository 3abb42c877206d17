//! shc csir save|load / dump tgsi (in progress).
pub fn csir(_args: &[String]) -> i32 { eprintln!("shc csir: not built yet"); 2 }
pub fn dump_tgsi(_args: &[String]) -> i32 { eprintln!("shc dump tgsi: not built yet"); 2 }
