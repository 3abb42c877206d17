//! The guest registry's handle generations are 16 bits (the spec's handle format): a stale id is
//! refused for 65,535 reuses of its slot and names the slot's object again at the 65,536th.
use shader::ir::Stage;
use shader::program::guest::{GuestProgram, GuestRegistry, GuestShader, Owner};

struct Sh;
impl GuestShader for Sh {
    fn stage(&self) -> Stage {
        Stage::Vertex
    }
}
#[derive(Default)]
struct Pr;
impl GuestProgram for Pr {
    fn is_linked(&self) -> bool {
        false
    }
}

#[test]
fn stale_id_wraps_after_65536_frees() {
    let owner: Owner = 1;
    let mut r: Box<GuestRegistry<Sh, Pr>> = Box::default();
    let first = r.insert_shader::<()>(owner, Sh).unwrap();
    r.drop_shader(owner, first).unwrap();
    for reuse in 1..=65_536u32 {
        let id = r.insert_shader::<()>(owner, Sh).unwrap();
        if reuse < 65_536 {
            assert_ne!(id, first, "reuse {} gave the stale id back", reuse);
            assert!(
                r.shader(owner, first).is_none(),
                "stale id live at reuse {}",
                reuse
            );
        } else {
            assert_eq!(id, first, "the generation wraps at the 65,536th free");
            assert!(r.shader(owner, first).is_some());
        }
        r.drop_shader(owner, id).unwrap();
    }
}
