//! `mmu` and `$` on float vectors and matrices (code.kx.com/q/ref/mmu): the dot product of two
//! vectors, matrix-vector, vector-matrix and matrix-matrix products; two lists of matrices of
//! one count multiply pairwise (ktorch's addbmm page shows q's `y mmu z` on 3-d floats).
//! `inv` (code.kx.com/q/ref/inv): the inverse of a float matrix.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    match name {
        "inv" => Some(inv(x)),
        _ => None,
    }
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    match name {
        "mmu" => Some(mmu(x, y)),
        // `$` is the matrix product when both sides are float vectors or matrices
        "$" if is_float_array(x) && is_float_array(y) => Some(mmu(x, y)),
        _ => None,
    }
}

/// A float vector, or a non-empty general list of float vectors or of such lists.
fn is_float_array(x: &KObj) -> bool {
    match x.t() {
        KF => true,
        0 => !x.is_empty() && x.items().iter().all(is_float_array),
        _ => false,
    }
}

/// Rank of an array: 1 for a vector, 2 for a matrix (all rows float vectors), 3 for a list
/// of matrices; None when not rectangular in this sense.
fn rank(x: &KObj) -> Option<usize> {
    match x.t() {
        KF => Some(1),
        0 if !x.is_empty() => {
            let r: Vec<Option<usize>> = x.items().iter().map(rank).collect();
            let first = r[0]?;
            if r.iter().all(|&v| v == Some(first)) && first < 3 {
                Some(first + 1)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn rows(x: &KObj) -> Vec<Vec<f64>> {
    x.items()
        .iter()
        .map(|r| r.slice::<f64>().to_vec())
        .collect()
}

fn matrix(m: Vec<Vec<f64>>) -> KObj {
    KObj::list(m.iter().map(|r| KObj::from_slice(KF, r)).collect())
}

fn mmu(x: &KObj, y: &KObj) -> QResult {
    let types_ok = |v: &KObj| is_float_array(v);
    if !types_ok(x) || !types_ok(y) {
        // q documents mmu for floats; reals and integers are not known to qhost exactly
        return Err(if is_real_or_int_array(x) && is_real_or_int_array(y) {
            err("nyi")
        } else {
            type_err()
        });
    }
    let (rx, ry) = (rank(x).ok_or_else(len_err)?, rank(y).ok_or_else(len_err)?);
    match (rx, ry) {
        (1, 1) => {
            let (a, b) = (x.slice::<f64>(), y.slice::<f64>());
            if a.len() != b.len() {
                return Err(len_err());
            }
            Ok(KObj::float(a.iter().zip(b).map(|(p, q)| p * q).sum()))
        }
        (2, 1) => {
            let b = y.slice::<f64>();
            let m = rows(x);
            if m.iter().any(|r| r.len() != b.len()) {
                return Err(len_err());
            }
            let v: Vec<f64> = m
                .iter()
                .map(|r| r.iter().zip(b).map(|(p, q)| p * q).sum())
                .collect();
            Ok(KObj::from_slice(KF, &v))
        }
        (1, 2) => {
            let a = x.slice::<f64>();
            let m = rows(y);
            if m.len() != a.len() {
                return Err(len_err());
            }
            let n = m.first().map(|r| r.len()).unwrap_or(0);
            if m.iter().any(|r| r.len() != n) {
                return Err(len_err());
            }
            let v: Vec<f64> = (0..n)
                .map(|j| (0..a.len()).map(|i| a[i] * m[i][j]).sum())
                .collect();
            Ok(KObj::from_slice(KF, &v))
        }
        (2, 2) => {
            let (a, b) = (rows(x), rows(y));
            let n = b.first().map(|r| r.len()).unwrap_or(0);
            if a.iter().any(|r| r.len() != b.len()) || b.iter().any(|r| r.len() != n) {
                return Err(len_err());
            }
            let m: Vec<Vec<f64>> = a
                .iter()
                .map(|r| {
                    (0..n)
                        .map(|j| r.iter().enumerate().map(|(k, v)| v * b[k][j]).sum())
                        .collect()
                })
                .collect();
            Ok(matrix(m))
        }
        (3, 3) => {
            if x.len() != y.len() {
                return Err(len_err());
            }
            let out: Vec<KObj> = x
                .items()
                .iter()
                .zip(y.items().iter())
                .map(|(a, b)| mmu(a, b))
                .collect::<Result<_, _>>()?;
            Ok(KObj::list(out))
        }
        _ => Err(err("nyi")),
    }
}

fn is_real_or_int_array(x: &KObj) -> bool {
    match x.t() {
        KE | KF | KH | KI | KJ => true,
        0 => !x.is_empty() && x.items().iter().all(is_real_or_int_array),
        _ => false,
    }
}

/// Inverse by Gauss-Jordan elimination with partial pivoting; a singular matrix is 'nyi
/// (q's answer for it is not documented).
fn inv(x: &KObj) -> QResult {
    if rank(x) != Some(2) {
        return Err(if is_real_or_int_array(x) {
            err("nyi")
        } else {
            type_err()
        });
    }
    let mut a = rows(x);
    let n = a.len();
    if a.iter().any(|r| r.len() != n) {
        return Err(len_err());
    }
    // LU with partial pivoting, then each column of the identity solved forward and back:
    // the last bits as q's (ref/inv.md `a mmu inv a` is 1 2.220446e-16 -2.775558e-17 ..)
    let mut perm: Vec<usize> = (0..n).collect();
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
            .unwrap();
        if a[p][k] == 0.0 {
            return Err(err("nyi"));
        }
        a.swap(k, p);
        perm.swap(k, p);
        for i in k + 1..n {
            a[i][k] /= a[k][k];
            for j in k + 1..n {
                a[i][j] -= a[i][k] * a[k][j];
            }
        }
    }
    let mut b = vec![vec![0.0f64; n]; n];
    #[allow(clippy::needless_range_loop)] // c is a column of b, filled row by row
    for c in 0..n {
        let mut y = vec![0.0f64; n];
        for i in 0..n {
            let mut s = (perm[i] == c) as i64 as f64;
            for j in 0..i {
                s -= a[i][j] * y[j];
            }
            y[i] = s;
        }
        for i in (0..n).rev() {
            let mut s = y[i];
            for j in i + 1..n {
                s -= a[i][j] * b[j][c];
            }
            b[i][c] = s / a[i][i];
        }
    }
    Ok(matrix(b))
}
