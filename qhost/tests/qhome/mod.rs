//! A QHOME for the q-script tests: `<target>/qhost-qhome/l64` holds the libraries scripts load
//! with `` `name 2: ``: testext.so (qhost/testext, built here on demand) and ktorch.so (the
//! release build of the root crate, linked in when present). qhost looks in `$QHOME/l64`, as q.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The repository root (scripts run from there, as `\l tests/q/lib/assert.q` expects).
pub fn repo_root() -> PathBuf {
    manifest_dir().parent().unwrap().to_path_buf()
}

/// The test process's target dir (<target>/<profile>/deps/test-*) and profile name.
fn target_dir() -> (PathBuf, String) {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let profile = profile_dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    (profile_dir.parent().unwrap().to_path_buf(), profile)
}

/// The QHOME folder (its l64 created).
pub fn qhome() -> PathBuf {
    let q = target_dir().0.join("qhost-qhome");
    std::fs::create_dir_all(q.join("l64")).unwrap();
    q
}

/// Build qhost/testext (once per process) into QHOME/l64/testext.so; answers that l64 folder.
/// It builds in its own target dir: the outer cargo holds the lock of ours.
pub fn testext() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let (target, profile) = target_dir();
        let tdir = target.join("testext-build");
        let manifest = manifest_dir().join("testext/Cargo.toml");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--quiet", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &tdir);
        let sub = if profile == "release" {
            cmd.arg("--release");
            "release"
        } else {
            "debug"
        };
        let st = cmd.status().expect("cargo runs");
        assert!(st.success(), "building qhost/testext failed");
        let l64 = qhome().join("l64");
        // Copy to a fresh name then rename: a running qhost may have the old file mapped.
        let tmp = l64.join(format!("testext.so.{}", std::process::id()));
        std::fs::copy(tdir.join(sub).join("libtestext.so"), &tmp).expect("libtestext.so was built");
        std::fs::rename(&tmp, l64.join("testext.so")).unwrap();
        l64
    })
}

/// Link ktorch.so into QHOME/l64: $KTORCH_SO, else target/release/ktorch.so (or libktorch.so).
/// Panics with what to do when it is not built.
pub fn ktorch() {
    let root = repo_root();
    let found = std::env::var("KTORCH_SO")
        .ok()
        .map(PathBuf::from)
        .into_iter()
        .chain([
            root.join("target/release/ktorch.so"),
            root.join("target/release/libktorch.so"),
        ])
        .find(|p| p.is_file());
    let Some(so) = found else {
        panic!(
            "this script loads ktorch, but target/release/ktorch.so is not built: run \
             `cargo build --release` at the repository root (or set KTORCH_SO to the library)"
        );
    };
    let link = qhome().join("l64/ktorch.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(so.canonicalize().unwrap(), &link)
        .or_else(|e| if link.exists() { Ok(()) } else { Err(e) })
        .unwrap();
}

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Run qhost on `script` (a path from the repository root, then its arguments, separated by
/// spaces) from the root, with our QHOME and `env`, stdin empty; killed after `limit`.
pub fn run_qhost(script: &str, env: &[(&str, &str)], limit: Duration) -> Run {
    let dir = std::env::temp_dir().join(format!("qhost-run-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err) = (dir.join("out"), dir.join("err"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qhost"));
    cmd.args(script.split(' '))
        .current_dir(repo_root())
        .env("QHOME", qhome())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("qhost runs");
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    let r = Run {
        stdout: read(&out),
        stderr: read(&err),
        code,
    };
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// The package folder of the checkout being tested. Cargo sets CARGO_MANIFEST_DIR when it runs a
/// test, so read it then: the compile-time value goes stale when a shared target dir (CI's cache)
/// holds a binary built from a clone at another path.
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}
