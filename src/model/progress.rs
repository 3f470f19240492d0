//! An optional one-line progress display for `run` and `testrun` (issue 33), as tqdm gives a
//! PyTorch loop: `progress 1b` turns it on for every run (`progress 0b` off, `progress[]` says
//! which). While a pass runs, one line on stderr is rewritten at most five times a second:
//! batches done (of how many, with a bar, when known), chunks of a data source, batches per
//! second, the last batch's loss and the time left; when the pass ends the line is written a
//! last time and kept, so epochs run from q leave one line each (as Keras' verbose mode).
//! Reading the loss to print it waits for the device, five times a second at most.
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::anyhow;
use tch::Tensor;

use crate::k::from::FromQ;
use crate::k::{make, read, KResult, K};
use crate::tensor::opargs::describe;

static ON: AtomicBool = AtomicBool::new(false);

/// `progress`'s argument: `[]` (`::`) asks for the setting, a flag sets it.
pub enum Setting {
    Get,
    Set(bool),
}

impl FromQ for Setting {
    const TYPE: &'static str = "a boolean flag, or []";
    fn read(x: K) -> anyhow::Result<Option<Setting>> {
        Ok(if read::is_unset(x) {
            Some(Setting::Get)
        } else {
            bool::of(x).map(Setting::Set)
        })
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expecting a boolean flag, or [] for the setting, given {}",
            describe(x)
        )
    }
}

crate::qfn! {
    /// `progress flag`: show a progress bar while models run, or not; `progress[]`: the setting.
    pub fn progress(s: Setting) -> KResult {
        Ok(match s {
            Setting::Get => make::boolean(ON.load(Ordering::Relaxed)),
            Setting::Set(b) => {
                ON.store(b, Ordering::Relaxed);
                make::null()
            }
        })
    }
}

/// The display of one pass.
pub struct Bar {
    label: &'static str,
    /// Batches in the pass, when known.
    total: Option<i64>,
    done: i64,
    /// Chunks of a data source: how many, and the one training.
    chunks: Option<(usize, usize)>,
    start: Instant,
    shown: Option<Instant>,
    width: usize,
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl Bar {
    /// A display for a pass of `total` batches, None when progress is off.
    pub fn start(label: &'static str, total: Option<i64>) -> Option<Bar> {
        ON.load(Ordering::Relaxed).then(|| Bar {
            label,
            total,
            done: 0,
            chunks: None,
            start: Instant::now(),
            shown: None,
            width: 0,
        })
    }
    /// A data source's pass: `n` chunks.
    pub fn chunks(&mut self, n: usize) {
        self.chunks = Some((n, 0));
    }
    /// Chunk `i` begins.
    pub fn chunk(&mut self, i: usize) {
        if let Some((n, _)) = self.chunks {
            self.chunks = Some((n, i));
        }
    }
    /// One batch done, `loss` its loss.
    pub fn tick(&mut self, loss: Option<&Tensor>) {
        self.done += 1;
        if self
            .shown
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(200))
        {
            self.show(loss, false);
        }
    }
    /// The pass ended: the line a last time, kept.
    pub fn finish(&mut self, loss: Option<&Tensor>) {
        self.show(loss, true);
    }
    fn show(&mut self, loss: Option<&Tensor>, last: bool) {
        self.shown = Some(Instant::now());
        let el = self.start.elapsed();
        let rate = self.done as f64 / el.as_secs_f64().max(1e-9);
        let mut s = format!("{} ", self.label);
        if let Some((n, i)) = self.chunks {
            s += &format!("chunk {}/{n} ", (i + 1).min(n));
        }
        match self.total {
            Some(t) if t > 0 => {
                let f = (self.done as f64 / t as f64).min(1.0);
                let w = 20;
                let k = (f * w as f64).round() as usize;
                s += &format!(
                    "{}/{t} [{}{}] {:3.0}% ",
                    self.done,
                    "=".repeat(k),
                    " ".repeat(w - k),
                    f * 100.0
                );
            }
            _ => s += &format!("batch {} ", self.done),
        }
        s += &format!("{rate:.0} batches/s ");
        if let Some(v) = loss.and_then(|l| l.f_double_value(&[]).ok()) {
            if v == 0.0 || (1e-3..1e5).contains(&v.abs()) {
                s += &format!("loss {v:.4} ");
            } else {
                s += &format!("loss {v:.3e} ");
            }
        }
        let left = match (self.total, self.chunks) {
            _ if last => None,
            (Some(t), _) if rate > 0.0 => Some(Duration::from_secs_f64(
                (t - self.done).max(0) as f64 / rate,
            )),
            (None, Some((n, i))) if i > 0 => Some(el.mul_f64((n - i) as f64 / i as f64)),
            _ => None,
        };
        s += &match left {
            Some(l) => format!("{} left", clock(l)),
            None => format!("{} elapsed", clock(el)),
        };
        let pad = self.width.saturating_sub(s.chars().count());
        self.width = s.chars().count();
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "\r{s}{}", " ".repeat(pad));
        if last {
            let _ = writeln!(e);
        }
        let _ = e.flush();
    }
}
