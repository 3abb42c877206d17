//! Scene files (in progress).
