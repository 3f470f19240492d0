//! `type`, `null`, `not`.
use super::atomic::atomic1;
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::QResult;

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    Some(match name {
        "type" => Ok(KObj::short(x.t() as i16)),
        "null" => null(x),
        "not" => atomic1(x, &not),
        _ => return None,
    })
}

/// `null x`: atomic; the generic null `::` is null too.
fn null(x: &KObj) -> QResult {
    if is_identity(x) {
        return Ok(KObj::bool(true));
    }
    if x.is_func() {
        return Ok(KObj::bool(false));
    }
    atomic1(x, &|v| {
        if v.is_atom() {
            return Ok(KObj::bool(is_null_at(v, 0)));
        }
        let r: Vec<u8> = (0..v.len() as usize)
            .map(|i| is_null_at(v, i) as u8)
            .collect();
        Ok(KObj::from_slice(KB, &r))
    })
}

/// `not x`: whether x is zero (numbers, chars, temporals); symbols are a type error.
fn not(x: &KObj) -> QResult {
    let t = x.t().abs();
    if t == KS || t == UU {
        return Err(type_err());
    }
    let r: Vec<u8> = fvals(x)
        .ok_or_else(type_err)?
        .into_iter()
        .map(|v| (v == 0.0) as u8)
        .collect();
    Ok(if x.is_atom() {
        KObj::bool(r[0] != 0)
    } else {
        KObj::from_slice(KB, &r)
    })
}
