//! Integer vertex formats (integer vertex attributes, issue 14): `int_format` gives the
//! R32..R32G32B32A32 SINT/UINT numbers of enum virgl_formats, CREATE_OBJECT VERTEX_ELEMENTS
//! carries a format per element, and a format that does not fit the element's component count
//! (or is no 32-bit float/integer format) is refused before anything is sent.
use virtio_gpu::batch::CollectSink;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::CommandBuffer;

fn encode(
    f: impl FnOnce(&mut Encoder<'_, CollectSink>) -> virtio_gpu::Result<()>,
) -> virtio_gpu::Result<Vec<u32>> {
    let mut cb = CommandBuffer::new(1024)?;
    let mut sink = CollectSink::default();
    let mut e = Encoder::new(&mut cb, &mut sink);
    f(&mut e)?;
    e.flush()?;
    Ok(sink.all())
}

fn el(offset: u32, components: u32) -> VertexElement {
    VertexElement {
        offset,
        buffer_index: 0,
        components,
    }
}

#[test]
fn integer_formats_are_virgls_numbers() {
    // virgl_formats: R32_UINT 193 .. R32G32B32A32_UINT 196, R32_SINT 197 .. R32G32B32A32_SINT 200.
    let u: Vec<u32> = (1..=4).map(|n| int_format(n, false).unwrap()).collect();
    let s: Vec<u32> = (1..=4).map(|n| int_format(n, true).unwrap()).collect();
    assert_eq!(u, [193, 194, 195, 196]);
    assert_eq!(s, [197, 198, 199, 200]);
    assert_eq!(FORMAT_R32G32B32A32_UINT, 196);
    assert_eq!(FORMAT_R32G32B32A32_SINT, 200);
    assert!(int_format(0, true).is_err());
    assert!(int_format(5, false).is_err());
}

#[test]
fn vertex_elements_carry_a_format_each() {
    let els = [el(0, 4), el(16, 2), el(24, 1)];
    let f = [
        float_format(4).unwrap(),
        int_format(2, true).unwrap(),
        int_format(1, false).unwrap(),
    ];
    let words = encode(|e| e.create_vertex_elements_formats(3, &els, &[], &f)).unwrap();
    assert_eq!(
        &words[2..],
        &[
            0,
            0,
            0,
            FORMAT_R32G32B32A32_FLOAT,
            16,
            0,
            0,
            FORMAT_R32_SINT + 1,
            24,
            0,
            0,
            FORMAT_R32_UINT
        ]
    );
    // No formats: every element is float, as the plain call.
    assert_eq!(
        encode(|e| e.create_vertex_elements_formats(3, &els, &[], &[])).unwrap(),
        encode(|e| e.create_vertex_elements(3, &els)).unwrap()
    );
    // A format of another component count, a format that is not a 32-bit vertex format, and
    // more formats than elements are refused.
    let wrong = [f[0], int_format(3, true).unwrap(), f[2]];
    assert!(encode(|e| e.create_vertex_elements_formats(3, &els, &[], &wrong)).is_err());
    let unorm = [f[0], f[1], FORMAT_B8G8R8A8_UNORM];
    assert!(encode(|e| e.create_vertex_elements_formats(3, &els, &[], &unorm)).is_err());
    let extra = [f[0], f[1], f[2], f[0]];
    assert!(encode(|e| e.create_vertex_elements_formats(3, &els, &[], &extra)).is_err());
}
