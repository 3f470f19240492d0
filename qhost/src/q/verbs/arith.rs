//! Atomic arithmetic: + - * % & | div mod xbar xexp xlog and the monadic math keywords.
//! One path for every dyadic verb: `result_type` decides the type by q's promotion rules, then
//! the values are computed either as i64 (exact integers, nulls propagated) or as f64, and
//! written back in the result type (`build_i`/`build_f` map nulls and infinities).
use super::atomic::{atomic1, atomic2};
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{QErr, QResult};

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div, // %
    Min, // &
    Max, // |
    IDiv,
    Mod,
    Xbar,
    Xexp,
    Xlog,
}

impl Op {
    pub fn from_name(s: &str) -> Option<Op> {
        Some(match s {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "%" => Op::Div,
            "&" | "and" => Op::Min,
            "|" | "or" => Op::Max,
            "div" => Op::IDiv,
            "mod" => Op::Mod,
            "xbar" => Op::Xbar,
            "xexp" => Op::Xexp,
            "xlog" => Op::Xlog,
            _ => return None,
        })
    }
}

/// q's comparison tolerance, 2^-43 relative (basics/precision.md).
const TOLERANCE: f64 = 1.0 / 8_796_093_022_208.0;

fn tolerant_floor(v: f64) -> f64 {
    let up = v.floor() + 1.0;
    if v.is_finite() && (up - v) <= TOLERANCE * v.abs().max(up.abs()) {
        up
    } else {
        v.floor()
    }
}

/// Promotion rank of numeric types: boolean/byte/char lowest, then short, int, long, real, float.
fn rank(t: i8) -> u8 {
    match t {
        KB | KG | KC => 1,
        KH => 2,
        KI => 3,
        KJ => 4,
        KE => 5,
        KF => 6,
        _ => 0,
    }
}

/// The wider numeric type of two: real beats long, as q's promotion table has it
/// (code.kx.com/q/basics/datatypes: `1+2e` is `3e`).
fn promote(a: i8, b: i8) -> i8 {
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// Type of `x op y` for base types a, b (positive), or the error q gives.
fn result_type(op: Op, a: i8, b: i8) -> Result<i8, QErr> {
    let num = |t: i8| rank(t) > 0;
    let int = |t: i8| matches!(t, KB | KG | KC | KH | KI | KJ);
    if a == KS || b == KS || a == UU || b == UU {
        return Err(type_err());
    }
    if is_temporal(a) || is_temporal(b) {
        return temporal_type(op, a, b);
    }
    // characters do no arithmetic ('type: `2+"hi"`, ref/add.md's domains; basics/debug.md), but
    // Greater and Lesser compare them with integers and answer a character (ref/greater.md
    // `98|"a"` is "b", ref/lesser.md `98&"c"` is "b")
    if a == KC || b == KC {
        let intc = |t: i8| matches!(t, KB | KG | KC | KH | KI | KJ);
        // Divide, div and xlog take characters as their codes (ref/divide.md `"z"%"a"`,
        // ref/div.md `"\023" div 8`, ref/log.md `"A"xlog"C"`)
        match op {
            Op::Min | Op::Max if intc(a) && intc(b) => return Ok(KC),
            Op::Min | Op::Max => return Err(crate::q::err("nyi")),
            Op::Div | Op::IDiv | Op::Xlog => {}
            _ => return Err(type_err()),
        }
    }
    if !num(a) || !num(b) {
        return Err(type_err());
    }
    let p = promote(a, b);
    Ok(match op {
        Op::Add | Op::Sub | Op::Mul => {
            if rank(p) == 1 {
                KI
            } else {
                p
            }
        }
        Op::Min | Op::Max => p,
        Op::Div => {
            if p == KE {
                KE
            } else {
                KF
            }
        }
        Op::Xexp | Op::Xlog => KF,
        Op::IDiv | Op::Mod => {
            if !int(p) {
                p
            } else if rank(a) <= 2 {
                KI
            } else {
                a
            }
        }
        Op::Xbar => {
            if !int(p) {
                p
            } else if rank(b) <= 2 {
                KI
            } else {
                b
            }
        }
    })
}

/// Temporal arithmetic q defines: shifting by integers, differences, timestamp ± timespan.
fn temporal_type(op: Op, a: i8, b: i8) -> Result<i8, QErr> {
    let int = |t: i8| matches!(t, KB | KG | KH | KI | KJ);
    let plain = |t: i8| is_temporal(t) && t != KZ;
    Ok(match op {
        Op::Add if plain(a) && int(b) => a,
        Op::Add if int(a) && plain(b) => b,
        Op::Add if (a == KP && b == KN) || (a == KN && b == KP) => KP,
        Op::Add if (a == KD && b == KN) || (a == KN && b == KD) => KP,
        Op::Add if a == b && matches!(a, KN | KU | KV | KT) => a,
        Op::Sub if plain(a) && int(b) => a,
        Op::Sub if a == KP && b == KN => KP,
        Op::Sub if a == KD && b == KN => KP,
        Op::Sub if a == b && a == KP => KN,
        Op::Sub if a == b && matches!(a, KD | KM) => KI,
        Op::Sub if a == b && plain(a) => a,
        // KX's Multiply table (code.kx.com/q/ref/multiply, "Range and domains"): a temporal
        // times an integer, a real or a char keeps its type; times a float it is a float
        // (`1e-9*0D00:00:01` is 1f: gpt/math.q's iter/sec), except a date or datetime,
        // which gives a datetime; two temporals do not multiply
        Op::Mul if is_temporal(a) != is_temporal(b) => {
            let (t, o) = if is_temporal(a) { (a, b) } else { (b, a) };
            match o {
                KF if matches!(t, KD | KZ) => KZ,
                KF => KF,
                KE | KC => t,
                o if int(o) => t,
                _ => return Err(type_err()),
            }
        }
        // Divide: the ratio of the underlying values, always a float (code.kx.com/q/ref/divide)
        Op::Div if (is_temporal(a) || rank(a) > 0) && (is_temporal(b) || rank(b) > 0) => KF,
        Op::Min | Op::Max if a == b => a,
        Op::IDiv | Op::Mod if plain(a) && int(b) => a,
        Op::Xbar if plain(b) && (int(a) || a == b) => b,
        _ => return Err(crate::q::err("nyi")),
    })
}

/// Nanoseconds per day: a date meets a timespan as a timestamp.
const DAY_NS: i64 = 86_400_000_000_000;

/// i64 values of an operand in the unit of the result (dates become nanoseconds when the
/// result is a timestamp).
fn ivals_as(x: &KObj, rt: i8) -> Result<Vec<i64>, QErr> {
    let v = if is_temporal(rt) || is_temporal(x.t().abs()) {
        ivals(x)
    } else {
        ivals_exact(x)
    }
    .ok_or_else(type_err)?;
    if rt == KP && x.t().abs() == KD {
        return Ok(v
            .into_iter()
            .map(|d| if d == NJ { NJ } else { d.wrapping_mul(DAY_NS) })
            .collect());
    }
    Ok(v)
}

/// Floor division of integers as q's div: by zero gives ±0W (0N for 0).
fn idiv(a: i64, b: i64) -> i64 {
    if a == NJ || b == NJ {
        return NJ;
    }
    if b == 0 {
        return match a.signum() {
            1 => WJ,
            -1 => -WJ,
            _ => NJ,
        };
    }
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Modulus with the divisor's sign (x - y * x div y); by zero leaves x.
fn imod(a: i64, b: i64) -> i64 {
    if a == NJ || b == NJ {
        return NJ;
    }
    if b == 0 {
        return a;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// q orders a float null below everything, so `0n|1` is 1 and `0n&1` is 0n.
fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}
fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else {
        a.max(b)
    }
}

/// Integer kernel of op (None: the op computes in floats).
fn int_kernel(op: Op) -> Option<fn(i64, i64) -> i64> {
    Some(match op {
        Op::Add => |a, b| {
            if a == NJ || b == NJ {
                NJ
            } else {
                a.wrapping_add(b)
            }
        },
        Op::Sub => |a, b| {
            if a == NJ || b == NJ {
                NJ
            } else {
                a.wrapping_sub(b)
            }
        },
        Op::Mul => |a, b| {
            if a == NJ || b == NJ {
                NJ
            } else {
                a.wrapping_mul(b)
            }
        },
        Op::Min => |a: i64, b: i64| a.min(b),
        Op::Max => |a: i64, b: i64| a.max(b),
        Op::IDiv => idiv,
        Op::Mod => imod,
        // x xbar y: y rounded down to a multiple of x
        Op::Xbar => |a, b| {
            if a == NJ || b == NJ {
                NJ
            } else {
                idiv(b, a).wrapping_mul(a)
            }
        },
        Op::Div | Op::Xexp | Op::Xlog => return None,
    })
}

fn float_kernel(op: Op) -> fn(f64, f64) -> f64 {
    match op {
        Op::Add => |a, b| a + b,
        Op::Sub => |a, b| a - b,
        Op::Mul => |a, b| a * b,
        Op::Div => |a, b| a / b,
        Op::Min => fmin,
        Op::Max => fmax,
        Op::IDiv => |a, b| (a / b).floor(),
        Op::Mod => |a, b| a - b * (a / b).floor(),
        Op::Xbar => |a, b| a * (b / a).floor(),
        // computed as exp y*log x (ref/exp.md: `2 xexp 3` is 7.9999999999999982 at \P 0;
        // a negative x gives 0n)
        Op::Xexp => |a: f64, b: f64| {
            if a == 0.0 {
                a.powf(b)
            } else {
                (b * a.ln()).exp()
            }
        },
        Op::Xlog => |a: f64, b: f64| b.ln() / a.ln(),
    }
}

/// Fast path of `leaf` for two longs or two floats (atoms or vectors): the type is the
/// operands' (`result_type` gives long for every integer kernel of two longs, float for every
/// op of two floats) and each value is the same kernel's, written straight into the answer
/// instead of through `ivals`/`fvals` and `build_i`/`build_f` (which leave a long or float
/// unchanged). None: not such a pair, or an op without an integer kernel (`%` of longs).
fn leaf_fast(op: Op, x: &KObj, y: &KObj) -> Option<QResult> {
    let (a, b) = (x.t().abs(), y.t().abs());
    if a != b || !(a == KJ || a == KF) {
        return None;
    }
    let n = match conform(x, y) {
        Ok(n) => n,
        Err(e) => return Some(Err(e)),
    };
    if a == KJ {
        // the kernels of `int_kernel`, written out so that they inline into the loop
        return Some(Ok(match op {
            Op::Add => map2(x, y, n, KJ, |p: i64, q: i64| {
                if p == NJ || q == NJ {
                    NJ
                } else {
                    p.wrapping_add(q)
                }
            }),
            Op::Sub => map2(x, y, n, KJ, |p: i64, q: i64| {
                if p == NJ || q == NJ {
                    NJ
                } else {
                    p.wrapping_sub(q)
                }
            }),
            Op::Mul => map2(x, y, n, KJ, |p: i64, q: i64| {
                if p == NJ || q == NJ {
                    NJ
                } else {
                    p.wrapping_mul(q)
                }
            }),
            Op::Min => map2(x, y, n, KJ, |p: i64, q: i64| p.min(q)),
            Op::Max => map2(x, y, n, KJ, |p: i64, q: i64| p.max(q)),
            _ => map2(x, y, n, KJ, int_kernel(op)?),
        }));
    }
    Some(Ok(match op {
        Op::Add => map2(x, y, n, KF, |p: f64, q: f64| p + q),
        Op::Sub => map2(x, y, n, KF, |p: f64, q: f64| p - q),
        Op::Mul => map2(x, y, n, KF, |p: f64, q: f64| p * q),
        Op::Div => map2(x, y, n, KF, |p: f64, q: f64| p / q),
        _ => map2(x, y, n, KF, float_kernel(op)),
    }))
}

/// `f` over two values of base type `t` (long or float: 8-byte elements), an atom repeating:
/// an atom of type -t when both are atoms, else a vector of `n` items.
fn map2<T: Copy>(x: &KObj, y: &KObj, n: Option<usize>, t: i8, f: impl Fn(T, T) -> T) -> KObj {
    // SAFETY (atom reads and writes): x, y are atoms of base type t, whose value is a T at
    // the atom's slot; `alloc(-t)` makes such an atom
    let one = |v: &KObj| unsafe { *atom::<T>(v.as_ptr()) };
    let Some(n) = n else {
        let r = KObj::from_raw(alloc(-t, 0)).unwrap();
        unsafe { *atom::<T>(r.as_ptr()) = f(one(x), one(y)) };
        return r;
    };
    let out = KObj::vector(t, n as i64);
    let o = out.slice_mut::<T>();
    match (x.is_atom(), y.is_atom()) {
        (true, _) => {
            let p = one(x);
            for (o, &q) in o.iter_mut().zip(y.slice::<T>()) {
                *o = f(p, q);
            }
        }
        (_, true) => {
            let q = one(y);
            for (o, &p) in o.iter_mut().zip(x.slice::<T>()) {
                *o = f(p, q);
            }
        }
        _ => {
            for ((o, &p), &q) in o.iter_mut().zip(x.slice::<T>()).zip(y.slice::<T>()) {
                *o = f(p, q);
            }
        }
    }
    out
}

/// The kernel on two simple values: the shared "atomic binary op with promotion".
fn leaf(op: Op, x: &KObj, y: &KObj) -> QResult {
    if fast_paths() {
        if let Some(r) = leaf_fast(op, x, y) {
            return r;
        }
    }
    let (a, b) = (x.t().abs(), y.t().abs());
    // same-typed min/max keeps the type for any orderable type (chars, temporals)
    let rt = if matches!(op, Op::Min | Op::Max) && a == b && a != KS && a != UU {
        a
    } else {
        result_type(op, a, b)?
    };
    let n = conform(x, y)?;
    let atom = n.is_none();
    let n = n.unwrap_or(1);
    let ik = int_kernel(op);
    if let (Some(k), true) = (ik, is_intlike(a) && is_intlike(b) && rt != KF && rt != KE) {
        let r = zip_with(&ivals_as(x, rt)?, &ivals_as(y, rt)?, n, k);
        return Ok(build_i(rt, atom, &r));
    }
    let r = zip_with(
        &fvals(x).ok_or_else(type_err)?,
        &fvals(y).ok_or_else(type_err)?,
        n,
        float_kernel(op),
    );
    Ok(build_f(rt, atom, &r))
}

/// `x op y` for a dyadic arithmetic verb.
pub fn dyad(op: Op, x: &KObj, y: &KObj) -> QResult {
    // two dictionaries: x-y is x+neg y, so a key only in y gives its negation (ref/subtract.md
    // `d-`b`c!(10 20 30;1000*1 2 3)` has c| -1000 -2000 -3000)
    if op == Op::Sub && x.t() == XD && y.t() == XD && y.dict_keys().t() != XT {
        let ny = KObj::dict(
            y.dict_keys(),
            super::apply_prim("neg", vec![y.dict_values()])?,
        );
        return dyad(Op::Add, x, &ny);
    }
    atomic2(x, y, &|a, b| leaf(op, a, b))
}

/// Monadic math keywords.
pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    let f: fn(f64) -> f64 = match name {
        "sqrt" => f64::sqrt,
        "exp" => f64::exp,
        "log" => f64::ln,
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "asin" => f64::asin,
        "acos" => f64::acos,
        "atan" => f64::atan,
        "reciprocal" => |v| 1.0 / v,
        "neg" => return Some(atomic1(x, &neg)),
        "abs" => return Some(atomic1(x, &abs)),
        "signum" => return Some(atomic1(x, &signum)),
        // with comparison tolerance: a value tolerantly equal to the integer above (below) it
        // floors (ceils) to that integer (ref/floor.md `floor 2 - 10 xexp -12 -13` is 1 2,
        // ref/ceiling.md `ceiling 2 + 10 xexp -12 -13` is 3 2)
        "floor" => return Some(atomic1(x, &|v| round(v, tolerant_floor))),
        "ceiling" => return Some(atomic1(x, &|v| round(v, |f| -tolerant_floor(-f)))),
        _ => return None,
    };
    Some(atomic1(x, &|v| {
        // numbers, characters and temporals by their underlying values, as a float
        // (ref/exp.md's domain and range: `exp 00:00:00 00:00:12 12:00:00` is 1 162754.8 0w,
        // ref/sqrt.md); a datetime's answer is a datetime: nyi
        let t = v.t().abs();
        if t == KZ {
            return Err(crate::q::err("nyi"));
        }
        let vals = fvals(v)
            .filter(|_| is_numeric(v.t()) || t == KC || is_temporal(t))
            .ok_or_else(type_err)?;
        Ok(build_f(
            KF,
            v.is_atom(),
            &vals.into_iter().map(f).collect::<Vec<_>>(),
        ))
    }))
}

/// Type of a monadic integer result: boolean/byte/char/short... widen to int as arithmetic does.
fn widened(t: i8) -> i8 {
    if matches!(t, KB | KG | KC) {
        KI
    } else {
        t
    }
}

/// A sign-like monadic op: integers keep their (widened) type and nulls, floats their type.
fn unary_num(x: &KObj, fi: fn(i64) -> i64, ff: fn(f64) -> f64) -> QResult {
    let t = x.t().abs();
    if is_intlike(t) {
        let v: Vec<i64> = ivals(x)
            .unwrap()
            .into_iter()
            .map(|a| if a == NJ { NJ } else { fi(a) })
            .collect();
        return Ok(build_i(widened(t), x.is_atom(), &v));
    }
    let v = fvals(x).ok_or_else(type_err)?;
    Ok(build_f(
        t,
        x.is_atom(),
        &v.into_iter().map(ff).collect::<Vec<_>>(),
    ))
}

fn neg(x: &KObj) -> QResult {
    unary_num(x, i64::wrapping_neg, |a| -a)
}

fn abs(x: &KObj) -> QResult {
    unary_num(x, i64::wrapping_abs, f64::abs)
}

/// signum: -1i for negatives and nulls, 0i, 1i (q's documented rule), for any numeric type.
fn signum(x: &KObj) -> QResult {
    let v = fvals(x)
        .filter(|_| x.t().abs() != KS)
        .ok_or_else(type_err)?;
    let r: Vec<i64> = v
        .into_iter()
        .map(|a| {
            if a.is_nan() || a < 0.0 {
                -1
            } else if a > 0.0 {
                1
            } else {
                0
            }
        })
        .collect();
    Ok(build_i(KI, x.is_atom(), &r))
}

/// floor/ceiling: floats to long (reals to int); integers unchanged.
fn round(x: &KObj, f: fn(f64) -> f64) -> QResult {
    let t = x.t().abs();
    match t {
        KE | KF => {
            let v: Vec<f64> = fvals(x).unwrap().into_iter().map(f).collect();
            Ok(build_f(if t == KE { KI } else { KJ }, x.is_atom(), &v))
        }
        KH | KI | KJ | KB | KG => Ok(build_i(widened(t), x.is_atom(), &ivals(x).unwrap())),
        // a datetime to its date (ref/floor.md `floor 2009.10.03T13:08:00.222` is 2009.10.03,
        // ref/ceiling.md)
        KZ => {
            let v: Vec<i64> = fvals(x)
                .unwrap()
                .into_iter()
                .map(|d| if d.is_nan() { NJ } else { f(d) as i64 })
                .collect();
            Ok(build_i(KD, x.is_atom(), &v))
        }
        _ => Err(type_err()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn promotion() {
        let r = dyad(Op::Add, &KObj::bool(true), &KObj::int(2)).unwrap();
        assert_eq!((r.t(), r.get_int()), (-KI, 3));
        let r = dyad(Op::Add, &KObj::int(2), &KObj::long(2)).unwrap();
        assert_eq!((r.t(), r.get_long()), (-KJ, 4));
        let r = dyad(Op::Div, &KObj::long(1), &KObj::long(2)).unwrap();
        assert_eq!((r.t(), r.get_float()), (-KF, 0.5));
        let r = dyad(Op::Mul, &KObj::int(2), &KObj::real(1.5)).unwrap();
        assert_eq!((r.t(), r.get_real()), (-KE, 3.0));
        let r = dyad(Op::IDiv, &KObj::long(-7), &KObj::long(2)).unwrap();
        assert_eq!(r.get_long(), -4);
        let r = dyad(Op::Mod, &KObj::long(-7), &KObj::long(3)).unwrap();
        assert_eq!(r.get_long(), 2);
        let r = dyad(Op::Add, &KObj::long(NJ), &KObj::long(1)).unwrap();
        assert_eq!(r.get_long(), NJ);
        let v = KObj::from_slice(KJ, &[1i64, 2, 3]);
        let r = dyad(Op::Sub, &v, &KObj::from_slice(KJ, &[1i64, 1])).unwrap_err();
        assert_eq!(r.0, "length");
    }
}
