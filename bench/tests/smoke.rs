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

/// The GPU benchmarks' q scripts (bench/cnn/resnet.q, bench/gpt/gpt.q) run only on the GPU
/// machine, so a change of ktorch's rules could break them unseen (a sequential inside a
/// sequential, refused as ktorch refuses it, broke resnet.q): here each runs its small model
/// (SMALL=1) on the CPU for one epoch or a few steps and prints its result line.
#[test]
fn gpu_bench_scripts_run_small_on_the_cpu() {
    let exe = Path::new(env!("CARGO_BIN_EXE_ktorch-bench"));
    let dir = exe.parent().unwrap();
    let qhost = dir.join("qhost");
    if !dir.join("ktorch.so").is_file() || !qhost.is_file() {
        eprintln!(
            "note: ktorch.so or qhost not built beside {}; skipped",
            exe.display()
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let runs: [(&str, &[&str], &str); 3] = [
        (
            "bench/cnn/resnet.q",
            &["cpu", "bf16cl", "1", "1"],
            "resnet bf16cl 1 ",
        ),
        ("bench/gpt/gpt.q", &["cpu", "fp32", "3", "1"], "gpt fp32 3 "),
        // every settings suffix read (precast, lncast, dropadd off, lnres off) down to bf16
        (
            "bench/gpt/gpt.q",
            &["cpu", "bf16pclcxdxr", "3", "1"],
            "gpt bf16 3 ",
        ),
    ];
    for (script, args, want) in runs {
        let out = Command::new(&qhost)
            .arg(root.join(script))
            .args(args)
            .env("SMALL", "1")
            .current_dir(dir)
            .output()
            .expect("qhost runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.lines().any(|l| l.starts_with(want)),
            "{script} {args:?}: exit {:?}\n{text}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
