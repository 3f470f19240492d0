//! `profile` (docs/profile.md) against torch.profiler: the same operations on the CPU, run
//! through ktorch from q (tests/profile/profile.q on qhost) and through PyTorch in the
//! virtualenv (tests/py/profile_ref.py), must give the same aten operators with the same calls
//! and input shapes: libtorch's profiler records what ATen ran, so an operator ktorch adds (a
//! copy, a cast, a `contiguous`) or drops shows here. The Chrome trace must be JSON with the
//! operators in it.
mod common;
use common::{bin_dir, python};
use std::collections::BTreeSet;
use std::process::Command;

fn lines(cmd: &mut Command, what: &str) -> BTreeSet<String> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{what} failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines().map(str::to_string).collect()
}

#[test]
fn profile_matches_torch_profiler() {
    let root = common::manifest_dir();
    let trace = std::env::temp_dir().join(format!("ktorch-profile-{}.json", std::process::id()));
    let reference = lines(
        Command::new(python()).arg(root.join("tests/py/profile_ref.py")),
        "profile_ref.py",
    );
    let ours = lines(
        Command::new(bin_dir().join("qhost"))
            .arg("tests/profile/profile.q")
            .arg(&trace)
            .env("QHOST_LEAKCHECK", "1")
            .current_dir(&root),
        "profile.q",
    );
    assert!(
        reference.iter().any(|l| l.starts_with("aten::mm\t3\t")),
        "torch.profiler's reference lacks aten::mm x3: {reference:?}"
    );
    // each q call into ktorch is a `ktorch::name` range (record_function's user scope)
    let (calls, ours): (BTreeSet<String>, BTreeSet<String>) =
        ours.into_iter().partition(|l| l.starts_with("ktorch::"));
    for want in ["ktorch::mm\t3", "ktorch::add\t3", "ktorch::relu\t1"] {
        assert!(calls.contains(want), "no range {want:?} in {calls:?}");
    }
    assert_eq!(
        ours, reference,
        "ktorch's profile (left) differs from torch.profiler's (right)"
    );
    let check = Command::new(python())
        .args([
            "-c",
            "import json,sys; t=json.load(open(sys.argv[1])); \
             n={e.get('name') for e in t['traceEvents']}; \
             sys.exit(0 if {'aten::mm','aten::add','aten::relu'} <= n else 1)",
        ])
        .arg(&trace)
        .status()
        .unwrap();
    assert!(
        check.success(),
        "the Chrome trace {trace:?} lacks the operators"
    );
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn exiting_with_a_profile_running_is_clean() {
    // the fuzzer's crash (seed 3): q exits while a profile runs; libtorch's profiler state, a
    // thread-local, was destroyed under it (SIGSEGV in its soft assert at exit)
    let dir = std::env::temp_dir().join(format!("ktorch-profile-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("exit.q");
    std::fs::write(
        &script,
        "{key[x]set'x}(`ktorch 2:`fns,1)[];\nprofile`start\nx:tensor 1 2 3e\n-1 \"running\";\nexit 0\n",
    )
    .unwrap();
    let out = Command::new(bin_dir().join("qhost"))
        .arg(&script)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{:?}: {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "running\n");
}
