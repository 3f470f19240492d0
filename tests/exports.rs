//! Each q function is also a C symbol of ktorch.so, under ktorch's own C name
//! (tests/data/ktorch_cnames.txt, taken from ktorch's source), so that q can load one function
//! with `2:` as ktorch's docs do: `` (`ktorch 2:`options,1) ``. Checks: every q name of the fns
//! table has exactly one export and ktorch's names have ktorch's C names, in ktorch's order;
//! ktorch.so defines each of them; none is a symbol of a library ktorch.so loads (an export
//! named `wait` or `free` would stand beside libc's); and a q session loads single functions.

mod common;
use common::bin_dir;
use common::manifest_dir;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

// The k.h API in-process (ktorch's rlib refers to it).
use qhost as _;

/// target/<profile>, where make puts ktorch.so and qhost.
fn ktorch_cnames() -> Vec<(String, String, String)> {
    let path = manifest_dir().join("tests/data/ktorch_cnames.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            (v[0].into(), v[1].into(), v[2].into())
        })
        .collect()
}

#[test]
fn every_name_exported_once_with_ktorchs_c_name() {
    let table = ktorch::fns::TABLE;
    let names: BTreeSet<&str> = table.iter().map(|e| e.name).collect();
    assert_eq!(
        names.len(),
        table.len(),
        "a q name declared twice in fns.rs"
    );
    let cs: BTreeSet<&str> = table.iter().map(|e| e.cname).collect();
    assert_eq!(cs.len(), table.len(), "a C name used twice");
    // ktorch's names first, in ktorch's order, with ktorch's C names and arities
    let k = ktorch_cnames();
    assert!(k.len() > 400 && k.len() <= table.len(), "{}", k.len());
    for (i, (q, c, n)) in k.iter().enumerate() {
        assert_eq!(table[i].name, q, "fns order differs from ktorch's at {i}");
        assert_eq!(table[i].cname, c, "C name of {q}");
        assert_eq!(table[i].arity().to_string(), *n, "arity of {q}");
    }
}

/// Every q name of the fns table has a doc entry: a `## ` heading of docs/ naming it (a heading
/// may name several: `## add, sub`).
#[test]
fn every_q_function_is_documented() {
    let mut documented = BTreeSet::new();
    for entry in std::fs::read_dir(manifest_dir().join("docs")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        for h in text.lines().filter_map(|l| l.strip_prefix("## ")) {
            documented.extend(
                h.split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|w| !w.is_empty())
                    .map(String::from),
            );
        }
    }
    let missing: Vec<&str> = ktorch::fns::TABLE
        .iter()
        .map(|e| e.name)
        .filter(|n| !documented.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "q functions without a doc entry in docs/: {missing:?}"
    );
}

fn dynamic_symbols(lib: &std::path::Path) -> BTreeSet<String> {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
        .expect("nm runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .map(|s| s.split('@').next().unwrap().to_string())
        .collect()
}

#[test]
fn shared_library_defines_each_and_shadows_nothing() {
    let so = bin_dir().join("ktorch.so");
    assert!(
        so.exists(),
        "build first: make build (needs {})",
        so.display()
    );
    let ours = dynamic_symbols(&so);
    for e in ktorch::fns::TABLE {
        let (q, c) = (e.name, e.cname);
        assert!(
            ours.contains(c),
            "ktorch.so does not export {c} (q name {q})"
        );
    }
    let ldd = Command::new("ldd").arg(&so).output().expect("ldd runs");
    let deps: Vec<PathBuf> = String::from_utf8_lossy(&ldd.stdout)
        .lines()
        .filter_map(|l| l.split("=> ").nth(1))
        .filter_map(|r| r.split_whitespace().next())
        .filter(|p| p.starts_with('/'))
        .map(PathBuf::from)
        .collect();
    assert!(
        deps.iter().any(|d| d.to_string_lossy().contains("libc.so")),
        "ldd found libc: {deps:?}"
    );
    for d in deps {
        let theirs = dynamic_symbols(&d);
        for e in ktorch::fns::TABLE {
            let (q, c) = (e.name, e.cname);
            assert!(
                !theirs.contains(c),
                "export {c} (q name {q}) is also a symbol of {}",
                d.display()
            );
        }
    }
}

#[test]
fn q_loads_single_functions() {
    let dir = bin_dir();
    assert!(
        dir.join("qhost").exists() && dir.join("ktorch.so").exists(),
        "build first: make build"
    );
    // ktorch's docs (build.rst): options of the default tensor, without loading fns; then a
    // two-argument function and a math function under its C name.
    let script = "-1 .Q.s1 (`ktorch 2:`options,1)[];\n\
                  t:(`ktorch 2:`tensor,1) 1 2 3e; (`ktorch 2:`use,2)[t;4 5 6e];\n\
                  -1 .Q.s1 (`ktorch 2:`tensor,1) t;\n\
                  -1 .Q.s1 (`ktorch 2:`Add,1)(1 2;3 4);\n\
                  (`ktorch 2:`Free,1) t;\n\
                  -1 .Q.s1 8#key(`ktorch 2:`fns,1)[];\n\
                  -1 \" \" sv string key(`ktorch 2:`fns,1)[];\n";
    let out = Command::new(dir.join("qhost"))
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(script.as_bytes())?;
            c.wait_with_output()
        })
        .expect("qhost runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start_matches("q)"))
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        lines,
        [
            "`device`dtype`layout`gradient`pin`memory!`cpu`float`strided`nograd`unpinned`contiguous",
            "4 5 6e",
            "4 6",
            "`dv`tree`addref`free`return`use`obj`tensorcount",
            // the dictionary is the table, in its order
            &ktorch::fns::TABLE
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(" "),
        ],
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
