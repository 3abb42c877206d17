//! The backends of a verified [`crate::ir::Module`]: the software executor (`exec`) and the
//! rasterizer that drives it (`raster`), and TGSI text for VirGL (`tgsi`).
pub mod exec;
pub mod raster;
pub mod tgsi;
