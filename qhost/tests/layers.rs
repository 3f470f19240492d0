//! qhost's interpreter in one-way stages (issue 32): K objects (function objects included) and
//! the C API at the bottom, then values, the console form, the primitives, the lexer, the
//! parser, iterators and amend, the main loop and system commands, and the evaluator on top. A
//! module may import (`crate::..`, `super::..`) only itself and the modules listed before it in
//! `LAYERS`; what a lower layer needs of the evaluator goes through `kapi::hooks`.
//!
//! `KNOWN_UP` held the imports that went up (issue 32's burn-down list, 22 pairs); it is empty
//! and stays so. The test fails on an upward import that is not listed (a new knot), on a listed
//! pair that no longer occurs, and on a module of src/ that is not in `LAYERS`.
#[path = "../../tests/common/code_line.rs"]
mod code_line;
use code_line::code;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules, lowest first (a folder counts as one module where noted).
#[rustfmt::skip]
const LAYERS: &[&str] = &[
    // K objects (function objects included) and the k.h API: memory, symbols, threads, strict
    // mode, errors, the hooks the evaluator installs, the value plumbing, the exports, 2:
    "kapi::strict", "kapi::sym", "kapi::threads", "kapi::kobj", "kapi::error", "kapi::hooks",
    "q::error", "q::values", "kapi::exports", "kapi::dynload",
    "kapi",
    // interrupts and the stack check, globals, literals, q's reserved names, the console form
    "q::interrupt", "q::globals", "q::enums", "q::literal", "q::reserved", "q::constants", "q::display",
    // the primitives (q/verbs/ as one), text and binary files
    "q::verbs", "q::textfile", "q::binfile",
    // the lexer, the table of names, the parser
    "q::lexer", "q::builtins", "q::parser",
    // iterators, amend, peach, memory figures, the main loop, system commands, functional qSQL
    "q::adverbs", "q::amend", "q::peach", "q::ipc", "q::memstats", "q::session", "q::system", "q::funsql",
    // the evaluator (q/eval/ with qSQL as one); what arrives over IPC, run by the evaluator
    "q::eval", "q::serve",
    "q",
];

/// Upward imports allowed (issue 32's list, burnt down from 22 to none): never added to.
#[rustfmt::skip]
const KNOWN_UP: &[&str] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's module path (`q::verbs::arith`; a mod.rs is its folder's module).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut v: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if v.last().is_some_and(|l| l == "mod") {
        v.pop();
    }
    v
}

/// The unit of LAYERS a module path is in: q/verbs/*, q/eval/*, kapi/exports/* and
/// kapi/kobj/* are one each.
fn unit(path: &[String]) -> String {
    const FOLDERS: [[&str; 2]; 4] = [
        ["q", "verbs"],
        ["q", "eval"],
        ["kapi", "exports"],
        ["kapi", "kobj"],
    ];
    if path.len() >= 2 && FOLDERS.iter().any(|f| path[0] == f[0] && path[1] == f[1]) {
        return path[..2].join("::");
    }
    path.join("::")
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The module an import names: the longest prefix of `parts` that is a file or folder of src/,
/// with the re-exports of q/mod.rs (err, QErr, QResult from error; eval_text, apply from eval)
/// and kapi/mod.rs (kobj's items) followed.
fn target(root: &Path, parts: &[String]) -> Option<String> {
    for k in (1..=parts.len()).rev() {
        let p = root.join(parts[..k].join("/"));
        if p.with_extension("rs").is_file() || p.join("mod.rs").is_file() {
            let next = parts.get(k).map(String::as_str);
            let path: Vec<String> = match (parts[..k].join("::").as_str(), next) {
                ("q", Some("err" | "QErr" | "QResult")) => vec!["q".into(), "error".into()],
                ("q", Some("eval_text" | "apply")) => vec!["q".into(), "eval".into()],
                ("kapi", Some(n))
                    if ![
                        "dynload", "error", "exports", "hooks", "kobj", "strict", "sym", "threads",
                    ]
                    .contains(&n) =>
                {
                    vec!["kapi".into(), "kobj".into()]
                }
                _ => parts[..k].to_vec(),
            };
            return Some(unit(&path));
        }
    }
    None
}

/// Every (from unit, to unit, file:line) import between different units under `root`.
fn imports(root: &Path) -> Vec<(String, String, String)> {
    let mut files = vec![];
    rs_files(root, &mut files);
    files.sort();
    let mut out = vec![];
    for f in files {
        let m = module_of(root, &f);
        if m == ["lib"] || m == ["main"] {
            continue;
        }
        let from = unit(&m);
        let text: String = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .map(code)
            .collect::<Vec<_>>()
            .join("\n");
        let mut at = 0;
        while let Some(i) = text[at..].find(['c', 's']) {
            let start = at + i;
            at = start + 1;
            let rest = &text[start..];
            let (mut base, mut tail) = if let Some(t) = rest.strip_prefix("crate::") {
                (Vec::new(), t)
            } else if let Some(t) = rest.strip_prefix("super::") {
                // a mod.rs's super is its folder's parent; another file's its folder
                let mut b = m.clone();
                b.pop();
                (b, t)
            } else {
                continue;
            };
            if text[..start]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            {
                continue;
            }
            while let Some(t) = tail.strip_prefix("super::") {
                base.pop();
                tail = t;
            }
            let line = text[..start].matches('\n').count() + 1;
            // a path, then perhaps a `{..}` group of paths under it (`crate::q::{err, QErr}`)
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            let prefix = tail[..end].trim_end_matches(':');
            let groups: Vec<String> = match tail[end..].strip_prefix('{') {
                Some(g) if tail[..end].ends_with("::") || end == 0 => {
                    let close = g.find('}').unwrap_or(g.len());
                    g[..close]
                        .split(',')
                        .map(|s| s.trim())
                        .filter(|s| !s.is_empty())
                        .map(|s| match (prefix.is_empty(), s == "self") {
                            (true, _) => s.to_string(),
                            (false, true) => prefix.to_string(),
                            (false, false) => format!("{prefix}::{s}"),
                        })
                        .collect()
                }
                _ => vec![prefix.to_string()],
            };
            for g in groups {
                let mut parts = base.clone();
                parts.extend(
                    g.split("::")
                        .map(|s| ident(s).to_string())
                        .filter(|s| !s.is_empty()),
                );
                if let Some(to) = target(root, &parts) {
                    if to != from {
                        let rel = f.strip_prefix(root.parent().unwrap()).unwrap().display();
                        out.push((from.clone(), to, format!("{rel}:{line}")));
                    }
                }
            }
        }
    }
    out
}

fn rank(u: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == u)
}

/// Upward imports not in `known`, and listed pairs that no longer occur.
fn check(root: &Path, known: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut bad = vec![];
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (from, to, at) in imports(root) {
        let (Some(a), Some(b)) = (rank(&from), rank(&to)) else {
            bad.push(format!(
                "{at}: `{from}` or `{to}` is not in LAYERS (tests/layers.rs)"
            ));
            continue;
        };
        if b > a {
            let pair = format!("{from} -> {to}");
            if known.contains(&pair.as_str()) {
                seen.insert(pair, at);
            } else {
                bad.push(format!("{at}: `{from}` imports `{to}`, a layer above it"));
            }
        }
    }
    let stale = known
        .iter()
        .filter(|k| !seen.contains_key(**k))
        .map(|k| k.to_string())
        .collect();
    (bad, stale)
}

#[test]
fn imports_go_down_except_the_listed_debt() {
    let (bad, stale) = check(&src(), KNOWN_UP);
    assert!(
        bad.is_empty(),
        "imports against qhost's layer order (tests/layers.rs):\n{}",
        bad.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed in KNOWN_UP but no longer imported (take them out): {stale:?}"
    );
}

#[test]
fn every_module_is_a_layer() {
    let mut files = vec![];
    rs_files(&src(), &mut files);
    let units: BTreeSet<String> = files
        .iter()
        .map(|f| unit(&module_of(&src(), f)))
        .filter(|u| u != "lib" && u != "main")
        .collect();
    let listed: BTreeSet<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    assert_eq!(units, listed, "qhost/src's modules and LAYERS differ");
}

/// The check itself: an upward import in a copy of src/ is found with its file and line, and a
/// listed pair that is gone is reported.
#[test]
fn an_upward_import_is_caught() {
    let dir = std::env::temp_dir().join(format!("qhost-layers-{}", std::process::id()));
    let root = dir.join("src");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(root.join("q/verbs")).unwrap();
    std::fs::create_dir_all(root.join("kapi")).unwrap();
    std::fs::write(root.join("kapi/mod.rs"), "pub mod kobj;\n").unwrap();
    std::fs::write(
        root.join("kapi/kobj.rs"),
        "// crate::q::eval in a comment\nuse crate::q::parser::Node;\n",
    )
    .unwrap();
    std::fs::write(
        root.join("q/mod.rs"),
        "pub mod eval;\npub mod parser;\npub mod verbs;\n",
    )
    .unwrap();
    std::fs::write(root.join("q/parser.rs"), "use crate::kapi::KObj;\n").unwrap();
    std::fs::write(root.join("q/eval.rs"), "use super::parser::Node;\n").unwrap();
    std::fs::write(root.join("q/verbs/mod.rs"), "pub mod arith;\n").unwrap();
    std::fs::write(
        root.join("q/verbs/arith.rs"),
        "fn f() { super::super::eval::go() }\n",
    )
    .unwrap();
    let (bad, stale) = check(&root, &["q::lexer -> q::eval"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(
        bad[0].ends_with("kobj.rs:2: `kapi::kobj` imports `q::parser`, a layer above it"),
        "{bad:?}"
    );
    assert!(
        bad[1].ends_with("arith.rs:1: `q::verbs` imports `q::eval`, a layer above it"),
        "{bad:?}"
    );
    assert_eq!(stale, vec!["q::lexer -> q::eval".to_string()]);
}
