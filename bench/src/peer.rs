//! The PyTorch peer: bench/peer.py, started once with the virtualenv's python
//! ($VIRTUAL_ENV/bin/python, else python3) and kept running, so that its batches interleave with
//! the Rust cases round by round. It times its own timeit loop and reports seconds per batch. If
//! it cannot start, the rows say why and the targets against it FAIL (not measured).
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

pub struct Peer {
    pub torch: Option<String>,
    pub error: Option<String>,
    io: Option<(Child, ChildStdin, BufReader<ChildStdout>)>,
}

impl Peer {
    /// No peer: its cases are left out (`why` says so where the peer's error would show).
    pub fn not_run(why: &str) -> Peer {
        Peer {
            torch: None,
            error: Some(format!("not run ({why})")),
            io: None,
        }
    }
    /// The peer with its training on `device` (cpu or cuda).
    pub fn start(device: &str) -> Peer {
        match start(device) {
            Ok((torch, io)) => Peer {
                torch: Some(torch),
                error: None,
                io: Some(io),
            },
            Err(e) => Peer {
                torch: None,
                error: Some(e),
                io: None,
            },
        }
    }
    pub fn running(&self) -> bool {
        self.io.is_some()
    }
    /// Seconds for `iters` calls of torch.add on tensors of `n` elements.
    pub fn add(&mut self, n: i64, iters: u64) -> Duration {
        self.ask(&format!("add {n} {iters}"))
            .unwrap_or_else(|e| panic!("{e}"))
    }
    /// Seconds for `epochs` training epochs of network `net` (bench/peer.py builds it) on the
    /// data in file `data` (n samples: float32 inputs, then int64 classes) in batches of `batch`.
    /// The peer keeps the model and optimizer from one request to the next: training goes on.
    pub fn train(
        &mut self,
        net: &str,
        data: &Path,
        n: i64,
        batch: i64,
        epochs: u64,
    ) -> Result<Duration, String> {
        self.ask(&format!(
            "train {net} {} {n} {batch} {epochs}",
            data.display()
        ))
    }
    /// Seconds for `iters` eager forward calls of bench/pymodels.py's scorer (state in
    /// `state`, a safetensors file) on a batch of `batch` rows.
    pub fn infer(&mut self, state: &Path, batch: i64, iters: u64) -> Result<Duration, String> {
        self.ask(&format!("infer {} {batch} {iters}", state.display()))
    }
    /// One request line, one reply line: seconds, or the peer's error.
    fn ask(&mut self, request: &str) -> Result<Duration, String> {
        let (_, w, r) = self.io.as_mut().ok_or("peer not running")?;
        writeln!(w, "{request}")
            .and_then(|_| w.flush())
            .map_err(|e| format!("peer.py request: {e}"))?;
        let mut line = String::new();
        r.read_line(&mut line)
            .map_err(|e| format!("peer.py reply: {e}"))?;
        let secs: f64 = line
            .trim()
            .parse()
            .map_err(|_| format!("peer.py replied {:?} to {request:?}", line.trim()))?;
        Ok(Duration::from_secs_f64(secs))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if let Some((mut child, w, _)) = self.io.take() {
            drop(w); // EOF ends its loop
            let _ = child.wait();
        }
    }
}

type Io = (Child, ChildStdin, BufReader<ChildStdout>);

/// The Python that runs the peers ($VIRTUAL_ENV/bin/python, else python3) and the path of the
/// bench script `name` (bench/NAME): make runs the bench from the checkout's root, and the
/// compiled-in path may be another clone's (a target dir shared through CI's cache).
pub fn python_script(name: &str) -> (PathBuf, PathBuf) {
    let python = match std::env::var("VIRTUAL_ENV") {
        Ok(v) => PathBuf::from(v).join("bin/python"),
        Err(_) => PathBuf::from("python3"),
    };
    let here = PathBuf::from("bench").join(name);
    let script = if here.exists() {
        here
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name)
    };
    (python, script)
}

fn start(device: &str) -> Result<(String, Io), String> {
    let (python, script) = python_script("peer.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(device)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null()) // torch warns about numpy's absence
        .spawn()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    let w = child.stdin.take().unwrap();
    let mut r = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(line.trim()).map_err(|_| {
        format!(
            "peer.py did not start ({} {})",
            python.display(),
            script.display()
        )
    })?;
    let torch = v["torch"].as_str().unwrap_or("?").to_string();
    Ok((torch, (child, w, r)))
}
