//! shc check / dump ast|ir / limits / builtins (in progress).
pub fn check(_args: &[String]) -> i32 { eprintln!("shc check: not built yet"); 2 }
pub fn dump(_args: &[String]) -> i32 { eprintln!("shc dump: not built yet"); 2 }
pub fn limits() -> i32 { eprintln!("shc limits: not built yet"); 2 }
pub fn builtins() -> i32 { eprintln!("shc builtins: not built yet"); 2 }
