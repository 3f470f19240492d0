//! qSQL on simple (unkeyed) tables: `select [cols] [by keys] from t [where c1, c2]`,
//! `exec`, `update` (without `by`) and `delete`. Column names are locals while a clause is
//! evaluated; where-clauses filter in turn; `by` groups and sorts the groups by key.
use std::cmp::Ordering;
use std::collections::HashMap;

use super::{done, eval as eval_node, Frame};
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::parser::{col_name, Node, Sql};
use crate::q::values::{self, from_items, ints_of, rows, table_of, table_parts, truthy};
use crate::q::{err, QErr, QResult};

struct Tab {
    names: Vec<String>,
    cols: Vec<KObj>,
}

pub fn eval(s: &Sql, outer: &mut Frame) -> QResult {
    if s.limit.is_some() && s.by.is_empty() && !s.cols.is_empty() {
        // KX: select[n] takes the rows before the Select phrase runs (an aggregate there sees
        // only them); qhost takes them from the result
        return Err(err("nyi"));
    }
    let r = eval_plain(s, outer)?;
    if s.limit.is_none() && s.order.is_none() {
        return Ok(r);
    }
    limit_order(s, r, outer)
}

/// `select[n;>c]` (code.kx.com/q/ref/select, "Limiting results"): the result sorted on c, then
/// its first n rows (last n for a negative n, n rows from m for `m n`); a keyed result keeps
/// its keys.
fn limit_order(s: &Sql, r: KObj, outer: &mut Frame) -> QResult {
    let nk = if r.t() == XD && r.dict_keys().t() == XT {
        table_parts(&r.dict_keys()).0.len()
    } else if r.t() == XT {
        0
    } else {
        return Err(err("nyi"));
    };
    let prim = crate::q::verbs::apply_prim;
    let mut t = if nk > 0 {
        prim("!", vec![KObj::long(0), r])?
    } else {
        r
    };
    if let Some((down, c)) = &s.order {
        let f = if *down { "xdesc" } else { "xasc" };
        t = prim(f, vec![KObj::sym(c), t])?;
    }
    if let Some(l) = &s.limit {
        let n = done(eval_node(l, outer))?;
        let rows = prim("count", vec![t.clone()])?.get_long();
        let v = if n.is_atom() {
            crate::q::values::int_of(&n).map(|i| vec![i])
        } else {
            ints_of(&n)
        };
        t = match v.as_deref() {
            Some([n]) if n.abs() >= rows => t,
            Some([n]) => prim("#", vec![KObj::long(*n), t])?,
            Some([m, n]) => prim("sublist", vec![KObj::from_slice(KJ, &[*m, *n]), t])?,
            _ => return Err(err("type")),
        };
    }
    if nk > 0 {
        t = prim("!", vec![KObj::long(nk as i64), t])?;
    }
    Ok(t)
}

fn eval_plain(s: &Sql, outer: &mut Frame) -> QResult {
    let t = done(eval_node(&s.from, outer))?;
    // a table's name: update and delete amend the global and answer the name (ref/delete.md
    // `delete b from `d`, ref/update.md)
    // `delete x from `.`: globals of the root namespace removed (ref/load.md, ref/delete.md)
    if t.t() == -KS && t.get_sym() == "." && s.kind == "delete" && s.wh.is_empty() {
        for (n, e) in &s.cols {
            let name = match (n, e) {
                (Some(n), _) => n.clone(),
                (None, Node::Name(n)) => n.clone(),
                _ => return Err(err("nyi")),
            };
            crate::q::globals::may_update()?;
            crate::q::globals::remove_global(&name);
        }
        return Ok(t);
    }
    if t.t() == -KS {
        let name = t.get_sym();
        let v = crate::q::globals::get_global(name).ok_or_else(|| err(name))?;
        let r = query_on(s, v, outer)?;
        if s.kind == "update" || s.kind == "delete" {
            crate::q::globals::may_update()?;
            crate::q::globals::set_global(name, r);
            return Ok(t);
        }
        return Ok(r);
    }
    query_on(s, t, outer)
}

fn query_on(s: &Sql, t: KObj, outer: &mut Frame) -> QResult {
    // delete entries of a dictionary by name (ref/delete.md)
    if s.kind == "delete" && t.t() == XD && t.dict_keys().t() == KS && s.wh.is_empty() {
        let gone: Vec<&str> = s
            .cols
            .iter()
            .filter_map(|(n, e)| {
                n.as_deref().or(match e {
                    Node::Name(n) => Some(n.as_str()),
                    _ => None,
                })
            })
            .collect();
        if gone.len() != s.cols.len() || gone.is_empty() {
            return Err(err("nyi"));
        }
        let keys = t.dict_keys().sym_list();
        let kept: Vec<i64> = (0..keys.len() as i64)
            .filter(|&i| !gone.contains(&keys[i as usize]))
            .collect();
        return Ok(KObj::dict(
            rows(&t.dict_keys(), &kept),
            rows(&t.dict_values(), &kept),
        ));
    }
    if t.t() == XD && t.dict_keys().t() == XT && t.dict_values().t() == XT {
        return keyed(s, &t, outer);
    }
    if t.t() == XD && t.dict_keys().t() == KS {
        return on_dict(s, &t, outer);
    }
    if t.t() != XT {
        return Err(err(if t.t() == XD { "nyi" } else { "type" }));
    }
    on_table(s, &t, outer)
}

/// `exec c from d` on a dictionary with symbol keys: the keys name the values, as columns
/// name a table's (`exec options from module m` in ktorch's docs, printed by q). Other
/// queries on dictionaries are 'nyi.
fn on_dict(s: &Sql, d: &KObj, outer: &mut Frame) -> QResult {
    let update = s.kind == "update";
    if !(s.kind == "exec" || update) || !s.by.is_empty() || !s.wh.is_empty() || s.cols.is_empty() {
        return Err(err("nyi"));
    }
    let mut names: Vec<String> = Vec::new();
    let mut vals: Vec<Option<KObj>> = Vec::new();
    for (k, v) in d
        .dict_keys()
        .sym_list()
        .iter()
        .zip(values::list_items(&d.dict_values()))
    {
        names.push(k.to_string());
        vals.push(Some(v));
    }
    let mut fr = over(names, vals, outer);
    if update {
        // `update c:e from d` (ktorch's gpt/math.q, run by q: `flip update ok:actual=predict
        // from update actual:a+b from `a`b`predict!..`): the keys name the values, a new name
        // is a new key, an existing one gets the new value
        let mut keys: Vec<String> = d
            .dict_keys()
            .sym_list()
            .iter()
            .map(|k| k.to_string())
            .collect();
        let mut vals = values::list_items(&d.dict_values());
        for (k, (n, e)) in s.cols.iter().enumerate() {
            let name = name_of(k, n, e);
            let v = done(eval_node(e, &mut fr))?;
            match keys.iter().position(|x| *x == name) {
                Some(i) => vals[i] = v,
                None => {
                    keys.push(name);
                    vals.push(v);
                }
            }
        }
        return Ok(KObj::dict(KObj::syms(&keys), from_items(vals)));
    }
    if s.cols.len() == 1 && s.cols[0].0.is_none() {
        return done(eval_node(&s.cols[0].1, &mut fr));
    }
    let mut names = Vec::new();
    let mut vals = Vec::new();
    for (k, (n, e)) in s.cols.iter().enumerate() {
        names.push(name_of(k, n, e));
        vals.push(done(eval_node(e, &mut fr))?);
    }
    Ok(KObj::dict(KObj::syms(&names), from_items(vals)))
}

/// A keyed table: `exec` runs on its rows (key and value columns together), `update` too and
/// keeps the keys; `select` and `delete` on keyed tables are 'nyi.
fn keyed(s: &Sql, kt: &KObj, outer: &mut Frame) -> QResult {
    if !matches!(s.kind.as_str(), "exec" | "update") {
        return Err(err("nyi"));
    }
    let (kn, kc) = table_parts(&kt.dict_keys());
    let (vn, vc) = table_parts(&kt.dict_values());
    let names: Vec<String> = kn.iter().chain(vn.iter()).map(|s| s.to_string()).collect();
    let flat = table_of(&names, kc.into_iter().chain(vc).collect());
    let r = on_table(s, &flat, outer)?;
    if s.kind == "exec" {
        return Ok(r);
    }
    // re-key on the same leading columns
    let (rn, rc) = table_parts(&r);
    let nk = kn.len();
    if rn.len() < nk || rn[..nk] != kn[..] {
        return Err(err("nyi"));
    }
    let keys = table_of(
        &kn.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        rc[..nk].to_vec(),
    );
    let vals = table_of(
        &rn[nk..].iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        rc[nk..].to_vec(),
    );
    Ok(KObj::dict(keys, vals))
}

fn on_table(s: &Sql, t: &KObj, outer: &mut Frame) -> QResult {
    let t = t.clone();
    let (names, cols) = table_parts(&t);
    let tab = Tab {
        names: names.iter().map(|s| s.to_string()).collect(),
        cols,
    };
    let n = t.len();
    let mut idx: Vec<i64> = (0..n).collect();
    for w in &s.wh {
        let v = eval_on(&tab, &idx, w, outer)?;
        let keep: Vec<bool> = match v.t() {
            KB => v.slice::<u8>().iter().map(|&b| b != 0).collect(),
            t if t == -KB => vec![v.get_bool(); idx.len()],
            _ => return Err(err("type")),
        };
        if keep.len() != idx.len() {
            return Err(err("length"));
        }
        idx = idx
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(i, _)| i)
            .collect();
    }
    match s.kind.as_str() {
        "select" => select(s, &tab, &idx, outer),
        "exec" => exec(s, &tab, &idx, outer),
        "update" => update(s, &tab, &idx, n, outer),
        _ => delete(s, &tab, &idx, n),
    }
}

/// Evaluate `e` with the columns (at rows `idx`) as locals, after the enclosing locals.
///
/// KX's order (basics/qsql.md, "Names in subphrases"): "A name in a subphrase is resolved (in
/// order) as the name of 1. column or key name 2. local name in (or argument of) the
/// encapsulating function 3. global name in the current working namespace". So a column shadows
/// a lambda's argument or local of the same name (`{select from t where date=x}` reads t's
/// column `x` when t has one), and both shadow a global. The virtual column `i` is no column or
/// key name of the table, and KX says nothing of a local named `i`: a template that reads `i`
/// inside a lambda with a local or argument `i` (and no real column `i`) is 'nyi.
fn eval_on(tab: &Tab, idx: &[i64], e: &Node, outer: &mut Frame) -> QResult {
    if !tab.names.iter().any(|n| n == "i") && outer.names.iter().any(|n| n == "i") && reads_i(e) {
        return Err(err("nyi"));
    }
    let mut names: Vec<String> = Vec::new();
    let mut vals: Vec<Option<KObj>> = Vec::new();
    for (n, c) in tab.names.iter().zip(tab.cols.iter()) {
        names.push(n.clone());
        vals.push(Some(rows(c, idx)));
    }
    names.push("i".into());
    vals.push(Some(KObj::from_slice(KJ, idx)));
    let mut fr = over(names, vals, outer);
    done(eval_node(e, &mut fr))
}

/// Whether `e` reads the name `i` (not inside a nested lambda, which has its own frame, nor a
/// nested query, which has its own columns).
fn reads_i(e: &Node) -> bool {
    match e {
        Node::Name(s) | Node::Local(_, s) => s == "i",
        Node::Derived(f, _) | Node::Return(f) | Node::Signal(f) => reads_i(f),
        Node::Apply(f, args) => reads_i(f) || args.iter().any(reads_i),
        Node::Juxt(f, x) => reads_i(f) || reads_i(x),
        Node::Dyad(x, f, y) => reads_i(x) || reads_i(f) || reads_i(y),
        Node::List(v) | Node::Seq(v) => v.iter().any(reads_i),
        Node::Assign { idx, op, val, .. } => {
            idx.iter().flatten().any(reads_i) || op.iter().any(|o| reads_i(o)) || reads_i(val)
        }
        Node::Table(keys, cols) => keys.iter().chain(cols).any(|(_, e)| reads_i(e)),
        Node::Const(_)
        | Node::Prim(_)
        | Node::Elide
        | Node::Lambda(_)
        | Node::Sql(_)
        | Node::Nil => false,
    }
}

fn name_of(k: usize, n: &Option<String>, e: &Node) -> String {
    n.clone().or_else(|| col_name(e)).unwrap_or_else(|| {
        if k == 0 {
            "x".into()
        } else {
            format!("x{k}")
        }
    })
}

/// Columns of equal length from clause results: atoms extend to the longest list.
fn conform(vals: Vec<KObj>) -> Result<Vec<KObj>, QErr> {
    let lens: Vec<i64> = vals
        .iter()
        .filter(|v| v.is_vector())
        .map(|v| v.len())
        .collect();
    let n = match lens.first() {
        Some(&n) => n,
        None => return Ok(vals.into_iter().map(|v| from_items(vec![v])).collect()),
    };
    if lens.iter().any(|&l| l != n) {
        return Err(err("length"));
    }
    Ok(vals
        .into_iter()
        .map(|v| {
            if v.is_vector() {
                v
            } else {
                from_items(vec![v; n as usize])
            }
        })
        .collect())
}

fn select(s: &Sql, tab: &Tab, idx: &[i64], outer: &mut Frame) -> QResult {
    if !s.by.is_empty() {
        return select_by(s, tab, idx, outer);
    }
    if s.cols.is_empty() {
        return Ok(table_of(
            &tab.names,
            tab.cols.iter().map(|c| rows(c, idx)).collect(),
        ));
    }
    let mut names = Vec::new();
    let mut vals = Vec::new();
    for (k, (n, e)) in s.cols.iter().enumerate() {
        names.push(name_of(k, n, e));
        vals.push(eval_on(tab, idx, e, outer)?);
    }
    Ok(table_of(&names, conform(vals)?))
}

/// Group rows by the key columns; groups in ascending key order.
fn groups(keys: &[KObj], idx_len: usize) -> Result<Vec<Vec<i64>>, QErr> {
    for k in keys {
        if k.t() <= 0 || k.t() >= XT || k.len() as usize != idx_len {
            return Err(err(if k.t() == 0 { "nyi" } else { "length" }));
        }
    }
    let mut map: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut out: Vec<Vec<i64>> = Vec::new();
    for r in 0..idx_len {
        let mut key = Vec::new();
        for k in keys {
            let es = elem_size(k.t());
            let p = unsafe { std::slice::from_raw_parts(data::<u8>(k.as_ptr()).add(r * es), es) };
            key.extend_from_slice(p);
        }
        let g = *map.entry(key).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[g].push(r as i64);
    }
    out.sort_by(|a, b| {
        for k in keys {
            let o = cmp_elem(k, a[0] as usize, b[0] as usize);
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    });
    Ok(out)
}

fn cmp_elem(k: &KObj, i: usize, j: usize) -> Ordering {
    match k.t() {
        KS => {
            let v = k.sym_list();
            v[i].cmp(v[j])
        }
        KE => k.slice::<f32>()[i]
            .partial_cmp(&k.slice::<f32>()[j])
            .unwrap_or(Ordering::Equal),
        KF | KZ => k.slice::<f64>()[i]
            .partial_cmp(&k.slice::<f64>()[j])
            .unwrap_or(Ordering::Equal),
        KB | KG | KC => k.slice::<u8>()[i].cmp(&k.slice::<u8>()[j]),
        KH => k.slice::<i16>()[i].cmp(&k.slice::<i16>()[j]),
        KI | KM | KD | KU | KV | KT => k.slice::<i32>()[i].cmp(&k.slice::<i32>()[j]),
        KJ | KP | KN => k.slice::<i64>()[i].cmp(&k.slice::<i64>()[j]),
        _ => Ordering::Equal,
    }
}

fn select_by(s: &Sql, tab: &Tab, idx: &[i64], outer: &mut Frame) -> QResult {
    let (knames, kcols, rowsets) = by_groups(s, tab, idx, outer)?;
    let mut names = Vec::new();
    let mut cols = Vec::new();
    if s.cols.is_empty() {
        // `select by k from t`: the last row of each group
        let lasts: Vec<i64> = rowsets.iter().map(|g| *g.last().unwrap()).collect();
        for (n, c) in tab.names.iter().zip(tab.cols.iter()) {
            if !knames.contains(n) {
                names.push(n.clone());
                cols.push(rows(c, &lasts));
            }
        }
    } else {
        for (k, (n, e)) in s.cols.iter().enumerate() {
            names.push(name_of(k, n, e));
            let per = rowsets
                .iter()
                .map(|sub| eval_on(tab, sub, e, outer))
                .collect::<Result<Vec<_>, _>>()?;
            cols.push(from_items(per));
        }
    }
    Ok(KObj::dict(table_of(&knames, kcols), table_of(&names, cols)))
}

/// A `by`'s groups: key names, key values (one column per `by` expression), each group's rows.
type Groups = (Vec<String>, Vec<KObj>, Vec<Vec<i64>>);

/// The groups of `by` over the selected rows: each group's rows (as table row numbers) and the
/// key values of the groups' first rows, one column per `by` expression.
fn by_groups(s: &Sql, tab: &Tab, idx: &[i64], outer: &mut Frame) -> Result<Groups, QErr> {
    let mut knames = Vec::new();
    let mut kvals = Vec::new();
    for (k, (n, e)) in s.by.iter().enumerate() {
        knames.push(name_of(k, n, e));
        kvals.push(eval_on(tab, idx, e, outer)?);
    }
    let gs = groups(&kvals, idx.len())?;
    let firsts: Vec<i64> = gs.iter().map(|g| g[0]).collect();
    let kcols = kvals.iter().map(|k| rows(k, &firsts)).collect();
    let rowsets = gs
        .iter()
        .map(|g| g.iter().map(|&r| idx[r as usize]).collect())
        .collect();
    Ok((knames, kcols, rowsets))
}

/// `exec c by k from t`: a dictionary from each group's key to its result (a table of results
/// when several columns are asked for).
fn exec_by(s: &Sql, tab: &Tab, idx: &[i64], outer: &mut Frame) -> QResult {
    if s.by.len() != 1 || s.cols.is_empty() {
        return Err(err("nyi"));
    }
    let (_, mut kcols, rowsets) = by_groups(s, tab, idx, outer)?;
    let mut names = Vec::new();
    let mut cols = Vec::new();
    for (k, (n, e)) in s.cols.iter().enumerate() {
        names.push(name_of(k, n, e));
        let per = rowsets
            .iter()
            .map(|sub| eval_on(tab, sub, e, outer))
            .collect::<Result<Vec<_>, _>>()?;
        cols.push(from_items(per));
    }
    let values = if cols.len() == 1 && s.cols[0].0.is_none() {
        cols.pop().unwrap()
    } else {
        table_of(&names, cols)
    };
    Ok(KObj::dict(kcols.pop().unwrap(), values))
}

fn exec(s: &Sql, tab: &Tab, idx: &[i64], outer: &mut Frame) -> QResult {
    if !s.by.is_empty() {
        return exec_by(s, tab, idx, outer);
    }
    if s.cols.is_empty() {
        return Err(err("nyi"));
    }
    if s.cols.len() == 1 && s.cols[0].0.is_none() {
        return eval_on(tab, idx, &s.cols[0].1, outer);
    }
    let mut names = Vec::new();
    let mut vals = Vec::new();
    for (k, (n, e)) in s.cols.iter().enumerate() {
        names.push(name_of(k, n, e));
        vals.push(eval_on(tab, idx, e, outer)?);
    }
    Ok(KObj::dict(KObj::syms(&names), from_items(vals)))
}

/// `update c:f x by k from t`: f runs on each group's rows and its result lands back on them
/// (an atom result fills the group), so the table keeps its rows and order.
fn update_by(s: &Sql, tab: &Tab, idx: &[i64], n: i64, outer: &mut Frame) -> QResult {
    if idx.len() as i64 != n {
        return Err(err("nyi"));
    }
    let (_, _, rowsets) = by_groups(s, tab, idx, outer)?;
    let mut names = tab.names.clone();
    let mut cols = tab.cols.clone();
    for (k, (nm, e)) in s.cols.iter().enumerate() {
        let name = name_of(k, nm, e);
        let mut cells: Vec<Option<KObj>> = vec![None; n as usize];
        for sub in &rowsets {
            let v = eval_on(tab, sub, e, outer)?;
            let items = if v.is_vector() {
                if v.len() as usize != sub.len() {
                    return Err(err("length"));
                }
                values::list_items(&v)
            } else {
                vec![v; sub.len()]
            };
            for (r, x) in sub.iter().zip(items) {
                cells[*r as usize] = Some(x);
            }
        }
        let col = from_items(
            cells
                .into_iter()
                .map(|c| c.expect("every row is in a group"))
                .collect(),
        );
        match names.iter().position(|x| *x == name) {
            Some(p) => cols[p] = col,
            None => {
                names.push(name);
                cols.push(col);
            }
        }
    }
    Ok(table_of(&names, cols))
}

fn update(s: &Sql, tab: &Tab, idx: &[i64], n: i64, outer: &mut Frame) -> QResult {
    if !s.by.is_empty() {
        return update_by(s, tab, idx, n, outer);
    }
    let all = idx.len() as i64 == n;
    let mut names = tab.names.clone();
    let mut cols = tab.cols.clone();
    for (k, (nm, e)) in s.cols.iter().enumerate() {
        let name = name_of(k, nm, e);
        let v = eval_on(tab, idx, e, outer)?;
        let v = if v.is_vector() {
            if v.len() as usize != idx.len() {
                return Err(err("length"));
            }
            v
        } else {
            from_items(vec![v; idx.len()])
        };
        let pos = names.iter().position(|x| *x == name);
        let newcol = if all {
            v
        } else {
            let Some(p) = pos else { return Err(err("nyi")) };
            let mut items = values::list_items(&cols[p]);
            let vi = values::list_items(&v);
            for (r, x) in idx.iter().zip(vi) {
                items[*r as usize] = x;
            }
            let t = cols[p].t();
            if t > 0 && items.iter().any(|x| x.t() != -t) {
                return Err(err("type"));
            }
            if items.is_empty() {
                cols[p].clone()
            } else if t == 0 {
                KObj::list(items)
            } else {
                from_items(items)
            }
        };
        match pos {
            Some(p) => cols[p] = newcol,
            None => {
                names.push(name);
                cols.push(newcol);
            }
        }
    }
    Ok(table_of(&names, cols))
}

fn delete(s: &Sql, tab: &Tab, idx: &[i64], n: i64) -> QResult {
    if !s.cols.is_empty() {
        if !s.wh.is_empty() {
            return Err(err("nyi"));
        }
        let mut drop = Vec::new();
        for (_, e) in &s.cols {
            match e {
                Node::Name(c) => drop.push(c.clone()),
                _ => return Err(err("type")),
            }
        }
        let mut names = Vec::new();
        let mut cols = Vec::new();
        for (nm, c) in tab.names.iter().zip(tab.cols.iter()) {
            if !drop.contains(nm) {
                names.push(nm.clone());
                cols.push(c.clone());
            }
        }
        return Ok(table_of(&names, cols));
    }
    let mut keep = vec![true; n as usize];
    for &i in idx {
        keep[i as usize] = false;
    }
    let rest: Vec<i64> = (0..n).filter(|&i| keep[i as usize]).collect();
    let _ = (ints_of, truthy);
    Ok(table_of(
        &tab.names,
        tab.cols.iter().map(|c| rows(c, &rest)).collect(),
    ))
}

/// A template's frame: the table's names and values first, then the enclosing function's locals
/// that no column hides (qsql.md, "Names in subphrases": column, then local, then global).
fn over(mut names: Vec<String>, mut vals: Vec<Option<KObj>>, outer: &Frame) -> Frame {
    for (n, v) in outer.names.iter().zip(outer.vals.iter()) {
        if !names.contains(n) {
            names.push(n.clone());
            vals.push(v.clone());
        }
    }
    Frame {
        names: std::sync::Arc::new(names),
        vals,
        this: outer.this.clone(),
    }
}
