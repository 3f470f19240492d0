//! Link the fuzz binary as qhost's own binary is linked (loader/src/link.rs): ktorch.so,
//! dlopen'ed with RTLD_NOW, finds the k.h functions in this executable. Also write the
//! generator's vocabulary: every identifier-like string literal in ktorch's source and every
//! symbol in the docs' q examples, so generated arguments carry real option names and get past
//! the first check of most functions (kept current with the source by construction).
use std::path::Path;

include!("../loader/src/link.rs");
// the docs' example blocks, parsed by the one parser tests/docs.rs uses too (the fuzzer takes
// only the inputs: the expected output is tests/docs.rs's)
#[allow(dead_code)]
mod blocks {
    include!("../tests/common/doc_blocks.rs");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../loader/src/link.rs");
    println!("cargo:rerun-if-changed=../tests/common/doc_blocks.rs");
    link_as_qhost();
    vocabulary();
    doc_blocks();
}

/// The docs' example blocks: each block's `q)` input lines, with where it is and whether it
/// needs a GPU (```q cuda), for the fuzzer's calls seeded from valid ones (fuzz/src/docs.rs).
fn doc_blocks() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("..");
    let mut files = Vec::new();
    collect(&root.join("docs"), "md", &mut files);
    files.sort();
    let mut blocks = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read a doc");
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let parsed = blocks::doc_blocks(&text).unwrap_or_else(|e| panic!("docs/{name}: {e}"));
        for b in parsed.into_iter().filter(|b| !b.examples.is_empty()) {
            let inputs: Vec<String> = b.examples.into_iter().map(|e| e.input).collect();
            blocks.push((format!("docs/{name}:{}", b.line), b.cuda, inputs));
        }
    }
    assert!(blocks.len() > 50, "fuzz: only {} doc blocks", blocks.len());
    let body: Vec<String> = blocks
        .iter()
        .map(|(at, cuda, lines)| format!("({at:?}, {cuda}, &{lines:?})"))
        .collect();
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("doc_blocks.rs");
    std::fs::write(
        out,
        format!(
            "pub const BLOCKS: &[(&str, bool, &[&str])] = &[{}];\n",
            body.join(",\n")
        ),
    )
    .expect("write doc_blocks.rs");
}

fn vocabulary() {
    // the manifest folder as cargo gives it now (`env!` would bake in the folder this script was
    // first compiled in: a shared target folder then reads a clone that is gone)
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("..");
    let mut words = std::collections::BTreeSet::new();
    let mut files = Vec::new();
    collect(&root.join("src"), "rs", &mut files);
    collect(&root.join("docs"), "md", &mut files);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if f.extension().is_some_and(|e| e == "rs") {
            // "name" literals: option names, dtypes, module kinds, settings...
            for (i, piece) in text.split('"').enumerate() {
                if i % 2 == 1 && ident(piece) {
                    words.insert(piece.to_string());
                }
            }
        } else {
            // `name symbols of the q examples
            for line in text.lines().filter(|l| l.starts_with("q)")) {
                for piece in line.split('`').skip(1) {
                    let w: String = piece
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                        .collect();
                    if ident(&w) {
                        words.insert(w);
                    }
                }
            }
        }
    }
    assert!(
        words.len() > 100,
        "fuzz vocabulary: only {} words from {}",
        words.len(),
        root.display()
    );
    let body: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("vocab.rs");
    std::fs::write(
        out,
        format!("pub const VOCAB: &[&str] = &[{}];\n", body.join(",")),
    )
    .expect("write vocab.rs");
}

fn ident(s: &str) -> bool {
    (2..=24).contains(&s.len())
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            println!("cargo:rerun-if-changed={}", p.display());
            out.push(p);
        }
    }
}
