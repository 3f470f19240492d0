//! ktorch's q names beside ours: every name ktorch 2.3 exports (tests/data/ktorch_names.txt, by
//! source file) must be in our `fns` table, or listed in tests/data/names_pending.txt with the
//! issue that will bring it. The pending list only shrinks: a name in it that we now export is
//! an error too, so the list stays true. `cargo test --test names -- --nocapture` prints the
//! coverage per group.

mod common;
use common::manifest_dir;
use std::collections::BTreeSet;

// The k.h API in-process (ktorch's rlib refers to it).
use qhost as _;

fn lines(file: &str) -> Vec<String> {
    let path = manifest_dir().join("tests/data").join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// `group: a b c` lines as (group, names).
fn groups(file: &str) -> Vec<(String, Vec<String>)> {
    lines(file)
        .iter()
        .map(|l| {
            let (g, names) = l.split_once(':').expect("group: names");
            (
                g.trim().to_string(),
                names.split_whitespace().map(String::from).collect(),
            )
        })
        .collect()
}

#[test]
fn every_ktorch_name_is_ours_or_pending() {
    let ours: BTreeSet<&str> = ktorch::fns::TABLE.iter().map(|e| e.name).collect();
    let pending: BTreeSet<String> = groups("names_pending.txt")
        .into_iter()
        .flat_map(|(_, v)| v)
        .collect();
    let mut missing = vec![];
    let mut stale = vec![];
    for (group, names) in groups("ktorch_names.txt") {
        let have = names.iter().filter(|n| ours.contains(n.as_str())).count();
        println!("{group:8} {have:3}/{:3}", names.len());
        for n in &names {
            match (ours.contains(n.as_str()), pending.contains(n)) {
                (false, false) => missing.push(format!("{group}: {n}")),
                (true, true) => stale.push(n.clone()),
                _ => {}
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ktorch names neither exported nor pending: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "exported now, remove from tests/data/names_pending.txt: {stale:?}"
    );
}

/// ktorch's module types beside our layer table: each must be ours or listed in
/// tests/data/modules_pending.txt, and that list only shrinks, as above.
#[test]
fn every_ktorch_module_type_is_ours_or_pending() {
    let ours: BTreeSet<&str> = ktorch::nn::layers::all().map(|l| l.name).collect();
    let pending: BTreeSet<String> = groups("modules_pending.txt")
        .into_iter()
        .flat_map(|(_, v)| v)
        .collect();
    let theirs: Vec<String> = groups("ktorch_modules.txt")
        .into_iter()
        .flat_map(|(_, v)| v)
        .collect();
    let have = theirs.iter().filter(|n| ours.contains(n.as_str())).count();
    println!("modules  {have:3}/{:3}", theirs.len());
    let missing: Vec<&String> = theirs
        .iter()
        .filter(|n| !ours.contains(n.as_str()) && !pending.contains(*n))
        .collect();
    let stale: Vec<&String> = pending
        .iter()
        .filter(|n| ours.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "ktorch module types neither ours nor pending: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "module types we have, still listed in modules_pending.txt: {stale:?}"
    );
}
