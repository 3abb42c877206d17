//! Profile 2: the varying slots of an in/out interface block (issue 13 item 4).
//!
//! A block value is laid out as every struct (`aggregate`): member after member, a matrix a
//! temp per column, an array a temp per element (element `e` of a block array at
//! `e * agg_temps(block)`). Each varying *piece* is one slot: a float..vec4 or (flat) integer
//! member is one piece named `Block.m` (`Block[e].m` in a block array); a matrix member is one
//! piece per column, `Block.m[c]`, reflected with the matrix type (so a `mat3` and a
//! `vec3[3]` do not link); an array member is one piece per element, `Block.m[j]`, reflected
//! with the element type (as plain array varyings).
//!
//! Owns: [`Sema::block_piece`], the one place a block's pieces are enumerated (the reflection,
//! the fragment prologue's loads and the vertex epilogue's stores all walk it).
use super::aggregate::AggTy;
use super::types::*;
use super::{Sema, R};
use crate::ir::*;

/// One varying slot of an interface block.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    /// The reflected name (`Block.m`, `Block[1].m[2]`).
    pub(super) name: Name,
    /// The temp offset from the block value's first temp.
    pub(super) toff: u16,
    /// The type loaded and stored (a matrix column's vector type).
    pub(super) emit: Type,
    /// The reflected type (a matrix member's matrix type).
    pub(super) reflect: Type,
    /// The member's own qualifiers (`Member::quals`).
    pub(super) quals: u8,
}

impl<'a> Sema<'a> {
    /// The slots member `m` of an interface block takes: a column per matrix, an element per
    /// array, else 1.
    fn member_pieces(m: AggTy) -> u16 {
        if m.len > 0 {
            m.len
        } else if is_matrix(m.base) {
            m.base.columns() as u16
        } else {
            1
        }
    }

    /// Piece number `p` (0-based, in declaration order: element, member, column or element
    /// of the member) of the interface block (or block array) of type `agg`; None past the
    /// last one.
    pub(super) fn block_piece(&self, agg: AggTy, p: u16) -> Option<Piece> {
        let d = self.struct_def(agg)?;
        let elem_ty = AggTy { len: 0, ..agg };
        let stride = self.agg_temps(elem_ty);
        let mut per_elem = 0u16;
        for k in d.first..d.first + d.count {
            let m = self.t.members.get(k as usize)?;
            per_elem = per_elem.saturating_add(Self::member_pieces(m.ty));
        }
        if per_elem == 0 {
            return None;
        }
        let (e, mut left) = (p / per_elem, p % per_elem);
        if e >= agg.len.max(1) {
            return None;
        }
        let mut toff = e.saturating_mul(stride);
        for k in d.first..d.first + d.count {
            let m = self.t.members.get(k as usize).copied()?;
            let n = Self::member_pieces(m.ty);
            if left >= n {
                left -= n;
                toff = toff.saturating_add(self.agg_temps(m.ty));
                continue;
            }
            let mut name = self.block_member_name(
                self.name_str(d.name),
                (agg.len > 0).then_some(e),
                self.name_str(m.name),
            );
            let (emit, reflect) = if m.ty.len > 0 {
                (m.ty.base, m.ty.base)
            } else if is_matrix(m.ty.base) {
                (vec_type(false, m.ty.base.components()), m.ty.base)
            } else {
                (m.ty.base, m.ty.base)
            };
            if n > 1 || m.ty.len > 0 {
                let _ = core::fmt::Write::write_fmt(&mut name, format_args!("[{}]", left));
            }
            // A matrix column or an array element of a float..vec4 or integer: one temp each.
            return Some(Piece {
                name,
                toff: toff.saturating_add(left),
                emit,
                reflect,
                quals: m.quals,
            });
        }
        None
    }

    /// The slot the reflection gave piece `name` (0 when none: only after an error).
    pub(super) fn piece_slot(&self, name: &Name) -> u8 {
        self.module
            .iface
            .varyings
            .iter()
            .find(|v| v.name == *name)
            .map(|v| v.slot)
            .unwrap_or(0)
    }

    /// The member types GLSL 3.30 allows in an in/out block (§4.3.4, §4.3.6: float, vectors,
    /// matrices, signed and unsigned integers and integer vectors, arrays of those; no bool,
    /// no struct) that this profile carries: arrays of matrices are not carried yet. `i` the
    /// declaration, `block` and `member` for the messages.
    pub(super) fn check_block_member_type(
        &mut self,
        i: i16,
        block: &str,
        member: &str,
        m: AggTy,
    ) -> R<()> {
        let base = m.base;
        if m.strukt != 0 {
            let w = self.agg_name(m);
            bail!(
                self,
                i,
                "member '{}' of interface block '{}' is {}: GLSL 3.30 (sections 4.3.4 and 4.3.6) allows no structs in shader inputs and outputs",
                member,
                block,
                w
            );
        }
        if base == Type::Bool || is_bvec(base) {
            let w = self.agg_name(m);
            bail!(
                self,
                i,
                "member '{}' of interface block '{}' is {}: GLSL 3.30 (sections 4.3.4 and 4.3.6) allows no bool types in shader inputs and outputs (use a flat int or a float)",
                member,
                block,
                w
            );
        }
        let float_vec = matches!(base, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4);
        let ok = float_vec || base.is_integer() || is_matrix(base) && m.len == 0;
        if !ok {
            let w = self.agg_name(m);
            bail!(
                self,
                i,
                "member '{}' of interface block '{}' is {}; it must be float, vec2-4, a matrix, (flat) int, ivec2-4, uint, uvec2-4, or an array of a non-matrix one of those in this profile",
                member,
                block,
                w
            );
        }
        Ok(())
    }
}
