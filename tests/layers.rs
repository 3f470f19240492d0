//! The layers of src/ run one way (docs/architecture.md): a module may name (`crate::x`,
//! `use crate::{x, ..}`) only itself and the modules listed before it in `LAYERS`. The test reads
//! every .rs file under src/, takes each path that starts at the crate root, and fails naming the
//! file, the line and the upward import. It also fails when a top-level module of src/ is not in
//! `LAYERS` (a new module takes its place in the order deliberately), when a listed one is gone,
//! or when docs/architecture.md lists the layers in another order.
#[path = "common/code_line.rs"]
mod code_line;
use code_line::code;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first: the one list of them (docs/architecture.md shows the same order).
// rustfmt would move the comments onto the lines above them (and again on every run)
#[rustfmt::skip]
const LAYERS: &[&str] = &[
    // the kdb+ ABI: q values in and out, the guard every q function runs in
    "k",
    // the C++ shim's boundary: every entry point of src/cxx/*.cpp declared once, its one
    // last-error getter, `check`, typed opaque handles, safe wrappers of whole C++ files
    "cxx",
    // the handle registry: objects behind the `Object` trait, q holds only their ids
    "registry",
    // versions, settings, the log (installs the hooks k and the registry log through)
    "session",
    // CUDA devices, streams, events, memory, the capture of CUDA graphs
    "device",
    // tensors, vectors, dictionaries: making, converting, reading arguments, information
    "tensor",
    // collectives over a process group (c10d), on tensors
    "dist",
    // the math q functions
    "math",
    // modules: layers, trees, forward, functional forms, TorchScript/AOTInductor modules
    "nn",
    // loss functions
    "loss",
    // optimizers
    "optim",
    // files: images, safetensors, torch.save state dicts
    "io",
    // models (module, loss, optimizer, data): training, async calls, distributed models,
    // CUDA graphs recording a forward or a training step
    "model",
    // the q functions that take several classes, calling down into each domain
    "dispatch",
    // the one table of q names
    "fns",
    // the C entry points: `fns` and every q function under its C name
    "exports",
];

/// Names at the crate root that are not modules: macros, with the module that defines them.
const MACROS: &[(&str, &str)] = &[("klog", "session"), ("qfn", "k")];

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

/// The top-level module a file of src/ belongs to (`tensor` for src/tensor/info/mod.rs).
fn top(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy()
        .to_string();
    first.trim_end_matches(".rs").to_string()
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first names after `crate::` in `text` (each name of a `crate::{a, b::c}` group), with
/// the line each is on. Groups may span lines.
fn crate_names(text: &str) -> Vec<(usize, String)> {
    let mut found = vec![];
    let mut at = 0;
    while let Some(i) = text[at..].find("crate::") {
        let start = at + i;
        at = start + "crate::".len();
        // `$crate::` in a macro body is the same path; a name ending in `crate` (`mycrate::`) is not
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let line = text[..start].matches('\n').count() + 1;
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            // the names at depth 0 of the group
            let (mut depth, mut item_start) = (0, true);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        item_start = false;
                        let name = ident(&group[j..]);
                        if !name.is_empty() && name != "self" {
                            let l = line + group[..j].matches('\n').count();
                            found.push((l, name.to_string()));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                found.push((line, name.to_string()));
            }
        }
    }
    found
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == module)
}

/// Every import in src/ that goes up (or to a name the layers do not know), as messages.
fn upward_imports(root: &Path) -> Vec<String> {
    let mut files = vec![];
    rs_files(root, &mut files);
    files.sort();
    let mut bad = vec![];
    for f in files {
        let from = top(root, &f);
        if from == "lib" {
            continue;
        }
        let Some(r) = rank(&from) else {
            bad.push(format!(
                "{}: module `{from}` is not in LAYERS (tests/layers.rs)",
                f.display()
            ));
            continue;
        };
        let text: String = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .map(code)
            .collect::<Vec<_>>()
            .join("\n");
        for (line, name) in crate_names(&text) {
            let to = MACROS
                .iter()
                .find(|(m, _)| *m == name)
                .map_or(name.as_str(), |(_, d)| *d);
            match rank(to) {
                Some(t) if t <= r => {}
                Some(_) => bad.push(format!(
                    "{}:{line}: `{from}` imports `{to}`, a layer above it",
                    f.strip_prefix(root.parent().unwrap()).unwrap().display()
                )),
                None => bad.push(format!(
                    "{}:{line}: `crate::{name}` is no layer of LAYERS",
                    f.strip_prefix(root.parent().unwrap()).unwrap().display()
                )),
            }
        }
    }
    bad
}

#[test]
fn every_import_goes_down() {
    let bad = upward_imports(&src());
    assert!(
        bad.is_empty(),
        "imports against the layer order (docs/architecture.md):\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_module_is_a_layer() {
    let mut tops = BTreeSet::new();
    for e in std::fs::read_dir(src()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() && p.join("mod.rs").exists() {
            tops.insert(name);
        } else if let Some(m) = name.strip_suffix(".rs") {
            if m != "lib" {
                tops.insert(m.to_string());
            }
        }
    }
    let listed: BTreeSet<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    assert_eq!(tops, listed, "src/'s top-level modules and LAYERS differ");
    // lib.rs declares each of them
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    for l in LAYERS {
        assert!(
            lib.contains(&format!("pub mod {l};")),
            "src/lib.rs does not declare `{l}`"
        );
    }
}

/// docs/architecture.md's table of layers: its rows' first cells, in order.
#[test]
fn the_architecture_doc_lists_the_layers_in_order() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    let rows: Vec<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `src/"))
        .map(|l| ident(l).to_string())
        .collect();
    let layers: Vec<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        rows, layers,
        "docs/architecture.md's layer table is not LAYERS' order"
    );
}

/// The check itself: an upward import in a copy of src/ is found, with its file and line.
#[test]
fn an_upward_import_is_caught() {
    let dir = std::env::temp_dir().join(format!("ktorch-layers-{}", std::process::id()));
    let copy = dir.join("src");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(copy.join("tensor")).unwrap();
    std::fs::write(
        copy.join("tensor/mod.rs"),
        "use crate::k::K;\nuse crate::{registry, model::api};\n",
    )
    .unwrap();
    std::fs::write(
        copy.join("k.rs"),
        "// crate::model in a comment is no import\nuse crate::model;\n",
    )
    .unwrap();
    std::fs::write(
        copy.join("model.rs"),
        "use crate::{\n    tensor,\n    dispatch::data,\n};\n",
    )
    .unwrap();
    let bad = upward_imports(&copy);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].ends_with("k.rs:2: `k` imports `model`, a layer above it"),
        "{bad:?}"
    );
    assert!(
        bad[1].ends_with("model.rs:3: `model` imports `dispatch`, a layer above it"),
        "{bad:?}"
    );
    assert!(
        bad[2].ends_with("mod.rs:2: `tensor` imports `model`, a layer above it"),
        "{bad:?}"
    );
}

/// The modules of a layer that a path names: for each `crate::` or `super::` path in `text` (a
/// file of module `at`, e.g. ["nn", "layers", "containers"]), the path's first two names from
/// the crate root, each name of a `{..}` group expanded, with the line it is on.
fn module_paths(text: &str, at: &[String]) -> Vec<(usize, Vec<String>)> {
    fn expand(rest: &str, base: Vec<String>, out: &mut Vec<Vec<String>>) {
        let rest = rest.trim_start();
        if base.len() >= 2 {
            out.push(base);
            return;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // the items at depth 0 of the group
            let (mut depth, mut start) = (0, 0);
            let mut items = vec![];
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        items.push(&group[start..j]);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(&group[start..j]);
                        start = j + 1;
                    }
                    _ => {}
                }
            }
            for it in items {
                let it = it.trim();
                if !it.is_empty() && it != "self" {
                    expand(it, base.clone(), out);
                }
            }
            return;
        }
        let name = ident(rest);
        if name.is_empty() {
            if !base.is_empty() {
                out.push(base);
            }
            return;
        }
        let mut next = base;
        next.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(more) => expand(more, next, out),
            None => out.push(next),
        }
    }
    let mut found = vec![];
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let (base, len) = if rest.starts_with("crate::") {
            (vec![], "crate::".len())
        } else if rest.starts_with("super::") {
            let mut base = at[..at.len() - 1].to_vec();
            let mut len = "super::".len();
            while text[i + len..].starts_with("super::") {
                base.pop();
                len += "super::".len();
            }
            (base, len)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        // `$crate::`, `mycrate::`, `a_super::` are not these paths
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            i += len;
            continue;
        }
        let line = text[..i].matches('\n').count() + 1;
        let mut paths = vec![];
        expand(&text[i + len..], base, &mut paths);
        found.extend(paths.into_iter().map(|p| (line, p)));
        i += len;
    }
    found
}

/// Each layer's import graph between its modules (a file or folder directly under the layer's
/// folder; the layer's own mod.rs is `mod`), and its circles (strongly connected sets of more
/// than one module), as "layer: a <-> b <-> c".
fn circles(root: &Path) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut files = vec![];
    rs_files(root, &mut files);
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap();
        let mut at: Vec<String> = rel
            .components()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .collect();
        if at.len() < 2 {
            continue; // a layer of one file (registry.rs) has no modules to circle
        }
        if at.last().is_some_and(|l| l == "mod") {
            at.pop();
        }
        let layer = at[0].clone();
        let from = at.get(1).cloned().unwrap_or_else(|| "mod".into());
        let text: String = std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .map(code)
            .collect::<Vec<_>>()
            .join("\n");
        let g = edges.entry(layer.clone()).or_default();
        g.entry(from.clone()).or_default();
        for (_, p) in module_paths(&text, &at) {
            if p.first() == Some(&layer) && p.len() >= 2 && p[1] != from {
                g.entry(from.clone()).or_default().insert(p[1].clone());
            }
        }
    }
    let mut found = vec![];
    for (layer, g) in &edges {
        // the modules each reaches (names that are items of the layer's mod.rs are no module)
        let reach = |start: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![start.to_string()];
            while let Some(n) = todo.pop() {
                for m in g.get(&n).into_iter().flatten() {
                    if g.contains_key(m) && seen.insert(m.clone()) {
                        todo.push(m.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&String, BTreeSet<String>> =
            g.keys().map(|n| (n, reach(n))).collect();
        let mut done = BTreeSet::new();
        for n in g.keys() {
            if done.contains(n) || !reaches[n].contains(n) {
                continue;
            }
            let set: Vec<&String> = g
                .keys()
                .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
                .collect();
            done.extend(set.iter().map(|m| (*m).clone()));
            let names: Vec<&str> = set.iter().map(|m| m.as_str()).collect();
            found.push(format!("{layer}: {}", names.join(" <-> ")));
        }
    }
    found
}

#[test]
fn no_circle_inside_a_layer() {
    let found = circles(&src());
    assert!(
        found.is_empty(),
        "modules of a layer importing each other in a circle (move what both need below \
         them, or invert it through a trait or a hook):\n{}",
        found.join("\n")
    );
}

/// The check itself: a circle in a copy of src/ is found, through `crate::` and `super::` paths
/// and groups, and a one-way import is none.
#[test]
fn a_circle_inside_a_layer_is_caught() {
    let dir = std::env::temp_dir().join(format!("ktorch-circles-{}", std::process::id()));
    let copy = dir.join("src");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(copy.join("nn/layers")).unwrap();
    std::fs::write(copy.join("nn/mod.rs"), "pub mod a;\npub mod layers;\n").unwrap();
    std::fs::write(copy.join("nn/a.rs"), "use super::layers::X;\n").unwrap();
    std::fs::write(
        copy.join("nn/layers/mod.rs"),
        "use crate::{k::K, nn::{a::f, b}};\n",
    )
    .unwrap();
    std::fs::write(copy.join("nn/b.rs"), "// crate::nn::a in a comment\n").unwrap();
    std::fs::create_dir_all(copy.join("tensor")).unwrap();
    std::fs::write(copy.join("tensor/c.rs"), "use super::d::Y;\n").unwrap();
    std::fs::write(copy.join("tensor/d.rs"), "use crate::k::K;\n").unwrap();
    let found = circles(&copy);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found, ["nn: a <-> layers"], "{found:?}");
}

// ---- unsafe only at the two boundaries (issue 36) -------------------------------------------

/// The boundaries: the only layers whose code may hold `unsafe` (k.h's q values in src/k,
/// libtorch's C++ and raw memory in src/cxx). Every other layer reaches them through their safe
/// wrappers.
const BOUNDARIES: &[&str] = &["k", "cxx"];

/// The domain modules whose root must turn the `unsafe_code` lint into an error (`deny`, or
/// `forbid` where no `unsafe impl Send/Sync` needs an exception below it).
const DOMAINS: &[&str] = &[
    "registry", "session", "device", "tensor", "dist", "math", "nn", "loss", "optim", "io",
    "model", "dispatch",
];

/// Is this code line an `unsafe impl Send` or `unsafe impl Sync` (the one kind of `unsafe` a
/// domain may hold: a promise about a type's threads, not a raw operation)?
fn send_sync_impl(code: &str) -> bool {
    let c = code.trim_start();
    c.starts_with("unsafe impl") && [" Send for ", " Sync for "].iter().any(|t| c.contains(t))
}

/// Every line outside the boundaries that holds `unsafe` (a block, an `unsafe fn`, an
/// `unsafe extern`) other than a Send/Sync impl, or that allows `unsafe_code` other than right
/// above such an impl: `path:line: text`.
fn unsafe_outside(root: &Path) -> Vec<String> {
    let mut files = vec![];
    rs_files(root, &mut files);
    files.sort();
    let mut bad = vec![];
    for f in files {
        if BOUNDARIES.contains(&top(root, &f).as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let c = code(line);
            let word = c.match_indices("unsafe").any(|(at, _)| {
                let before = c[..at].chars().next_back();
                let after = c[at + 6..].chars().next();
                !before.is_some_and(|b| b.is_alphanumeric() || b == '_')
                    && !after.is_some_and(|a| a.is_alphanumeric() || a == '_')
            });
            let allow = c.contains("allow(unsafe_code)");
            let ok = if allow {
                // the next line that is not a comment or attribute is a Send/Sync impl
                lines[i + 1..]
                    .iter()
                    .map(|l| code(l).trim())
                    .find(|l| !l.is_empty() && !l.starts_with("#["))
                    .is_some_and(send_sync_impl)
            } else {
                !word || send_sync_impl(c)
            };
            if !ok {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    bad
}

/// The domains whose root file (src/x/mod.rs or src/x.rs) does not deny or forbid unsafe code.
fn domains_without_the_lint(root: &Path) -> Vec<String> {
    DOMAINS
        .iter()
        .filter(|d| {
            let dir = root.join(d).join("mod.rs");
            let path = if dir.exists() {
                dir
            } else {
                root.join(format!("{d}.rs"))
            };
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            !text.lines().any(|l| {
                let l = code(l).trim();
                l == "#![deny(unsafe_code)]" || l == "#![forbid(unsafe_code)]"
            })
        })
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn unsafe_only_at_the_boundaries() {
    let bad = unsafe_outside(&src());
    assert!(
        bad.is_empty(),
        "unsafe code outside src/k and src/cxx (put the raw operation behind a safe wrapper \
         there: k::data for q vectors' items, cxx::storage for a tensor's memory, a shim entry \
         point for libtorch; only `unsafe impl Send/Sync` may stay in a domain):\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_domain_denies_unsafe_code() {
    let missing = domains_without_the_lint(&src());
    assert!(
        missing.is_empty(),
        "domain modules without #![deny(unsafe_code)] or #![forbid(unsafe_code)] at their \
         root: {missing:?}"
    );
    // every domain is a layer (a renamed module is not silently unchecked)
    for d in DOMAINS {
        assert!(LAYERS.contains(d), "`{d}` is in DOMAINS but not in LAYERS");
    }
}

/// The checks themselves: an unsafe block, an `unsafe fn` and an allowance above no Send/Sync
/// impl in a copy of src/ are found; a Send/Sync impl with its allowance, the boundaries' own
/// unsafe and the word in a comment or an identifier are not; a domain without the lint is named.
#[test]
fn unsafe_outside_the_boundaries_is_caught() {
    let dir = std::env::temp_dir().join(format!("ktorch-unsafe-{}", std::process::id()));
    let copy = dir.join("src");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(copy.join("tensor")).unwrap();
    std::fs::create_dir_all(copy.join("k")).unwrap();
    std::fs::write(
        copy.join("tensor/mod.rs"),
        "#![deny(unsafe_code)]\n// unsafe in a comment\nfn f() { let x = unsafe { g() }; }\n\
         #[allow(unsafe_code)]\nunsafe impl Send for T {}\nfn not_unsafe_fn() {}\n",
    )
    .unwrap();
    std::fs::write(
        copy.join("tensor/raw.rs"),
        "#![allow(unsafe_code)]\npub unsafe fn h(p: *const u8) -> u8 { *p }\n",
    )
    .unwrap();
    std::fs::write(copy.join("k/mod.rs"), "fn r() { unsafe { k() } }\n").unwrap();
    std::fs::write(copy.join("model.rs"), "fn m() {}\n").unwrap();
    let bad = unsafe_outside(&copy);
    let missing = domains_without_the_lint(&copy);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].ends_with("mod.rs:3: fn f() { let x = unsafe { g() }; }"),
        "{bad:?}"
    );
    assert!(
        bad[1].ends_with("raw.rs:1: #![allow(unsafe_code)]"),
        "{bad:?}"
    );
    assert!(
        bad[2].ends_with("raw.rs:2: pub unsafe fn h(p: *const u8) -> u8 { *p }"),
        "{bad:?}"
    );
    assert!(missing.contains(&"model".to_string()), "{missing:?}");
    assert!(!missing.contains(&"tensor".to_string()), "{missing:?}");
}
