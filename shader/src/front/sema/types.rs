//! An expression's value during lowering and the type predicates the rules are written in.
use super::aggregate::AggTy;
use crate::ir::Type;

/// An expression's value: a constant (not yet in IR), a temp, or a sampler unit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Val {
    pub(super) ty: Type,
    pub(super) tmp: i16,
    pub(super) k: Option<[f32; 4]>,
    pub(super) unit: i8,
    /// Profile 2: a struct (or array) value, a block of consecutive temps from `tmp` (`ty` is
    /// None); [`AggTy::NONE`] for every other value.
    pub(super) agg: AggTy,
}

impl Val {
    pub(super) fn konst(ty: Type, k: [f32; 4]) -> Val {
        Val {
            ty,
            tmp: -1,
            k: Some(k),
            unit: -1,
            agg: AggTy::NONE,
        }
    }
    pub(super) fn temp(ty: Type, tmp: i16) -> Val {
        Val {
            ty,
            tmp,
            k: None,
            unit: -1,
            agg: AggTy::NONE,
        }
    }
    /// A struct (or array) value in the temps from `tmp`.
    pub(super) fn agg(agg: AggTy, tmp: i16) -> Val {
        Val {
            ty: Type::None,
            tmp,
            k: None,
            unit: -1,
            agg,
        }
    }
}

pub(super) fn is_int_based(t: Type) -> bool {
    matches!(t, Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4)
}
pub(super) fn is_numeric(t: Type) -> bool {
    matches!(
        t,
        Type::Int
            | Type::Float
            | Type::Vec2
            | Type::Vec3
            | Type::Vec4
            | Type::IVec2
            | Type::IVec3
            | Type::IVec4
    )
}
pub(super) fn is_scalar(t: Type) -> bool {
    matches!(t, Type::Bool | Type::Int | Type::Float)
}
pub(super) fn is_matrix(t: Type) -> bool {
    matches!(t, Type::Mat3 | Type::Mat4)
}
pub(super) fn vec_type(int: bool, n: u8) -> Type {
    match (int, n) {
        (true, 1) => Type::Int,
        (true, 2) => Type::IVec2,
        (true, 3) => Type::IVec3,
        (true, _) => Type::IVec4,
        (false, 1) => Type::Float,
        (false, 2) => Type::Vec2,
        (false, 3) => Type::Vec3,
        (false, _) => Type::Vec4,
    }
}
pub(super) fn float_of(t: Type) -> Type {
    vec_type(false, t.components().max(1))
}
pub(super) fn lane(k: &[f32; 4], i: usize) -> f32 {
    k.get(i).copied().unwrap_or(0.0)
}
pub(super) fn sel(mask: i32, k: usize) -> usize {
    ((mask >> (2 * k)) & 3) as usize
}
