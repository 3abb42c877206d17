//! Property tests: everything that reads untrusted bytes or caller values never panics, and every
//! stream the encoder accepts to write passes the host's rules.
use proptest::prelude::*;
use virtio_gpu::caps::HostCaps;
use virtio_gpu::decode::StreamChecker;
use virtio_gpu::encode::*;
use virtio_gpu::proto::*;
use virtio_gpu::protocol::*;
use virtio_gpu::{CollectSink, CommandBuffer};

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn checker_never_panics(words in proptest::collection::vec(any::<u32>(), 0..64)) {
        let _ = StreamChecker::new().check(&words);
    }

    #[test]
    fn checker_never_panics_on_plausible_headers(
        cmds in proptest::collection::vec((0u32..56, 0u32..12, 0u32..24), 1..12),
        fill in any::<u32>(),
    ) {
        let mut words = Vec::new();
        for (c, o, l) in cmds {
            words.push(cmd0(c, o, l));
            words.extend(std::iter::repeat_n(fill, l as usize));
        }
        let _ = StreamChecker::new().check(&words);
    }

    #[test]
    fn response_parsing_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600), min in 0usize..600, fence in any::<u64>()) {
        let _ = check_response(1, &bytes, RESP_OK_NODATA, min, fence);
        let _ = parse_display_info(&bytes);
        let _ = parse_capset_info(&bytes);
        let _ = CtrlHeader::parse(&bytes);
        let _ = HostCaps::parse(1, 1, &bytes);
        let _ = HostCaps::parse(2, 2, &bytes);
    }

    #[test]
    fn encoded_commands_pass_the_checker(
        vec4s in 1usize..40,
        stage in 0u32..8,
        comps in proptest::collection::vec(0u32..6, 0..10),
        views in proptest::collection::vec(1u32..20, 0..6),
        start in 0u32..4,
        text_len in 0usize..9000,
        draw_start in any::<u32>(),
        draw_count in any::<u32>(),
        cap in 64usize..300,
    ) {
        let mut cb = CommandBuffer::new(cap).unwrap();
        let mut sink = CollectSink::default();
        let mut ck = StreamChecker::new();
        {
            let mut e = Encoder::new(&mut cb, &mut sink);
            // Objects the bind/sampler commands refer to must exist for the checker.
            for h in 1..20 {
                e.create_sampler_state(h, &SamplerState::default()).unwrap();
            }
            let c = vec![[0.5f32; 4]; vec4s];
            let _ = e.set_constant_buffer(stage, &c);
            let els: Vec<VertexElement> = comps.iter().map(|&c| VertexElement { offset: 0, buffer_index: 0, components: c }).collect();
            let _ = e.create_vertex_elements(30, &els);
            let _ = e.set_sampler_views(stage, start, &views);
            let _ = e.bind_sampler_states(stage, start, &views);
            let text: String = std::iter::repeat_n('A', text_len).collect();
            let _ = e.create_shader(31, stage, &text);
            if let Ok(d) = DrawInfo::arrays(PRIM_TRIANGLES, draw_start, draw_count) {
                let _ = e.draw_vbo(&d);
            }
            e.flush().unwrap();
        }
        for b in &sink.batches {
            prop_assert!(b.len() <= cap);
            if let Err(err) = ck.check(b) {
                prop_assert!(false, "{}", err);
            }
        }
    }

    #[test]
    fn inline_writes_split_and_pass(w in 1u32..600, h in 1u32..20, bpp in 1u32..9, cap in 64usize..400) {
        let stride = w * bpp;
        let data = vec![7u8; (stride * h) as usize];
        let mut cb = CommandBuffer::new(cap).unwrap();
        let mut sink = CollectSink::default();
        Encoder::new(&mut cb, &mut sink).resource_inline_write(3, Box3d { x: 0, y: 0, z: 0, w, h, d: 1 }, bpp, stride, &data).unwrap();
        cb.flush(&mut sink).unwrap();
        let mut ck = StreamChecker::new();
        let mut covered = 0u64;
        for b in &sink.batches {
            prop_assert!(b.len() <= cap);
            let r = ck.check_with(b, |c| covered += c.payload[8] as u64 * c.payload[9] as u64);
            prop_assert!(r.is_ok(), "{:?}", r);
        }
        prop_assert_eq!(covered, w as u64 * h as u64);
    }
}
