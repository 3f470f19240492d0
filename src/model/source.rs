//! Data from q while training (issue 33): `run(m;f;args)` trains one epoch over the chunks that
//! the q function `f` gives for each item of `args`, `testrun(m;f;args)` tests over them. A chunk
//! is a table (the model's feature and target columns, named by an earlier
//! `train(m;t;features;target)`: `0#t` names them without data) or `(inputs;targets)`; it is
//! batched as the model's own data is (batch size, shuffling within the chunk). A partitioned
//! database's history, larger than memory, trains a date at a time:
//! `run(m;{select from trade where date=x};dates)`; `neg[n]?dates` shuffles across dates.
//!
//! While chunk i trains on a worker thread, q's main thread calls `f` for chunk i+1 and makes its
//! tensors (q may be called only from its main thread): the q function's time is hidden behind
//! the training. Nothing is held but the chunk training and the one being read: each chunk's q
//! value is released once its tensors are made, and after the last chunk the model has no
//! training data. The answer is `run m`'s (the metrics over every batch of every chunk).
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};

use super::of;
use super::pass::epoch_with;
use super::progress::Bar;
use super::run::{results, Epoch};
use super::table::{float_kind, inputs, target_tensor, Columns, Want};
use super::Data;
use crate::device::context::ThreadContext;
use crate::k::from;
use crate::k::{call, make, read, KResult, Owned, K};
use crate::registry;
use crate::tensor::side::{side, Side};
use crate::tensor::table::Table;

/// Is `x` a q function (a lambda, projection, composition, primitive or derived function)?
pub fn is_function(x: K) -> bool {
    matches!(read::ktype(x), 100..=112) && !read::is_unset(x)
}

/// What reading a chunk needs, taken from the model before it trains.
struct Reader {
    cols: Option<Arc<Columns>>,
    want: Want,
}

impl Reader {
    /// Chunk `i`: `f` applied to `arg`, made tensors (the q value released).
    fn load(&self, f: K, arg: K, i: usize) -> Result<(Side, Side)> {
        let r = call::apply(f, vec![Owned::share(arg)])
            .ok_or_else(|| anyhow!("source: chunk {i}: no value"))?;
        if let Some(e) = read::error_text(r.k()) {
            bail!("source: chunk {i}: '{e}");
        }
        let x = r.k();
        if let Some(t) = Table::read(x)? {
            let c = self.cols.as_ref().ok_or_else(|| {
                anyhow!("source: chunk {i} is a table, but the model has no feature and target columns: name them first with train(m;t;features;target) (0#t will do)")
            })?;
            let xs = inputs(&t, Some(&c.features), &self.want)
                .map_err(|e| anyhow!("source: chunk {i}: features: {e}"))?;
            let tg = c
                .target
                .as_ref()
                .ok_or_else(|| anyhow!("source: the model has no target column"))?;
            let y = target_tensor(&t, tg, &self.want)
                .map_err(|e| anyhow!("source: chunk {i}: target: {e}"))?;
            let mut s = Side::Empty;
            for t in xs {
                s.push(t);
            }
            return Ok((s, Side::One(y)));
        }
        match from::list(&x) {
            Some([a, b]) if !registry::is_handle(x) => Ok((
                side(&[*a], self.want.device)
                    .map_err(|e| anyhow!("source: chunk {i}: inputs: {e}"))?,
                side(&[*b], self.want.device)
                    .map_err(|e| anyhow!("source: chunk {i}: targets: {e}"))?,
            )),
            _ => bail!(
                "source: chunk {i}: expected a table or (inputs;targets), given {}",
                crate::tensor::opargs::describe(x)
            ),
        }
    }
}

/// `run(m;f;args)` (`training`) or `testrun(m;f;args)`.
pub fn run(h: K, f: K, args: K, training: bool) -> KResult {
    // the arguments, each an item (atoms of a simple list made), held while the chunks are read
    let held = Owned::new(make::explode(args));
    let items: Vec<K> = held.items().unwrap_or(&[]).to_vec();
    if items.is_empty() {
        bail!("source: no chunks (an empty list of arguments)");
    }
    let reader = registry::with(h, |o| {
        let m = of(o)?;
        if m.dist.is_some() {
            bail!("source: not for a synchronising model (distmodel)");
        }
        let q = m.module.get();
        Ok(Reader {
            cols: m.columns.clone(),
            want: Want {
                float: float_kind(q),
                device: q.device(),
                classes: super::table::is_class_loss(m.loss.name()),
            },
        })
    })?;
    let n = items.len();
    let mut next = Some(reader.load(f, items[0], 0)?);
    crate::k::interrupt::scope(|| {
        registry::lease(h, |o| {
            let m = of(o)?;
            let mut total = Epoch::default();
            let mut bar = Bar::start(if training { "run" } else { "testrun" }, None);
            if let Some(b) = bar.as_mut() {
                b.chunks(n);
            }
            // one worker for the pass: it takes each chunk in turn, sets it as the model's data
            // and runs the epoch over it; q's thread reads the next chunk meanwhile and queues
            // it (at most one chunk waits)
            let r = (|| -> Result<()> {
                let (to_worker, chunks) = mpsc::channel::<(usize, Side, Side)>();
                let (to_main, done) = mpsc::channel::<Result<Epoch>>();
                let (x, y) = next.take().expect("a chunk read");
                to_worker
                    .send((0, x, y))
                    .map_err(|_| anyhow!("source: training thread ended"))?;
                std::thread::scope(|s| -> Result<()> {
                    let m = &mut *m;
                    let ctx = ThreadContext::capture();
                    let mut wbar = bar.as_mut();
                    s.spawn(move || {
                        ctx.enter();
                        // until the sender goes: the last chunk sent, or an error on q's side
                        for (i, x, y) in chunks {
                            let r = catch_unwind(AssertUnwindSafe(|| -> Result<Epoch> {
                                let d = if training {
                                    &mut m.data
                                } else {
                                    &mut m.testdata
                                };
                                d.set(x, y)?;
                                if let Some(b) = wbar.as_deref_mut() {
                                    b.chunk(i);
                                }
                                epoch_with(m, training, wbar.as_deref_mut())
                            }))
                            .unwrap_or_else(|_| Err(anyhow!("training thread panicked")));
                            let failed = r.is_err();
                            if to_main.send(r).is_err() || failed {
                                break;
                            }
                        }
                    });
                    let mut to_worker = Some(to_worker);
                    let out = (|| -> Result<()> {
                        for i in 0..n {
                            if i + 1 < n {
                                match reader.load(f, items[i + 1], i + 1) {
                                    Ok((x, y)) => {
                                        if let Some(t) = to_worker.as_ref() {
                                            // a worker that stopped on an error says so below
                                            let _ = t.send((i + 1, x, y));
                                        }
                                    }
                                    Err(e) => {
                                        // the chunk training finishes first
                                        to_worker = None;
                                        let _ = done.recv();
                                        return Err(e);
                                    }
                                }
                            }
                            let e = done
                                .recv()
                                .map_err(|_| anyhow!("source: training thread failed"))??;
                            merge(&mut total, e)?;
                            crate::k::interrupt::check()?;
                        }
                        Ok(())
                    })();
                    // the worker ends with its last chunk
                    drop(to_worker);
                    out
                })
            })();
            // nothing kept: the last chunk goes too
            if training {
                m.data = Data::default();
            } else {
                m.testdata = Data::default();
            }
            if let Some(b) = bar.as_mut() {
                b.finish(total.losses.last());
            }
            r?;
            results(total, if training { &m.train } else { &m.test })
        })
    })
}

/// Add one chunk's epoch to the run's.
fn merge(total: &mut Epoch, e: Epoch) -> Result<()> {
    total.losses.extend(e.losses);
    total.samples += e.samples;
    total.predict.extend(e.predict);
    total.output.extend(e.output);
    total.correct = match (total.correct.take(), e.correct) {
        (Some(a), Some(b)) => Some(a.f_add(&b.f_to_device(a.device())?)?),
        (a, b) => a.or(b),
    };
    Ok(())
}
