//! Global declarations: interface binding (attributes, varyings, uniforms, samplers, outputs),
//! the used-global check, and the prologue and epilogue around `main`.
use heapless::Vec;

use super::aggregate::AggTy;
use super::scope::{key_of, name_key, same_bytes, same_name};
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::front::diag::{bounded_string, P2_HINT};
use crate::ir::*;
use crate::limits::*;

/// Identifiers gathered for the used-global check (see `Sema::identifiers`).
const IDENTS_MAX: usize = 128;
/// The identifier list of [`Sema::identifiers`].
pub(super) type Idents = Vec<(u32, i16), IDENTS_MAX>;
/// The global declarations' names, in [`Sema::global_decls`] order, found once by
/// `bind_interface`'s first loop for its second loop and the prologue (the names past the
/// capacity are found again), each with the slot, location or unit the second loop reflected
/// it at when it is a plain uniform, sampler, input or output varying (else -1): the prologue
/// takes it from here instead of searching the reflection tables for the name.
pub(super) type GlobalNames<'a> = Vec<(&'a str, i16), 32>;

impl<'a> Sema<'a> {
    /// The global declarations' node indices, walked straight from the AST (which `self` only
    /// borrows): collecting them first copied a 1 KB list twice per compile.
    pub(super) fn global_decls(&self) -> impl Iterator<Item = i16> + 'a {
        let ast: &'a Ast = self.ast;
        ast.list(ast.first)
            .filter(|(_, n)| n.kind == Kind::Decl && n.ty != Type::None)
            .map(|(i, _)| i)
    }

    /// Profile 2: `invariant NAME;` must name `gl_Position` (vertex) or an output or input
    /// varying declared before it.
    fn invariant_redeclarations(&mut self) {
        let vs = self.stage == Stage::Vertex;
        let ast: &'a Ast = self.ast;
        for (i, n) in ast.list(ast.first) {
            if n.kind != Kind::Decl || n.ty != Type::None {
                continue;
            }
            let name = self.name_of(i);
            if name == "gl_Position" {
                if !vs {
                    self.err(
                        i,
                        format_args!("gl_Position is not available in a fragment shader"),
                    );
                }
                continue;
            }
            let varying = ast
                .list(ast.first)
                .take_while(|&(j, _)| j != i)
                .any(|(j, d)| {
                    d.kind == Kind::Decl
                        && d.ty != Type::None
                        && self.name_of(j) == name
                        && ((vs && d.quals & Q_OUT != 0) || (!vs && d.quals & Q_IN != 0))
                });
            if !varying {
                self.err(
                    i,
                    format_args!(
                        "'invariant {}': only gl_Position or a varying declared before it (a vertex output or fragment input) can be made invariant",
                        name
                    ),
                );
            }
        }
    }

    /// Profile 2: records which varyings are invariant (`Interface::invariant_slots`, matched
    /// at link): those declared with `invariant` (a plain varying, every element of an array,
    /// every member of a block) and those named by an `invariant NAME;` redeclaration.
    fn invariant_slots(&mut self) {
        let ast: &'a Ast = self.ast;
        let mut bits: u32 = 0;
        for (i, n) in ast.list(ast.first) {
            if n.kind != Kind::Decl {
                continue;
            }
            let redeclared = n.ty == Type::None;
            if !redeclared && (n.op & D_INVARIANT == 0 || n.quals & (Q_IN | Q_OUT) == 0) {
                continue;
            }
            let name = self.name_of(i);
            if name == "gl_Position" {
                continue;
            }
            // A block's varyings are named `Block.member` after the block's type name.
            let block = if !redeclared && n.op & D_BLOCK != 0 {
                self.node_agg(i)
                    .ok()
                    .and_then(|agg| self.struct_def(agg))
                    .map(|d| self.name_str(d.name))
            } else {
                None
            };
            for v in self.module.iface.varyings.iter() {
                let vn = v.name.as_str();
                let hit = match block {
                    Some(b) => vn
                        .strip_prefix(b)
                        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('[')),
                    None => {
                        vn == name
                            || vn
                                .strip_prefix(name)
                                .is_some_and(|rest| rest.starts_with('['))
                    }
                };
                if hit && (v.slot as u32) < u32::BITS {
                    bits |= 1 << v.slot;
                }
            }
        }
        self.module.iface.invariant_slots |= bits;
    }

    /// Interface checks and slot binding: attributes, varyings, uniforms, samplers, the output.
    pub(super) fn bind_interface(&mut self, names: &mut GlobalNames<'a>) {
        let vs = self.stage == Stage::Vertex;
        let (attr_max, var_max) = (self.lim.attributes_max, self.lim.varyings_max);
        let p2 = self.toks.profile == Profile::P2;
        let mut used_attr: [i16; ATTR_CAP] = [-1; ATTR_CAP];
        let mut used_var: [i16; VARYING_CAP] = [-1; VARYING_CAP];
        let mut used_out: [i16; FRAG_OUTPUT_CAP] = [-1; FRAG_OUTPUT_CAP];
        if p2 {
            self.invariant_redeclarations();
        }
        // Checks, then explicit locations.
        names.clear();
        for i in self.global_decls() {
            let n = self.node(i);
            let name = self.name_of(i);
            let _ = names.push((name, -1));
            let q = n.quals;
            if name.starts_with("gl_") {
                self.err(i, format_args!("names beginning with 'gl_' are reserved"));
                continue;
            }
            let io = q & (Q_IN | Q_OUT) != 0;
            if n.c >= 0 || n.b >= 0 {
                // Profile 2: a struct- or array-typed global.
                let Ok(agg) = self.node_agg(i) else { continue };
                let varying = (vs && q & Q_OUT != 0) || (!vs && q & Q_IN != 0);
                if io && agg.strukt == 0 {
                    let float_vec =
                        matches!(n.ty, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4);
                    if !varying {
                        let what = if vs {
                            "vertex inputs"
                        } else {
                            "fragment outputs"
                        };
                        self.err(
                            i,
                            format_args!("'{}': {} cannot be arrays in this profile", name, what),
                        );
                    } else if !float_vec && !n.ty.is_integer() {
                        self.err(
                            i,
                            format_args!(
                                "varying '{}' has type {}; its elements must be float, vec2, vec3, vec4 or (flat) int, ivec2-4, uint, uvec2-4",
                                name,
                                self.agg_name(agg)
                            ),
                        );
                    } else if n.ty.is_integer() && n.op & D_FLAT == 0 {
                        // Integer array varyings, as plain ones: flat, carried bit for bit.
                        self.err(
                            i,
                            format_args!(
                                "integer varying '{}' ({}) must be declared flat: integers are not interpolated",
                                name,
                                self.agg_name(agg)
                            ),
                        );
                    } else if q & Q_CONST != 0 {
                        self.err_tok(
                            n.d,
                            format_args!("shader inputs and outputs cannot be const"),
                        );
                    } else if q & Q_LAYOUT != 0 {
                        // Element k takes location N + k; every one must be free and in range.
                        let loc = n.ival;
                        let end = loc.saturating_add(i32::from(agg.len));
                        if loc < 0 || end as usize > var_max {
                            self.err_tok(
                                n.d,
                                format_args!(
                                    "varying location {} is out of range for '{}' ({} elements take locations {} to {}): the locations are 0 to {}",
                                    loc,
                                    name,
                                    agg.len,
                                    loc,
                                    end - 1,
                                    var_max - 1
                                ),
                            );
                            continue;
                        }
                        let taken = (loc..end).find_map(|l| {
                            let s = used_var.get(l as usize).copied().unwrap_or(-1);
                            (s >= 0).then_some((l, s))
                        });
                        if let Some((l, other)) = taken {
                            let other = self.name_of(other);
                            self.err_tok(
                                n.d,
                                format_args!(
                                    "varying location {} (element {} of '{}') is already used by '{}'",
                                    l,
                                    l - loc,
                                    name,
                                    other
                                ),
                            );
                            continue;
                        }
                        for l in loc..end {
                            if let Some(t) = used_var.get_mut(l as usize) {
                                *t = i;
                            }
                        }
                    }
                    continue;
                }
                if n.ty.is_sampler() && q & Q_UNIFORM == 0 {
                    self.err(i, format_args!("{} must be a uniform", n.ty.name()));
                    continue;
                }
                if io && n.op & D_BLOCK != 0 {
                    // Profile 2: an interface block between the stages.
                    if !varying {
                        let what = if vs {
                            "input blocks in a vertex shader"
                        } else {
                            "output blocks in a fragment shader"
                        };
                        self.err(i, format_args!("'{}': GLSL 3.30 has no {}", name, what));
                        continue;
                    }
                    let _ = self.check_varying_block(i, agg);
                    continue;
                }
                if q & Q_UNIFORM != 0 && n.op & D_BLOCK != 0 {
                    // Interpolation qualifiers belong to in/out block members only.
                    if let Some(d) = self.struct_def(agg) {
                        let bad = (d.first..d.first + d.count).find_map(|k| {
                            self.t
                                .members
                                .get(k as usize)
                                .copied()
                                .filter(|m| m.quals != 0)
                        });
                        if let Some(m) = bad {
                            self.err(
                                i,
                                format_args!(
                                    "member '{}' of uniform block '{}' has an interpolation, centroid or invariant qualifier; those apply to in/out block members only",
                                    self.name_str(m.name),
                                    self.name_str(d.name)
                                ),
                            );
                            continue;
                        }
                    }
                    if self.agg_units(agg) > 0 {
                        let b = self.agg_name(agg);
                        self.err(
                            i,
                            format_args!(
                                "uniform block '{}' has a sampler member: GLSL 3.30 (section 4.3.7) allows samplers in uniform blocks nowhere; declare it as a plain uniform",
                                b
                            ),
                        );
                        continue;
                    }
                }
                if io {
                    let st = self.agg_name(agg);
                    self.err(
                        i,
                        format_args!(
                            "'{}' has struct type {}: shader inputs and outputs cannot be structs in GLSL 3.30 (declare a member per varying, or use an interface block)",
                            name, st
                        ),
                    );
                    continue;
                }
                if q & Q_CONST != 0 && q & Q_UNIFORM == 0 && n.a < 0 {
                    self.err(i, format_args!("const '{}' needs an initializer", name));
                    continue;
                }
                if n.a >= 0 && q & Q_UNIFORM != 0 {
                    self.err(
                        n.a,
                        format_args!(
                            "uniforms cannot have an initializer (the application sets them)"
                        ),
                    );
                }
                continue;
            }
            if q & Q_LAYOUT != 0 && !io {
                self.err_tok(
                    n.d,
                    format_args!("layout(location) is only valid on shader inputs and outputs"),
                );
                continue;
            }
            let varying = (vs && q & Q_OUT != 0) || (!vs && q & Q_IN != 0);
            if q & Q_SMOOTH != 0 && !varying {
                self.err_tok(
                    n.d,
                    format_args!("'smooth' only applies to vertex outputs and fragment inputs"),
                );
                continue;
            }
            // Profile 2's interpolation, centroid and invariant qualifiers (`op` flags).
            let interp_word = if n.op & D_FLAT != 0 {
                Some("flat")
            } else if n.op & D_NOPERSPECTIVE != 0 {
                Some("noperspective")
            } else if n.op & D_CENTROID != 0 {
                Some("centroid")
            } else if n.op & D_INVARIANT != 0 {
                Some("invariant")
            } else {
                None
            };
            if let (Some(w), false) = (interp_word, varying) {
                self.err_tok(
                    n.d,
                    format_args!("'{}' only applies to vertex outputs and fragment inputs", w),
                );
                continue;
            }
            if n.ty == Type::Void {
                self.err(i, format_args!("variables cannot be void"));
                continue;
            }
            if n.ty.is_sampler() && q & Q_UNIFORM == 0 {
                self.err(i, format_args!("{} must be a uniform", n.ty.name()));
                continue;
            }
            if io && q & Q_CONST != 0 {
                self.err_tok(
                    n.d,
                    format_args!("shader inputs and outputs cannot be const"),
                );
                continue;
            }
            if n.a >= 0 && q & Q_UNIFORM != 0 {
                self.err(
                    n.a,
                    format_args!("uniforms cannot have an initializer (the application sets them)"),
                );
                continue;
            }
            if n.a >= 0 && io {
                self.err(
                    n.a,
                    format_args!("shader inputs and outputs cannot have an initializer"),
                );
                continue;
            }
            if q & Q_CONST != 0 && q & Q_UNIFORM == 0 && n.a < 0 {
                self.err(i, format_args!("const '{}' needs an initializer", name));
                continue;
            }
            if io {
                let float_vec = matches!(n.ty, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4);
                let what = if vs && q & Q_IN != 0 {
                    "attribute"
                } else if !vs && q & Q_OUT != 0 {
                    "fragment output"
                } else {
                    "varying"
                };
                if !vs && q & Q_OUT != 0 {
                    if p2 {
                        if !float_vec {
                            self.err(
                                i,
                                format_args!(
                                    "fragment output '{}' has type {}; it must be float, vec2, vec3 or vec4",
                                    name,
                                    n.ty.name()
                                ),
                            );
                            continue;
                        }
                        if q & Q_LAYOUT != 0 {
                            let max = self.lim.fragment_outputs_max;
                            let loc = n.ival;
                            if loc < 0 || loc as usize >= max {
                                self.err_tok(
                                    n.d,
                                    format_args!(
                                        "fragment output location {} is out of range: the locations are 0 to {}",
                                        loc,
                                        max - 1
                                    ),
                                );
                                continue;
                            }
                            let other = used_out.get(loc as usize).copied().unwrap_or(-1);
                            if other >= 0 {
                                let other = self.name_of(other);
                                self.err_tok(
                                    n.d,
                                    format_args!(
                                        "fragment output location {} is already used by '{}'",
                                        loc, other
                                    ),
                                );
                                continue;
                            }
                            if let Some(t) = used_out.get_mut(loc as usize) {
                                *t = i;
                            }
                        }
                        continue;
                    }
                    if n.ty != Type::Vec4 {
                        self.err(
                            i,
                            format_args!(
                                "fragment output must be vec4; '{}' is {}{}",
                                name,
                                n.ty.name(),
                                if float_vec { P2_HINT } else { "" }
                            ),
                        );
                        continue;
                    }
                    if q & Q_LAYOUT != 0 && n.ival != 0 {
                        self.err_tok(
                            n.d,
                            format_args!(
                                "the fragment output is always location 0; found location {}{}",
                                n.ival,
                                if (0..P2_FRAG_OUTPUT_MAX as i32).contains(&n.ival) {
                                    P2_HINT
                                } else {
                                    ""
                                }
                            ),
                        );
                        continue;
                    }
                    continue;
                }
                // Profile 2: int and uint varyings, which GLSL requires to be flat.
                let int_varying = p2 && what == "varying" && n.ty.is_integer();
                if int_varying && n.op & D_FLAT == 0 {
                    self.err(
                        i,
                        format_args!(
                            "integer varying '{}' ({}) must be declared flat: integers are not interpolated",
                            name,
                            n.ty.name()
                        ),
                    );
                    continue;
                }
                // Profile 2: int/uint vertex attributes (issue 14; fed by integer layout
                // elements, GL's glVertexAttribIPointer), read as their 32-bit words.
                let int_attribute = p2 && what == "attribute" && n.ty.is_integer();
                // Profile 2: a matrix varying, a slot per column (GLSL 3.30 §4.3.6).
                // Profile 2: a matrix vertex input, a location per column (GLSL 3.30 §4.3.4).
                let mat_varying = p2 && is_matrix(n.ty);
                if mat_varying && q & Q_LAYOUT != 0 {
                    let cols = n.ty.columns() as i32;
                    let (loc, end) = (n.ival, n.ival.saturating_add(cols));
                    let (used, max) = if what == "attribute" {
                        (&mut used_attr, attr_max)
                    } else {
                        (&mut used_var, var_max)
                    };
                    if loc < 0 || end as usize > max {
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} is out of range for '{}' ({} columns take locations {} to {}): the locations are 0 to {}",
                                what, loc, name, cols, loc, end - 1, max - 1
                            ),
                        );
                        continue;
                    }
                    let taken = (loc..end).find_map(|l| {
                        let s = used.get(l as usize).copied().unwrap_or(-1);
                        (s >= 0).then_some((l, s))
                    });
                    if let Some((l, other)) = taken {
                        let other = self.name_of(other);
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} (column {} of '{}') is already used by '{}'",
                                what,
                                l,
                                l - loc,
                                name,
                                other
                            ),
                        );
                        continue;
                    }
                    for l in loc..end {
                        if let Some(t) = used.get_mut(l as usize) {
                            *t = i;
                        }
                    }
                    continue;
                }
                if mat_varying {
                    continue;
                }
                if !float_vec && !int_varying && !int_attribute {
                    self.err(
                        i,
                        format_args!(
                            "{} '{}' has type {}; it must be float, vec2, vec3 or vec4",
                            what,
                            name,
                            n.ty.name()
                        ),
                    );
                    continue;
                }
                if q & Q_LAYOUT != 0 {
                    let (table, max): (&mut [i16], usize) = if what == "attribute" {
                        (&mut used_attr, attr_max)
                    } else {
                        (&mut used_var, var_max)
                    };
                    let loc = n.ival;
                    if loc < 0 || loc as usize >= max {
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} is out of range: the locations are 0 to {}",
                                what,
                                loc,
                                max - 1
                            ),
                        );
                        continue;
                    }
                    let slot = table.get(loc as usize).copied().unwrap_or(-1);
                    if slot >= 0 {
                        let other = self.name_of(slot);
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} is already used by '{}'",
                                what, loc, other
                            ),
                        );
                        continue;
                    }
                    if let Some(t) = table.get_mut(loc as usize) {
                        *t = i;
                    }
                }
            }
        }
        if self.diag.total() > 0 {
            return;
        }
        // Automatic locations and the reflection tables, in declaration order.
        let mut uni_slot = 0usize;
        let mut units = 0usize;
        let mut outputs = 0usize;
        for (k, i) in self.global_decls().enumerate() {
            let n = self.node(i);
            let name = match names.get(k) {
                Some(&(name, _)) => name,
                None => self.name_of(i),
            };
            let q = n.quals;
            let nm: Name = bounded_string(name);
            if n.op & D_BLOCK != 0 && q & (Q_IN | Q_OUT) != 0 {
                // Profile 2: an interface block, a varying per member (`Block.member`).
                let Ok(agg) = self.node_agg(i) else { continue };
                let interp = if n.op & D_FLAT != 0 {
                    Interp::Flat
                } else if n.op & D_NOPERSPECTIVE != 0 {
                    Interp::NoPerspective
                } else {
                    Interp::Smooth
                };
                // A block array (`out B { .. } b[2];`): element by element, `B[e].member`;
                // a matrix member a slot per column, an array member a slot per element
                // (`ioblock`).
                let mut p = 0u16;
                while let Some(m) = self.block_piece(agg, p) {
                    p += 1;
                    let en = m.name.clone();
                    let table = used_var.get_mut(..var_max).unwrap_or(&mut []);
                    let Some(free) = table.iter().position(|&s| s < 0) else {
                        self.err(
                            i,
                            format_args!(
                                "too many varyings: '{}' does not fit; the limit is {}",
                                en, var_max
                            ),
                        );
                        break;
                    };
                    if let Some(t) = table.get_mut(free) {
                        *t = i;
                    }
                    // A member's own interpolation qualifier wins over the block's.
                    let interp = if m.quals & D_FLAT != 0 {
                        Interp::Flat
                    } else if m.quals & D_NOPERSPECTIVE != 0 {
                        Interp::NoPerspective
                    } else if m.quals & 0x80 != 0 {
                        Interp::Smooth
                    } else {
                        interp
                    };
                    if m.quals & D_INVARIANT != 0 && (free as u32) < u32::BITS {
                        self.module.iface.invariant_slots |= 1 << free;
                    }
                    let _ = self.module.iface.varyings.push(Varying {
                        name: en,
                        ty: m.reflect,
                        slot: free as u8,
                        interp,
                    });
                }
                continue;
            }
            if (n.c >= 0 || n.b >= 0) && q & Q_UNIFORM == 0 && q & (Q_IN | Q_OUT) != 0 {
                // Profile 2: an array varying, one slot per element (`v[0]`, `v[1]`, ...).
                let Ok(agg) = self.node_agg(i) else { continue };
                let max = var_max;
                let interp = if n.op & D_FLAT != 0 {
                    Interp::Flat
                } else if n.op & D_NOPERSPECTIVE != 0 {
                    Interp::NoPerspective
                } else {
                    Interp::Smooth
                };
                for k in 0..agg.len {
                    if q & Q_LAYOUT != 0 {
                        // Explicit: element k at N + k (checked and taken above).
                        let mut en: Name = Name::new();
                        let _ =
                            core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k));
                        let _ = self.module.iface.varyings.push(Varying {
                            name: en,
                            ty: n.ty,
                            slot: (n.ival + i32::from(k)) as u8,
                            interp,
                        });
                        continue;
                    }
                    let table = used_var.get_mut(..max).unwrap_or(&mut []);
                    let Some(free) = table.iter().position(|&s| s < 0) else {
                        self.err(
                            i,
                            format_args!(
                                "too many varyings: '{}[{}]' does not fit; the limit is {}",
                                name, k, max
                            ),
                        );
                        break;
                    };
                    if let Some(t) = table.get_mut(free) {
                        *t = i;
                    }
                    let mut en: Name = Name::new();
                    let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k));
                    let _ = self.module.iface.varyings.push(Varying {
                        name: en,
                        ty: n.ty,
                        slot: free as u8,
                        interp,
                    });
                }
                continue;
            }
            if q & Q_UNIFORM != 0 && n.ty.is_sampler() && n.b >= 0 {
                // Profile 2: a sampler array, consecutive units (`tex[0]`, `tex[1]`, ...).
                let Ok(agg) = self.node_agg(i) else { continue };
                let max = self.lim.samplers_max;
                if units + agg.len as usize > max {
                    self.err(
                        i,
                        format_args!(
                            "too many samplers: '{}' would need samplers {} to {}; the limit is {}",
                            name,
                            units + 1,
                            units + agg.len as usize,
                            max
                        ),
                    );
                    continue;
                }
                for k in 0..agg.len as usize {
                    let mut en: Name = Name::new();
                    let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k));
                    let _ = self.module.iface.samplers.push(Sampler {
                        name: en,
                        unit: (units + k) as u8,
                        ty: n.ty,
                    });
                }
                units += agg.len as usize;
                continue;
            }
            if q & Q_UNIFORM != 0 && (n.c >= 0 || n.b >= 0) {
                // Profile 2: a uniform struct or array, one program uniform per leaf.
                let Ok(agg) = self.node_agg(i) else { continue };
                let slots = self.agg_uslots(agg) as usize;
                if uni_slot + slots > self.lim.uniform_vec4_slots_max {
                    let max = self.lim.uniform_vec4_slots_max;
                    self.err(
                        i,
                        format_args!(
                            "too many uniforms: '{}' needs {} vec4 slot(s) from slot {}; the limit is {} vec4 slots (mat3 takes 3, mat4 takes 4)",
                            name, slots, uni_slot, max
                        ),
                    );
                    continue;
                }
                // A uniform block's members are named after the block (`Block.member`).
                let prefix = match self.struct_def(agg) {
                    Some(d) if n.op & D_BLOCK != 0 => self.name_str(d.name),
                    _ => name,
                };
                if self
                    .reflect_uniform(i, prefix, agg, uni_slot, &mut units)
                    .is_ok()
                {
                    uni_slot += slots;
                }
                continue;
            }
            if q & Q_UNIFORM != 0 {
                if n.ty.is_sampler() {
                    if units >= self.lim.samplers_max {
                        let max = self.lim.samplers_max;
                        self.err(
                            i,
                            format_args!(
                                "too many samplers: '{}' would be sampler {}; the limit is {}",
                                name,
                                units + 1,
                                max
                            ),
                        );
                        continue;
                    }
                    let _ = self.module.iface.samplers.push(Sampler {
                        name: nm,
                        unit: units as u8,
                        ty: n.ty,
                    });
                    if let Some(e) = names.get_mut(k) {
                        e.1 = units as i16;
                    }
                    units += 1;
                } else {
                    let slots = n.ty.uniform_slots() as usize;
                    if uni_slot + slots > self.lim.uniform_vec4_slots_max {
                        let max = self.lim.uniform_vec4_slots_max;
                        self.err(
                            i,
                            format_args!(
                                "too many uniforms: '{}' needs {} vec4 slot(s) from slot {}; the limit is {} vec4 slots (mat3 takes 3, mat4 takes 4)",
                                name, slots, uni_slot, max
                            ),
                        );
                        continue;
                    }
                    let _ = self.module.iface.uniforms.push(Uniform {
                        name: nm,
                        ty: n.ty,
                        slot: uni_slot as u16,
                        slots: slots as u8,
                    });
                    if let Some(e) = names.get_mut(k) {
                        e.1 = uni_slot as i16;
                    }
                    uni_slot += slots;
                }
            } else if p2 && is_matrix(n.ty) && vs && q & Q_IN != 0 {
                // Profile 2: a matrix vertex input, column c at its own location named `m[c]`
                // with the column type (GLSL 3.30 §4.3.4; GL's glGetAttribLocation("m") is
                // column 0's location, the others follow it). Without a layout location the
                // columns take the lowest run of consecutive free locations, as GL assigns them.
                let col = vec_type(false, n.ty.components());
                let cols = n.ty.columns() as usize;
                let first = if q & Q_LAYOUT != 0 {
                    n.ival as usize
                } else {
                    let table = used_attr.get_mut(..attr_max).unwrap_or(&mut []);
                    let Some(free) = (0..table.len().saturating_sub(cols - 1)).find(|&l| {
                        table
                            .get(l..l + cols)
                            .is_some_and(|run| run.iter().all(|&s| s < 0))
                    }) else {
                        self.err(
                            i,
                            format_args!(
                                "too many attributes: '{}' ({} consecutive locations) does not fit; the limit is {}",
                                name, cols, attr_max
                            ),
                        );
                        continue;
                    };
                    for t in table.iter_mut().skip(free).take(cols) {
                        *t = i;
                    }
                    free
                };
                for c in 0..cols {
                    let mut en: Name = Name::new();
                    let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, c));
                    let _ = self.module.iface.attributes.push(Attribute {
                        name: en,
                        ty: col,
                        location: (first + c) as u8,
                        components: col.components(),
                    });
                }
            } else if p2 && is_matrix(n.ty) && (q & Q_IN != 0) != vs {
                // Profile 2: a matrix varying, column c in its own slot named `m[c]` with the
                // matrix type (as a matrix member of an interface block).
                let interp = if n.op & D_FLAT != 0 {
                    Interp::Flat
                } else if n.op & D_NOPERSPECTIVE != 0 {
                    Interp::NoPerspective
                } else {
                    Interp::Smooth
                };
                for c in 0..n.ty.columns() as i32 {
                    let mut en: Name = Name::new();
                    let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, c));
                    let slot = if q & Q_LAYOUT != 0 {
                        (n.ival + c) as usize
                    } else {
                        let table = used_var.get_mut(..var_max).unwrap_or(&mut []);
                        let Some(free) = table.iter().position(|&s| s < 0) else {
                            self.err(
                                i,
                                format_args!(
                                    "too many varyings: '{}' does not fit; the limit is {}",
                                    en, var_max
                                ),
                            );
                            break;
                        };
                        if let Some(t) = table.get_mut(free) {
                            *t = i;
                        }
                        free
                    };
                    let _ = self.module.iface.varyings.push(Varying {
                        name: en,
                        ty: n.ty,
                        slot: slot as u8,
                        interp,
                    });
                }
            } else if q & Q_IN != 0 || (vs && q & Q_OUT != 0) {
                let attr = vs && q & Q_IN != 0;
                let (table, what, max): (&mut [i16], &str, usize) = if attr {
                    (&mut used_attr, "attribute", attr_max)
                } else {
                    (&mut used_var, "varying", var_max)
                };
                let table = table.get_mut(..max).unwrap_or(&mut []);
                let loc = if q & Q_LAYOUT != 0 {
                    n.ival as usize
                } else {
                    match table.iter().position(|&s| s < 0) {
                        Some(free) => {
                            if let Some(t) = table.get_mut(free) {
                                *t = i;
                            }
                            free
                        }
                        None => {
                            self.err(
                                i,
                                format_args!(
                                    "too many {}s: '{}' does not fit; the limit is {}",
                                    what, name, max
                                ),
                            );
                            continue;
                        }
                    }
                };
                if let Some(e) = names.get_mut(k) {
                    e.1 = loc as i16;
                }
                if attr {
                    let _ = self.module.iface.attributes.push(Attribute {
                        name: nm,
                        ty: n.ty,
                        location: loc as u8,
                        components: n.ty.components(),
                    });
                } else {
                    let interp = if n.op & D_FLAT != 0 {
                        Interp::Flat
                    } else if n.op & D_NOPERSPECTIVE != 0 {
                        Interp::NoPerspective
                    } else {
                        Interp::Smooth
                    };
                    let _ = self.module.iface.varyings.push(Varying {
                        name: nm,
                        ty: n.ty,
                        slot: loc as u8,
                        interp,
                    });
                }
            } else if q & Q_OUT != 0 {
                outputs += 1;
                if p2 {
                    // Explicit locations were taken above; the others take the lowest free one.
                    let loc = if q & Q_LAYOUT != 0 {
                        n.ival as usize
                    } else {
                        match used_out.iter().position(|&s| s < 0) {
                            Some(free) => {
                                if let Some(t) = used_out.get_mut(free) {
                                    *t = i;
                                }
                                free
                            }
                            None => {
                                let max = self.lim.fragment_outputs_max;
                                self.err(
                                    i,
                                    format_args!(
                                        "too many fragment outputs: '{}' does not fit; the limit is {}",
                                        name, max
                                    ),
                                );
                                continue;
                            }
                        }
                    };
                    if loc == 0 {
                        self.module.iface.color_output = Some(nm.clone());
                    }
                    let _ = self.module.iface.frag_outputs.push(FragOutput {
                        name: nm,
                        ty: n.ty,
                        location: loc as u8,
                    });
                    continue;
                }
                if outputs > 1 {
                    self.err(
                        i,
                        format_args!(
                            "only one fragment output is supported; '{}' is a second one{}",
                            name, P2_HINT
                        ),
                    );
                    continue;
                }
                self.module.iface.color_output = Some(nm);
            }
        }
        if p2 {
            self.invariant_slots();
        }
        if p2 && !vs && outputs > 0 && self.module.iface.color_output.is_none() {
            let first = self
                .global_decls()
                .find(|&i| self.node(i).quals & Q_OUT != 0);
            if let Some(i) = first {
                self.err(
                    i,
                    format_args!(
                        "no fragment output has location 0: location 0 is the target's colour (the other locations are reflected, not stored)"
                    ),
                );
            }
        }
    }

    /// The [`name_key`] and token of every identifier in the tree into `ids`, for
    /// [`Sema::referenced`]: gathered once per compile (by `run`, for its built-in checks and
    /// the prologue) instead of walking the whole tree per global declaration. False when the
    /// tree has more than [`IDENTS_MAX`] identifiers (a larger table cost more to set up on
    /// every compile than it saved); then each check walks the tree. A list the caller owns:
    /// returned by value, it was a 1 KiB copy per compile.
    pub(super) fn identifiers(&self, ids: &mut Idents) -> bool {
        ids.clear();
        for n in self.ast.nodes.iter() {
            if n.kind == Kind::Ident && ids.push((key_of(self.token_bytes(n.tok)), n.tok)).is_err()
            {
                return false;
            }
        }
        true
    }

    /// The bytes of token `tok` (empty when there is none): the same bytes as the name
    /// `name_of` returns for its node, since every identifier token is ASCII.
    pub(super) fn token_bytes(&self, tok: i16) -> &'a [u8] {
        self.toks.get(tok).map_or(&[][..], |t| t.bytes(self.src))
    }

    /// Whether any identifier in the tree names `name` (unused inputs are not loaded).
    pub(super) fn referenced(&self, ids: Option<&[(u32, i16)]>, name: &str) -> bool {
        match ids {
            Some(ids) => {
                let key = name_key(name);
                ids.iter()
                    .any(|&(k, tok)| k == key && same_bytes(self.token_bytes(tok), name.as_bytes()))
            }
            None => self
                .ast
                .nodes
                .iter()
                .enumerate()
                .any(|(i, n)| n.kind == Kind::Ident && self.name_of(i as i16) == name),
        }
    }

    /// Loads of used inputs and uniforms, zeroed outputs, and global initialisers, in
    /// declaration order; then symbols for everything global.
    pub(super) fn prologue(&mut self, ids: Option<&[(u32, i16)]>, names: &GlobalNames<'a>) {
        let vs = self.stage == Stage::Vertex;
        if vs {
            if let Ok(t) = self.temp(1) {
                let _ = self.zero(t);
                if let Some(s) = self.t.syms.get_mut(0) {
                    s.tmp = t;
                }
            }
        } else if self.referenced(ids, "gl_FragCoord") {
            if let Ok(t) = self.temp(1) {
                let _ = self.emit(Op::LoadFcoord, Type::Vec4, 4, t, -1, -1, 0, 0);
                self.module.iface.reads_fragcoord = true;
                if let Some(s) = self.t.syms.get_mut(1) {
                    s.tmp = t;
                }
            }
        }
        if !vs && self.toks.profile == Profile::P2 && self.referenced(ids, "gl_FrontFacing") {
            let is_face = self.t.syms.get(4).map(|x| (x.kind, x.slot))
                == Some((SymKind::SysVal, super::FRONT_FACING_SLOT));
            if is_face {
                if let Ok(t) = self.temp(1) {
                    let _ = self.emit(Op::LoadFace, Type::Bool, 1, t, -1, -1, 0, 0);
                    if let Some(x) = self.t.syms.get_mut(4) {
                        x.tmp = t;
                    }
                }
            }
        }
        if !vs {
            self.depth_prologue();
        } else {
            self.clip_prologue();
        }
        if vs && self.toks.profile == Profile::P2 {
            for (s, name) in [(2usize, "gl_VertexID"), (3, "gl_InstanceID")] {
                let is_sysval = self.t.syms.get(s).map(|x| x.kind) == Some(SymKind::SysVal);
                if !is_sysval || !self.referenced(ids, name) {
                    continue;
                }
                let value = self.t.syms.get(s).map_or(0, |x| x.slot);
                if let Ok(t) = self.temp(1) {
                    let _ = self.emit(Op::LoadSysval, Type::Int, 1, t, -1, -1, value, 0);
                    // Profile 2's ints are bit patterns: the float the IR loads converts.
                    let _ = self.emit(Op::Cvt, Type::Int, 1, t, t, -1, CVT_F2I, 0);
                    if value == SYSVAL_INSTANCE_ID {
                        self.module.iface.reads_instance_id = true;
                    } else {
                        self.module.iface.reads_vertex_id = true;
                    }
                    if let Some(x) = self.t.syms.get_mut(s) {
                        x.tmp = t;
                    }
                }
            }
        }
        for (k, i) in self.global_decls().enumerate() {
            let n = self.node(i);
            if self.diag.full() {
                return;
            }
            self.cur_node = i;
            self.stmt_mark = self.ntemp;
            let (name, reflected) = match names.get(k) {
                Some(&entry) => entry,
                None => (self.name_of(i), -1),
            };
            let q = n.quals;
            // Only uniforms and plain inputs ask whether the source names them (their loads
            // are skipped when it does not): outputs and plain globals need no scan.
            let used = q & (Q_UNIFORM | Q_IN) != 0 && self.referenced(ids, name);
            let r: R<()> = (|| {
                let agg_decl = n.c >= 0 || n.b >= 0;
                if agg_decl && q & Q_UNIFORM != 0 && n.ty.is_sampler() {
                    // Profile 2: a sampler array: its units follow its first one.
                    let agg = self.node_agg(i)?;
                    let first = self.first_element(name, true);
                    let s = self.add_sym(i, name, SymKind::Sampler, Type::None, -1)?;
                    if let Some(sym) = self.t.syms.get_mut(s) {
                        sym.agg = agg;
                        sym.slot = first as i16;
                    }
                    return Ok(());
                }
                if n.op & D_BLOCK != 0 && q & (Q_IN | Q_OUT) != 0 {
                    // Profile 2: an interface block: member k at temp k.
                    let agg = self.node_agg(i)?;
                    let Some(d) = self.struct_def(agg) else {
                        return Err(());
                    };
                    // Laid out as a struct (a block array: element after element); each
                    // varying piece (`ioblock`) is one temp.
                    let tmp = self.temp(self.agg_temps(agg))?;
                    let kind = if q & Q_IN != 0 {
                        SymKind::In
                    } else {
                        SymKind::Out
                    };
                    let mut p = 0u16;
                    while let Some(pc) = self.block_piece(agg, p) {
                        p += 1;
                        let t = tmp.saturating_add(pc.toff.min(i16::MAX as u16) as i16);
                        if kind == SymKind::In {
                            let slot = self.piece_slot(&pc.name);
                            self.emit(Op::LoadVar, pc.emit, 4, t, -1, -1, slot as i16, 0)?;
                        } else {
                            self.zero(t)?;
                        }
                    }
                    let s = self.add_sym(i, name, kind, Type::None, tmp)?;
                    if let Some(sym) = self.t.syms.get_mut(s) {
                        sym.agg = agg;
                    }
                    if n.ival == -2 {
                        // Without an instance name: each member is a name (slot -2: stored
                        // with the block, not on its own).
                        let mut toff = 0u16;
                        for k in 0..d.count {
                            let Some(m) = self.t.members.get((d.first + k) as usize).copied()
                            else {
                                break;
                            };
                            let t = tmp.saturating_add(toff.min(i16::MAX as u16) as i16);
                            toff = toff.saturating_add(self.agg_temps(m.ty));
                            let s = self.add_sym(i, self.name_str(m.name), kind, m.ty.base, t)?;
                            if let Some(sym) = self.t.syms.get_mut(s) {
                                sym.slot = -2;
                                if m.ty.is_agg() {
                                    sym.agg = m.ty;
                                }
                            }
                        }
                    }
                    return Ok(());
                }
                if agg_decl && q & (Q_IN | Q_OUT) != 0 {
                    // Profile 2: an array varying, a block of temps (element k at temp k).
                    let agg = self.node_agg(i)?;
                    let tmp = self.temp(agg.len)?;
                    let kind = if q & Q_IN != 0 {
                        SymKind::In
                    } else {
                        SymKind::Out
                    };
                    for k in 0..agg.len {
                        let t = tmp + k as i16;
                        if kind == SymKind::In {
                            let slot = self.varying_slot(name, k);
                            self.emit(Op::LoadVar, n.ty, 4, t, -1, -1, slot as i16, 0)?;
                        } else {
                            self.zero(t)?;
                        }
                    }
                    let s = self.add_sym(i, name, kind, n.ty, tmp)?;
                    if let Some(sym) = self.t.syms.get_mut(s) {
                        sym.agg = agg;
                    }
                    return Ok(());
                }
                if q & Q_UNIFORM != 0 && agg_decl {
                    // Profile 2: a uniform struct or array: its leaves' slots follow its first.
                    let agg = self.node_agg(i)?;
                    let prefix = match self.struct_def(agg) {
                        Some(d) if n.op & D_BLOCK != 0 => self.name_str(d.name),
                        _ => name,
                    };
                    let first = self.first_element(prefix, false);
                    let tmp = if used {
                        self.load_uniform_agg(i, agg, first)?
                    } else {
                        -1
                    };
                    let unit = if self.agg_units(agg) > 0 {
                        i8::try_from(self.first_element(prefix, true)).unwrap_or(-1)
                    } else {
                        -1
                    };
                    let s = self.add_sym(i, name, SymKind::Uniform, Type::None, tmp)?;
                    if let Some(sym) = self.t.syms.get_mut(s) {
                        sym.agg = agg;
                        sym.slot = first as i16;
                        sym.unit = unit;
                    }
                    return Ok(());
                }
                if q & Q_UNIFORM != 0 {
                    if n.ty.is_sampler() {
                        let unit = if reflected >= 0 {
                            Some(reflected as u8)
                        } else {
                            self.module
                                .iface
                                .samplers
                                .iter()
                                .find(|s| same_name(s.name.as_str(), name))
                                .map(|s| s.unit)
                        };
                        let s = self.add_sym(i, name, SymKind::Sampler, n.ty, -1)?;
                        if let Some(sym) = self.t.syms.get_mut(s) {
                            sym.slot = unit.map(|u| u as i16).unwrap_or(0);
                        }
                        return Ok(());
                    }
                    let slot = if reflected >= 0 {
                        reflected as u16
                    } else {
                        self.module
                            .iface
                            .uniforms
                            .iter()
                            .find(|u| same_name(u.name.as_str(), name))
                            .map(|u| u.slot)
                            .unwrap_or(0)
                    };
                    let mut tmp = -1;
                    if used {
                        let count = n.ty.uniform_slots();
                        tmp = self.temp(count as u16)?;
                        self.emit(Op::LoadUni, n.ty, 4, tmp, -1, -1, slot as i16, count as i16)?;
                        if n.op & D_ROW_MAJOR != 0 {
                            self.transpose_in_place(tmp, n.ty)?;
                        }
                        if n.ty == Type::Bool {
                            // Any non-zero value the application stores means true.
                            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                            self.emit(Op::Cmp, Type::Bool, 1, tmp, tmp, z, CmpCode::Ne as i16, 0)?;
                        } else if is_bvec(n.ty) {
                            let v = self.to_bools(Val::temp(float_of(n.ty), tmp))?;
                            tmp = v.tmp;
                        }
                    }
                    self.add_sym(i, name, SymKind::Uniform, n.ty, tmp)?;
                } else if q & Q_IN != 0 && vs && is_matrix(n.ty) {
                    // Profile 2: a matrix vertex input, column by column (`m[c]`).
                    let cols = n.ty.columns() as u16;
                    let tmp = self.temp(cols)?;
                    let col = vec_type(false, n.ty.components());
                    for c in 0..cols {
                        let loc = self.attr_column_location(name, c);
                        self.emit(Op::LoadAttr, col, 4, tmp + c as i16, -1, -1, loc as i16, 0)?;
                    }
                    self.add_sym(i, name, SymKind::In, n.ty, tmp)?;
                } else if q & Q_IN != 0 && !vs && is_matrix(n.ty) {
                    // Profile 2: a matrix varying, column by column (`m[c]`).
                    let cols = n.ty.columns() as u16;
                    let tmp = self.temp(cols)?;
                    let col = vec_type(false, n.ty.components());
                    for c in 0..cols {
                        let slot = self.varying_slot(name, c);
                        self.emit(Op::LoadVar, col, 4, tmp + c as i16, -1, -1, slot as i16, 0)?;
                    }
                    self.add_sym(i, name, SymKind::In, n.ty, tmp)?;
                } else if q & Q_IN != 0 {
                    let mut tmp = -1;
                    if used {
                        tmp = self.temp(1)?;
                        if vs {
                            let loc = if reflected >= 0 {
                                reflected as u8
                            } else {
                                self.module
                                    .iface
                                    .attributes
                                    .iter()
                                    .find(|a| same_name(a.name.as_str(), name))
                                    .map(|a| a.location)
                                    .unwrap_or(0)
                            };
                            self.emit(Op::LoadAttr, n.ty, 4, tmp, -1, -1, loc as i16, 0)?;
                        } else {
                            let slot = if reflected >= 0 {
                                reflected as u8
                            } else {
                                self.module
                                    .iface
                                    .varyings
                                    .iter()
                                    .find(|v| same_name(v.name.as_str(), name))
                                    .map(|v| v.slot)
                                    .unwrap_or(0)
                            };
                            self.emit(Op::LoadVar, n.ty, 4, tmp, -1, -1, slot as i16, 0)?;
                        }
                    }
                    self.add_sym(i, name, SymKind::In, n.ty, tmp)?;
                } else if q & Q_OUT != 0 {
                    let cols = if vs && is_matrix(n.ty) {
                        n.ty.columns() as u16
                    } else {
                        1
                    };
                    let tmp = self.temp(cols)?;
                    for c in 0..cols as i16 {
                        self.zero(tmp + c)?;
                    }
                    self.add_sym(i, name, SymKind::Out, n.ty, tmp)?;
                } else {
                    self.local_decl(i, n, true)?;
                }
                Ok(())
            })();
            let _ = r;
        }
    }

    /// Profile 2: the first vec4 slot of uniform struct or array `name` (or, with `sampler`,
    /// the first unit of a sampler array): its first leaf is reflected as `name` followed by
    /// `.member` or `[0]`.
    fn first_element(&self, name: &str, sampler: bool) -> u16 {
        let of = |s: &str| {
            s.len() > name.len()
                && matches!(s.as_bytes().get(name.len()), Some(b'.') | Some(b'['))
                && s.get(..name.len()) == Some(name)
        };
        if sampler {
            let s = &self.module.iface.samplers;
            return s
                .iter()
                .find(|u| of(u.name.as_str()))
                .map(|u| u.unit as u16)
                .unwrap_or(0);
        }
        let u = &self.module.iface.uniforms;
        u.iter()
            .find(|u| of(u.name.as_str()))
            .map(|u| u.slot)
            .unwrap_or(0)
    }

    /// Profile 2: the varying name of a block member, `Block.member`, or `Block[e].member` for
    /// element `e` of a block array (as GL reflects it).
    pub(super) fn block_member_name(&self, block: &str, elem: Option<u16>, member: &str) -> Name {
        let mut en: Name = Name::new();
        let _ = match elem {
            Some(e) => {
                core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}].{}", block, e, member))
            }
            None => core::fmt::Write::write_fmt(&mut en, format_args!("{}.{}", block, member)),
        };
        en
    }

    /// Profile 2: an interface block's members must be float, vec2, vec3 or vec4.
    fn check_varying_block(&mut self, i: i16, agg: AggTy) -> R<()> {
        let Some(d) = self.struct_def(agg) else {
            return Err(());
        };
        let n = self.node(i);
        let block_interp = n.op & (D_FLAT | D_NOPERSPECTIVE) != 0 || n.quals & Q_SMOOTH != 0;
        for k in d.first..d.first + d.count {
            let Some(m) = self.t.members.get(k as usize).copied() else {
                break;
            };
            if block_interp && m.quals & (D_FLAT | D_NOPERSPECTIVE | 0x80) != 0 {
                bail!(
                    self,
                    i,
                    "member '{}' of interface block '{}' has an interpolation qualifier, and so does the block: give it on one of them",
                    self.name_str(m.name),
                    self.name_str(d.name)
                );
            }
            // int/uint scalar, vector and array members, as plain integer varyings: flat (the
            // member's own qualifier or the block's).
            self.check_block_member_type(i, self.name_str(d.name), self.name_str(m.name), m.ty)?;
            let int_member = m.ty.base.is_integer();
            if int_member && (m.quals | n.op) & D_FLAT == 0 {
                bail!(
                    self,
                    i,
                    "integer member '{}' ({}) of interface block '{}' must be flat (on the member or the block): integers are not interpolated",
                    self.name_str(m.name),
                    m.ty.base.name(),
                    self.name_str(d.name)
                );
            }
        }
        Ok(())
    }

    /// Profile 2: the slot of element `k` of array varying `name` (`name[k]`).
    /// The location of column `k` of matrix vertex input `name` (reflected as `name[k]`).
    fn attr_column_location(&self, name: &str, k: u16) -> u8 {
        let mut en: Name = Name::new();
        let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k));
        self.module
            .iface
            .attributes
            .iter()
            .find(|a| a.name == en)
            .map(|a| a.location)
            .unwrap_or(0)
    }

    fn varying_slot(&self, name: &str, k: u16) -> u8 {
        let mut en: Name = Name::new();
        let _ = core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k));
        self.module
            .iface
            .varyings
            .iter()
            .find(|v| v.name == en)
            .map(|v| v.slot)
            .unwrap_or(0)
    }

    /// The gl_FragDepth symbol (profile 2, only when the source names it; one of the first
    /// built-ins), if any.
    fn depth_sym(&self) -> Option<usize> {
        self.t
            .syms
            .iter()
            .take(8)
            .position(|s| s.kind == SymKind::FragDepth)
    }

    /// Fragment stage: gl_FragDepth starts as the interpolated window depth (gl_FragCoord.z),
    /// the value a path that does not write it keeps (the documented choice for GLSL's
    /// undefined value).
    fn depth_prologue(&mut self) {
        let Some(s) = self.depth_sym() else { return };
        let Ok(t) = self.temp(1) else { return };
        let fc = match self.t.syms.get(1).map(|x| x.tmp) {
            Some(f) if f >= 0 => f,
            _ => {
                let Ok(f) = self.temp(1) else { return };
                let _ = self.emit(Op::LoadFcoord, Type::Vec4, 4, f, -1, -1, 0, 0);
                self.module.iface.reads_fragcoord = true;
                f
            }
        };
        // SWZ .z into lane 0 (selector 2).
        let _ = self.emit(Op::Swz, Type::Float, 1, t, fc, -1, 2, 0);
        if let Some(x) = self.t.syms.get_mut(s) {
            x.tmp = t;
        }
    }

    /// Vertex stage: gl_ClipDistance's CLIP_DISTANCE_MAX temps, zero (an element a path does
    /// not write is 0: on its plane, never clipped).
    fn clip_prologue(&mut self) {
        let Some(s) = self
            .t
            .syms
            .iter()
            .take(8)
            .position(|s| s.kind == SymKind::ClipDistance)
        else {
            return;
        };
        let Ok(t) = self.temp(CLIP_DISTANCE_MAX as u16) else {
            return;
        };
        for k in 0..CLIP_DISTANCE_MAX as i16 {
            let _ = self.zero(t + k);
        }
        if let Some(x) = self.t.syms.get_mut(s) {
            x.tmp = t;
        }
    }

    pub(super) fn zero(&mut self, t: i16) -> R<()> {
        let base = if self.zero4 >= 0 && !self.dry {
            self.zero4
        } else {
            let len = self.module.imms.len();
            let base = self.imm(&[0.0, 0.0, 0.0, 0.0])?;
            // Only a match found in the pool stays the first match: appended zeros can
            // complete an earlier window with the values before them (`0, 0, 0, 0, 0`).
            if !self.dry && self.module.imms.len() == len {
                self.zero4 = base;
            }
            base
        };
        self.emit(Op::Const, Type::Vec4, 4, t, -1, -1, base, 0)
    }

    /// Stores of gl_Position, the vertex outputs or the colour, once, at the end of main.
    pub(super) fn epilogue(&mut self, main: i16) -> R<()> {
        self.cur_node = main;
        if self.stage == Stage::Vertex {
            if !self.pos_written {
                bail!(self, main, "vertex shader does not write gl_Position");
            }
            self.module.iface.writes_position = true;
            let t = self.t.syms.first().map(|s| s.tmp).unwrap_or(-1);
            self.emit(Op::StorePos, Type::Vec4, 4, -1, t, -1, 0, 0)?;
            let clip = self
                .t
                .syms
                .iter()
                .take(8)
                .find(|s| s.kind == SymKind::ClipDistance)
                .map(|s| s.tmp)
                .filter(|&t| t >= 0);
            if let Some(base) = clip {
                // Elements 0..=highest written are the planes: one below that no path writes
                // is 0 (never clips), so enabling it changes nothing, and VirGL's
                // NUM_CLIPDIST_ENABLED counts from 0.
                let hi = 8 - self.clip_written.leading_zeros();
                self.clip_written = (((1u16 << hi) - 1) & 0xff) as u8;
                self.module.iface.clip_distances = self.clip_written;
                for k in 0..CLIP_DISTANCE_MAX as i16 {
                    if self.clip_written & (1 << k) != 0 {
                        self.emit(Op::StoreClip, Type::Float, 1, -1, base + k, -1, k, 0)?;
                    }
                }
            }
            for i in 0..self.t.syms.len() {
                let Some(s) = self.sym(i) else { continue };
                if s.kind != SymKind::Out || s.slot == -2 {
                    continue;
                }
                if s.agg.strukt != 0 {
                    // Profile 2: an interface block, member by member.
                    let (tmp, agg) = (s.tmp, s.agg);
                    let mut p = 0u16;
                    while let Some(pc) = self.block_piece(agg, p) {
                        p += 1;
                        let slot = self.piece_slot(&pc.name);
                        let t = tmp.saturating_add(pc.toff.min(i16::MAX as u16) as i16);
                        self.emit(Op::StoreVar, pc.emit, 4, -1, t, -1, slot as i16, 0)?;
                    }
                    continue;
                }
                if s.agg.len > 0 {
                    // Profile 2: an array varying, element by element.
                    let (tmp, ty, name, len) = (s.tmp, s.ty, self.sym_name(s), s.agg.len);
                    let ty = if ty == Type::None { Type::Vec4 } else { ty };
                    for k in 0..len {
                        let slot = self.varying_slot(name, k);
                        self.emit(Op::StoreVar, ty, 4, -1, tmp + k as i16, -1, slot as i16, 0)?;
                    }
                    continue;
                }
                if is_matrix(s.ty) {
                    // Profile 2: a matrix varying, column by column (`m[c]`).
                    let (tmp, ty, name) = (s.tmp, s.ty, self.sym_name(s));
                    let col = vec_type(false, ty.components());
                    for c in 0..ty.columns() as u16 {
                        let slot = self.varying_slot(name, c);
                        let t = tmp + c as i16;
                        self.emit(Op::StoreVar, col, 4, -1, t, -1, slot as i16, 0)?;
                    }
                    continue;
                }
                let (tmp, ty) = (s.tmp, s.ty);
                let slot = self
                    .module
                    .iface
                    .varyings
                    .iter()
                    .find(|v| same_name(v.name.as_str(), self.sym_name(s)))
                    .map(|v| v.slot)
                    .unwrap_or(0);
                self.emit(Op::StoreVar, ty, 4, -1, tmp, -1, slot as i16, 0)?;
            }
        } else {
            if self.depth_written {
                if let Some(t) = self
                    .depth_sym()
                    .and_then(|s| self.t.syms.get(s))
                    .map(|s| s.tmp)
                {
                    self.module.iface.writes_depth = true;
                    self.emit(Op::StoreDepth, Type::Float, 1, -1, t, -1, 0, 0)?;
                }
            }
            // The colour: the only output (profile 1), or the one at location 0 (profile 2).
            let colour = self.module.iface.color_output.clone();
            let out = self
                .t
                .syms
                .iter()
                .find(|s| {
                    s.kind == SymKind::Out
                        && colour
                            .as_ref()
                            .is_none_or(|c| same_name(c.as_str(), self.sym_name(s)))
                })
                .map(|s| (s.tmp, s.ty));
            match out {
                Some((t, Type::Vec4)) => {
                    self.emit(Op::StoreColor, Type::Vec4, 4, -1, t, -1, 0, 0)?
                }
                Some((t, ty)) => {
                    // A float/vec2/vec3 output: the channels it lacks are written as 0, alpha
                    // included, as Mesa writes them to an RGBA8 target.
                    let c = self.temp(1)?;
                    self.zero(c)?;
                    self.emit(Op::Mov, Type::Vec4, ty.components(), c, t, -1, 0, 0)?;
                    self.emit(Op::StoreColor, Type::Vec4, 4, -1, c, -1, 0, 0)?
                }
                None => bail!(
                    self,
                    main,
                    "fragment shader has no output: declare one 'out vec4 <name>;'"
                ),
            }
        }
        Ok(())
    }
}
