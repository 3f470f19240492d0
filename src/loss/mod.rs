//! Loss functions (ktorch's loss.rst, kloss.cpp), their functional forms: `mse(x;y)`,
//! `mse(x;y;`sum)`, `ce(x;y;weight;ignore;smoothing;reduce)`, `ce(x;y;`smoothing`reduce!(.1;`none))`.
//! Inputs are q data or tensor handles (q data in, q data out; any handle in, a new handle out,
//! so `backward` works on it); options follow the inputs, positionally in the order of the table
//! below, then by name (see `args`). One line per loss in the table: its inputs, positional
//! options and reduction modes, and the calculation (`calc`).
//! The `loss` object (a loss made once and applied later) is in `object`.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod args;
pub mod calc;
pub mod help;
pub mod object;

use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use self::args::Ty;
use crate::k::from::{self, FromQ, Sym};
use crate::k::{read, KResult, K};
use crate::math::pointwise;
use crate::registry;
use crate::tensor::{convert, opargs, result};

/// How many tensors come before the options.
#[derive(Clone, Copy)]
pub enum Inputs {
    N(usize),
    /// bce: input and target, and batch weights unless the third argument looks like an option
    /// (a symbol, symbols, `()`, `::` or a dictionary), as kloss.cpp's `bcearg`.
    Bce,
}

pub struct Spec {
    pub name: &'static str,
    pub inputs: Inputs,
    pub usage: &'static str,
    pub slots: &'static [(&'static str, Ty)],
    pub modes: &'static [&'static str],
    pub calc: calc::Calc,
}

const NMS: &[&str] = &["none", "mean", "sum"];
const KL: &[&str] = &["none", "batchmean", "mean", "sum"];
/// No reduction: the distances `pairwise` and `similar`, used as losses, answer one value a row.
const NONE: &[&str] = &[];

macro_rules! losses {
    ($($f:ident $inputs:expr, $usage:literal, [$($o:ident: $ty:ident),*], $modes:ident, $calc:path;)*) => {
        /// Every loss function, in the order of the table.
        pub static SPECS: &[Spec] = &[$(Spec {
            name: stringify!($f),
            inputs: $inputs,
            usage: $usage,
            slots: &[$((stringify!($o), Ty::$ty)),*],
            modes: $modes,
            calc: $calc,
        }),*];
        /// Every loss function, by its place in the table (`Call`'s index).
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        pub enum Which { $($f),* }
        $(
            crate::qfn! {
                #[allow(dead_code)]
                pub fn $f(call: Call<{ Which::$f as usize }>) -> KResult {
                    call.apply()
                }
            }
        )*
    };
}

use Inputs::{Bce, N};
losses! {
    // q name   inputs  forms (before the options)        positional options                    reduce  calculation
    bce         Bce,    "(input;target) or (input;target;batch weight)", [],                    NMS, calc::bce;
    bcelogit1   N(2),   "(input;target)",                  [weight: Tensor],                     NMS, calc::bcelogits;
    bcelogit2   N(3),   "(input;target;batch weight)",     [weight: Tensor],                     NMS, calc::bcelogits;
    // loss modules only (`loss`bcelogits`): ktorch has no q function of these names as losses
    // (`pairwise`, `similar` are the functional distances of nn/functional/distance.rs)
    bcelogits   Bce,    "(input;target) or (input;target;batch weight)", [weight: Tensor],      NMS, calc::bcelogits;
    ce          N(2),   "(input;target)",                  [weight: Tensor, ignore: Long, smoothing: Double], NMS, calc::ce;
    cosineloss  N(3),   "(input1;input2;target)",          [margin: Double],                     NMS, calc::cosineloss;
    ctc         N(4),   "(input;target;input lengths;target lengths)", [blank: Long, zeroinf: Flag], NMS, calc::ctc;
    hinge       N(2),   "(input;target)",                  [margin: Double],                     NMS, calc::hinge;
    huber       N(2),   "(input;target)",                  [delta: Double],                      NMS, calc::huber;
    kl          N(2),   "(input;target)",                  [],                                   KL,  calc::kl;
    l1          N(2),   "(input;target)",                  [],                                   NMS, calc::l1;
    margin      N(3),   "(input1;input2;target)",          [margin: Double],                     NMS, calc::margin;
    mse         N(2),   "(input;target)",                  [],                                   NMS, calc::mse;
    multilabel  N(2),   "(input;target)",                  [],                                   NMS, calc::multilabel;
    multimargin N(2),   "(input;target)",                  [p: Long, margin: Double, weight: Tensor], NMS, calc::multimargin;
    multisoft   N(2),   "(input;target)",                  [weight: Tensor],                     NMS, calc::multisoft;
    pairwise    N(2),   "(input1;input2)",                 [p: Double, eps: Double, keepdim: Flag], NONE, calc::pairwise;
    nll         N(2),   "(input;target)",                  [weight: Tensor, ignore: Long],       NMS, calc::nll;
    poissonloss N(2),   "(input;target)",                  [log: Flag, full: Flag, eps: Double], NMS, calc::poissonloss;
    similar     N(2),   "(input1;input2)",                 [dim: Long, eps: Double],             NONE, calc::similar;
    smoothl1    N(2),   "(input;target)",                  [beta: Double],                       NMS, calc::smoothl1;
    softmargin  N(2),   "(input;target)",                  [],                                   NMS, calc::softmargin;
    triplet     N(3),   "(anchor;positive;negative)",      [margin: Double, p: Double, eps: Double, swap: Flag], NMS, calc::triplet;
}

/// Does the third argument of bce look like an option rather than batch weights?
fn option_like(x: K) -> bool {
    !registry::is_handle(x)
        && (Sym::of(x).is_some()
            || Vec::<&str>::of(x).is_some()
            || read::is_nil(x)
            || read::ktype(x) == 99)
}

/// One call of loss `SPECS[I]` (a loss-aware kind: the loss decides how many of q's
/// arguments are inputs): its input tensors, whether one came from a handle (a result is then a
/// handle), and its options.
pub struct Call<const I: usize> {
    inputs: Vec<Tensor>,
    handle: bool,
    opts: args::Opts,
}

impl<const I: usize> Call<I> {
    /// The loss of the inputs with the options, as q data or a handle.
    fn apply(self) -> KResult {
        result((SPECS[I].calc)(&self.inputs, &self.opts)?, self.handle)
    }
}

impl<const I: usize> FromQ for Call<I> {
    const TYPE: &'static str = "a loss's inputs and options";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Call<I>>> {
        let s = &SPECS[I];
        let usage = format!("{} followed by options", s.usage);
        // a simple list holds the inputs alone, as atoms: mse 1 2f
        if read::ktype(x) > 0 && read::ktype(x) < 20 {
            let t = convert::to_tensor(x)?;
            let n = t.size().first().copied().unwrap_or(0) as usize;
            let ok = match s.inputs {
                N(k) => n == k,
                Bce => n == 2 || n == 3,
            };
            if !ok {
                bail!("expected {usage}, given a simple list of {n}");
            }
            let inputs = (0..n as i64)
                .map(|i| t.f_get(i))
                .collect::<Result<Vec<Tensor>, _>>()?;
            let opts = args::Opts::of(&[], s.slots, s.modes)?;
            return Ok(Some(Call {
                inputs,
                handle: false,
                opts,
            }));
        }
        let v = from::list(&x)
            .ok_or_else(|| anyhow!("expected {usage}, given {}", opargs::describe(x)))?;
        let n = match s.inputs {
            N(k) => k,
            Bce => {
                if v.len() > 2 && !option_like(v[2]) {
                    3
                } else {
                    2
                }
            }
        };
        if v.len() < n {
            bail!(
                "expected {usage}, given {} argument{}",
                v.len(),
                if v.len() == 1 { "" } else { "s" }
            );
        }
        let (inputs, handle) = pointwise::inputs(&v[..n])?;
        let opts = args::Opts::of(&v[n..], s.slots, s.modes)?;
        Ok(Some(Call {
            inputs,
            handle,
            opts,
        }))
    }
}
