//! Vertex layouts and their full validation: every element's bytes lie inside the stride,
//! locations are unique and below 8, 1-4 32-bit components, 4-byte alignment, vertex bytes a
//! positive multiple of the stride, and the program's required attributes present with their
//! component kind (float elements for float attributes, 32-bit integer elements for `int`/`uint`
//! ones, as GL pairs glVertexAttribPointer / glVertexAttribIPointer with the attribute type).
//!
//! This module must never touch mesh storage or backends; it only judges layouts.

use heapless::Vec as HVec;

use crate::error::LayoutError;
use crate::limits::*;
use crate::program::AttributeReq;

/// What the 32-bit words of an element are (profile 2's integer attributes, issue 14). The
/// words are passed to the shader bit for bit in every case: an integer element's words reach an
/// `int`/`ivecN` (`I32`) or `uint`/`uvecN` (`U32`) attribute unconverted, as
/// glVertexAttribIPointer does (vertex data holds them as `f32::from_bits`, see [`int_word`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum ElementKind {
    /// 32-bit floats (the default; glVertexAttribPointer with GL_FLOAT).
    #[default]
    F32,
    /// 32-bit two's-complement integers (glVertexAttribIPointer with GL_INT).
    I32,
    /// 32-bit unsigned integers (glVertexAttribIPointer with GL_UNSIGNED_INT).
    U32,
}

impl ElementKind {
    /// `f32`, `i32` or `u32` (error messages, the mock log).
    pub fn name(self) -> &'static str {
        match self {
            ElementKind::F32 => "f32",
            ElementKind::I32 => "i32",
            ElementKind::U32 => "u32",
        }
    }

    /// The kind of element an attribute of GLSL type `ty` needs (`int`/`ivecN`: I32,
    /// `uint`/`uvecN`: U32, everything else F32).
    pub fn of_type(ty: shader::ir::Type) -> ElementKind {
        use shader::ir::Type as T;
        match ty {
            T::Int | T::IVec2 | T::IVec3 | T::IVec4 => ElementKind::I32,
            T::Uint | T::UVec2 | T::UVec3 | T::UVec4 => ElementKind::U32,
            _ => ElementKind::F32,
        }
    }
}

/// The vertex-data word holding the integer `v` bit for bit (for an `I32` element).
pub fn int_word(v: i32) -> f32 {
    f32::from_bits(v as u32)
}

/// The vertex-data word holding the unsigned integer `v` bit for bit (for a `U32` element).
pub fn uint_word(v: u32) -> f32 {
    f32::from_bits(v)
}

/// One attribute stream inside an interleaved vertex (32-bit words: floats unless the layout
/// gives its location another [`ElementKind`], see [`VertexLayout::with_kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub location: u8,
    /// 32-bit components, 1..=4.
    pub components: u8,
    /// Byte offset inside the vertex.
    pub offset: u32,
}

/// An interleaved vertex layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexLayout {
    pub stride: u32,
    pub elements: HVec<Element, LAYOUT_ELEMENTS_MAX>,
    /// Instance divisor by attribute location (0: per vertex, the default; N: the element
    /// advances every N instances, reading vertex row `instance / N` of the same buffer).
    pub(crate) divisors: [u32; ATTRIBUTE_LOCATIONS as usize],
    /// Component kind by attribute location (F32, the default, unless set by `with_kind`).
    pub(crate) kinds: [ElementKind; ATTRIBUTE_LOCATIONS as usize],
}

impl VertexLayout {
    /// Builds a layout from a slice; more than `LAYOUT_ELEMENTS_MAX` elements is an error.
    pub fn new(stride: u32, elements: &[Element]) -> Result<VertexLayout, LayoutError> {
        let mut v = HVec::new();
        for e in elements {
            v.push(*e).map_err(|_| LayoutError::ElementCount {
                count: elements.len(),
            })?;
        }
        Ok(VertexLayout {
            stride,
            elements: v,
            divisors: [0; ATTRIBUTE_LOCATIONS as usize],
            kinds: [ElementKind::F32; ATTRIBUTE_LOCATIONS as usize],
        })
    }

    /// The layout with the element at `location` made per instance: it advances every
    /// `divisor` instances (row `instance / divisor` of the vertex buffer) instead of per
    /// vertex; 0 makes it per vertex again. The location must have an element.
    pub fn instanced(mut self, location: u8, divisor: u32) -> Result<VertexLayout, LayoutError> {
        if self.element(location).is_none() {
            return Err(LayoutError::DivisorWithoutElement { location });
        }
        match self.divisors.get_mut(location as usize) {
            Some(d) => *d = divisor,
            None => return Err(LayoutError::DivisorWithoutElement { location }),
        }
        Ok(self)
    }

    /// The layout with the element at `location` made of `kind` words (`I32`/`U32` for a
    /// program's `int`/`uint` attribute: GL's glVertexAttribIPointer); F32 is the default. The
    /// location must have an element.
    pub fn with_kind(
        mut self,
        location: u8,
        kind: ElementKind,
    ) -> Result<VertexLayout, LayoutError> {
        if self.element(location).is_none() {
            return Err(LayoutError::KindWithoutElement { location });
        }
        match self.kinds.get_mut(location as usize) {
            Some(k) => *k = kind,
            None => return Err(LayoutError::KindWithoutElement { location }),
        }
        Ok(self)
    }

    /// The component kind of the element at `location` (F32 unless set).
    pub fn kind(&self, location: u8) -> ElementKind {
        self.kinds
            .get(location as usize)
            .copied()
            .unwrap_or_default()
    }

    /// True when some element holds integers.
    pub fn has_int(&self) -> bool {
        self.elements
            .iter()
            .any(|e| self.kind(e.location) != ElementKind::F32)
    }

    /// The instance divisor of `location` (0: per vertex).
    pub fn divisor(&self, location: u8) -> u32 {
        self.divisors.get(location as usize).copied().unwrap_or(0)
    }

    /// True when some element is per instance.
    pub fn has_instanced(&self) -> bool {
        self.elements.iter().any(|e| self.divisor(e.location) != 0)
    }

    /// The builder's 40-byte layout: location 0 position xyz1 (4 floats at 0), location 1
    /// normal xyz0 (4 floats at 16), location 2 uv (2 floats at 32).
    pub fn canonical() -> VertexLayout {
        let mut elements = HVec::new();
        for e in [
            Element {
                location: 0,
                components: 4,
                offset: 0,
            },
            Element {
                location: 1,
                components: 4,
                offset: 16,
            },
            Element {
                location: 2,
                components: 2,
                offset: 32,
            },
        ] {
            // Capacity 8 always holds 3.
            let _ = elements.push(e);
        }
        VertexLayout {
            stride: CANONICAL_STRIDE,
            elements,
            divisors: [0; ATTRIBUTE_LOCATIONS as usize],
            kinds: [ElementKind::F32; ATTRIBUTE_LOCATIONS as usize],
        }
    }

    /// Structural checks of the layout alone.
    pub fn validate(&self) -> Result<(), LayoutError> {
        if self.stride < STRIDE_MIN || self.stride > STRIDE_MAX || !self.stride.is_multiple_of(4) {
            return Err(LayoutError::Stride {
                stride: self.stride,
            });
        }
        let n = self.elements.len();
        if n == 0 || n > LAYOUT_ELEMENTS_MAX {
            return Err(LayoutError::ElementCount { count: n });
        }
        let mut seen = 0u8;
        for (i, e) in self.elements.iter().enumerate() {
            if e.location >= ATTRIBUTE_LOCATIONS {
                return Err(LayoutError::Location {
                    element: i,
                    location: e.location,
                });
            }
            let bit = 1u8 << e.location;
            if seen & bit != 0 {
                return Err(LayoutError::DuplicateLocation {
                    location: e.location,
                });
            }
            seen |= bit;
            if e.components == 0 || e.components > 4 {
                return Err(LayoutError::Components {
                    element: i,
                    components: e.components,
                });
            }
            if e.offset % 4 != 0 {
                return Err(LayoutError::Unaligned {
                    element: i,
                    offset: e.offset,
                });
            }
            let end = e.offset.saturating_add(4 * e.components as u32);
            if end > self.stride {
                return Err(LayoutError::OutsideStride {
                    element: i,
                    end,
                    stride: self.stride,
                });
            }
        }
        Ok(())
    }

    /// Checks vertex bytes against the stride; returns the vertex count.
    pub fn vertex_count(&self, bytes: usize) -> Result<usize, LayoutError> {
        let stride = self.stride as usize;
        if stride == 0 || bytes == 0 || !bytes.is_multiple_of(stride) {
            return Err(LayoutError::VertexBytes {
                bytes,
                stride: self.stride,
            });
        }
        Ok(bytes / stride)
    }

    /// Every attribute the program reads must be supplied with at least its components.
    pub fn supplies(&self, required: &[AttributeReq]) -> Result<(), LayoutError> {
        for a in required {
            match self.elements.iter().find(|e| e.location == a.location) {
                None => {
                    return Err(LayoutError::MissingAttribute {
                        location: a.location,
                    })
                }
                Some(e) if e.components < a.components => {
                    return Err(LayoutError::TooFewComponents {
                        location: a.location,
                        supplied: e.components,
                        required: a.components,
                    })
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Every attribute the program reads, `(location, kind it needs)`, is fed by an element of
    /// that kind: a float attribute by an F32 element, an `int`/`uint` one by I32/U32 (GL's
    /// glVertexAttribPointer / glVertexAttribIPointer pairing). Locations without an element
    /// are left to [`Self::supplies`].
    pub fn supplies_kinds(
        &self,
        required: impl IntoIterator<Item = (u8, ElementKind)>,
    ) -> Result<(), LayoutError> {
        for (location, kind) in required {
            if self.element(location).is_none() {
                continue;
            }
            let supplied = self.kind(location);
            if supplied != kind {
                return Err(LayoutError::KindMismatch {
                    location,
                    supplied,
                    required: kind,
                });
            }
        }
        Ok(())
    }

    /// The element feeding `location`, if any.
    pub fn element(&self, location: u8) -> Option<&Element> {
        self.elements.iter().find(|e| e.location == location)
    }
}

/// Reads `element` of vertex `v` from vertex floats (missing components read as 0, 0, 0, 1 as
/// in GL; reads past the end give those defaults too).
pub fn fetch(layout: &VertexLayout, vertices: &[f32], v: usize, element: &Element) -> [f32; 4] {
    let mut out = [0.0, 0.0, 0.0, 1.0];
    let base = v
        .saturating_mul(layout.stride as usize / 4)
        .saturating_add(element.offset as usize / 4);
    for (k, o) in out
        .iter_mut()
        .enumerate()
        .take(element.components.min(4) as usize)
    {
        if let Some(f) = vertices.get(base.saturating_add(k)) {
            *o = *f;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(location: u8, components: u8, offset: u32) -> Element {
        Element {
            location,
            components,
            offset,
        }
    }

    #[test]
    fn canonical_layout_is_valid() {
        let l = VertexLayout::canonical();
        assert_eq!(l.validate(), Ok(()));
        assert_eq!(l.stride, 40);
    }

    #[test]
    fn edge_cases() {
        let ok = VertexLayout::new(32, &[el(0, 4, 0), el(1, 4, 16)]).unwrap();
        assert_eq!(ok.validate(), Ok(()));
        // Element ending exactly at the stride is fine; one byte more is not.
        assert_eq!(
            VertexLayout::new(12, &[el(0, 3, 0)]).unwrap().validate(),
            Ok(())
        );
        assert_eq!(
            VertexLayout::new(12, &[el(0, 4, 0)]).unwrap().validate(),
            Err(LayoutError::OutsideStride {
                element: 0,
                end: 16,
                stride: 12
            })
        );
        assert_eq!(
            VertexLayout::new(32, &[el(0, 4, 0), el(0, 4, 16)])
                .unwrap()
                .validate(),
            Err(LayoutError::DuplicateLocation { location: 0 })
        );
        assert_eq!(
            VertexLayout::new(32, &[el(8, 4, 0)]).unwrap().validate(),
            Err(LayoutError::Location {
                element: 0,
                location: 8
            })
        );
        assert_eq!(
            VertexLayout::new(32, &[el(0, 0, 0)]).unwrap().validate(),
            Err(LayoutError::Components {
                element: 0,
                components: 0
            })
        );
        assert_eq!(
            VertexLayout::new(32, &[el(0, 5, 0)]).unwrap().validate(),
            Err(LayoutError::Components {
                element: 0,
                components: 5
            })
        );
        assert_eq!(
            VertexLayout::new(32, &[el(0, 1, 2)]).unwrap().validate(),
            Err(LayoutError::Unaligned {
                element: 0,
                offset: 2
            })
        );
        assert_eq!(
            VertexLayout::new(32, &[]).unwrap().validate(),
            Err(LayoutError::ElementCount { count: 0 })
        );
        assert_eq!(
            VertexLayout::new(2, &[el(0, 1, 0)]).unwrap().validate(),
            Err(LayoutError::Stride { stride: 2 })
        );
        assert_eq!(
            VertexLayout::new(6, &[el(0, 1, 0)]).unwrap().validate(),
            Err(LayoutError::Stride { stride: 6 })
        );
        assert_eq!(
            VertexLayout::new(4096, &[el(0, 1, 0)]).unwrap().validate(),
            Err(LayoutError::Stride { stride: 4096 })
        );
        // Huge offsets must not overflow.
        assert!(VertexLayout::new(32, &[el(0, 4, u32::MAX - 3)])
            .unwrap()
            .validate()
            .is_err());
        let nine = [el(0, 1, 0); 9];
        assert_eq!(
            VertexLayout::new(64, &nine),
            Err(LayoutError::ElementCount { count: 9 })
        );
    }

    #[test]
    fn vertex_bytes_and_requirements() {
        let l = VertexLayout::new(32, &[el(0, 4, 0), el(1, 4, 16)]).unwrap();
        assert_eq!(l.vertex_count(96), Ok(3));
        assert!(l.vertex_count(95).is_err());
        assert!(l.vertex_count(0).is_err());
        let req = [
            AttributeReq {
                location: 0,
                components: 4,
            },
            AttributeReq {
                location: 1,
                components: 4,
            },
        ];
        assert_eq!(l.supplies(&req), Ok(()));
        let l1 = VertexLayout::new(32, &[el(0, 1, 0), el(1, 4, 16)]).unwrap();
        assert_eq!(
            l1.supplies(&req),
            Err(LayoutError::TooFewComponents {
                location: 0,
                supplied: 1,
                required: 4
            })
        );
        let l2 = VertexLayout::new(32, &[el(0, 4, 0)]).unwrap();
        assert_eq!(
            l2.supplies(&req),
            Err(LayoutError::MissingAttribute { location: 1 })
        );
    }

    #[test]
    fn fetch_reads_little_endian_floats_with_defaults() {
        let l = VertexLayout::new(8, &[el(0, 2, 0)]).unwrap();
        let bytes = [1.0f32, 2.0, 3.0, 4.0];
        let e = l.elements[0];
        assert_eq!(fetch(&l, &bytes, 1, &e), [3.0, 4.0, 0.0, 1.0]);
        // Past the end reads defaults, never panics.
        assert_eq!(fetch(&l, &bytes, 9, &e), [0.0, 0.0, 0.0, 1.0]);
    }
}
