//! The examples in examples/ run to the end on small sizes (each checks its own results and
//! fails with a q error otherwise), under the leak check.
#[path = "qhome/mod.rs"]
mod qhome;

use std::time::Duration;

fn example(cmd: &str, expect: &str) {
    qhome::ktorch();
    let r = qhome::run_qhost(cmd, &[("QHOST_LEAKCHECK", "1")], Duration::from_secs(600));
    assert!(
        r.code == Some(0) && r.stdout.contains(expect),
        "{cmd}: exit {:?}\n--- stdout\n{}--- stderr\n{}",
        r.code,
        r.stdout,
        r.stderr
    );
}

#[test]
fn linear_fits() {
    example("examples/linear.q", "fitted w=");
}

#[test]
fn spirals_trains() {
    example(
        "examples/spirals.q 30 0",
        "training accuracy after 30 epochs",
    );
}

#[test]
fn digits_cnn_trains() {
    // the data set comes from scikit-learn through the set-up script (cached after the first run)
    let out = std::process::Command::new("bash")
        .arg("scripts/digits.sh")
        .current_dir(qhome::repo_root())
        .output()
        .expect("scripts/digits.sh runs");
    assert!(
        out.status.success(),
        "scripts/digits.sh failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = String::from_utf8_lossy(&out.stdout).trim().to_string();
    example(
        &format!("examples/digits.q {data} 3 0"),
        "held-out accuracy after 3 epochs",
    );
}

#[test]
fn logistic_regression_fits() {
    example("examples/logistic.q 100", "training accuracy");
}

#[test]
fn ticks_trains_from_dates_and_scores_updates() {
    example("examples/ticks.q 20", "new day's rmse");
}

#[test]
fn table_regression_writes_predictions_back() {
    example("examples/table.q 200", "rmse");
}
