//! shc render / link (in progress).
pub fn link(_args: &[String]) -> i32 { eprintln!("shc link: not built yet"); 2 }
pub fn render(_args: &[String]) -> i32 { eprintln!("shc render: not built yet"); 2 }
