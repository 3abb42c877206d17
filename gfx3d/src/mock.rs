//! The mock backend's operation log: one line per API operation (`begin`, `clear`, `use`, `tex`,
//! `draw`, `end`; `target rgba32f WxH` for a float target's creation), bounded to `MOCK_LOG_BYTES`; lines that do not fit are counted, not written.
//! It is a validation tool, never a renderer.

use alloc::string::String;

use crate::limits::MOCK_LOG_BYTES;

#[derive(Default)]
pub(crate) struct MockLog {
    text: String,
    dropped: u32,
}

impl MockLog {
    pub fn push(&mut self, op: &str) {
        if self.text.len() + op.len() + 1 > MOCK_LOG_BYTES {
            self.dropped = self.dropped.saturating_add(1);
            return;
        }
        self.text.push_str(op);
        self.text.push('\n');
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn dropped(&self) -> u32 {
        self.dropped
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.dropped = 0;
    }
}
