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
/// Profile 2: `uint` and `uvec2..4`.
pub(super) fn is_uint_based(t: Type) -> bool {
    matches!(t, Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4)
}
/// Profile 2: `bvec2..4` (a scalar `bool` is not included).
pub(super) fn is_bvec(t: Type) -> bool {
    matches!(t, Type::BVec2 | Type::BVec3 | Type::BVec4)
}
/// Whole-number values (int or uint based): division truncates, conversions from float truncate.
pub(super) fn is_whole(t: Type) -> bool {
    is_int_based(t) || is_uint_based(t)
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
    ) || is_uint_based(t)
}
pub(super) fn is_scalar(t: Type) -> bool {
    matches!(t, Type::Bool | Type::Int | Type::Float | Type::Uint)
}
pub(super) fn is_matrix(t: Type) -> bool {
    t.columns() > 0
}
/// Scalar kinds of profile 2's vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sk {
    Float,
    Int,
    Uint,
    Bool,
}
pub(super) fn sk(t: Type) -> Sk {
    if is_int_based(t) {
        Sk::Int
    } else if is_uint_based(t) {
        Sk::Uint
    } else if t == Type::Bool || is_bvec(t) {
        Sk::Bool
    } else {
        Sk::Float
    }
}
/// The scalar (n = 1) or vector of `n` components of kind `k`.
pub(super) fn vec_of(k: Sk, n: u8) -> Type {
    match (k, n) {
        (Sk::Uint, 1) => Type::Uint,
        (Sk::Uint, 2) => Type::UVec2,
        (Sk::Uint, 3) => Type::UVec3,
        (Sk::Uint, _) => Type::UVec4,
        (Sk::Bool, 1) => Type::Bool,
        (Sk::Bool, 2) => Type::BVec2,
        (Sk::Bool, 3) => Type::BVec3,
        (Sk::Bool, _) => Type::BVec4,
        (Sk::Int, n) => vec_type(true, n),
        (Sk::Float, n) => vec_type(false, n),
    }
}
/// `n` components of `t`'s kind. Profile-1 types map as `vec_type(is_int_based(t), n)` always
/// did (a scalar bool gives a float vector); uint and bvec keep their kind.
pub(super) fn like(t: Type, n: u8) -> Type {
    match sk(t) {
        Sk::Uint => vec_of(Sk::Uint, n),
        Sk::Bool if t != Type::Bool => vec_of(Sk::Bool, n),
        _ => vec_type(is_int_based(t), n),
    }
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
