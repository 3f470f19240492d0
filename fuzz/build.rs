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
mod code_line {
    include!("../tests/common/code_line.rs");
}
use code_line::code;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../loader/src/link.rs");
    println!("cargo:rerun-if-changed=../tests/common/doc_blocks.rs");
    println!("cargo:rerun-if-changed=../tests/common/code_line.rs");
    link_as_qhost();
    vocabulary();
    doc_blocks();
    declared_forms();
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

/// The argument forms the typed q functions declare (`qfn!`, src/k/qfn.rs): for each q name
/// whose fns row names a generated wrapper (`"seed" as "kseed" => session::seed::seed::q`), each
/// parameter's kind as written (`Seed`, `With<Op>`) and the words its `FromQ` impl gives for the
/// kind (`TYPE`: "a long seed", "(event;event)", "() or `cuda:n"), the forms q is to pass. The
/// generator makes arguments of those forms and that count (fuzz/src/forms.rs), so that a typed
/// function's calls get past its reading of the arguments more often than random values do.
fn declared_forms() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let src = Path::new(&manifest).join("../src");
    let mut files = Vec::new();
    collect(&src, "rs", &mut files);
    // every function declared in a qfn! block, by its path from the crate root, with its file
    let mut typed = std::collections::BTreeMap::new();
    // every kind's TYPE as written: (file, kind, a string literal or `Other::TYPE`)
    let mut kinds: Vec<(String, String, String)> = vec![];
    // the qfn! blocks of table macros: (macro, file, parameter kinds), and each file's text
    let mut tables: Vec<(String, String, Vec<String>)> = vec![];
    let mut modules: Vec<(String, Vec<String>)> = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read a source file");
        // comments dropped: a doc comment's quotes or braces are no code
        let text: String = text.lines().map(|l| code(l).to_string() + "\n").collect();
        let rel = f.strip_prefix(&src).unwrap().with_extension("");
        let mut module: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        // the kinds this file declares: `impl .. FromQ for NAME` and its `const TYPE`
        let file = f.to_string_lossy().to_string();
        let mut at = 0;
        while let Some(i) = text[at..].find("FromQ for ") {
            let name_at = at + i + "FromQ for ".len();
            let name: String = text[name_at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let body = &text[name_at..];
            if let Some(t) = body.find("const TYPE: &'static str = ") {
                let v = body[t + "const TYPE: &'static str = ".len()..]
                    .split(";\n")
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                kinds.push((file.clone(), name, v));
            }
            at = name_at;
        }
        // kind aliases (`type Counted = Routed<OBJECTS, TENSORS, Held<true>>;`): the aliased
        // kind's words, marked by a leading `=`
        for l in text.lines() {
            let l = l
                .trim_start()
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            if let Some((name, rhs)) = l.strip_prefix("type ").and_then(|r| r.split_once(" = ")) {
                if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    kinds.push((
                        file.clone(),
                        name.to_string(),
                        format!("={}", rhs.trim_end_matches(';')),
                    ));
                }
            }
        }
        let mut at = 0;
        while let Some(i) = text[at..].find("qfn! {") {
            let start = at + i + "qfn! {".len();
            let end = matching(&text, start - 1);
            let block = &text[start..end];
            let mut k = 0;
            while let Some(j) = block[k..].find("pub fn ") {
                let name_at = k + j + "pub fn ".len();
                let open = name_at + block[name_at..].find('(').expect("a qfn's parameters");
                let name = block[name_at..open].trim().to_string();
                let close = matching(block, open);
                let params = split_top(&block[open + 1..close])
                    .into_iter()
                    .filter_map(|p| p.split_once(':').map(|(_, t)| t.trim().to_string()))
                    .collect::<Vec<_>>();
                // a table macro's qfn! (`pub fn $name(x: $crate::..::Kind)`): its parameters
                // are each row's, found below where the macro is invoked
                if name.starts_with('$') {
                    if let Some(m) = text[..start].rfind("macro_rules! ") {
                        let mac: String = text[m + "macro_rules! ".len()..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        // a kind by its name (`$crate::math::pointwise::UnaryArgs`: UnaryArgs)
                        let params = params
                            .into_iter()
                            .map(|p| match p.strip_prefix("$crate::") {
                                Some(path) => path.rsplit("::").next().unwrap_or(path).to_string(),
                                None => p,
                            })
                            .collect();
                        tables.push((mac, file.clone(), params));
                    }
                } else {
                    let mut path = module.clone();
                    path.push(name);
                    typed.insert(path.join("::"), (file.clone(), params));
                }
                k = close;
            }
            at = end;
        }
        modules.push((text, module));
    }
    // the rows of each table macro's invocations (`unary! { abs: f_abs, ..; }`): a typed
    // function of the macro's parameters, in the invoking file's module (the loss table's and
    // the math tables' functions)
    for (text, module) in &modules {
        for (mac, file, params) in &tables {
            let call = format!("{mac}! {{");
            let mut at = 0;
            while let Some(i) = text[at..].find(&call) {
                let start = at + i + call.len();
                let end = matching(text, start - 1);
                // invoked at a line's start, or by a path (`super::by_layer! {`)
                let before = text[..at + i].chars().last().unwrap_or('\n');
                if before != '\n' && before != ':' {
                    at = end;
                    continue;
                }
                // a kind-and-names table (`by_layer! { ByLayer: celu, elu, .. }`, parameters
                // `$kind<which::$name>`): each name a function of that kind
                if params.iter().any(|p| p.starts_with("$kind")) {
                    let body = &text[start..end];
                    if let Some((kind, names)) = body.split_once(':') {
                        let kind = kind.trim().to_string();
                        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                            let mut path = module.clone();
                            path.push(name.to_string());
                            let ps = params
                                .iter()
                                .map(|p| {
                                    if p.starts_with("$kind") {
                                        kind.clone()
                                    } else {
                                        p.clone()
                                    }
                                })
                                .collect();
                            typed.insert(path.join("::"), (file.clone(), ps));
                        }
                    }
                    at = end;
                    continue;
                }
                // a row: a line starting with its name and a colon or a space (`abs: ..;`,
                // `bce  Bce, ..;`); a row's further lines start otherwise (`|t, o| ..`)
                for row in text[start..end].lines() {
                    let row = row.trim();
                    let name: String = row
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    let after = &row[name.len()..];
                    if name.is_empty()
                        || after.starts_with("::")
                        || !(after.starts_with(':') || after.starts_with(' '))
                    {
                        continue;
                    }
                    let mut path = module.clone();
                    path.push(name);
                    typed.insert(path.join("::"), (file.clone(), params.clone()));
                }
                at = end;
            }
        }
    }
    // the docs' first written form of each q name (`` `avgpool2d(x;size)` ``): the words for
    // a kind that describes itself in prose ("an input and the layer's options": the nn
    // functional forms, whose options are each layer's own)
    let mut doc_forms: std::collections::BTreeMap<String, String> = Default::default();
    let mut docs = Vec::new();
    collect(&src.join("../docs"), "md", &mut docs);
    docs.sort();
    for f in &docs {
        let text = std::fs::read_to_string(f).expect("read a doc page");
        for l in text.lines().filter(|l| l.starts_with("- `")) {
            let mut rest = l;
            while let Some(i) = rest.find('`') {
                let after = &rest[i + 1..];
                let Some(j) = after.find('`') else { break };
                let form = &after[..j];
                if let Some((name, args)) = form.split_once('(') {
                    if !name.is_empty()
                        && name.chars().all(|c| c.is_alphanumeric())
                        && args.ends_with(')')
                    {
                        doc_forms
                            .entry(name.to_string())
                            .or_insert_with(|| format!("({args}"));
                    }
                }
                rest = &after[j + 1..];
            }
        }
    }
    // the fns rows naming a typed function's wrapper
    let fns = std::fs::read_to_string(src.join("fns.rs")).expect("read src/fns.rs");
    let mut forms = vec![];
    for line in fns.lines() {
        let l = line.trim();
        let (Some(q), Some(target)) = (
            l.strip_prefix('"').and_then(|r| r.split('"').next()),
            l.split("=>").nth(1).map(|t| t.trim().trim_end_matches(',')),
        ) else {
            continue;
        };
        if let Some(path) = target.strip_suffix("::q") {
            // a wrapper whose declaration this text scan does not find (a macro it does not
            // expand): no declared forms, the vocabulary alone, rather than no fuzzer
            let Some((file, params)) = typed.get(path) else {
                continue;
            };
            let described: Vec<(String, String)> = params
                .iter()
                .map(|p| {
                    let words = type_text(&kinds, file, p, 0);
                    let prose = words.starts_with("an input") || words.starts_with("two inputs");
                    // a 1-d/2-d/3-d family documented by one of its members (`adaptavg2d(x;size)`)
                    let sibling = || {
                        let stem = q
                            .strip_suffix("1d")
                            .or(q.strip_suffix("2d"))
                            .or(q.strip_suffix("3d"))?;
                        ["1d", "2d", "3d"]
                            .iter()
                            .find_map(|d| doc_forms.get(&format!("{stem}{d}")))
                    };
                    match doc_forms.get(q).or_else(sibling) {
                        Some(form) if prose && params.len() == 1 => (p.clone(), form.clone()),
                        _ => (p.clone(), words),
                    }
                })
                .collect();
            forms.push(format!("({q:?}, &{described:?})"));
        }
    }
    assert!(
        forms.len() >= 20,
        "fuzz: only {} typed q functions",
        forms.len()
    );
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("forms.rs");
    std::fs::write(
        out,
        format!(
            "pub const FORMS: &[(&str, &[(&str, &str)])] = &[{}];\n",
            forms.join(",\n")
        ),
    )
    .expect("write forms.rs");
}

/// The words of kind `k`'s TYPE (its base name: `With<Op>` is `With`'s), the kind declared in
/// `file` first, else anywhere; `Other::TYPE` followed; "" where no impl says.
fn type_text(kinds: &[(String, String, String)], file: &str, k: &str, depth: u32) -> String {
    let base: String = k
        .trim_start_matches("Option<")
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let found = kinds
        .iter()
        .find(|(f, n, _)| f == file && *n == base)
        .or_else(|| kinds.iter().find(|(_, n, _)| *n == base));
    // `Routed<HERE, THERE, D>` (src/dispatch/route.rs): a handle of a class it answers itself,
    // or what its domain's kind D takes
    if base == "Routed" {
        let d = k
            .split_once('<')
            .map(|(_, g)| split_top(g.strip_suffix('>').unwrap_or(g)))
            .and_then(|g| g.last().map(|d| d.trim().to_string()))
            .unwrap_or_default();
        let t = type_text(kinds, file, &d, depth + 1);
        return if t.is_empty() {
            "a ktorch object".into()
        } else {
            format!("{t}, or a ktorch object")
        };
    }
    match found {
        Some((_, _, v)) if v.starts_with('=') && depth < 4 => {
            type_text(kinds, file, &v[1..], depth + 1)
        }
        Some((_, _, v)) if v.starts_with('"') => v.trim_matches('"').replace("\\\"", "\""),
        Some((f, _, v)) if depth < 4 => match v.strip_suffix("::TYPE") {
            Some(other) => type_text(kinds, f, other, depth + 1),
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// The index of the bracket closing the one at `open` (`{` and `(` counted alike; string
/// literals skipped: a format string's braces are no block).
fn matching(text: &str, open: usize) -> usize {
    let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
    for (i, c) in text[open..].char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '(' => depth += 1,
            '}' | ')' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// `s` split at its commas outside brackets (a parameter list).
fn split_top(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut from) = (vec![], 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
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
