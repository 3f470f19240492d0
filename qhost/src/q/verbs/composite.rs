//! Keywords that KX defines from other primitives, computed here from the same primitives so
//! that rounding and nulls follow them: `mdev` (ref/dev.md), `scov` (ref/cov.md: "equivalent
//! to `{cov[x;y]*count[x]%-1+count x}`"), `xrank` (ref/xrank.md: floor of x times the rank over
//! the count), `ema` (ref/ema.md: the first item, then (1-x) times the last plus x times the
//! item). Forms the pages do not show (a table, a vector of weights, nulls for ema) are 'nyi.
use super::util::*;
use super::{apply_prim, table};
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::QResult;

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    Some(match name {
        "mdev" => mdev(x, y),
        "scov" => scov(x, y),
        "xrank" => xrank(x, y),
        "ema" => ema(x, y),
        _ => return None,
    })
}

fn prim(op: &str, args: &[&KObj]) -> QResult {
    debug_assert!(table::find(op).is_some());
    apply_prim(op, args.iter().map(|a| (*a).clone()).collect())
}

/// `x mdev y`: sqrt mavg[x;y*y] minus the square of mavg[x;y], y as floats; nulls are skipped
/// as mavg skips them (the page's `5 mdev 0N 2 0N 5 7 0N` is `0n 0 0 1.5 ..`).
fn mdev(x: &KObj, y: &KObj) -> QResult {
    if !(y.is_vector() && is_simple(y) && is_numeric(y.t())) || int_atom(x).is_none() {
        return Err(nyi());
    }
    let f = KObj::from_slice(KF, &fvals(y).ok_or_else(type_err)?);
    let sq = prim("*", &[&f, &f])?;
    let m = prim("mavg", &[x, &f])?;
    let msq = prim("mavg", &[x, &sq])?;
    let var = prim("-", &[&msq, &prim("*", &[&m, &m])?])?;
    prim("sqrt", &[&var])
}

/// `x scov y`: `cov[x;y]*count[x]%-1+count x`.
fn scov(x: &KObj, y: &KObj) -> QResult {
    let c = prim("cov", &[x, y])?;
    let n = prim("count", &[x])?;
    let m = prim("+", &[&KObj::long(-1), &n])?;
    prim("*", &[&c, &prim("%", &[&n, &m])?])
}

/// `x xrank y`: the bucket of each item of y among x buckets, `floor x*(rank y)%count y`.
fn xrank(x: &KObj, y: &KObj) -> QResult {
    if !y.is_vector() || int_atom(x).is_none() {
        return Err(nyi());
    }
    let r = prim("rank", &[y])?;
    let n = prim("count", &[y])?;
    let f = prim("%", &[&prim("*", &[x, &r])?, &n])?;
    prim("floor", &[&f])
}

/// `x ema y`: s[0] is y[0], s[i] is (1-x)*s[i-1] + x*y[i], as floats; x a number.
fn ema(x: &KObj, y: &KObj) -> QResult {
    let a = match fvals(x) {
        Some(v) if x.is_atom() && is_numeric(x.t()) => v[0],
        _ => return Err(nyi()),
    };
    let ys = match fvals(y) {
        Some(v) if y.is_vector() && is_numeric(y.t()) && v.len() >= 2 => v,
        _ => return Err(nyi()),
    };
    if ys.iter().any(|v| v.is_nan()) {
        return Err(nyi());
    }
    let mut out = Vec::with_capacity(ys.len());
    let mut s = ys[0];
    out.push(s);
    for &v in &ys[1..] {
        s = (1.0 - a) * s + a * v;
        out.push(s);
    }
    Ok(KObj::from_slice(KF, &out))
}
