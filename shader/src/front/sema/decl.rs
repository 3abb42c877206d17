//! Global declarations: interface binding (attributes, varyings, uniforms, samplers, outputs),
//! the used-global check, and the prologue and epilogue around `main`.
use heapless::Vec;

use super::scope::{key_of, name_key, same_bytes, same_name};
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::front::diag::{bounded_string, P2_HINT};
use crate::ir::*;
use crate::limits::*;

/// Identifiers gathered for the used-global check (see `Sema::identifiers`).
const IDENTS_MAX: usize = 128;

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

    /// Interface checks and slot binding: attributes, varyings, uniforms, samplers, the output.
    pub(super) fn bind_interface(&mut self) {
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
        for i in self.global_decls() {
            let n = self.node(i);
            let name = self.name_of(i);
            let q = n.quals;
            if name.starts_with("gl_") {
                self.err(i, format_args!("names beginning with 'gl_' are reserved"));
                continue;
            }
            let io = q & (Q_IN | Q_OUT) != 0;
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
            if n.ty == Type::Sampler2D && q & Q_UNIFORM == 0 {
                self.err(i, format_args!("sampler2D must be a uniform"));
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
                if !float_vec && !int_varying {
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
        for i in self.global_decls() {
            let n = self.node(i);
            let name = self.name_of(i);
            let q = n.quals;
            let nm: Name = bounded_string(name);
            if q & Q_UNIFORM != 0 {
                if n.ty == Type::Sampler2D {
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
                    });
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
                    uni_slot += slots;
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

    /// The [`name_key`] and node of every identifier in the tree, for [`Sema::referenced`]:
    /// gathered once instead of walking the whole tree per global declaration. None when the
    /// tree has more than [`IDENTS_MAX`] identifiers (a larger table cost more to set up on
    /// every compile than it saved); then each check walks the tree.
    pub(super) fn identifiers(&self) -> Option<Vec<(u32, i16), IDENTS_MAX>> {
        let mut ids = Vec::new();
        for n in self.ast.nodes.iter() {
            if n.kind == Kind::Ident {
                ids.push((key_of(self.token_bytes(n.tok)), n.tok)).ok()?;
            }
        }
        Some(ids)
    }

    /// The bytes of token `tok` (empty when there is none): the same bytes as the name
    /// `name_of` returns for its node, since every identifier token is ASCII.
    pub(super) fn token_bytes(&self, tok: i16) -> &'a [u8] {
        self.toks.get(tok).map_or(&[][..], |t| t.bytes(self.src))
    }

    /// Whether any identifier in the tree names `name` (unused inputs are not loaded).
    pub(super) fn referenced(&self, ids: &Option<Vec<(u32, i16), IDENTS_MAX>>, name: &str) -> bool {
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
    pub(super) fn prologue(&mut self) {
        let vs = self.stage == Stage::Vertex;
        let ids = self.identifiers();
        if vs {
            if let Ok(t) = self.temp(1) {
                let _ = self.zero(t);
                if let Some(s) = self.syms.get_mut(0) {
                    s.tmp = t;
                }
            }
        } else if self.referenced(&ids, "gl_FragCoord") {
            if let Ok(t) = self.temp(1) {
                let _ = self.emit(Op::LoadFcoord, Type::Vec4, 4, t, -1, -1, 0, 0);
                self.module.iface.reads_fragcoord = true;
                if let Some(s) = self.syms.get_mut(1) {
                    s.tmp = t;
                }
            }
        }
        for i in self.global_decls() {
            let n = self.node(i);
            if self.diag.full() {
                return;
            }
            self.cur_node = i;
            self.stmt_mark = self.ntemp;
            let name = self.name_of(i);
            let q = n.quals;
            let used = self.referenced(&ids, name);
            let r: R<()> = (|| {
                if q & Q_UNIFORM != 0 {
                    if n.ty == Type::Sampler2D {
                        let unit = self
                            .module
                            .iface
                            .samplers
                            .iter()
                            .find(|s| same_name(s.name.as_str(), name))
                            .map(|s| s.unit);
                        let s = self.add_sym(i, name, SymKind::Sampler, n.ty, -1)?;
                        if let Some(sym) = self.syms.get_mut(s) {
                            sym.slot = unit.map(|u| u as i16).unwrap_or(0);
                        }
                        return Ok(());
                    }
                    let slot = self
                        .module
                        .iface
                        .uniforms
                        .iter()
                        .find(|u| same_name(u.name.as_str(), name))
                        .map(|u| u.slot)
                        .unwrap_or(0);
                    let mut tmp = -1;
                    if used {
                        let count = n.ty.uniform_slots();
                        tmp = self.temp(count as u16)?;
                        self.emit(Op::LoadUni, n.ty, 4, tmp, -1, -1, slot as i16, count as i16)?;
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
                } else if q & Q_IN != 0 {
                    let mut tmp = -1;
                    if used {
                        tmp = self.temp(1)?;
                        if vs {
                            let loc = self
                                .module
                                .iface
                                .attributes
                                .iter()
                                .find(|a| same_name(a.name.as_str(), name))
                                .map(|a| a.location)
                                .unwrap_or(0);
                            self.emit(Op::LoadAttr, n.ty, 4, tmp, -1, -1, loc as i16, 0)?;
                        } else {
                            let slot = self
                                .module
                                .iface
                                .varyings
                                .iter()
                                .find(|v| same_name(v.name.as_str(), name))
                                .map(|v| v.slot)
                                .unwrap_or(0);
                            self.emit(Op::LoadVar, n.ty, 4, tmp, -1, -1, slot as i16, 0)?;
                        }
                    }
                    self.add_sym(i, name, SymKind::In, n.ty, tmp)?;
                } else if q & Q_OUT != 0 {
                    let tmp = self.temp(1)?;
                    self.zero(tmp)?;
                    self.add_sym(i, name, SymKind::Out, n.ty, tmp)?;
                } else {
                    self.local_decl(i, n, true)?;
                }
                Ok(())
            })();
            let _ = r;
        }
    }

    pub(super) fn zero(&mut self, t: i16) -> R<()> {
        let base = self.imm(&[0.0, 0.0, 0.0, 0.0])?;
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
            let t = self.syms.first().map(|s| s.tmp).unwrap_or(-1);
            self.emit(Op::StorePos, Type::Vec4, 4, -1, t, -1, 0, 0)?;
            for i in 0..self.syms.len() {
                let Some(s) = self.sym(i) else { continue };
                if s.kind != SymKind::Out {
                    continue;
                }
                let (tmp, ty) = (s.tmp, s.ty);
                let slot = self
                    .module
                    .iface
                    .varyings
                    .iter()
                    .find(|v| same_name(v.name.as_str(), s.name))
                    .map(|v| v.slot)
                    .unwrap_or(0);
                self.emit(Op::StoreVar, ty, 4, -1, tmp, -1, slot as i16, 0)?;
            }
        } else {
            // The colour: the only output (profile 1), or the one at location 0 (profile 2).
            let colour = self.module.iface.color_output.clone();
            let out = self
                .syms
                .iter()
                .find(|s| {
                    s.kind == SymKind::Out
                        && colour
                            .as_ref()
                            .is_none_or(|c| same_name(c.as_str(), s.name))
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
