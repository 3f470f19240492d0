//! Comparison: = <> < > <= >= (atomic, across numeric types, nulls lowest, floats with q's
//! comparison tolerance), `~` match (type and structure), `within`.
use super::atomic::atomic2;
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::QResult;
use std::cmp::Ordering;

/// q's float equality: equal within a relative tolerance of 2^-43; a null equals a null.
pub fn feq(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    // The relative tolerance would make an infinity equal to every finite value (inf <= inf).
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    a == b || (a - b).abs() <= 1.1368683772161603e-13 * a.abs().max(b.abs())
}

/// Total order of floats as q sorts them: null first.
pub fn fcmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ if feq(a, b) => Ordering::Equal,
        _ => a.partial_cmp(&b).unwrap(),
    }
}

/// Orderings of the n pairs of simple x and y (broadcasting atoms), or 'type.
pub fn orderings(x: &KObj, y: &KObj) -> Result<(Option<usize>, Vec<Ordering>), crate::q::QErr> {
    let n = conform(x, y)?;
    let m = n.unwrap_or(1);
    let (a, b) = (x.t().abs(), y.t().abs());
    let r = if a == KS || b == KS {
        if a != b {
            return Err(type_err());
        }
        let (sx, sy) = (sym_texts(x).unwrap(), sym_texts(y).unwrap());
        zip_with(&sx, &sy, m, |p: &str, q: &str| p.cmp(q))
    } else if a == UU || b == UU {
        if a != b {
            return Err(type_err());
        }
        let g = |v: &KObj| -> Vec<[u8; 16]> {
            if v.is_atom() {
                vec![unsafe { *data::<[u8; 16]>(v.as_ptr()) }]
            } else {
                v.slice::<[u8; 16]>().to_vec()
            }
        };
        zip_with(&g(x), &g(y), m, |p, q| p.cmp(&q))
    } else if is_temporal(a) && is_temporal(b) && a != b {
        return Err(crate::q::err("nyi"));
    } else if matches!(a, KE | KF | KZ) || matches!(b, KE | KF | KZ) {
        zip_with(
            &fvals(x).ok_or_else(type_err)?,
            &fvals(y).ok_or_else(type_err)?,
            m,
            fcmp,
        )
    } else {
        zip_with(
            &ivals(x).ok_or_else(type_err)?,
            &ivals(y).ok_or_else(type_err)?,
            m,
            |p: i64, q| p.cmp(&q),
        )
    };
    Ok((n, r))
}

/// A comparison verb by name: which orderings make it true.
pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    let test: fn(Ordering) -> bool = match name {
        "=" => |o| o == Ordering::Equal,
        "<>" => |o| o != Ordering::Equal,
        "<" => |o| o == Ordering::Less,
        ">" => |o| o == Ordering::Greater,
        "<=" => |o| o != Ordering::Greater,
        ">=" => |o| o != Ordering::Less,
        "~" => return Some(Ok(KObj::bool(matches(x, y)))),
        "within" => return Some(within(x, y)),
        _ => return None,
    };
    Some(atomic2(x, y, &|a, b| {
        let (n, o) = orderings(a, b)?;
        let v: Vec<u8> = o.into_iter().map(|o| test(o) as u8).collect();
        Ok(if n.is_none() {
            KObj::bool(v[0] != 0)
        } else {
            KObj::from_slice(KB, &v)
        })
    }))
}

/// `x within (lo;hi)`: lo <= x <= hi, atomic in x.
fn within(x: &KObj, r: &KObj) -> QResult {
    if r.len() != 2 || !r.is_vector() {
        return Err(type_err());
    }
    let (lo, hi) = (elem(r, 0), elem(r, 1));
    let ge = dyad(">=", x, &lo).unwrap()?;
    let le = dyad("<=", x, &hi).unwrap()?;
    super::arith::dyad(super::arith::Op::Min, &ge, &le)
}

/// `x ~ y`: same type, same shape, equal items (floats within tolerance, nulls equal).
pub fn matches(x: &KObj, y: &KObj) -> bool {
    let t = x.t();
    if t != y.t() {
        return false;
    }
    match t {
        XD => {
            matches(&x.dict_keys(), &y.dict_keys()) && matches(&x.dict_values(), &y.dict_values())
        }
        XT => matches(&x.table_dict(), &y.table_dict()),
        0 => {
            x.len() == y.len()
                && x.items()
                    .iter()
                    .zip(y.items().iter())
                    .all(|(a, b)| matches(a, b))
        }
        _ if is_simple(x) => {
            if x.is_vector() && x.len() != y.len() {
                return false;
            }
            match orderings(x, y) {
                Ok((_, o)) => o.iter().all(|&o| o == Ordering::Equal),
                Err(_) => false,
            }
        }
        // functions and the generic null: the same object or the same payload
        _ => x.same(y) || (t == 101 && x.get_long() == y.get_long()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn compare_types() {
        let r = dyad("=", &KObj::int(1), &KObj::float(1.0))
            .unwrap()
            .unwrap();
        assert!(r.get_bool());
        let r = dyad("<", &KObj::long(NJ), &KObj::long(-5))
            .unwrap()
            .unwrap();
        assert!(r.get_bool());
        assert!(!matches(&KObj::int(1), &KObj::long(1)));
        assert!(matches(&KObj::float(f64::NAN), &KObj::float(f64::NAN)));
        assert!(matches(&KObj::syms(&["a", "b"]), &KObj::syms(&["a", "b"])));
    }
}
