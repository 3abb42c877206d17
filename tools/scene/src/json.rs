//! Scene files are JSON read by serde_json, with the two rules scenes need on top of it:
//!
//! - numbers keep their source text (serde_json's `arbitrary_precision`), so a float is rounded
//!   once, correctly, from the decimal text to f32 (`str::parse::<f32>`):
//!   `3.4028234663852886e38` (f32::MAX as most JSON writers print it) is f32::MAX, not
//!   "too large" after a detour through an f64;
//! - a key given twice in one object is an error naming the key and its line and column
//!   (serde_json's `Value` keeps the last one silently), checked by a first pass that builds
//!   nothing.
//!
//! Owns: those two rules. Must never: accept what serde_json rejects, or panic on any input.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

pub use serde_json::{Map, Number, Value};

/// The number rounded once, correctly, from its decimal text to f32 (infinite when beyond f32's
/// range).
pub fn number_f32(n: &Number) -> f32 {
    n.to_string().parse::<f32>().unwrap_or(f32::NAN)
}

/// Parses JSON text; a duplicate key anywhere is an error.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<NoDuplicateKeys>(text)?;
    serde_json::from_str(text)
}

/// A value that deserializes from any JSON and fails on the first object with a key given twice.
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate key {:?}", key)));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(self)
    }
}
