//! The harness must not rot: `ktorch-bench --quick` (small sizes, short rounds) runs to the end
//! and prints every row and target. Figures are not checked (a shared 2-core machine); `make bench`
//! is where they are read.
use std::path::Path;
use std::process::Command;

#[test]
fn quick_run_prints_the_table() {
    let exe = Path::new(env!("CARGO_BIN_EXE_ktorch-bench"));
    let dir = exe.parent().unwrap();
    if !dir.join("ktorch.so").is_file() && !dir.join("libktorch.so").is_file() {
        eprintln!(
            "note: ktorch.so not built beside {}; bench smoke test skipped",
            exe.display()
        );
        return;
    }
    let out = Command::new(exe)
        .arg("--quick")
        .output()
        .expect("ktorch-bench runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "ktorch-bench --quick failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "memcpy, fresh buffer",
        "q→tensor: tensor x",
        "tensor→q: tensor h",
        "tch direct",
        "ktorch C API",
        "PyTorch",
        "qhost q text",
        "targets:",
        "vs memcpy (fresh)",
        "vs PyTorch Python",
        "training spirals MLP",
        "samples/s vs PyTorch eager",
        "samples/s vs tch direct",
    ] {
        assert!(text.contains(want), "no `{want}` in:\n{text}");
    }
    // the spirals model needs only layers that ktorch has had from the start: it must train
    let spirals = text
        .lines()
        .find(|l| l.starts_with("training spirals MLP") && l.contains("ktorch:"))
        .unwrap_or_else(|| panic!("no ktorch row for the spirals MLP in:\n{text}"));
    assert!(
        !spirals.contains("not measured"),
        "ktorch did not train the spirals MLP:\n{spirals}"
    );
    assert!(
        !text.contains("tensors still allocated"),
        "the harness leaked tensors:\n{text}"
    );
}
