//! L-BFGS as torch.optim.LBFGS (torch/optim/lbfgs.py), transcribed step for step: the gradients
//! of all parameters flattened into one vector, the two-loop recursion over the last `history`
//! steps, the first step scaled by min(1, 1/|g|_1) * lr, the tolerance checks, and the optional
//! strong Wolfe line search (`_strong_wolfe`, `_cubic_interpolate`). Its step re-evaluates the
//! loss, so it needs a closure (a model's `backstep`); a plain `step o` is an error.
//!
//! State: PyTorch keeps LBFGS's state, global to the optimizer, on its first parameter; so does
//! this, as buffers that `state o` shows: `func_evals`, `n_iter` (long scalars), `d` (the last
//! direction), `t` (the last step size), `old_dirs`, `old_stps` (the history, a row per step),
//! `ro` (1/y.s per history row), `H_diag`, `prev_flat_grad` and `prev_loss`. PyTorch's scratch
//! list `al` is not kept.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{Optimizer, Parm, Settings};

pub const NEEDS_CLOSURE: &str = "LBFGS optimizer requires model, loss & inputs";

/// `step o`: LBFGS must re-evaluate the loss, which an optimizer alone cannot.
pub fn step(_: &mut Optimizer) -> Result<()> {
    bail!(NEEDS_CLOSURE)
}

/// The options `opt` sets: one group only (PyTorch's LBFGS has no per-parameter options), and
/// counts that keep its loops sound (a history of 0 would pop from an empty list).
pub fn check(group: usize, s: &Settings) -> Result<()> {
    if group > 0 {
        bail!("lbfgs: only one parameter group allowed, given group {group}");
    }
    let lr = s.float("lr");
    if lr.is_nan() || lr < 0.0 {
        bail!("lbfgs: invalid learning rate: {lr}");
    }
    for name in ["iter", "history"] {
        let n = s.long(name);
        if n < 1 {
            bail!("lbfgs: {name} must be positive, given {n}");
        }
    }
    if let Some(n) = s.long_opt("eval").filter(|n| *n < 1) {
        bail!("lbfgs: eval must be positive, given {n}");
    }
    Ok(())
}

/// The options of the one group, by PyTorch's names.
struct Options {
    lr: f64,
    max_iter: i64,
    max_eval: i64,
    tolerance_grad: f64,
    tolerance_change: f64,
    history_size: usize,
    strong_wolfe: bool,
}

impl Options {
    fn of(s: &Settings) -> Options {
        let max_iter = s.long("iter");
        Options {
            lr: s.float("lr"),
            max_iter,
            // PyTorch's default: max_iter * 1.25
            max_eval: s.long_opt("eval").unwrap_or(max_iter * 5 / 4),
            tolerance_grad: s.float("gradtol"),
            tolerance_change: s.float("changetol"),
            history_size: s.long("history") as usize,
            strong_wolfe: s.sym_opt("search") == Some("strong_wolfe"),
        }
    }
}

/// The optimizer-wide state, read from the first parameter's buffers before a step and written
/// back after it.
struct State {
    func_evals: i64,
    n_iter: i64,
    d: Option<Tensor>,
    t: f64,
    old_dirs: Vec<Tensor>,
    old_stps: Vec<Tensor>,
    ro: Vec<Tensor>,
    h_diag: Option<Tensor>,
    prev_flat_grad: Option<Tensor>,
    prev_loss: f64,
}

fn scalar(p: &Parm, name: &str) -> Result<Option<f64>> {
    p.get(name)
        .map(|t| t.f_double_value(&[]))
        .transpose()
        .map_err(Into::into)
}

fn rows(p: &Parm, name: &str) -> Result<Vec<Tensor>> {
    match p.get(name) {
        Some(t) => Ok(t.f_unbind(0)?),
        None => Ok(vec![]),
    }
}

impl State {
    fn load(p: &Parm, numel: i64) -> Result<State> {
        let s = State {
            func_evals: scalar(p, "func_evals")?.unwrap_or(0.0) as i64,
            n_iter: scalar(p, "n_iter")?.unwrap_or(0.0) as i64,
            d: p.get("d").map(Tensor::shallow_clone),
            t: scalar(p, "t")?.unwrap_or(0.0),
            old_dirs: rows(p, "old_dirs")?,
            old_stps: rows(p, "old_stps")?,
            ro: rows(p, "ro")?,
            h_diag: p.get("H_diag").map(Tensor::shallow_clone),
            prev_flat_grad: p.get("prev_flat_grad").map(Tensor::shallow_clone),
            prev_loss: scalar(p, "prev_loss")?.unwrap_or(0.0),
        };
        if let Some(g) = &s.prev_flat_grad {
            if g.numel() as i64 != numel {
                bail!("lbfgs: the parameters have {numel} elements, the state from earlier steps has {}", g.numel());
            }
        }
        Ok(s)
    }

    fn save(self, p: &mut Parm, numel: i64, like: &Tensor) -> Result<()> {
        let long = |j: i64| Tensor::f_scalar_tensor(j as f64, (tch::Kind::Int64, tch::Device::Cpu));
        let double = |f: f64| Tensor::f_scalar_tensor(f, (tch::Kind::Double, tch::Device::Cpu));
        p.set("func_evals", long(self.func_evals)?);
        p.set("n_iter", long(self.n_iter)?);
        let Some(d) = self.d else { return Ok(()) };
        let stack = |v: &[Tensor], empty: &[i64]| -> Result<Tensor> {
            Ok(if v.is_empty() {
                Tensor::f_zeros(empty, (like.kind(), like.device()))?
            } else {
                Tensor::f_stack(v, 0)?
            })
        };
        p.set("d", d);
        p.set("t", double(self.t)?);
        p.set("old_dirs", stack(&self.old_dirs, &[0, numel])?);
        p.set("old_stps", stack(&self.old_stps, &[0, numel])?);
        p.set("ro", stack(&self.ro, &[0])?);
        if let Some(h) = self.h_diag {
            p.set("H_diag", h);
        }
        if let Some(g) = self.prev_flat_grad {
            p.set("prev_flat_grad", g);
        }
        p.set("prev_loss", double(self.prev_loss)?);
        Ok(())
    }
}

/// Python's min and max of two numbers: the first unless the second is strictly beyond it.
fn pymin(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}
fn pymax(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

fn value(t: &Tensor) -> Result<f64> {
    Ok(t.f_double_value(&[])?)
}

/// The loss as a double (PyTorch's float(closure())).
fn loss_value(l: &Tensor) -> Result<f64> {
    if l.numel() != 1 {
        bail!(
            "lbfgs: the loss should be a single value, given {} values",
            l.numel()
        );
    }
    Ok(l.f_reshape([1])?.f_double_value(&[0])?)
}

fn max_abs(t: &Tensor) -> Result<f64> {
    value(&t.f_abs()?.f_max()?)
}

/// The parameters being optimized, as one flat vector at a time.
struct Flat {
    parms: Vec<Tensor>,
}

impl Flat {
    fn numel(&self) -> i64 {
        self.parms.iter().map(|p| p.numel() as i64).sum()
    }

    /// `_gather_flat_grad`: every gradient flattened and joined, zeros for a missing one.
    fn grad(&self) -> Result<Tensor> {
        let views = self
            .parms
            .iter()
            .map(|p| {
                let g = p.grad();
                Ok(if !g.defined() {
                    p.f_zeros_like()?.f_reshape([-1])?
                } else if g.is_sparse() {
                    g.f_to_dense(None, false)?.f_reshape([-1])?
                } else {
                    g.f_reshape([-1])?
                })
            })
            .collect::<Result<Vec<Tensor>>>()?;
        Ok(Tensor::f_cat(&views, 0)?)
    }

    /// `_add_grad`: each parameter += step * its slice of `update`.
    fn add(&self, step: f64, update: &Tensor) -> Result<()> {
        let mut offset = 0;
        for p in &self.parms {
            let n = p.numel() as i64;
            let u = update.f_slice(0, offset, offset + n, 1)?.f_view_as(p)?;
            let _ = p.shallow_clone().f_add_(&u.f_mul_scalar(step)?)?;
            offset += n;
        }
        Ok(())
    }

    fn copy(&self) -> Result<Vec<Tensor>> {
        self.parms
            .iter()
            .map(|p| Ok(crate::tensor::detach::detached_copy(p)?))
            .collect()
    }

    fn restore(&self, saved: &[Tensor]) -> Result<()> {
        for (p, x) in self.parms.iter().zip(saved) {
            p.shallow_clone().f_copy_(x)?;
        }
        Ok(())
    }
}

/// The loss through the closure, with gradients tracked (PyTorch's enable_grad around it).
fn evaluate(closure: &mut dyn FnMut() -> Result<Tensor>) -> Result<Tensor> {
    tch::with_grad(closure)
}

/// `step(closure)`: up to `iter` L-BFGS iterations; the loss of the first evaluation.
pub fn closure(o: &mut Optimizer, closure: &mut dyn FnMut() -> Result<Tensor>) -> Result<Tensor> {
    if o.groups.len() > 1 {
        bail!(
            "lbfgs: expected one parameter group, given {}",
            o.groups.len()
        );
    }
    if o.parameters().is_empty() {
        bail!("lbfgs: no parameters to optimize");
    }
    let opts = Options::of(&o.settings(0));
    let flat = Flat {
        parms: o.groups[0]
            .parms
            .iter()
            .map(|p| p.t.shallow_clone())
            .collect(),
    };
    if flat.parms.iter().any(|p| p.is_complex()) {
        bail!("lbfgs: complex parameters not implemented");
    }
    let numel = flat.numel();
    let mut state = State::load(&o.groups[0].parms[0], numel)?;
    let (orig, like) = tch::no_grad(|| iterate(&opts, &flat, &mut state, closure))?;
    state.save(&mut o.groups[0].parms[0], numel, &like)?;
    Ok(orig)
}

/// The body of PyTorch's step, under no_grad: answers the first loss and the flat gradient
/// (whose type and device the saved history takes when empty).
fn iterate(
    o: &Options,
    flat: &Flat,
    state: &mut State,
    closure: &mut dyn FnMut() -> Result<Tensor>,
) -> Result<(Tensor, Tensor)> {
    let orig_loss = evaluate(&mut *closure)?;
    let mut loss = loss_value(&orig_loss)?;
    let mut current_evals = 1;
    state.func_evals += 1;
    let mut flat_grad = flat.grad()?;
    let mut opt_cond = max_abs(&flat_grad)? <= o.tolerance_grad;
    if opt_cond {
        return Ok((orig_loss, flat_grad));
    }
    let mut n_iter = 0;
    while n_iter < o.max_iter {
        // Ctrl-C between iterations: parameters stay as the last full iteration left them
        if n_iter > 0 {
            crate::k::interrupt::check()?;
        }
        n_iter += 1;
        state.n_iter += 1;
        // the descent direction
        let d = if state.n_iter == 1 {
            state.old_dirs.clear();
            state.old_stps.clear();
            state.ro.clear();
            state.h_diag = Some(Tensor::f_ones(
                Vec::<i64>::new(),
                (flat_grad.kind(), flat_grad.device()),
            )?);
            flat_grad.f_neg()?
        } else {
            direction(o, state, &flat_grad)?
        };
        state.d = Some(d.shallow_clone());
        state.prev_flat_grad = Some(flat_grad.shallow_clone());
        state.prev_loss = loss;
        // the step length: the first ever scaled by the gradient's size
        state.t = if state.n_iter == 1 {
            pymin(
                1.0,
                value(&flat_grad.f_abs()?.f_sum(flat_grad.kind())?.f_reciprocal()?)?,
            ) * o.lr
        } else {
            o.lr
        };
        let gtd = value(&flat_grad.f_dot(&d)?)?;
        if gtd > -o.tolerance_change {
            break;
        }
        let mut ls_func_evals = 0;
        if o.strong_wolfe {
            let x_init = flat.copy()?;
            let mut obj = |t: f64, d: &Tensor| -> Result<(f64, Tensor)> {
                flat.add(t, d)?;
                let l = loss_value(&evaluate(&mut *closure)?)?;
                let g = flat.grad()?;
                flat.restore(&x_init)?;
                Ok((l, g))
            };
            let found = strong_wolfe(
                &mut obj,
                state.t,
                &d,
                loss,
                &flat_grad,
                gtd,
                o.tolerance_change,
                o.max_eval - current_evals,
            )?;
            (loss, flat_grad, state.t, ls_func_evals) = found;
            flat.add(state.t, &d)?;
            opt_cond = max_abs(&flat_grad)? <= o.tolerance_grad;
        } else {
            flat.add(state.t, &d)?;
            if n_iter != o.max_iter {
                // no re-evaluation after the last iteration (in a stochastic setting it is of no use)
                loss = loss_value(&evaluate(&mut *closure)?)?;
                flat_grad = flat.grad()?;
                opt_cond = max_abs(&flat_grad)? <= o.tolerance_grad;
                ls_func_evals = 1;
            }
        }
        current_evals += ls_func_evals;
        state.func_evals += ls_func_evals;
        // stopping conditions
        if n_iter == o.max_iter || current_evals >= o.max_eval || opt_cond {
            break;
        }
        // lack of progress
        if max_abs(&d.f_mul_scalar(state.t)?)? <= o.tolerance_change
            || (loss - state.prev_loss).abs() < o.tolerance_change
        {
            break;
        }
    }
    Ok((orig_loss, flat_grad))
}

/// The L-BFGS direction: the history updated with the last step (when its curvature y.s is
/// positive), then the two-loop recursion applied to the negative gradient.
// its two loops index four lists at once, as PyTorch's `step` does
#[allow(clippy::needless_range_loop)]
fn direction(o: &Options, state: &mut State, flat_grad: &Tensor) -> Result<Tensor> {
    let (Some(prev), Some(d)) = (&state.prev_flat_grad, &state.d) else {
        bail!("lbfgs: state from earlier steps incomplete")
    };
    let y = flat_grad.f_sub(prev)?;
    let s = d.f_mul_scalar(state.t)?;
    let ys = y.f_dot(&s)?;
    if value(&ys)? > 1e-10 {
        if state.old_dirs.len() == o.history_size {
            let _ = state.old_dirs.remove(0);
            let _ = state.old_stps.remove(0);
            let _ = state.ro.remove(0);
        }
        state.h_diag = Some(ys.f_div(&y.f_dot(&y)?)?);
        state.ro.push(ys.f_reciprocal()?);
        state.old_dirs.push(y);
        state.old_stps.push(s);
    }
    let h_diag = state
        .h_diag
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("lbfgs: state from earlier steps incomplete"))?;
    let n = state.old_dirs.len();
    let mut al = vec![0.0; n];
    let mut q = flat_grad.f_neg()?;
    for i in (0..n).rev() {
        al[i] = value(&state.old_stps[i].f_dot(&q)?.f_mul(&state.ro[i])?)?;
        let _ = q.f_sub_(&state.old_dirs[i].f_mul_scalar(al[i])?)?;
    }
    let mut r = q.f_mul(h_diag)?;
    for i in 0..n {
        let be = value(&state.old_dirs[i].f_dot(&r)?.f_mul(&state.ro[i])?)?;
        let _ = r.f_add_(&state.old_stps[i].f_mul_scalar(al[i] - be)?)?;
    }
    Ok(r)
}

/// `_cubic_interpolate`: the minimum of the cubic through two points with their derivatives,
/// kept within the bounds (the points' interval by default).
fn cubic_interpolate(
    x1: f64,
    f1: f64,
    g1: f64,
    x2: f64,
    f2: f64,
    g2: f64,
    bounds: Option<(f64, f64)>,
) -> f64 {
    let (lo, hi) = bounds.unwrap_or(if x1 <= x2 { (x1, x2) } else { (x2, x1) });
    let d1 = g1 + g2 - 3.0 * (f1 - f2) / (x1 - x2);
    let d2_square = d1 * d1 - g1 * g2;
    if d2_square >= 0.0 {
        let d2 = d2_square.sqrt();
        let min_pos = if x1 <= x2 {
            x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2.0 * d2))
        } else {
            x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2.0 * d2))
        };
        pymin(pymax(min_pos, lo), hi)
    } else {
        (lo + hi) / 2.0
    }
}

type Objective<'a> = dyn FnMut(f64, &Tensor) -> Result<(f64, Tensor)> + 'a;

/// `_strong_wolfe`: a step along `d` from loss `f` (gradient `g`, slope `gtd`) meeting the strong
/// Wolfe conditions: bracketing, then zooming in by cubic interpolation. Answers the loss,
/// gradient and step found and the count of evaluations.
#[allow(clippy::too_many_arguments)]
fn strong_wolfe(
    obj: &mut Objective,
    mut t: f64,
    d: &Tensor,
    f: f64,
    g: &Tensor,
    gtd: f64,
    tolerance_change: f64,
    max_ls: i64,
) -> Result<(f64, Tensor, f64, i64)> {
    let (c1, c2) = (1e-4, 0.9);
    let d_norm = max_abs(d)?;
    let (mut f_new, mut g_new) = obj(t, d)?;
    let mut ls_func_evals = 1;
    let mut gtd_new = value(&g_new.f_dot(d)?)?;
    let (mut t_prev, mut f_prev, mut g_prev, mut gtd_prev) = (0.0, f, g.shallow_clone(), gtd);
    let mut done = false;
    let mut ls_iter = 0;
    // bracket an interval containing a point satisfying the Wolfe criteria
    let (mut bracket, mut bracket_f, mut bracket_g, mut bracket_gtd): (
        Vec<f64>,
        Vec<f64>,
        Vec<Tensor>,
        Vec<f64>,
    ) = (vec![], vec![], vec![], vec![]);
    while ls_iter < max_ls {
        if f_new > f + c1 * t * gtd || (ls_iter > 1 && f_new >= f_prev) {
            bracket = vec![t_prev, t];
            bracket_f = vec![f_prev, f_new];
            bracket_g = vec![g_prev.shallow_clone(), g_new.shallow_clone()];
            bracket_gtd = vec![gtd_prev, gtd_new];
            break;
        }
        if gtd_new.abs() <= -c2 * gtd {
            bracket = vec![t];
            bracket_f = vec![f_new];
            bracket_g = vec![g_new.shallow_clone()];
            done = true;
            break;
        }
        if gtd_new >= 0.0 {
            bracket = vec![t_prev, t];
            bracket_f = vec![f_prev, f_new];
            bracket_g = vec![g_prev.shallow_clone(), g_new.shallow_clone()];
            bracket_gtd = vec![gtd_prev, gtd_new];
            break;
        }
        // interpolate
        let min_step = t + 0.01 * (t - t_prev);
        let max_step = t * 10.0;
        let tmp = t;
        t = cubic_interpolate(
            t_prev,
            f_prev,
            gtd_prev,
            t,
            f_new,
            gtd_new,
            Some((min_step, max_step)),
        );
        // next step
        t_prev = tmp;
        f_prev = f_new;
        g_prev = g_new.shallow_clone();
        gtd_prev = gtd_new;
        (f_new, g_new) = obj(t, d)?;
        ls_func_evals += 1;
        gtd_new = value(&g_new.f_dot(d)?)?;
        ls_iter += 1;
    }
    // reached the most evaluations allowed
    if ls_iter >= max_ls {
        bracket = vec![0.0, t];
        bracket_f = vec![f, f_new];
        bracket_g = vec![g.shallow_clone(), g_new.shallow_clone()];
    }
    // zoom: refine the bracket until a point meets the criteria
    let mut insuf_progress = false;
    let order = |bf: &[f64]| {
        if bf[0] <= bf[bf.len() - 1] {
            (0, 1)
        } else {
            (1, 0)
        }
    };
    let (mut low, mut high) = order(&bracket_f);
    while !done && ls_iter < max_ls {
        if (bracket[1] - bracket[0]).abs() * d_norm < tolerance_change {
            break;
        }
        t = cubic_interpolate(
            bracket[0],
            bracket_f[0],
            bracket_gtd[0],
            bracket[1],
            bracket_f[1],
            bracket_gtd[1],
            None,
        );
        // a point too near the ends of the bracket twice, or at or beyond one, moves to 0.1 of
        // the bracket's width inside it
        let (bmax, bmin) = (pymax(bracket[0], bracket[1]), pymin(bracket[0], bracket[1]));
        let eps = 0.1 * (bmax - bmin);
        if pymin(bmax - t, t - bmin) < eps {
            if insuf_progress || t >= bmax || t <= bmin {
                t = if (t - bmax).abs() < (t - bmin).abs() {
                    bmax - eps
                } else {
                    bmin + eps
                };
                insuf_progress = false;
            } else {
                insuf_progress = true;
            }
        } else {
            insuf_progress = false;
        }
        (f_new, g_new) = obj(t, d)?;
        ls_func_evals += 1;
        gtd_new = value(&g_new.f_dot(d)?)?;
        ls_iter += 1;
        if f_new > f + c1 * t * gtd || f_new >= bracket_f[low] {
            // Armijo condition not met, or not below the lowest point
            bracket[high] = t;
            bracket_f[high] = f_new;
            bracket_g[high] = g_new.shallow_clone();
            bracket_gtd[high] = gtd_new;
            (low, high) = order(&bracket_f);
        } else {
            if gtd_new.abs() <= -c2 * gtd {
                done = true;
            } else if gtd_new * (bracket[high] - bracket[low]) >= 0.0 {
                // the old high becomes the new low
                bracket[high] = bracket[low];
                bracket_f[high] = bracket_f[low];
                bracket_g[high] = bracket_g[low].shallow_clone();
                bracket_gtd[high] = bracket_gtd[low];
            }
            // the new point becomes the new low
            bracket[low] = t;
            bracket_f[low] = f_new;
            bracket_g[low] = g_new.shallow_clone();
            bracket_gtd[low] = gtd_new;
        }
    }
    Ok((
        bracket_f[low],
        bracket_g[low].shallow_clone(),
        bracket[low],
        ls_func_evals,
    ))
}
