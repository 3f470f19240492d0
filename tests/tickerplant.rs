//! The tickerplant example (examples/tick, docs/pipelines.md) as two qhost processes over q IPC:
//! a publisher (tp.q, on an ephemeral port) and a subscriber (sub.q) that trains the model of
//! examples/ticks.q from the history the publisher serves (a date at a time over IPC), subscribes,
//! and scores each update's rows with `score` in its `upd`. Checked here: both end by themselves with exit 0 and no process is left; the rows
//! the subscriber received are the rows published (count and full-precision sums, printed by each
//! side); every score equals `evaluate` of the same model on all received rows (the subscriber
//! compares them and prints the largest difference); the model predicts the new day (rmse).
mod common;

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{bin_dir, manifest_dir};

/// A qhost process, killed (and reaped) if the test ends before it does.
struct Proc(Option<Child>);

impl Proc {
    fn start(args: &[&str]) -> Proc {
        let c = Command::new(bin_dir().join("qhost"))
            .args(args)
            .current_dir(manifest_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("qhost starts");
        Proc(Some(c))
    }

    /// The first line the process prints (the publisher's port), read a byte at a time so that
    /// nothing after it is taken from `finish`.
    fn first_line(&mut self) -> String {
        let out = self.0.as_mut().unwrap().stdout.as_mut().unwrap();
        let mut line = Vec::new();
        let mut b = [0u8; 1];
        while out.read(&mut b).unwrap_or(0) == 1 && b[0] != b'\n' {
            line.push(b[0]);
        }
        String::from_utf8_lossy(&line).trim().to_string()
    }

    /// Wait at most `secs` for the process to end on its own: exit code, stdout, stderr.
    fn finish(mut self, secs: u64) -> (Option<i32>, String, String) {
        let mut c = self.0.take().unwrap();
        let t0 = Instant::now();
        while c.try_wait().unwrap().is_none() {
            if t0.elapsed() > Duration::from_secs(secs) {
                let _ = c.kill();
                let _ = c.wait();
                let mut out = String::new();
                let _ = c.stdout.take().unwrap().read_to_string(&mut out);
                panic!("qhost still running after {secs}s (killed): {out}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = c.wait_with_output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Some(mut c) = self.0.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The text after `prefix` on the line that starts with it.
fn after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}..` in:\n{out}"))
}

#[test]
fn a_subscriber_scores_every_update_of_a_publisher() {
    let mut tp = Proc::start(&["examples/tick/tp.q", "-p", "0W"]);
    let port = tp.first_line();
    assert!(
        port.parse::<u16>().is_ok_and(|p| p > 0),
        "the publisher's port: {port}"
    );
    let sub = Proc::start(&["examples/tick/sub.q", &port, "5"]);
    let (code, out, err) = sub.finish(300);
    assert_eq!(code, Some(0), "subscriber:\n{out}\n{err}");
    let (tcode, tout, terr) = tp.finish(30);
    assert_eq!(tcode, Some(0), "publisher:\n{tout}\n{terr}");

    // what was published is what arrived: 2,000 rows in 1,010 updates, the sums to 17 digits
    let published = after(&tout, "published ");
    let received = after(&out, "received ");
    assert!(
        published.starts_with("2000 rows in 1010 updates: "),
        "{published}"
    );
    assert_eq!(
        published, received,
        "publisher:\n{tout}\nsubscriber:\n{out}"
    );

    // the history came over IPC, five epochs of 20 dates
    assert!(
        after(&out, "trained on ").starts_with("100 dates over IPC in "),
        "{out}"
    );
    // every score is the model's output on its row
    let diff: f64 = after(&out, "score against evaluate, largest difference: ")
        .parse()
        .unwrap();
    assert!(diff <= 1e-6, "{out}");
    // the model trained on the history predicts the new day (noise alone gives about 0.014)
    let rmse: f64 = after(&out, "rmse on the new day: ").parse().unwrap();
    assert!(rmse < 0.03, "{out}");
    let us: f64 = after(&out, "score of a one-row update, median: ")
        .trim_end_matches(" us")
        .parse()
        .unwrap();
    assert!(us > 0.0, "{out}");
    eprintln!("{out}");
}
