//! Verifier: one rejection test per invariant, and acceptance of valid modules.
mod ircore_util;
use ircore_util::*;
use shader::ir::verify::verify;
use shader::ir::*;

/// A valid module of `stage` with 8 temps, a vec4 uniform at slot 0, a mat4 at 1..=4, sampler
/// unit 0, attribute location 0 (vertex), varying slot 0, 4 immediates.
fn base(stage: Stage) -> B {
    let mut b = B::new(stage);
    b.temps(8);
    b.declare_uniform("u", Type::Vec4, 0);
    b.declare_uniform("m", Type::Mat4, 1);
    b.sampler("s", 0);
    if stage == Stage::Vertex {
        b.m.iface
            .attributes
            .push(Attribute {
                name: name("a"),
                ty: Type::Vec4,
                location: 0,
                components: 4,
            })
            .unwrap();
    }
    b.declare_varying("v", 0, Type::Vec4);
    for x in [1.0, 2.0, 3.0, 4.0] {
        b.m.imms.push(x).unwrap();
    }
    b
}

fn check(b: B, needle: &str) {
    let e = verify(&b.m).expect_err("module should be rejected");
    let text = e.to_string();
    assert!(
        text.contains(needle),
        "message {:?} does not mention {:?}",
        text,
        needle
    );
}

macro_rules! rejects {
    ($name:ident, $stage:expr, $needle:expr, |$b:ident| $body:block) => {
        #[test]
        fn $name() {
            let mut $b = base($stage);
            $body
            check($b, $needle);
        }
    };
}

use Stage::{Fragment as FS, Vertex as VS};

#[test]
fn accepts_every_opcode_in_range() {
    for stage in [VS, FS] {
        let mut b = base(stage);
        b.inst(Op::Const, 0, -1, -1, 4, 0, 0);
        b.inst(Op::Mov, 1, 0, -1, 0, 0, 0);
        b.inst(Op::Swz, 2, 1, -1, 4, 0b00_01_10_11, 0);
        b.inst(Op::SetLane, 2, 1, -1, 0, 3, 0);
        for op in [
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Max,
            Op::Min,
            Op::Div,
            Op::Pow,
        ] {
            b.inst(op, 3, 1, 2, 4, 0, 0);
        }
        for op in [
            Op::Abs,
            Op::Rsq,
            Op::Rcp,
            Op::Sin,
            Op::Cos,
            Op::Trunc,
            Op::Sqrt,
        ] {
            b.inst(op, 3, 1, -1, 0, 0, 0);
        }
        b.inst(Op::Dot, 3, 1, 2, 1, 4, 0);
        b.inst(Op::Cmp, 3, 1, 2, 1, 6, 0);
        b.inst(Op::MulMV, 3, 4, 2, 4, 4, 0);
        b.inst(Op::MulMM, 4, 4, 4, 4, 4, 0);
        b.inst(Op::Sample, 3, 1, -1, 4, 0, 0);
        b.inst(Op::LoadUni, 4, -1, -1, 4, 1, 4);
        b.inst(Op::LoadUni, 7, -1, -1, 4, 0, 1);
        b.inst(Op::If, -1, 3, -1, 0, 0, 0);
        b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
        b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
        match stage {
            VS => {
                b.inst(Op::LoadAttr, 3, -1, -1, 4, 0, 0);
                b.inst(Op::StorePos, -1, 3, -1, 4, 0, 0);
                b.inst(Op::StoreVar, -1, 3, -1, 4, 0, 0);
            }
            FS => {
                b.inst(Op::LoadVar, 3, -1, -1, 4, 0, 0);
                b.inst(Op::LoadFcoord, 3, -1, -1, 4, 0, 0);
                b.inst(Op::Discard, -1, -1, -1, 0, 0, 0);
                b.inst(Op::StoreColor, -1, 3, -1, 4, 0, 0);
            }
        }
        b.inst(Op::Nop, -1, -1, -1, 0, 0, 0);
        verify(&b.m).unwrap();
    }
    // Nesting exactly at the limit of 32.
    let mut b = base(FS);
    for _ in 0..32 {
        b.inst(Op::If, -1, 0, -1, 0, 0, 0);
    }
    for _ in 0..32 {
        b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    }
    verify(&b.m).unwrap();
}

rejects!(too_many_temps, VS, "too many temporaries", |b| {
    b.m.temps = 97;
});
rejects!(unknown_type_id, VS, "type id", |b| {
    b.push(Inst {
        ty: 14,
        ..Inst::new(Op::Nop)
    });
});
rejects!(const_zero_lanes, VS, "CONST lanes", |b| {
    b.inst(Op::Const, 0, -1, -1, 0, 0, 0);
});
rejects!(const_five_lanes, VS, "CONST lanes", |b| {
    b.inst(Op::Const, 0, -1, -1, 5, 0, 0);
});
rejects!(const_negative_base, VS, "negative", |b| {
    b.inst(Op::Const, 0, -1, -1, 1, -1, 0);
});
rejects!(
    const_past_immediates,
    VS,
    "past the end of the immediates",
    |b| {
        b.inst(Op::Const, 0, -1, -1, 2, 3, 0);
    }
);
rejects!(const_dst_out_of_range, VS, "valid temporary", |b| {
    b.inst(Op::Const, 8, -1, -1, 1, 0, 0);
});
rejects!(mov_source_negative, VS, "valid temporary", |b| {
    b.inst(Op::Mov, 0, -1, -1, 4, 0, 0);
});
rejects!(mov_too_many_lanes, VS, "lanes must be 0..=4", |b| {
    b.inst(Op::Mov, 0, 1, -1, 5, 0, 0);
});
rejects!(swz_zero_lanes, VS, "SWZ lanes", |b| {
    b.inst(Op::Swz, 0, 1, -1, 0, 0, 0);
});
rejects!(swz_selector_overflow, VS, "selectors", |b| {
    b.inst(Op::Swz, 0, 1, -1, 4, 256, 0);
});
rejects!(setlane_dst_lane, VS, "destination lane", |b| {
    b.inst(Op::SetLane, 0, 1, -1, 0, 4, 0);
});
rejects!(setlane_src_lane, VS, "source lane", |b| {
    b.inst(Op::SetLane, 0, 1, -1, 0, 0, -1);
});
rejects!(add_second_operand, VS, "valid temporary", |b| {
    b.inst(Op::Add, 0, 1, 8, 4, 0, 0);
});
rejects!(unary_lanes, FS, "lanes must be 0..=4", |b| {
    b.inst(Op::Sin, 0, 1, -1, 6, 0, 0);
});
rejects!(dot_size, VS, "DOT size", |b| {
    b.inst(Op::Dot, 0, 1, 2, 1, 5, 0);
});
rejects!(cmp_code, VS, "CMP code", |b| {
    b.inst(Op::Cmp, 0, 1, 2, 1, 7, 0);
});
rejects!(mulmv_last_column, VS, "MULMV matrix column", |b| {
    b.inst(Op::MulMV, 0, 5, 1, 4, 4, 0);
});
rejects!(mulmv_size, VS, "MULMV matrix size", |b| {
    b.inst(Op::MulMV, 0, 1, 1, 4, 2, 0);
});
rejects!(mulmm_result_columns, VS, "MULMM result column", |b| {
    b.inst(Op::MulMM, 5, 0, 0, 4, 4, 0);
});
rejects!(mulmm_left_columns, VS, "MULMM left", |b| {
    b.inst(Op::MulMM, 0, 6, 0, 4, 3, 0);
});
rejects!(mulmm_right_columns, VS, "MULMM right", |b| {
    b.inst(Op::MulMM, 0, 0, 7, 4, 4, 0);
});
rejects!(mulmm_size, VS, "MULMM matrix size", |b| {
    b.inst(Op::MulMM, 0, 0, 0, 4, 0, 0);
});
rejects!(sample_undeclared_unit, FS, "declared sampler", |b| {
    b.inst(Op::Sample, 0, 1, -1, 4, 1, 0);
});
rejects!(sample_unit_range, FS, "SAMPLE unit must be", |b| {
    b.inst(Op::Sample, 0, 1, -1, 4, 4, 0);
});
rejects!(load_attr_in_fragment, FS, "only allowed in vertex", |b| {
    b.inst(Op::LoadAttr, 0, -1, -1, 4, 0, 0);
});
rejects!(load_attr_undeclared, VS, "declared attribute", |b| {
    b.inst(Op::LoadAttr, 0, -1, -1, 4, 1, 0);
});
rejects!(load_var_in_vertex, VS, "only allowed in fragment", |b| {
    b.inst(Op::LoadVar, 0, -1, -1, 4, 0, 0);
});
rejects!(load_var_undeclared, FS, "declared varying", |b| {
    b.inst(Op::LoadVar, 0, -1, -1, 4, 3, 0);
});
rejects!(load_uni_count, VS, "LOAD_UNI count", |b| {
    b.inst(Op::LoadUni, 0, -1, -1, 4, 0, 2);
});
rejects!(load_uni_past_32, VS, "slot 32", |b| {
    b.inst(Op::LoadUni, 0, -1, -1, 4, 30, 3);
});
rejects!(load_uni_undeclared_slots, VS, "no declared uniform", |b| {
    b.inst(Op::LoadUni, 0, -1, -1, 4, 5, 1);
});
rejects!(load_uni_negative_slot, VS, "negative", |b| {
    b.inst(Op::LoadUni, 0, -1, -1, 4, -1, 1);
});
rejects!(load_uni_destination_columns, VS, "destination", |b| {
    b.inst(Op::LoadUni, 5, -1, -1, 4, 1, 4);
});
rejects!(load_fcoord_in_vertex, VS, "LOAD_FCOORD", |b| {
    b.inst(Op::LoadFcoord, 0, -1, -1, 4, 0, 0);
});
rejects!(store_pos_in_fragment, FS, "STORE_POS", |b| {
    b.inst(Op::StorePos, -1, 0, -1, 4, 0, 0);
});
rejects!(store_color_in_vertex, VS, "STORE_COLOR", |b| {
    b.inst(Op::StoreColor, -1, 0, -1, 4, 0, 0);
});
rejects!(store_var_in_fragment, FS, "STORE_VAR", |b| {
    b.inst(Op::StoreVar, -1, 0, -1, 4, 0, 0);
});
rejects!(store_var_undeclared, VS, "declared varying", |b| {
    b.inst(Op::StoreVar, -1, 0, -1, 4, 2, 0);
});
rejects!(store_source_invalid, VS, "valid temporary", |b| {
    b.inst(Op::StorePos, -1, 9, -1, 4, 0, 0);
});
rejects!(discard_in_vertex, VS, "DISCARD", |b| {
    b.inst(Op::Discard, -1, -1, -1, 0, 0, 0);
});
rejects!(if_condition_invalid, FS, "valid temporary", |b| {
    b.inst(Op::If, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
});
rejects!(if_nesting_33, FS, "nesting exceeds the limit of 32", |b| {
    for _ in 0..33 {
        b.inst(Op::If, -1, 0, -1, 0, 0, 0);
    }
    for _ in 0..33 {
        b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
    }
});
rejects!(else_outside_if, FS, "ELSE outside", |b| {
    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
});
rejects!(second_else, FS, "second ELSE", |b| {
    b.inst(Op::If, -1, 0, -1, 0, 0, 0);
    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Else, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
});
rejects!(endif_outside_if, FS, "ENDIF outside", |b| {
    b.inst(Op::Endif, -1, -1, -1, 0, 0, 0);
});
rejects!(unbalanced_if, FS, "unbalanced", |b| {
    b.inst(Op::If, -1, 0, -1, 0, 0, 0);
});
rejects!(attribute_location_8, VS, "attribute location", |b| {
    b.m.iface.attributes[0].location = 8;
});
rejects!(attribute_components_0, VS, "components", |b| {
    b.m.iface.attributes[0].components = 0;
});
rejects!(attribute_locations_shared, VS, "share a location", |b| {
    b.m.iface
        .attributes
        .push(Attribute {
            name: name("b"),
            ty: Type::Vec4,
            location: 0,
            components: 4,
        })
        .unwrap();
});
rejects!(
    attributes_in_fragment,
    FS,
    "fragment shader declares vertex attributes",
    |b| {
        b.m.iface
            .attributes
            .push(Attribute {
                name: name("b"),
                ty: Type::Vec4,
                location: 0,
                components: 4,
            })
            .unwrap();
    }
);
rejects!(varying_slot_8, VS, "varying slot", |b| {
    b.m.iface.varyings[0].slot = 8;
});
rejects!(varying_slots_shared, VS, "share a slot", |b| {
    b.declare_varying("w", 0, Type::Vec2);
});
rejects!(
    uniform_past_32_slots,
    VS,
    "uniform slots out of range",
    |b| {
        b.declare_uniform("big", Type::Mat4, 29);
    }
);
rejects!(uniforms_overlap, VS, "overlap", |b| {
    b.declare_uniform("x", Type::Float, 2);
});
rejects!(sampler_unit_4, FS, "sampler unit", |b| {
    b.sampler("t", 4);
});
rejects!(sampler_units_shared, FS, "share a unit", |b| {
    b.sampler("t", 0);
});

#[test]
fn error_names_the_instruction() {
    let mut b = base(VS);
    b.inst(Op::Nop, -1, -1, -1, 0, 0, 0);
    b.inst(Op::Add, 0, 1, 99, 4, 0, 0);
    let e = verify(&b.m).unwrap_err();
    assert_eq!(e.inst, Some(1));
    assert!(e
        .to_string()
        .starts_with("IR verification failed at instruction 1: "));
}
