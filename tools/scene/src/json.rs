//! A strict JSON reader for scene files (RFC 8259), written for what scenes need:
//!
//! - numbers keep their source text, so a float is rounded once, correctly, from the decimal
//!   text to f32 (`str::parse::<f32>`), and `3.4028234663852886e38` (f32::MAX as most JSON
//!   writers print it) or `3.4028235e38` is f32::MAX instead of "too large";
//! - a key that appears twice in one object is an error naming the key (a generic JSON reader
//!   keeps the last value silently);
//! - objects iterate in key order (like `serde_json::Map` without `preserve_order`).
//!
//! Owns: the `Value` tree and its parser. Must never: accept what RFC 8259 rejects (trailing
//! commas, comments, leading zeros, control characters in strings, lone surrogates, trailing
//! content), recurse without bound, or panic on any input.

use std::collections::BTreeMap;
use std::fmt;

/// Deepest nesting of arrays and objects accepted (serde_json's default recursion limit).
pub const DEPTH_MAX: usize = 128;

/// A JSON object: keys in sorted order, each at most once.
pub type Map = BTreeMap<String, Value>;

/// A JSON number, kept as its (valid) source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number(String);

impl Number {
    /// The number rounded once to the nearest f32 (infinite when beyond f32's range).
    pub fn as_f32(&self) -> f32 {
        self.0.parse::<f32>().unwrap_or(f32::NAN)
    }
    /// The number when it is written as a whole number without sign, fraction or exponent.
    pub fn as_u64(&self) -> Option<u64> {
        if self.0.bytes().all(|b| b.is_ascii_digit()) {
            self.0.parse().ok()
        } else {
            None
        }
    }
    /// The number when it is written as a whole number without fraction or exponent.
    pub fn as_i64(&self) -> Option<i64> {
        let digits = self.0.strip_prefix('-').unwrap_or(&self.0);
        if digits.bytes().all(|b| b.is_ascii_digit()) {
            self.0.parse().ok()
        } else {
            None
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

impl Value {
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
}

fn write_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{}", c)?,
        }
    }
    f.write_str("\"")
}

/// Compact JSON text (for error messages).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{}", b),
            Value::Number(n) => write!(f, "{}", n),
            Value::String(s) => write_str(f, s),
            Value::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", v)?;
                }
                f.write_str("]")
            }
            Value::Object(o) => {
                f.write_str("{")?;
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_str(f, k)?;
                    write!(f, ":{}", v)?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A syntax error: what was wrong, at a 1-based line and column of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

/// Parses one JSON value (surrounded by optional whitespace) from `text`.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.at < p.s.len() {
        return p.fail("trailing characters after the JSON value");
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    /// An error at the current position (or the last character at the end of the text).
    fn fail<T>(&self, message: impl Into<String>) -> Result<T, JsonError> {
        let upto = self.at.min(self.s.len().saturating_sub(1));
        let before = self.s.get(..upto).unwrap_or(&[]);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        // Columns count characters, not bytes.
        let column = 1 + String::from_utf8_lossy(before.get(start..).unwrap_or(&[]))
            .chars()
            .count();
        Err(JsonError {
            message: message.into(),
            line,
            column,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        if self.s.get(self.at..self.at + word.len()) == Some(word.as_bytes()) {
            self.at += word.len();
            Ok(v)
        } else {
            self.fail("expected a JSON value")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        match self.peek() {
            None => self.fail("EOF while parsing a value"),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.fail("expected a JSON value"),
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - from
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let from = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return self.fail("a number must not have a leading zero");
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.fail("invalid number"),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return self.fail("invalid number: expected a digit after '.'");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return self.fail("invalid number: expected a digit in the exponent");
            }
        }
        let text = std::str::from_utf8(self.s.get(from..self.at).unwrap_or(&[]))
            .unwrap_or("0")
            .to_string();
        Ok(Value::Number(Number(text)))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return self.fail("invalid \\u escape: expected 4 hex digits"),
            };
            v = v * 16 + d as u32;
            self.at += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1; // the opening quote
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.peek() {
                None => return self.fail("EOF while parsing a string"),
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.at..self.at + 2) != Some(b"\\u") {
                                    return self.fail("lone surrogate in \\u escape");
                                }
                                self.at += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return self.fail("lone surrogate in \\u escape");
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else if (0xDC00..0xE000).contains(&hi) {
                                return self.fail("lone surrogate in \\u escape");
                            } else {
                                hi
                            };
                            let Some(c) = char::from_u32(code) else {
                                return self.fail("invalid \\u escape");
                            };
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => return self.fail("invalid escape in string"),
                    };
                    self.at += 1;
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(c) if c < 0x20 => return self.fail("control character in string (escape it)"),
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
        // The input is a &str and escapes produce UTF-8, so this cannot fail.
        String::from_utf8(out).or_else(|_| self.fail("invalid UTF-8 in string"))
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > DEPTH_MAX {
            return self.fail(format!("nested deeper than {} levels", DEPTH_MAX));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                None => return self.fail("EOF while parsing a list"),
                Some(_) => return self.fail("expected ',' or ']'"),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > DEPTH_MAX {
            return self.fail(format!("nested deeper than {} levels", DEPTH_MAX));
        }
        self.at += 1;
        let mut map = Map::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.ws();
            match self.peek() {
                Some(b'"') => {}
                None => return self.fail("EOF while parsing an object"),
                Some(_) => return self.fail("expected a key (a string)"),
            }
            let key_at = self.at;
            let key = self.string()?;
            self.ws();
            match self.peek() {
                Some(b':') => self.at += 1,
                None => return self.fail("EOF while parsing an object"),
                Some(_) => return self.fail("expected ':'"),
            }
            self.ws();
            let v = self.value(depth)?;
            if map.contains_key(&key) {
                self.at = key_at;
                return self.fail(format!("duplicate key \"{}\"", key));
            }
            map.insert(key, v);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                None => return self.fail("EOF while parsing an object"),
                Some(_) => return self.fail("expected ',' or '}'"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_of(text: &str) -> f32 {
        parse(text).unwrap().as_number().unwrap().as_f32()
    }

    #[test]
    fn floats_are_rounded_once_to_f32() {
        assert_eq!(f32_of("3.4028234663852886e38"), f32::MAX);
        assert_eq!(f32_of("3.4028235e38"), f32::MAX);
        assert_eq!(f32_of("-3.4028234663852886e38"), -f32::MAX);
        assert_eq!(f32_of("1.17549435e-38"), f32::MIN_POSITIVE);
        assert_eq!(f32_of("1e-45"), f32::from_bits(1));
        assert_eq!(f32_of("0.1"), 0.1f32);
        assert_eq!(f32_of("16777217"), 16777216.0);
        // Just above the midpoint between 1.0 and the next f32: its nearest f64 is the midpoint
        // itself, so rounding through f64 would tie to even and give 1.0.
        assert_eq!(
            f32_of("1.00000005960464477539062501"),
            f32::from_bits(0x3f80_0001)
        );
        assert_eq!(f32_of("3.5e38"), f32::INFINITY);
        assert_eq!(f32_of("-0"), 0.0);
        assert!(f32_of("-0").is_sign_negative());
    }

    #[test]
    fn integers_and_their_forms() {
        let v = parse("[0, 7, -3, 1.0, 1e2, 18446744073709551616]").unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a[0].as_u64(), Some(0));
        assert_eq!(a[1].as_u64(), Some(7));
        assert_eq!(a[2].as_u64(), None);
        assert_eq!(a[2].as_i64(), Some(-3));
        assert_eq!(a[3].as_u64(), None);
        assert_eq!(a[4].as_u64(), None);
        assert_eq!(a[5].as_u64(), None);
    }

    #[test]
    fn duplicate_keys_are_rejected_where_they_are() {
        let e = parse("{\"a\": 1,\n \"a\": 2}").unwrap_err();
        assert_eq!(e.to_string(), "duplicate key \"a\" at line 2 column 2");
        assert!(parse(r#"{"o": {"k": 1, "k": {}}}"#).is_err());
        // The same key in two objects is fine.
        assert!(parse(r#"[{"k": 1}, {"k": 2}]"#).is_ok());
    }

    #[test]
    fn strict_syntax() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "nul",
            "[1 2]",
            "\"a\nb\"",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "{1: 2}",
            "[] []",
            "// c\n1",
            "NaN",
            "Infinity",
            "'a'",
        ] {
            assert!(parse(bad).is_err(), "accepted {:?}", bad);
        }
        let v = parse(" {\"s\": \"\\u00e9\\ud83d\\ude00\\n\\\"\", \"t\": [true, false, null]} ")
            .unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o["s"].as_str(), Some("\u{e9}\u{1F600}\n\""));
        assert_eq!(o["t"].to_string(), "[true,false,null]");
        let deep = "[".repeat(DEPTH_MAX + 1) + &"]".repeat(DEPTH_MAX + 1);
        assert!(parse(&deep).unwrap_err().message.contains("nested deeper"));
        let ok = "[".repeat(DEPTH_MAX) + &"]".repeat(DEPTH_MAX);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn eof_position_is_the_last_character() {
        assert_eq!(
            parse("{").unwrap_err().to_string(),
            "EOF while parsing an object at line 1 column 1"
        );
    }
}
