//! The mock backend's operation log: one line per API operation (`begin`, `clear`, `use`, `tex`,
//! `draw`, `end`; `target rgba32f WxH` for a float target's creation), bounded to `MOCK_LOG_BYTES`; lines that do not fit are counted, not written.
//! Textures: `tex-levels WxH N` (`tex_levels` gave N levels past level 0), `tex-mipmaps WxH N`
//! (`tex_generate_mipmaps` built N), and `tex-sampler MAG,MIN WRAP_S,WRAP_T lod BIAS,MIN,MAX CMP`
//! (`tex_sampler`; GL enum values in hex: MIN folds the mip filter in as GL's min filter does,
//! e.g. 2703 is GL_LINEAR_MIPMAP_LINEAR; CMP is `off` or the compare function, e.g. 203).
//! Array textures: `tex-array WxH N` (`tex_create_array` of N layers), `tex-layer Z`
//! (`tex_upload_layer` of layer Z >= 1; layer 0 is `tex_upload`) and `tex-layer-levels Z WxH N`
//! (`tex_layer_levels` of layer Z >= 1; layer 0's are `tex-levels`). Integer arrays:
//! `tex-array-format FMT WxH N` (`tex_create_array_format`, FMT RGBA32I or RGBA32UI) and
//! `tex-layer-ints Z N` (`tex_upload_layer_ints` of layer Z >= 1 with N texels; layer 0 is
//! `tex-ints N`).
//! A refused call logs nothing.
//! It is a validation tool, never a renderer.

use alloc::string::String;

use crate::limits::MOCK_LOG_BYTES;
use crate::texture::{Filter, MipFilter, SamplerState, Wrap};

/// GL's enum for a filter and mip filter (GL_TEXTURE_MAG_FILTER / GL_TEXTURE_MIN_FILTER values).
fn filter_gl(f: Filter, mip: MipFilter) -> u32 {
    match (f, mip) {
        (Filter::Nearest, MipFilter::None) => 0x2600,
        (Filter::Linear, MipFilter::None) => 0x2601,
        (Filter::Nearest, MipFilter::Nearest) => 0x2700,
        (Filter::Linear, MipFilter::Nearest) => 0x2701,
        (Filter::Nearest, MipFilter::Linear) => 0x2702,
        (Filter::Linear, MipFilter::Linear) => 0x2703,
    }
}

fn wrap_gl(w: Wrap) -> u32 {
    match w {
        Wrap::Repeat => 0x2901,
        Wrap::ClampToEdge => 0x812F,
        Wrap::MirroredRepeat => 0x8370,
    }
}

/// The `tex-sampler` line of a sampler state (format in the module doc).
pub(crate) fn sampler_line(s: &SamplerState) -> String {
    let cmp = match s.compare {
        Some(f) => alloc::format!("{:x}", f.gl()),
        None => String::from("off"),
    };
    alloc::format!(
        "tex-sampler {:x},{:x} {:x},{:x} lod {},{},{} {}",
        filter_gl(s.filter, MipFilter::None),
        filter_gl(s.min_filter.unwrap_or(s.filter), s.mip),
        wrap_gl(s.wrap),
        wrap_gl(s.wrap_t.unwrap_or(s.wrap)),
        s.lod_bias,
        s.min_lod,
        s.max_lod,
        cmp
    )
}

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
