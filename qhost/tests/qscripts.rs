//! One test per q script in tests/q/ (from the repository root): each runs through qhost and
//! must exit 0 (tests/q/lib/assert.q's `.t.done[]` exits 1 on a failed check), with no K object
//! left live at exit (QHOST_LEAKCHECK=1), in strict mode (QHOST_STRICT=1). A script that
//! loads `` `testext `` gets qhost/testext built; one that loads `` `ktorch `` needs
//! target/release/ktorch.so (the test fails saying so when it is missing). Both are found in
//! the QHOME that qhome/mod.rs sets up.
//!
//! Adding a script: put `tests/q/<name>.q` (name: lowercase letters, digits, `_`) and add
//! `<name>` to the `qscripts!` list; `every_script_is_listed` fails until you do.
#[path = "qhome/mod.rs"]
mod qhome;

use std::time::Duration;

/// Run tests/q/<name>.q, failing with what it printed.
fn run(name: &str) {
    let rel = format!("tests/q/{name}.q");
    let text = std::fs::read_to_string(qhome::repo_root().join(&rel)).expect("script exists");
    if text.contains("`testext") {
        qhome::testext();
    }
    if text.contains("`ktorch") || text.contains("ktorch.q") {
        qhome::ktorch();
    }
    // Every script also runs under the leak check (a K object left live at exit fails it) and
    // in strict mode: new K memory poisoned, krr's text read after the call returned, stale
    // errors and k.h calls from the wrong thread reported (src/kapi/strict.rs).
    let r = qhome::run_qhost(
        &rel,
        &[("QHOST_LEAKCHECK", "1"), ("QHOST_STRICT", "1")],
        Duration::from_secs(600),
    );
    assert!(
        r.code == Some(0),
        "{rel}: exit {:?}\n--- stdout\n{}--- stderr\n{}",
        r.code,
        r.stdout,
        r.stderr
    );
}

macro_rules! qscripts {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { run(stringify!($name)) } )*
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

qscripts!(
    capi,
    ktorch_amp,
    ktorch_async,
    ktorch_callback,
    ktorch_collections,
    ktorch_complex,
    ktorch_conformance,
    ktorch_cuda_control,
    ktorch_device,
    ktorch_error_text,
    ktorch_faults,
    ktorch_fidelity3,
    ktorch_fuzz_regress,
    ktorch_image,
    ktorch_info,
    ktorch_init,
    ktorch_lbfgs,
    ktorch_linalg,
    ktorch_log,
    ktorch_loss,
    ktorch_model,
    ktorch_model_data,
    ktorch_nn,
    ktorch_nn_act,
    ktorch_nn_attrs,
    ktorch_nn_conv,
    ktorch_nn_rnn,
    ktorch_nn_shape,
    ktorch_nn_transformer,
    ktorch_optim,
    ktorch_pointwise,
    ktorch_reduce,
    ktorch_precast,
    ktorch_session,
    ktorch_speed,
    ktorch_tables,
    ktorch_tensor,
    ktorch_tensorop,
    ktorch_example_forms,
    ktorch_train,
);

#[test]
fn every_script_is_listed() {
    let dir = qhome::repo_root().join("tests/q");
    let mut missing = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "q") {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            if !LISTED.contains(&stem.as_str()) {
                missing.push(stem);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "add these to qscripts! in qhost/tests/qscripts.rs: {missing:?}"
    );
}
