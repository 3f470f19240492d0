//! Runs every example in docs/*.md through qhost with ktorch loaded: in each ```q block, lines
//! starting `q)` are input and the lines after them are what q's console prints for it (an error
//! as `'message`, without the console's location lines). Blocks fenced ```q cuda need a GPU:
//! KTORCH_DOCS_CUDA=1 runs those alone (scripts/gpu-run.sh runs this test's binary so on the GPU
//! machine), otherwise they are skipped (the plain blocks show a machine without a GPU).

mod common;
use common::bin_dir;
use common::manifest_dir;
use std::process::Command;

#[path = "common/doc_blocks.rs"]
mod doc_blocks;
use doc_blocks::{doc_blocks, Example};

/// A q string literal holding `s`.
fn qstring(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Is this line an assignment (which the console does not print)?
fn is_assignment(s: &str) -> bool {
    let name: String = s
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
        .collect();
    !name.is_empty() && s[name.len()..].starts_with(':') && !s[name.len()..].starts_with("::")
}

/// A script that evaluates each input with `value` and shows what the console would, with a
/// marker line between examples so outputs can be matched to inputs.
fn script(block: &[Example]) -> String {
    let mut s = String::from("{key[x]set'x}(`ktorch 2:`fns,1)[];\n");
    for (i, e) in block.iter().enumerate() {
        // An error prints as the console shows it, `'msg`, so examples can show errors too.
        if is_assignment(&e.input) {
            s.push_str(&format!(
                "@[value;{};{{-1 \"'\",x;}}];\n",
                qstring(&e.input)
            ));
        } else {
            s.push_str(&format!(
                "@[{{r:value x; if[not r~(::); show r]}};{};{{-1 \"'\",x;}}];\n",
                qstring(&e.input)
            ));
        }
        s.push_str(&format!("-1 \"--example {i}--\";\n"));
    }
    s.push_str("\\\\\n");
    s
}

fn run_block(doc: &str, block: &[Example]) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("ktorch-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("doc.q");
    std::fs::write(&path, script(block)).unwrap();
    // strict mode (QHOST_STRICT=1): the C API as strict as KX documents it, so that no
    // example passes by relying on what real q does not promise (zeroed memory, krr's text)
    let out = Command::new(bin_dir().join("qhost"))
        .arg(&path)
        .env("QHOST_STRICT", "1")
        .output()
        .map_err(|e| format!("qhost: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "{}: qhost failed: {}{}",
            doc,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut got: Vec<Vec<String>> = vec![vec![]];
    for l in stdout.lines() {
        if l.starts_with("--example ") {
            got.push(vec![]);
        } else {
            got.last_mut().unwrap().push(l.trim_end().to_string());
        }
    }
    for (i, e) in block.iter().enumerate() {
        let want: Vec<String> = e
            .expected
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect();
        if got.get(i) != Some(&want) {
            return Err(format!(
                "{}: q){}\nexpected:\n{}\ngot:\n{}",
                doc,
                e.input,
                want.join("\n"),
                got.get(i).cloned().unwrap_or_default().join("\n")
            ));
        }
    }
    Ok(())
}

#[test]
fn every_doc_example_runs_as_written() {
    let docs = manifest_dir().join("docs");
    assert!(
        bin_dir().join("ktorch.so").exists(),
        "build first: make build (needs {}/ktorch.so)",
        bin_dir().display()
    );
    let mut failures = vec![];
    let mut count = 0;
    let with_cuda = std::env::var("KTORCH_DOCS_CUDA").is_ok_and(|v| v == "1");
    // KTORCH_DOCS_ONLY=profile.md: one page, for a developer checking the page they edit
    let only = std::env::var("KTORCH_DOCS_ONLY").ok();
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        if only
            .as_ref()
            .is_some_and(|o| path.file_name().is_none_or(|f| f != o.as_str()))
        {
            continue;
        }
        let blocks = doc_blocks(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for b in blocks {
            if b.cuda != with_cuda {
                continue;
            }
            count += b.examples.len();
            let at = format!("{}:{}", path.display(), b.line);
            if let Err(e) = run_block(&at, &b.examples) {
                failures.push(e);
            }
        }
    }
    assert!(count > 0, "no examples found in docs/");
    assert!(
        failures.is_empty(),
        "{} failing doc example(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
