//! Functional qSQL (basics/funsql.md): `?[t;c;b;a]` select and exec, `![t;c;b;a]` update and
//! delete, with constraints and columns as parse trees evaluated against the table's columns.
//! Done: an unkeyed table (or a symbol naming one), constraints applied in order, select with no
//! grouping (`b` 0b) and exec with none (`b` `()`), update of every row, delete of rows or
//! columns. Grouping (`b` a dictionary), distinct (1b), keyed tables and update with
//! constraints are 'nyi.
use std::collections::HashMap;

use super::error::{err, QErr, QResult};
use super::values::{from_items, make_table, table_cols};
use crate::kapi::*;

/// `?` or `!` with four arguments.
pub fn apply(op: &str, args: &[KObj]) -> QResult {
    let t = if args[0].t() == -KS {
        super::globals::get_global(args[0].get_sym()).ok_or_else(|| err(args[0].get_sym()))?
    } else {
        args[0].clone()
    };
    if t.t() != XT {
        return Err(err("nyi"));
    }
    let (names, cols) = table_cols(&t);
    let names: Vec<String> = names.sym_list().iter().map(|s| s.to_string()).collect();
    let n = t.len();
    let mut rows: Vec<i64> = (0..n).collect();
    // constraints, each on the rows the ones before it kept
    let c = &args[1];
    if !(c.t() == 0 || (c.t() > 0 && c.is_empty())) {
        return Err(err("type"));
    }
    for tree in c.items() {
        let env = columns(&names, &cols, &rows);
        let keep = eval(&tree, &env, rows.len() as i64)?;
        if keep.t() != KB || keep.len() != rows.len() as i64 {
            return Err(err("type"));
        }
        let k = keep.slice::<u8>();
        rows = rows
            .iter()
            .zip(k.iter())
            .filter(|(_, &b)| b != 0)
            .map(|(&r, _)| r)
            .collect();
    }
    let env = columns(&names, &cols, &rows);
    let (b, a) = (&args[2], &args[3]);
    let m = rows.len() as i64;
    match op {
        "?" if b.t() == -KB && b.get_bool() => Err(err("nyi")),
        "?" if b.t() == -KB => {
            // select: all columns, or the named expressions
            if is_empty_cols(a) {
                return Ok(make_table(KObj::syms(&names), env_cols(&names, &env)));
            }
            let (an, av) = named(a, &env, m)?;
            Ok(make_table(KObj::syms(&an), widen(av)?))
        }
        "?" if b.t() == 0 && b.is_empty() => {
            // exec: one expression's value, or a dictionary of them
            if a.t() == XD {
                let (an, av) = named(a, &env, m)?;
                return Ok(KObj::dict(KObj::syms(&an), from_items(av)));
            }
            eval(a, &env, m)
        }
        "!" if b.t() == -KB && !b.get_bool() && a.t() == XD => {
            if !c.is_empty() {
                return Err(err("nyi"));
            }
            let (an, av) = named(a, &env, m)?;
            let av = widen(av)?;
            let mut names2 = names.clone();
            let mut cols2 = cols.clone();
            for (k, v) in an.into_iter().zip(av) {
                match names2.iter().position(|x| *x == k) {
                    Some(i) => cols2[i] = v,
                    None => {
                        names2.push(k);
                        cols2.push(v);
                    }
                }
            }
            Ok(make_table(KObj::syms(&names2), cols2))
        }
        "!" if b.t() == -KB && !b.get_bool() && (a.t() == KS || (a.t() == 0 && a.is_empty())) => {
            if a.t() == KS && !a.is_empty() {
                // delete columns (with no constraint)
                if !c.is_empty() {
                    return Err(err("nyi"));
                }
                let gone = a.sym_list();
                let keep: Vec<usize> = (0..names.len())
                    .filter(|&i| !gone.contains(&names[i].as_str()))
                    .collect();
                return Ok(make_table(
                    KObj::syms(&keep.iter().map(|&i| names[i].clone()).collect::<Vec<_>>()),
                    keep.iter().map(|&i| cols[i].clone()).collect(),
                ));
            }
            // delete the rows the constraints pick
            let left: Vec<i64> = (0..n).filter(|r| !rows.contains(r)).collect();
            Ok(make_table(
                KObj::syms(&names),
                env_cols(&names, &columns(&names, &cols, &left)),
            ))
        }
        _ => Err(err("nyi")),
    }
}

fn is_empty_cols(a: &KObj) -> bool {
    (a.t() == 0 && a.is_empty()) || (a.t() == XD && a.dict_keys().is_empty())
}

fn columns(names: &[String], cols: &[KObj], rows: &[i64]) -> HashMap<String, KObj> {
    let mut env: HashMap<String, KObj> = names
        .iter()
        .zip(cols.iter())
        .map(|(n, c)| (n.clone(), super::values::rows(c, rows)))
        .collect();
    env.entry("i".into())
        .or_insert_with(|| KObj::from_slice(KJ, rows));
    env
}

fn env_cols(names: &[String], env: &HashMap<String, KObj>) -> Vec<KObj> {
    names.iter().map(|n| env[n].clone()).collect()
}

/// A dictionary of names to parse trees, evaluated.
fn named(a: &KObj, env: &HashMap<String, KObj>, m: i64) -> Result<(Vec<String>, Vec<KObj>), QErr> {
    if a.t() != XD || a.dict_keys().t() != KS {
        return Err(err("type"));
    }
    let names: Vec<String> = a
        .dict_keys()
        .sym_list()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let trees = super::values::list_items(&a.dict_values());
    let vals = trees
        .iter()
        .map(|t| eval(t, env, m))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((names, vals))
}

/// Columns of one length: atoms repeated to the vectors' count; all atoms make one row.
fn widen(v: Vec<KObj>) -> Result<Vec<KObj>, QErr> {
    let lens: Vec<i64> = v.iter().filter(|c| !c.is_atom()).map(|c| c.len()).collect();
    let n = lens.first().copied().unwrap_or(1);
    if lens.iter().any(|&l| l != n) {
        return Err(err("length"));
    }
    Ok(v.into_iter()
        .map(|c| {
            if c.is_atom() {
                from_items(vec![c; n as usize])
            } else {
                c
            }
        })
        .collect())
}

/// A parse tree against the columns: a symbol is a column (or `i`, or a global; 'nyi for a
/// local of the calling lambda, see `globals::in_running_lambda`); a list of one
/// item is that item; a list headed by a function (or a symbol or string naming one) applies it
/// to the other items evaluated right to left.
fn eval(x: &KObj, env: &HashMap<String, KObj>, m: i64) -> QResult {
    let _ = m;
    if x.t() == -KS {
        let s = x.get_sym();
        if let Some(c) = env.get(s) {
            return Ok(c.clone());
        }
        if super::globals::in_running_lambda(s) {
            // not a column but a local of the calling lambda: KX does not say which it reads
            return Err(err("nyi"));
        }
        return super::system::eval_tree(x);
    }
    if (x.t() == 0 || x.t() == KS) && x.len() == 1 {
        return Ok(super::values::elem(x, 0));
    }
    if x.t() != 0 || x.is_empty() {
        return Ok(x.clone());
    }
    let it = x.items();
    let f = match it[0].t() {
        t if t >= 100 => it[0].clone(),
        t if t == -KS && super::globals::in_running_lambda(it[0].get_sym()) => {
            return Err(err("nyi"))
        }
        t if t == -KS => super::system::eval_tree(&it[0])?,
        _ => return Err(err("nyi")),
    };
    let mut args = Vec::with_capacity(it.len() - 1);
    for a in it[1..].iter().rev() {
        args.push(eval(a, env, m)?);
    }
    args.reverse();
    crate::kapi::hooks::apply(&f, args)
}
