//! The program level: the compile API and its phase order (`compile`), linking two stages into a
//! `Program` (`link`), the compile cache (`cache`), the guest-owned handle tables (`guest`) and
//! the serialized form CSIR (`csir`).
pub mod cache;
pub mod compile;
pub mod csir;
pub mod guest;
pub mod link;
