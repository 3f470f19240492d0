//! A forward pass for a few rows without libtorch's dispatcher (issue 33's scoring of updates):
//! a module that is a `linear` layer, or a `sequential` (nested too) of `linear` layers and
//! elementwise activations, with float32 parameters on the CPU, run on a few float32 rows with
//! plain loops over the parameters' memory. A row through an 8 → 32 → 1 network costs about
//! 300 multiply-adds, a few hundred nanoseconds; each libtorch operator call costs a microsecond
//! or more of dispatch. Anything else (another layer, another type or device, many rows) answers
//! None and the caller runs the module's own forward.
//!
//! The plan borrows the module: it reads each parameter's memory at the call (a parameter
//! changed by training or `parm(..)` is seen as it is then), and holds nothing after it. Results
//! agree with libtorch's to float32 rounding (the order of a sum's terms may differ).
// reads a planned layer's float32 weights in place, through src/cxx's checked view of a CPU
// tensor's items (cxx::storage::slice)
use tch::Tensor;

use super::Module;
use crate::cxx::storage;

/// One step of the pass.
enum Step<'a> {
    /// The weight's items (out x inp, row-major) and the bias's (out), read in place.
    Linear {
        w: &'a [f32],
        b: Option<&'a [f32]>,
        inp: usize,
        out: usize,
    },
    Act(Act),
}

/// Elementwise activations (with their options) and row-wise softmax.
#[derive(Clone, Copy)]
enum Act {
    Relu,
    Leaky(f32),
    Clamp(f32, f32),
    Sigmoid,
    Tanh,
    Silu,
    Elu(f32),
    Selu,
    Softmax,
    LogSoftmax,
}

/// The steps of a module, borrowing its parameters.
pub struct Plan<'a> {
    steps: Vec<Step<'a>>,
    /// Inputs per row (the first linear layer's), outputs per row (the last one's).
    pub inp: usize,
    pub out: usize,
    /// The widest row of any step (scratch space per row).
    width: usize,
    /// Multiply-adds per row.
    pub work: usize,
}

/// The items of a contiguous float32 CPU tensor of `dim` dimensions, in place.
fn float_cpu(t: &Tensor, dim: usize) -> Option<&[f32]> {
    storage::slice::<f32>(t).filter(|_| t.dim() == dim)
}

/// The plan of module `m`, or None when it has anything the plan does not run.
pub fn plan(m: &Module) -> Option<Plan<'_>> {
    let mut steps = vec![];
    add(m, &mut steps)?;
    let mut inp = None;
    let mut width = 0usize;
    let mut cur: Option<usize> = None;
    let mut work = 0usize;
    for s in &steps {
        if let Step::Linear { inp: i, out: o, .. } = s {
            if let Some(c) = cur {
                if c != *i {
                    return None;
                }
            }
            inp.get_or_insert(*i);
            width = width.max(*i).max(*o);
            cur = Some(*o);
            work += i * o;
        }
    }
    Some(Plan {
        inp: inp?,
        out: cur?,
        steps,
        width,
        work,
    })
}

fn add<'a>(m: &'a Module, steps: &mut Vec<Step<'a>>) -> Option<()> {
    if m.foreign.is_some() {
        return None;
    }
    let f32opt = |name: &str| m.float(name) as f32;
    let step = match m.layer.name {
        "sequential" | "seqnest" => {
            for (_, c) in &m.children {
                add(c, steps)?;
            }
            return Some(());
        }
        "linear" => {
            let w = m
                .parms
                .iter()
                .find(|(k, _)| k == "weight")
                .map(|(_, t)| t)?;
            let b = m.parms.iter().find(|(k, _)| k == "bias").map(|(_, t)| t);
            let (wv, s) = (float_cpu(w, 2)?, w.size());
            let w = wv;
            let b = match b {
                Some(b) => Some(float_cpu(b, 1)?),
                None => None,
            };
            let (out, inp) = (s[0] as usize, s[1] as usize);
            if b.is_some_and(|b| b.len() != out) {
                return None;
            }
            Step::Linear { w, b, inp, out }
        }
        // evaluation mode: dropout passes its input through
        "identity" | "drop" | "adrop" | "fadrop" => return Some(()),
        "flatten" if m.long("start") == 1 && m.long("end") == -1 => return Some(()),
        "relu" => Step::Act(Act::Relu),
        "relu6" => Step::Act(Act::Clamp(0.0, 6.0)),
        "hardtanh" => Step::Act(Act::Clamp(f32opt("min"), f32opt("max"))),
        "leakyrelu" => Step::Act(Act::Leaky(f32opt("slope"))),
        "sigmoid" => Step::Act(Act::Sigmoid),
        "tanh" => Step::Act(Act::Tanh),
        "silu" => Step::Act(Act::Silu),
        "elu" => Step::Act(Act::Elu(f32opt("alpha"))),
        "selu" => Step::Act(Act::Selu),
        "softmax" if matches!(m.long("dim"), 1 | -1) => Step::Act(Act::Softmax),
        "logsoftmax" if matches!(m.long("dim"), 1 | -1) => Step::Act(Act::LogSoftmax),
        _ => return None,
    };
    steps.push(step);
    Some(())
}

/// A dot product in eight lanes (vectorised), then their sum.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ac, ar) = (a.chunks_exact(8), a.len() / 8 * 8);
    for (x, y) in ac.zip(b.chunks_exact(8)) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for k in ar..a.len() {
        s += a[k] * b[k];
    }
    s
}

/// Four dot products of rows `x` with `w`, each summed as `dot` sums it.
#[inline]
fn dot4(x: [&[f32]; 4], w: &[f32]) -> [f32; 4] {
    let mut acc = [[0f32; 8]; 4];
    let whole = w.len() / 8 * 8;
    let mut k = 0;
    while k < whole {
        let wk = &w[k..k + 8];
        for (a, xr) in acc.iter_mut().zip(x.iter()) {
            let xk = &xr[k..k + 8];
            for l in 0..8 {
                a[l] += xk[l] * wk[l];
            }
        }
        k += 8;
    }
    let mut out = [0f32; 4];
    for (i, a) in acc.iter().enumerate() {
        let mut s = ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7]));
        for k in whole..w.len() {
            s += x[i][k] * w[k];
        }
        out[i] = s;
    }
    out
}

impl Plan<'_> {
    /// Run `rows` rows of `x` (rows x inp, row-major) into `y` (rows x out). Only the caller's
    /// slices and the module's parameters are touched.
    pub fn run(&self, x: &[f32], rows: usize, y: &mut [f32]) {
        assert!(x.len() >= rows * self.inp && y.len() >= rows * self.out);
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let need = rows * self.width;
            if s.0.len() < need {
                s.0.resize(need, 0.0);
                s.1.resize(need, 0.0);
            }
            let (a, b) = &mut *s;
            a[..rows * self.inp].copy_from_slice(&x[..rows * self.inp]);
            let (mut cur, mut next) = (a, b);
            let mut n = self.inp;
            for st in &self.steps {
                match st {
                    Step::Linear { w, b, inp, out } => {
                        // the lengths the loops index by (out x inp, out), known to the compiler
                        let (w, b) = (&w[..inp * out], b.map(|b| &b[..*out]));
                        // four rows at a time share each weight row's loads; a row's sum is
                        // made in the same order either way (`dot4` is four `dot`s)
                        let mut r = 0;
                        while r + 4 <= rows {
                            let xs = [
                                &cur[r * inp..(r + 1) * inp],
                                &cur[(r + 1) * inp..(r + 2) * inp],
                                &cur[(r + 2) * inp..(r + 3) * inp],
                                &cur[(r + 3) * inp..(r + 4) * inp],
                            ];
                            for o in 0..*out {
                                let d = dot4(xs, &w[o * inp..(o + 1) * inp]);
                                for (k, v) in d.iter().enumerate() {
                                    next[(r + k) * out + o] = match b {
                                        Some(b) => v + b[o],
                                        None => *v,
                                    };
                                }
                            }
                            r += 4;
                        }
                        for r in r..rows {
                            let xr = &cur[r * inp..(r + 1) * inp];
                            let yr = &mut next[r * out..(r + 1) * out];
                            for (o, v) in yr.iter_mut().enumerate() {
                                let d = dot(xr, &w[o * inp..(o + 1) * inp]);
                                *v = match b {
                                    Some(b) => d + b[o],
                                    None => d,
                                };
                            }
                        }
                        std::mem::swap(&mut cur, &mut next);
                        n = *out;
                    }
                    Step::Act(a) => act(*a, &mut cur[..rows * n], n),
                }
            }
            y[..rows * n].copy_from_slice(&cur[..rows * n]);
        })
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<(Vec<f32>, Vec<f32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

fn act(a: Act, v: &mut [f32], n: usize) {
    const SELU_ALPHA: f32 = 1.673_263_2;
    const SELU_SCALE: f32 = 1.050_701;
    let sig = |x: f32| 1.0 / (1.0 + (-x).exp());
    match a {
        // NaN passes through each, as in libtorch
        Act::Relu => v.iter_mut().for_each(|x| {
            if *x < 0.0 {
                *x = 0.0
            }
        }),
        Act::Leaky(s) => v.iter_mut().for_each(|x| {
            if *x < 0.0 {
                *x *= s
            }
        }),
        Act::Clamp(lo, hi) => v.iter_mut().for_each(|x| {
            if *x < lo {
                *x = lo
            } else if *x > hi {
                *x = hi
            }
        }),
        Act::Sigmoid => v.iter_mut().for_each(|x| *x = sig(*x)),
        Act::Tanh => v.iter_mut().for_each(|x| *x = x.tanh()),
        Act::Silu => v.iter_mut().for_each(|x| *x /= 1.0 + (-*x).exp()),
        Act::Elu(al) => v.iter_mut().for_each(|x| {
            if *x <= 0.0 {
                *x = al * x.exp_m1()
            }
        }),
        Act::Selu => v.iter_mut().for_each(|x| {
            *x = if *x <= 0.0 {
                SELU_SCALE * SELU_ALPHA * x.exp_m1()
            } else {
                SELU_SCALE * *x
            }
        }),
        Act::Softmax | Act::LogSoftmax => {
            for r in v.chunks_mut(n) {
                let m = r.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let mut s = 0f32;
                for x in r.iter() {
                    s += (x - m).exp();
                }
                if matches!(a, Act::Softmax) {
                    r.iter_mut().for_each(|x| *x = (*x - m).exp() / s);
                } else {
                    let l = s.ln();
                    r.iter_mut().for_each(|x| *x = *x - m - l);
                }
            }
        }
    }
}
