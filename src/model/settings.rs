//! Train and test settings (train.rst "Options"): batch size, dropping a last short batch,
//! shuffling, metrics, the form of results (tensors or q data, list or dictionary) and gradient
//! clipping, with ktorch's names and defaults (training batches of 32, test batches of 100).
use anyhow::{anyhow, bail, Result};

use crate::k::from::{FromQ, Number as Num, Whole};
use crate::k::{make, read, K};
use crate::tensor::opargs::describe;

/// The metrics a run can report (ktorch.h's metric table: loss, batchloss, accuracy, matches,
/// predict, output, hidden, hiddencell).
pub const METRICS: &[&str] = &[
    "loss",
    "batchloss",
    "accuracy",
    "matches",
    "predict",
    "output",
    "hidden",
    "hiddencell",
];

#[derive(Clone)]
pub struct Settings {
    pub batchsize: i64,
    /// This task's index and the number of tasks sharing the data (train.rst:750-751): a pass
    /// takes batches task, task+tasks, task+2*tasks, ... (kmodel.cpp nextbatch).
    pub task: i64,
    pub tasks: i64,
    /// Shuffling for several tasks: one generator per model, seeded with `shuffleseed`, on the
    /// data's CUDA device with `shufflecuda`, else on the CPU (kmodel.cpp reshuffle).
    pub shufflecuda: bool,
    pub shuffleseed: i64,
    pub droplast: bool,
    pub shuffle: bool,
    /// Results as tensors instead of q data.
    pub tensor: bool,
    /// Results as a dictionary keyed by metric instead of a list (or one value).
    pub dictionary: bool,
    pub metrics: Vec<&'static str>,
    /// Maximum gradient norm and the norm's order.
    pub clipnorm: Option<(f64, f64)>,
    pub clipvalue: Option<f64>,
    /// Clip each optimizer group's gradients apart.
    pub clipgroup: bool,
    /// Each batch after the first of a pass gets, after its input, the hidden state that the
    /// previous batch's forward gave (its outputs after the first).
    pub hidden: bool,
    /// Wait for the device after each backward (training only).
    pub sync: bool,
}

impl Settings {
    pub fn train() -> Settings {
        Settings {
            batchsize: 32,
            task: 0,
            tasks: 1,
            shufflecuda: false,
            shuffleseed: 0,
            droplast: false,
            shuffle: false,
            tensor: false,
            dictionary: false,
            metrics: vec!["loss"],
            clipnorm: None,
            clipvalue: None,
            clipgroup: false,
            hidden: false,
            sync: false,
        }
    }
    pub fn test() -> Settings {
        Settings {
            batchsize: 100,
            ..Settings::train()
        }
    }

    /// Option names, training (with clipping and shuffle) or test, in kmodel.cpp getoption's
    /// order.
    pub fn names(training: bool) -> &'static [&'static str] {
        if training {
            &[
                "batchsize",
                "task",
                "tasks",
                "droplast",
                "hidden",
                "shuffle",
                "shufflecuda",
                "shuffleseed",
                "sync",
                "clipgroup",
                "clipnorm",
                "clipvalue",
                "tensor",
                "dictionary",
                "metrics",
            ]
        } else {
            &[
                "batchsize",
                "task",
                "tasks",
                "droplast",
                "hidden",
                "tensor",
                "dictionary",
                "metrics",
            ]
        }
    }

    /// Options that do not fit together (kmodel.cpp checkopt), checked after a set of changes:
    /// `c` is `train` or `test`.
    pub fn check(&self, c: &str) -> Result<()> {
        if self.task >= self.tasks {
            bail!(
                "{c}: task {} implies at least {} tasks, but only {} defined",
                self.task,
                self.task + 1,
                self.tasks
            );
        }
        Ok(())
    }

    /// One option's value as q data.
    pub fn get(&self, name: &str) -> Result<K> {
        Ok(match name {
            "batchsize" => make::long(self.batchsize),
            "task" => make::long(self.task),
            "tasks" => make::long(self.tasks),
            "shufflecuda" => make::boolean(self.shufflecuda),
            "shuffleseed" => make::long(self.shuffleseed),
            "droplast" => make::boolean(self.droplast),
            "shuffle" => make::boolean(self.shuffle),
            "tensor" => make::boolean(self.tensor),
            "dictionary" => make::boolean(self.dictionary),
            "metrics" => make::symbols(&self.metrics),
            "clipnorm" => match self.clipnorm {
                Some((n, p)) => make::floats(&[n, p]),
                None => make::null(),
            },
            "clipvalue" => match self.clipvalue {
                Some(v) => make::float(v),
                None => make::null(),
            },
            "clipgroup" => make::boolean(self.clipgroup),
            "hidden" => make::boolean(self.hidden),
            "sync" => make::boolean(self.sync),
            _ => bail!("unrecognized option: `{name}"),
        })
    }

    /// Set one option from q data.
    pub fn set(&mut self, name: &str, x: K, training: bool) -> Result<()> {
        if !Settings::names(training).contains(&name) {
            bail!(
                "unrecognized {} option: `{name}",
                if training { "training" } else { "test" }
            );
        }
        let flag = |x: K| {
            bool::of(x).ok_or_else(|| anyhow!("{name}: expected boolean, given {}", describe(x)))
        };
        let num = |x: K| match Num::of(x) {
            Some(Num::Int(i)) => Ok(i as f64),
            Some(Num::Float(f)) => Ok(f),
            None => bail!("{name}: expected a number, given {}", describe(x)),
        };
        match name {
            "batchsize" => {
                let n = Whole::of(x)
                    .map(|w| w.0)
                    .filter(|_| read::ktype(x) < 0)
                    .ok_or_else(|| anyhow!("batchsize: expected long, given {}", describe(x)))?;
                if n < 1 {
                    bail!("batchsize: must be positive, given {n}");
                }
                self.batchsize = n;
            }
            // kmodel.cpp setoption: task at least 0, tasks at least 1, shuffleseed a long
            "task" | "tasks" | "shuffleseed" => {
                let n = Whole::of(x)
                    .map(|w| w.0)
                    .filter(|_| read::ktype(x) < 0 && read::ktype(x) != -1)
                    .ok_or_else(|| {
                        anyhow!("{name}: expected one long integer, given {}", describe(x))
                    })?;
                match name {
                    "task" if n < 0 => bail!("task: cannot be less than zero, given {n}"),
                    "tasks" if n < 1 => bail!("tasks: cannot be less than one, given {n}"),
                    "task" => self.task = n,
                    "tasks" => self.tasks = n,
                    _ => self.shuffleseed = n,
                }
            }
            "shufflecuda" => self.shufflecuda = flag(x)?,
            "droplast" => self.droplast = flag(x)?,
            "shuffle" => self.shuffle = flag(x)?,
            "tensor" => self.tensor = flag(x)?,
            "dictionary" => self.dictionary = flag(x)?,
            "clipgroup" => self.clipgroup = flag(x)?,
            "hidden" => self.hidden = flag(x)?,
            "sync" => self.sync = flag(x)?,
            "metrics" => {
                let s = Vec::<&str>::of(x)
                    .or_else(|| <&str>::of(x).map(|s| vec![s]))
                    .ok_or_else(|| anyhow!("metrics: expected symbol(s), given {}", describe(x)))?;
                self.metrics = s
                    .into_iter()
                    .map(|m| {
                        METRICS.iter().find(|k| **k == m).copied().ok_or_else(|| {
                            anyhow!(
                                "metrics: unrecognized metric `{m}, expected one of `{}",
                                METRICS.join("`")
                            )
                        })
                    })
                    .collect::<Result<_>>()?;
            }
            "clipnorm" => {
                self.clipnorm = if read::is_nil(x) {
                    None
                } else if read::ktype(x) < 0 {
                    Some((num(x)?, 2.0))
                } else if read::len(x) == 2 && matches!(read::ktype(x), 5..=9) {
                    let e = crate::k::Owned::new(make::explode(x));
                    let v = e
                        .items()
                        .unwrap()
                        .iter()
                        .map(|i| num(*i))
                        .collect::<Result<Vec<f64>>>()?;
                    Some((v[0], v[1]))
                } else {
                    bail!(
                        "clipnorm: expected max norm, or (max norm;order), given {}",
                        describe(x)
                    )
                };
            }
            "clipvalue" => self.clipvalue = if read::is_nil(x) { None } else { Some(num(x)?) },
            _ => unreachable!(),
        }
        Ok(())
    }

    /// All options as a dictionary.
    pub fn dict(&self, training: bool) -> Result<K> {
        let names = Settings::names(training);
        let vals = make::try_vec(names.iter().map(|n| self.get(n)))?;
        Ok(make::dict(names, vals))
    }
}
