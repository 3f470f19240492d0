//! Gradient scaling for float16 training (PyTorch's `torch.amp.GradScaler`), kept by a model:
//! `gradscale(m;1b)` turns it on with PyTorch's defaults (initial scale 65536, growth 2, backoff
//! .5, growth interval 2000), `gradscale(m;init)`, `gradscale(m;init;growth;backoff;interval)`
//! set them, `gradscale(m;0b)` turns it off, `gradscale m` answers its state.
//!
//! The rules are GradScaler's, through the same ATen kernels: the loss is multiplied by the
//! scale before backward (q gets the loss itself); before clipping or the step the gradients
//! are unscaled once, in place, by `_amp_foreach_non_finite_check_and_unscale_` (1/scale
//! computed in double then made float, as `unscale_`), which also notes whether any is inf or
//! nan; the step is skipped where one was; `_amp_update_scale_` then multiplies the scale by
//! the backoff factor after an overflow, or by the growth factor after `interval` clean steps
//! in a row. As in PyTorch, the skip costs no wait for the GPU where the optimizer's fused
//! kernel takes the found-inf flag itself (adam, adamw, sgd with every parameter on the fused
//! path: the kernel leaves the parameters as they are); otherwise the flag is read back (one
//! sync a step, as GradScaler's `step` for an optimizer without fused support). Used by
//! `backward`, `clip`, `clipv`, `step`, `backstep` and `run` on the model, so a q loop
//! written as `backward m; clip(m;1); step m` scales as PyTorch's
//! `scaler.scale(l).backward(); scaler.unscale_(o); clip; scaler.step(o); scaler.update()`.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use crate::k::from::{self, FromQ, Number as Num};
use crate::k::{make, KResult, K};
use crate::optim::Optimizer;
use crate::registry;
use crate::tensor::opargs::describe;

use crate::cxx::fused::{amp_unscale, amp_update};

/// GradScaler's options, PyTorch's defaults by `Default`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Options {
    pub init: f64,
    pub growth: f64,
    pub backoff: f64,
    pub interval: i64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            init: 65536.0,
            growth: 2.0,
            backoff: 0.5,
            interval: 2000,
        }
    }
}

impl Options {
    /// GradScaler's checks of its arguments.
    pub fn check(&self) -> Result<()> {
        if !(self.init.is_finite() && self.init > 0.0) {
            bail!(
                "gradscale: initial scale must be a positive number, given {}",
                self.init
            );
        }
        // NaN fails too
        if self.growth.is_nan() || self.growth <= 1.0 {
            bail!(
                "gradscale: growth factor must be greater than 1, given {}",
                self.growth
            );
        }
        if !(self.backoff > 0.0 && self.backoff < 1.0) {
            bail!(
                "gradscale: backoff factor must be between 0 and 1, given {}",
                self.backoff
            );
        }
        if self.interval < 1 {
            bail!(
                "gradscale: growth interval must be a positive integer, given {}",
                self.interval
            );
        }
        Ok(())
    }
}

/// A model's scaler: its options, the scale and growth tracker (made on the device of the first
/// loss it scales, as GradScaler's lazy `_scale`), and the found-inf flag of gradients unscaled
/// since the last step.
pub struct Scaler {
    pub opts: Options,
    scale: Option<Tensor>,
    tracker: Option<Tensor>,
    found: Option<Tensor>,
    /// Steps skipped so far (counted when read: a tensor on the scale's device).
    skipped: Option<Tensor>,
}

impl Scaler {
    pub fn new(opts: Options) -> Scaler {
        Scaler {
            opts,
            scale: None,
            tracker: None,
            found: None,
            skipped: None,
        }
    }

    fn scale_on(&mut self, d: Device) -> Result<Tensor> {
        if self.scale.is_none() {
            self.scale = Some(Tensor::f_full([], self.opts.init, (Kind::Float, d))?);
            self.tracker = Some(Tensor::f_zeros([], (Kind::Int, d))?);
            self.skipped = Some(Tensor::f_zeros([], (Kind::Float, d))?);
        }
        Ok(self.scale.as_ref().unwrap().shallow_clone())
    }

    /// The loss to run backward on: `l` times the scale (GradScaler's `scale`).
    pub fn scale(&mut self, l: &Tensor) -> Result<Tensor> {
        let s = self.scale_on(l.device())?;
        Ok(l.f_mul(&s.f_to_device(l.device())?)?)
    }

    /// GradScaler's `unscale_`: once between a backward and the step, every gradient divided by
    /// the scale in place, noting any inf or nan. Nothing to do before the first scaled loss.
    pub fn unscale(&mut self, parms: &[Tensor]) -> Result<()> {
        let Some(scale) = self.scale.as_ref().map(|s| s.shallow_clone()) else {
            return Ok(());
        };
        if self.found.is_some() {
            return Ok(());
        }
        let inv = scale
            .f_to_kind(Kind::Double)?
            .f_reciprocal()?
            .f_to_kind(Kind::Float)?;
        let found = Tensor::f_zeros([], (Kind::Float, scale.device()))?;
        // by device and type, as `_unscale_grads_`
        let mut per: Vec<(Device, Kind, Vec<Tensor>)> = vec![];
        for p in parms {
            let g = p.grad();
            if !g.defined() {
                continue;
            }
            if g.kind() == Kind::Half {
                bail!("gradscale: unable to unscale float16 gradients (as GradScaler: parameters stay float32, autocast makes the float16 copies)");
            }
            if g.is_sparse() {
                bail!("gradscale: sparse gradients not implemented");
            }
            match per
                .iter_mut()
                .find(|b| b.0 == g.device() && b.1 == g.kind())
            {
                Some(b) => b.2.push(g),
                None => per.push((g.device(), g.kind(), vec![g])),
            }
        }
        for (d, _, gs) in per {
            let (f, i) = if d == scale.device() {
                (found.shallow_clone(), inv.shallow_clone())
            } else {
                (Tensor::f_zeros([], (Kind::Float, d))?, inv.f_to_device(d)?)
            };
            amp_unscale(&gs, &f, &i)?;
            if d != scale.device() {
                let _ = found
                    .shallow_clone()
                    .f_add_(&f.f_to_device(scale.device())?)?;
            }
        }
        self.found = Some(found);
        Ok(())
    }

    /// GradScaler's `step` and `update`: unscale if not yet done, the optimizer's step unless a
    /// gradient was inf or nan, then the new scale. Before the first scaled loss, a plain step.
    pub fn step(&mut self, opt: &mut Optimizer) -> Result<()> {
        if self.scale.is_none() {
            return opt.step();
        }
        if opt.kind.closure.is_some() {
            bail!("gradscale: not for {}, whose step evaluates the loss more than once (as GradScaler, which takes no closure)", opt.kind.name);
        }
        let parms: Vec<Tensor> = opt.shared_parameters();
        self.unscale(&parms)?;
        let found = self.found.take().expect("unscaled");
        let d = found.device();
        if crate::optim::fused::takes_found_inf(opt, d) {
            // the fused kernel skips the update itself where found is set: no wait
            opt.found_inf = Some(found.shallow_clone());
            let r = opt.step();
            opt.found_inf = None;
            r?;
        } else if found.f_double_value(&[])? == 0.0 {
            opt.step()?;
        }
        let (scale, tracker) = (self.scale.as_ref().unwrap(), self.tracker.as_ref().unwrap());
        let o = self.opts;
        amp_update(scale, tracker, &found, o.growth, o.backoff, o.interval)?;
        if let Some(k) = &self.skipped {
            let _ = k.shallow_clone().f_add_(&found)?;
        }
        Ok(())
    }

    /// (scale; growth tracker; steps skipped) as floats and a long; the initial scale and zeros
    /// before the first scaled loss.
    pub fn state(&self) -> Result<(f64, i64, i64)> {
        match (&self.scale, &self.tracker, &self.skipped) {
            (Some(s), Some(t), Some(k)) => Ok((
                s.f_double_value(&[])?,
                t.f_int64_value(&[])?,
                k.f_double_value(&[])? as i64,
            )),
            _ => Ok((self.opts.init, 0, 0)),
        }
    }
}

/// `gradscale`'s forms: `gradscale m` (the state), `gradscale(m;1b)`, `gradscale(m;0b)`,
/// `gradscale(m;init)`, `gradscale(m;init;growth;backoff;interval)` (on with those options, or
/// off: None).
pub enum Scaling {
    Show(crate::model::ModelArg),
    Set(crate::model::ModelArg, Option<Options>),
}

impl FromQ for Scaling {
    const TYPE: &'static str =
        "model, (model;flag), (model;initial scale) or (model;initial scale;growth;backoff;interval)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Scaling>> {
        use crate::model::ModelArg;
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(Scaling::Show(m)));
        }
        let (m, v) = from::list(&x)
            .filter(|v| matches!(v.len(), 2 | 5))
            .and_then(|v| Some((ModelArg::of(v[0])?, v)))
            .ok_or_else(|| anyhow!("gradscale: expected {}, given {}", Self::TYPE, describe(x)))?;
        let num = |x: K, what: &str| match Num::of(x) {
            Some(Num::Int(i)) => Ok(i as f64),
            Some(Num::Float(f)) => Ok(f),
            None => bail!(
                "gradscale: {what}: expected a number, given {}",
                describe(x)
            ),
        };
        let opts = if v.len() == 2 {
            match bool::of(v[1]) {
                Some(false) => None,
                Some(true) => Some(Options::default()),
                None => Some(Options {
                    init: num(v[1], "initial scale")?,
                    ..Options::default()
                }),
            }
        } else {
            let interval = match Num::of(v[4]) {
                Some(Num::Int(i)) => i,
                _ => bail!(
                    "gradscale: growth interval: expected a long, given {}",
                    describe(v[4])
                ),
            };
            Some(Options {
                init: num(v[1], "initial scale")?,
                growth: num(v[2], "growth factor")?,
                backoff: num(v[3], "backoff factor")?,
                interval,
            })
        };
        Ok(Some(Scaling::Set(m, opts)))
    }
}

crate::qfn! {
    /// `gradscale m`: the scaler's state, `::` when off; `gradscale(m;1b)`, `gradscale(m;0b)`,
    /// `gradscale(m;init)`, `gradscale(m;init;growth;backoff;interval)`: on (state reset) or off.
    pub fn gradscale(call: Scaling) -> KResult {
        use crate::model::of;
        let (m, opts) = match call {
            Scaling::Show(m) => return state(m),
            Scaling::Set(m, opts) => (m, opts),
        };
        if let Some(o) = &opts {
            o.check()?;
        }
        registry::with(m.0, |o| {
            let m = of(o)?;
            if opts.is_some() && m.dist.is_some() {
                bail!("gradscale: not implemented for a synchronising model (distmodel)");
            }
            m.scaler = opts.map(Scaler::new);
            Ok(())
        })?;
        Ok(make::null())
    }
}

/// `gradscale m`: the scaler's state as a dictionary, `::` when off.
fn state(m: crate::model::ModelArg) -> KResult {
    registry::with(m.0, |o| {
        let Some(s) = crate::model::of(o)?.scaler.as_ref() else {
            return Ok(make::null());
        };
        let (scale, tracker, skipped) = s.state()?;
        let o = s.opts;
        Ok(make::dict(
            &[
                "scale", "growth", "backoff", "interval", "tracker", "skipped",
            ],
            vec![
                make::float(scale),
                make::float(o.growth),
                make::float(o.backoff),
                make::long(o.interval),
                make::long(tracker),
                make::long(skipped),
            ],
        ))
    })
}
