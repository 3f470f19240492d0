//! The short form of `make fuzz`, run by `make test`: every function of ktorch.so's table called
//! 30 times with generated arguments (a fixed seed, so a failure here reproduces with
//! `ktorch-fuzz --calls 30 --seed 1`). It must end with no crash, hang or leak and every function
//! called.
use std::path::Path;
use std::process::Command;

#[test]
fn every_function_survives_generated_arguments() {
    let exe = Path::new(env!("CARGO_BIN_EXE_ktorch-fuzz"));
    let dir = exe.parent().unwrap();
    if !dir.join("ktorch.so").is_file() && !dir.join("libktorch.so").is_file() {
        eprintln!(
            "note: ktorch.so not built beside {}; fuzz short run skipped (run `make build`)",
            exe.display()
        );
        return;
    }
    let out = Command::new(exe)
        .args(["--calls", "30", "--seed", "1", "--timeout", "120"])
        .output()
        .expect("ktorch-fuzz runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "ktorch-fuzz --calls 30 --seed 1 failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let covered = text
        .lines()
        .find_map(|l| l.strip_prefix("functions covered:"))
        .unwrap_or_else(|| panic!("no coverage line in:\n{text}"));
    let (n, total) = covered.trim().split_once('/').expect("n/total");
    assert_eq!(n, total, "functions not called:\n{text}");
    assert!(
        total.parse::<u64>().unwrap() > 300,
        "the table looks short:\n{text}"
    );
}
