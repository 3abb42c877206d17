//! Integer vertex attributes (profile 2, issue 14 item 4) on the software and mock backends:
//! I32/U32 layout elements reach `int`/`ivecN`/`uint` attributes bit for bit (values above 2^24
//! and negative ones, which a float conversion would change), the attribute/element kind
//! pairing is a `LayoutError` both ways (GL's glVertexAttribIPointer rule), and the mock log
//! names the integer elements.
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::{layout, prog};
mod int_attr_data;
use int_attr_data::*;

type G = Gfx3d<Linked>;
const W: u32 = 8;
const H: u32 = 8;
const N: usize = (W * H) as usize;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

/// Draws INT_VERT/INT_FRAG over the mesh of `layout`/`vertices` into a float target.
fn draw(g: &mut G, l: &VertexLayout, v: &[f32]) -> Result<Vec<[f32; 4]>> {
    let c = g.context_create(0)?;
    let t = g.target_create_format(0, c, W, H, TargetFormat::Rgba32F)?;
    let p = prog(g, c, INT_VERT, INT_FRAG);
    let m = g.mesh_create(0, Usage::Static)?;
    g.mesh_upload_f32(0, m, l, v, None)?;
    g.begin(0, c, t)?;
    g.clear(0, c, [0.0; 4], true)?;
    g.use_program(0, c, p)?;
    let r = g.draw(0, c, m);
    g.end(0, c)?;
    r?;
    let mut px = vec![[0.0f32; 4]; N];
    g.target_read_float(0, t, &mut px)?;
    Ok(px)
}

#[test]
fn int_words_reach_the_shader_bit_for_bit() {
    let mut g = boot(BackendMode::Software);
    let px = draw(&mut g, &int_layout(), &int_vertices()).unwrap();
    for p in &px {
        assert_eq!(p[0].to_bits() as i32, A[0]);
        assert_eq!(p[1].to_bits() as i32, A[1]);
        assert_eq!(p[2].to_bits(), B);
        assert_eq!(p[3], 1.0);
    }
}

#[test]
fn element_kinds_must_match_the_attribute_types() {
    let mut g = boot(BackendMode::Software);
    // ivec2 fed by float elements (glVertexAttribPointer for an int attribute).
    let floats = layout(32, &[(0, 4, 0), (1, 2, 16), (2, 1, 24)])
        .with_kind(2, ElementKind::U32)
        .unwrap();
    let e = draw(&mut g, &floats, &int_vertices()).unwrap_err();
    assert_eq!(
        e,
        Error::Layout(LayoutError::KindMismatch {
            location: 1,
            supplied: ElementKind::F32,
            required: ElementKind::I32,
        })
    );
    let text = e.to_string();
    assert!(
        text.contains("location 1 is an int attribute and needs i32 elements"),
        "{}",
        text
    );
    // uint fed by i32 elements: the signedness matters too.
    let signed = int_layout().with_kind(2, ElementKind::I32).unwrap();
    assert_eq!(
        draw(&mut g, &signed, &int_vertices()).unwrap_err(),
        Error::Layout(LayoutError::KindMismatch {
            location: 2,
            supplied: ElementKind::I32,
            required: ElementKind::U32,
        })
    );
    // A vec4 fed by integer elements.
    let pos_int = int_layout().with_kind(0, ElementKind::I32).unwrap();
    let e = draw(&mut g, &pos_int, &int_vertices()).unwrap_err();
    assert_eq!(
        e,
        Error::Layout(LayoutError::KindMismatch {
            location: 0,
            supplied: ElementKind::I32,
            required: ElementKind::F32,
        })
    );
    assert!(e
        .to_string()
        .contains("integer elements feed only int/uint attributes"));
    // A kind for a location without an element.
    assert_eq!(
        int_layout().with_kind(5, ElementKind::I32),
        Err(LayoutError::KindWithoutElement { location: 5 })
    );
    assert_eq!(
        int_layout().with_kind(200, ElementKind::I32),
        Err(LayoutError::KindWithoutElement { location: 200 })
    );
    // Float layouts and float programs are unaffected (the default kind is F32).
    assert_eq!(common::tri_layout().kind(1), ElementKind::F32);
    assert!(!common::tri_layout().has_int());
}

#[test]
fn the_mock_log_names_integer_elements() {
    let mut g = boot(BackendMode::Mock);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let p = prog(&mut g, c, INT_VERT, INT_FRAG);
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &int_layout(), &int_vertices(), None)
        .unwrap();
    g.mock_log_clear();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    assert_eq!(g.mock_log(), "begin\nuse\ndraw ints=1:i32,2:u32\nend\n");
    // A mismatched layout logs nothing and is refused.
    let bad = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(
        0,
        bad,
        &layout(32, &[(0, 4, 0), (1, 2, 16), (2, 1, 24)]),
        &int_vertices(),
        None,
    )
    .unwrap();
    g.mock_log_clear();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    assert!(g.draw(0, c, bad).is_err());
    g.end(0, c).unwrap();
    assert_eq!(g.mock_log(), "begin\nuse\nend\n");
    g.drop_owner(0);
    common::assert_nothing_live(&g.stats(), "after drop_owner");
}
