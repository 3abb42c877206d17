//! CSIR v2 of profile-2 modules (issue 12 item 2): the profile word at header byte 56 (0 for
//! profile 1, whose blobs are unchanged), 64-byte name fields and 72-byte entries with 16-bit
//! uniform slots, the loader holding a blob to its profile's bounds, v1 refusing profile 2, and
//! corruption of every kind rejected.
use shader::ir::{Module, Stage};
use shader::limits::{Profile, P2_LIMITS};
use shader::program::compile::{compile_with, CompileOptions};
use shader::program::csir::{
    self, CsirError, Version, CSIR_MAX, P2_NAME_FIELD, P2_TABLE_ENTRY, PROFILE_OFFSET, RECORD,
    V2_HEADER,
};

fn compile2(stage: u32, src: &str) -> Module {
    match compile_with(
        stage,
        src.as_bytes(),
        "p2",
        &CompileOptions::profile(Profile::P2),
    ) {
        Ok(s) => {
            assert_eq!(s.module.profile, Profile::P2);
            s.module
        }
        Err(d) => {
            let mut t = String::new();
            d.render(src.as_bytes(), &mut t).unwrap();
            panic!("{}", t)
        }
    }
}

const LONG_UNIFORM: &str = "a_rather_long_uniform_name_that_is_over_39_bytes_long_ok";
const LONG_OUTPUT: &str = "colour_output_with_a_name_longer_than_forty_bytes_abcdef";

/// A vertex shader past profile 1's every table: 300 vec4 uniforms and a mat4 (uniform slots up
/// to 303, past a byte), a 57-byte name, 12 varyings, an attribute at location 7.
fn big_vertex() -> String {
    let n = 300;
    let mut s = String::from("#version 330\n");
    for i in 0..n {
        s += &format!("uniform vec4 u{};\n", i);
    }
    s += &format!(
        "uniform mat4 {};\nlayout(location = 7) in vec4 pos;\n",
        LONG_UNIFORM
    );
    for i in 0..12 {
        s += &format!("out vec4 v{};\n", i);
    }
    s += "void main() {\n  vec4 s = pos;\n";
    for i in 0..n {
        s += &format!("  s = s + u{};\n", i);
    }
    for i in 0..12 {
        s += &format!("  v{} = s * {}.0;\n", i, i + 1);
    }
    s += &format!("  gl_Position = {} * s;\n}}\n", LONG_UNIFORM);
    s
}

/// A fragment shader with 12 varyings, 5 samplers and a 57-byte colour output name.
fn big_fragment() -> String {
    let mut s = String::from("#version 330\n");
    for i in 0..12 {
        s += &format!("in vec4 v{};\n", i);
    }
    for i in 0..5 {
        s += &format!("uniform sampler2D t{};\n", i);
    }
    s += &format!(
        "out vec4 {};\nvoid main() {{\n  vec4 c = texture(t4, v0.xy) + texture(t0, v1.xy);\n",
        LONG_OUTPUT
    );
    for i in 2..12 {
        s += &format!("  c = c + v{};\n", i);
    }
    s += &format!(
        "  if (c.x < 0.0) discard;\n  {} = c / 3.0;\n}}\n",
        LONG_OUTPUT
    );
    s
}

fn save(m: &Module) -> Vec<u8> {
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(m, Version::V2, &mut buf).unwrap_or_else(|e| panic!("save: {}", e));
    assert_eq!(n, csir::saved_size(m, Version::V2));
    buf.truncate(n);
    buf
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Stores the total size and the checksum the blob's bytes call for, so that an edit reaches
/// the checks behind the checksum.
fn fix(b: &mut [u8]) {
    let len = b.len() as u32;
    b[44..48].copy_from_slice(&len.to_le_bytes());
    let h = csir::fnv1a64(csir::fnv1a64(csir::FNV64_OFFSET, &b[..48]), &b[56..]);
    b[48..56].copy_from_slice(&h.to_le_bytes());
}

fn load_fixed(mut b: Vec<u8>) -> Result<Module, CsirError> {
    fix(&mut b);
    csir::load(&b)
}

/// Offset of the first uniform entry of a saved blob.
fn first_uniform(b: &[u8]) -> usize {
    let (n, nimm, nattr, nvary) = (
        u32_at(b, 12) as usize,
        u32_at(b, 16) as usize,
        u32_at(b, 24) as usize,
        u32_at(b, 28) as usize,
    );
    V2_HEADER + RECORD * n + 4 * nimm + P2_TABLE_ENTRY * (nattr + nvary)
}

#[test]
fn profile_2_modules_round_trip_byte_for_byte() {
    for (stage, src) in [(0, big_vertex()), (1, big_fragment())] {
        let m = compile2(stage, &src);
        let blob = save(&m);
        assert_eq!(u32_at(&blob, PROFILE_OFFSET), 2, "the profile word");
        assert_eq!(u32_at(&blob, 60), 0, "bytes 60..64 stay reserved");
        let i = &m.iface;
        assert_eq!(
            blob.len(),
            V2_HEADER
                + RECORD * m.insts.len()
                + 4 * m.imms.len()
                + P2_TABLE_ENTRY
                    * (i.attributes.len() + i.varyings.len() + i.uniforms.len() + i.samplers.len())
                + P2_NAME_FIELD
        );
        let back = csir::load(&blob).unwrap_or_else(|e| panic!("load: {}", e));
        assert_eq!(back, m, "a loaded profile-2 module equals the saved one");
        assert_eq!(back.profile, Profile::P2);
        assert_eq!(save(&back), blob, "saving it again gives the same bytes");
    }
    let v = compile2(0, &big_vertex());
    let long = v
        .iface
        .uniforms
        .iter()
        .find(|u| u.name.as_str() == LONG_UNIFORM)
        .expect("the long name survives");
    assert!(long.slot > 255, "slot {} needs 16 bits", long.slot);
    assert_eq!(v.iface.varyings.len(), 12);
    let f = compile2(1, &big_fragment());
    assert_eq!(f.iface.color_output.as_deref(), Some(LONG_OUTPUT));
    assert_eq!(f.iface.samplers.len(), 5);
}

#[test]
fn profile_1_blobs_keep_a_zero_profile_word_and_load_as_profile_1() {
    let src = "#version 330\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = u; }\n";
    let m = compile_with(1, src.as_bytes(), "p1", &CompileOptions::default())
        .unwrap()
        .module;
    assert_eq!(m.profile, Profile::P1);
    let blob = save(&m);
    assert_eq!(&blob[56..64], &[0u8; 8]);
    assert_eq!(csir::load(&blob).unwrap().profile, Profile::P1);
    // The same source in profile 2 is a different blob (profile word, wider tables).
    let m2 = compile2(1, src);
    let blob2 = save(&m2);
    assert_ne!(blob, blob2);
    assert_eq!(csir::load(&blob2).unwrap(), m2);
}

#[test]
fn v1_refuses_a_profile_2_module_with_the_reason() {
    let m = compile2(
        1,
        "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let mut buf = vec![0u8; CSIR_MAX];
    let e = csir::save(&m, Version::V1, &mut buf).unwrap_err();
    assert_eq!(e, CsirError::ProfileNotInV1 { profile: 2 });
    let text = e.to_string();
    assert!(
        text.contains("profile 2") && text.contains("v2 (--v2)"),
        "{}",
        text
    );
    assert!(buf.iter().all(|&b| b == 0), "nothing written");
}

#[test]
fn every_single_byte_flip_of_a_profile_2_blob_is_rejected() {
    let m = compile2(1, &big_fragment());
    let blob = save(&m);
    for at in 0..blob.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = blob.clone();
            b[at] ^= bit;
            assert!(
                csir::load(&b).is_err(),
                "flip 0x{:02x} at byte {} accepted",
                bit,
                at
            );
        }
    }
    // The large vertex blob: a sample of offsets (every load re-verifies 954 instructions).
    let big = save(&compile2(0, &big_vertex()));
    for at in (0..big.len()).step_by(61).chain(56..64) {
        let mut b = big.clone();
        b[at] ^= 0x04;
        assert!(csir::load(&b).is_err(), "flip at byte {} accepted", at);
    }
    for cut in [0, 31, 63, 64, big.len() / 2, big.len() - 1] {
        assert!(csir::load(&big[..cut]).is_err(), "truncation to {}", cut);
    }
}

#[test]
fn the_profile_word_and_the_profile_bounds_are_checked_behind_the_checksum() {
    let m = compile2(0, &big_vertex());
    let blob = save(&m);
    // Profile words other than 0 and 2.
    for word in [1u32, 3, 0x100, u32::MAX] {
        let mut b = blob.clone();
        b[56..60].copy_from_slice(&word.to_le_bytes());
        assert_eq!(load_fixed(b), Err(CsirError::BadProfile { found: word }));
    }
    // A profile-2 blob relabelled profile 1: its tables do not fit profile 1's bounds.
    let mut b = blob.clone();
    b[56..60].copy_from_slice(&0u32.to_le_bytes());
    assert!(
        matches!(
            load_fixed(b),
            Err(CsirError::TooMany {
                what: "instruction",
                limit: 384,
                ..
            })
        ),
        "relabelled as profile 1"
    );
    // Counts one past profile 2's bounds.
    for (at, what, limit) in [
        (12, "instruction", P2_LIMITS.ir_instructions_max),
        (16, "immediate", P2_LIMITS.immediates_max),
        (20, "temporary", P2_LIMITS.temporaries_max),
        (24, "attribute", P2_LIMITS.attributes_max),
        (28, "varying", P2_LIMITS.varyings_max),
        (32, "uniform", P2_LIMITS.uniform_vec4_slots_max),
        (36, "sampler", P2_LIMITS.samplers_max),
    ] {
        let mut b = blob.clone();
        b[at..at + 4].copy_from_slice(&(limit as u32 + 1).to_le_bytes());
        assert_eq!(
            load_fixed(b),
            Err(CsirError::TooMany {
                what,
                found: limit as u32 + 1,
                limit: limit as u32
            })
        );
    }
    // Reserved header bytes 60..64.
    let mut b = blob.clone();
    b[61] = 1;
    assert_eq!(load_fixed(b), Err(CsirError::NonZero { offset: 61 }));
}

#[test]
fn profile_2_entries_are_checked_field_by_field() {
    let m = compile2(0, &big_vertex());
    let blob = save(&m);
    let u0 = first_uniform(&blob);
    let e = u0 + P2_NAME_FIELD; // type, slot count, first slot (u16), 4 zero bytes
    let entry_err = |b: Vec<u8>| match load_fixed(b) {
        Err(CsirError::BadEntry { what, reason, .. }) => (what, reason),
        other => panic!("{:?}", other.map(|_| ())),
    };
    // A first slot past 1024 (the high byte of the u16).
    let mut b = blob.clone();
    b[e + 3] = 0x04;
    assert_eq!(
        entry_err(b),
        (
            "uniform",
            "slot range outside 0..1024 or does not match its type"
        )
    );
    // Uniform 0 moved onto uniform 1's slot.
    let mut b = blob.clone();
    b[e + 2] = 1;
    assert_eq!(entry_err(b), ("uniform", "overlaps another uniform"));
    // A slot count that does not match the type.
    let mut b = blob.clone();
    b[e + 1] = 2;
    assert_eq!(
        entry_err(b),
        (
            "uniform",
            "slot range outside 0..1024 or does not match its type"
        )
    );
    // Entry padding must be zero.
    for pad in 4..8 {
        let mut b = blob.clone();
        b[e + pad] = 1;
        assert_eq!(load_fixed(b), Err(CsirError::NonZero { offset: e + pad }));
    }
    // A name length of 64 does not fit the 64-byte field.
    let mut b = blob.clone();
    b[u0] = 64;
    assert_eq!(entry_err(b), ("uniform", "name longer than 63 bytes"));
    // Name padding must be zero.
    let mut b = blob.clone();
    b[u0 + P2_NAME_FIELD - 1] = b'x';
    assert_eq!(
        load_fixed(b),
        Err(CsirError::NonZero {
            offset: u0 + P2_NAME_FIELD - 1
        })
    );
    // The attribute (the first entry): location 16 is past profile 2's 0..=15.
    let a0 = V2_HEADER + RECORD * m.insts.len() + 4 * m.imms.len();
    let mut b = blob.clone();
    b[a0 + P2_NAME_FIELD + 1] = 16;
    assert_eq!(entry_err(b).0, "attribute");
    assert_eq!(m.stage, Stage::Vertex);
}

#[test]
fn a_profile_2_loaded_module_links_and_runs_like_the_compiled_one() {
    let vs = "#version 330\n#pragma chrisos profile 2\n#define P pos\nlayout(location = 0) in vec4 pos;\nout vec4 a_varying_with_a_name_that_is_longer_than_39_bytes;\nvoid main() { a_varying_with_a_name_that_is_longer_than_39_bytes = P * 0.5; gl_Position = P; }\n";
    let fs = "#version 330\n#pragma chrisos profile 2\nin vec4 a_varying_with_a_name_that_is_longer_than_39_bytes;\nout vec4 c;\nvoid main() { c = a_varying_with_a_name_that_is_longer_than_39_bytes; }\n";
    let (v, f) = (compile2(0, vs), compile2(1, fs));
    let (lv, lf) = (
        csir::load(&save(&v)).unwrap(),
        csir::load(&save(&f)).unwrap(),
    );
    let mut p = shader::program::link::Program::new();
    p.link(Some(&lv), Some(&lf))
        .unwrap_or_else(|e| panic!("{}: {}", e, p.log()));
    let mut q = shader::program::link::Program::new();
    q.link(Some(&v), Some(&f)).unwrap();
    use shader::ir::Stage as S;
    assert_eq!(p.tgsi(S::Vertex), q.tgsi(S::Vertex));
    assert_eq!(p.tgsi(S::Fragment), q.tgsi(S::Fragment));
}

/// Profile 2 keeps each sampler's type (the byte after its unit; 0 for sampler2D, so blobs
/// with only sampler2D are unchanged): a load gives back samplerCube and sampler2DShadow, and
/// a type byte that is not a sampler type is refused (before, every loaded sampler was a
/// sampler2D).
#[test]
fn sampler_types_survive_a_v2_round_trip() {
    let m = compile2(
        1,
        "#version 330\nuniform samplerCube sky;\nuniform sampler2DShadow map;\nuniform sampler2D t;\nin vec3 d;\nout vec4 c;\nvoid main() {\n  c = texture(sky, d) * texture(map, d) + texture(t, d.xy);\n}\n",
    );
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(&m, Version::V2, &mut buf).unwrap();
    let back = csir::load(&buf[..n]).unwrap();
    let tys: Vec<_> = back.iface.samplers.iter().map(|s| s.ty).collect();
    use shader::ir::Type;
    assert_eq!(
        tys,
        [Type::SamplerCube, Type::Sampler2DShadow, Type::Sampler2D]
    );
    assert_eq!(back.iface, m.iface);
    // Corrupt the first sampler's type byte: a float is no sampler type.
    let at = buf[..n]
        .windows(4)
        .position(|w| w == [3, b's', b'k', b'y'])
        .unwrap();
    let ty_at = at + P2_NAME_FIELD + 1;
    assert_eq!(buf[ty_at], Type::SamplerCube as u8);
    buf[ty_at] = Type::Float as u8;
    let mut bad = buf[..n].to_vec();
    fix(&mut bad);
    assert!(matches!(
        csir::load(&bad),
        Err(CsirError::BadEntry {
            what: "sampler",
            ..
        })
    ));
}

#[test]
fn matrix_vertex_input_columns_round_trip_with_their_names() {
    // Each column of `in mat4 inst` is an attribute entry `inst[c]` (vec4) at location 1 + c;
    // v2 takes the element path in an attribute name (it refused `inst[0]` before).
    let src = "#version 330\nlayout(location = 0) in vec4 p;\nlayout(location = 1) in mat4 inst;\n\
               void main() { gl_Position = inst * p; }\n";
    let m = compile2(0, src);
    let cols: Vec<(String, u8)> = m
        .iface
        .attributes
        .iter()
        .map(|a| (a.name.as_str().to_string(), a.location))
        .collect();
    assert_eq!(
        cols,
        [
            ("p", 0),
            ("inst[0]", 1),
            ("inst[1]", 2),
            ("inst[2]", 3),
            ("inst[3]", 4)
        ]
        .map(|(n, l)| (n.to_string(), l))
    );
    assert!(m
        .iface
        .attributes
        .iter()
        .skip(1)
        .all(|a| a.ty == shader::ir::Type::Vec4));
    let blob = save(&m);
    let back = csir::load(&blob).unwrap_or_else(|e| panic!("load: {}", e));
    assert_eq!(back, m);
    // A name that is not an identifier or an element path stays refused.
    let at = V2_HEADER + RECORD * m.insts.len() + 4 * m.imms.len() + P2_TABLE_ENTRY;
    let mut bad = blob.clone();
    let name = bad.iter().skip(at).position(|&c| c == b'[').unwrap() + at;
    bad[name] = b'(';
    assert!(load_fixed(bad).is_err());
}
