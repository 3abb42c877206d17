//! Every scene file of the repository parses with the strict reader (a regression guard for
//! the JSON reader: what the renderers' tests and benches load must stay valid).
use std::path::Path;

#[test]
fn every_scene_file_in_the_repository_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shc");
    let mut n = 0;
    for dir in ["tests/diff", "benches/scenes"] {
        let d = root.join(dir);
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {}", d.display(), e)) {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                scene::Scene::load(&p).unwrap_or_else(|e| panic!("{}", e));
                n += 1;
            }
        }
    }
    assert!(n >= 10, "only {} scene files found", n);
}
