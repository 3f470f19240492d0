//! Models and weights between PyTorch and ktorch (issue 23), checked against PyTorch itself:
//! 1. tests/py/pymodels_make.py (the virtualenv's python, $VIRTUAL_ENV/bin/python as the
//!    Makefile sets it) makes a TorchScript module, an AOTInductor package, state dicts
//!    (torch.save and safetensors), bad files, and the outputs PyTorch computes (refs.q);
//! 2. tests/pymodels/roundtrip.q (through qhost, with ktorch) checks ktorch's results against
//!    them: TorchScript outputs bit-equal on CPU, fine-tuning equal to PyTorch's step by step,
//!    state dicts loaded, bad files answered with q errors naming the file and the problem;
//!    then trains a model in q and writes its state and outputs;
//! 3. tests/py/pymodels_check.py loads those in PyTorch and compares outputs.
//!
//! The AOTInductor package takes about a minute to compile the first time; the maker keeps it in
//! ~/.cache/ktorch/pymodels, keyed by the model's weights and torch's version.
mod common;
use common::{bin_dir, python};
use std::process::Command;

fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    println!("{what}:\n{text}");
}

#[test]
fn pytorch_round_trips() {
    let root = common::manifest_dir();
    let dir = std::env::temp_dir().join(format!("ktorch-pymodels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    run(
        Command::new(python())
            .arg(root.join("tests/py/pymodels_make.py"))
            .arg(&dir)
            .current_dir(&root),
        "pymodels_make.py",
    );
    run(
        Command::new(bin_dir().join("qhost"))
            .arg("tests/pymodels/roundtrip.q")
            .arg(&dir)
            .env("QHOST_LEAKCHECK", "1")
            .current_dir(&root),
        "roundtrip.q",
    );
    run(
        Command::new(python())
            .arg(root.join("tests/py/pymodels_check.py"))
            .arg(&dir)
            .current_dir(&root),
        "pymodels_check.py",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
