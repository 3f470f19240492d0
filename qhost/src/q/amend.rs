//! Amend: `@[d;i;f]`, `@[d;i;f;y]`, `.[d;i;f]`, `.[d;i;f;y]` and indexed assignment
//! `d[i]:y` / `d[i]+:y`. d may be a global's name (a symbol): the global is amended in place
//! and the name is the answer. `:` as f assigns.
use super::globals::{get_global, may_update, set_global};
use super::values::{self, arg_items, from_items, int_of, ints_of, is_identity};
use super::{err, QResult};
use crate::kapi::func::Func;
use crate::kapi::hooks::apply;
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// `@`/`.` with 3 or 4 arguments on data.
pub fn amend(op: &str, args: Vec<KObj>) -> QResult {
    let mut it = args.into_iter();
    let d = it.next().unwrap();
    let i = it.next().unwrap();
    let f = it.next().unwrap();
    let y = it.next();
    let path = if op == "@" {
        vec![i]
    } else if i.is_vector() {
        arg_items(&i)
    } else {
        vec![i]
    };
    let fun = if is_assign(&f) {
        if y.is_none() {
            return Err(err("rank"));
        }
        None
    } else {
        Some(f)
    };
    if d.t() == -KS {
        let name = d.get_sym();
        let cur = get_global(name).ok_or_else(|| err(name))?;
        let v = amend_path(cur, &path, fun.as_ref(), y)?;
        may_update()?;
        set_global(name, v);
        return Ok(d);
    }
    amend_path(d, &path, fun.as_ref(), y)
}

/// Whether f is the assign verb `:`.
fn is_assign(f: &KObj) -> bool {
    f.is_func() && !is_identity(f) && matches!(f.func_ref(), Func::Prim { op } if op == ":")
}

/// Amend `d` at an index path (one index per depth).
pub fn amend_path(d: KObj, path: &[KObj], f: Option<&KObj>, y: Option<KObj>) -> QResult {
    if path.is_empty() {
        return match (f, y) {
            (None, Some(y)) => Ok(y),
            (Some(f), None) => apply(f, vec![d]),
            (Some(f), Some(y)) => apply(f, vec![d, y]),
            (None, None) => Err(err("rank")),
        };
    }
    let rest = &path[1..];
    amend_at(d, &path[0], y, &mut |item, yk| {
        amend_path(item, rest, f, yk)
    })
}

type Step<'a> = dyn FnMut(KObj, Option<KObj>) -> QResult + 'a;

/// The y for the k-th of n indices: an atom (or no y) is shared, a list must conform.
fn y_at(y: &Option<KObj>, k: usize, n: usize) -> Result<Option<KObj>, super::QErr> {
    match y {
        None => Ok(None),
        Some(v) if v.is_vector() => {
            if v.len() as usize != n {
                return Err(err("length"));
            }
            Ok(Some(values::elem(v, k as i64)))
        }
        Some(v) => Ok(Some(v.clone())),
    }
}

fn amend_at(d: KObj, i: &KObj, y: Option<KObj>, g: &mut Step) -> QResult {
    if d.t() == XD {
        return amend_dict(d, i, y, g);
    }
    if !d.is_vector() {
        return Err(err(if d.t() == XT { "nyi" } else { "type" }));
    }
    let n = d.len();
    let mut items = values::list_items(&d);
    if is_identity(i) {
        for (k, item) in items.iter_mut().enumerate().take(n as usize) {
            let yk = y_at(&y, k, n as usize)?;
            *item = g(item.clone(), yk)?;
        }
    } else if let Some(ix) = int_of(i) {
        if ix < 0 || ix >= n {
            return Err(err("index"));
        }
        items[ix as usize] = g(items[ix as usize].clone(), y)?;
    } else if let Some(ixs) = ints_of(i) {
        for (k, &ix) in ixs.iter().enumerate() {
            if ix < 0 || ix >= n {
                return Err(err("index"));
            }
            let yk = y_at(&y, k, ixs.len())?;
            items[ix as usize] = g(items[ix as usize].clone(), yk)?;
        }
    } else if i.t() == 0 {
        // a general list of indices: amend at each in turn
        let mut cur = d;
        let m = i.len() as usize;
        for k in 0..m {
            let yk = y_at(&y, k, m)?;
            cur = amend_at(cur, &i.item(k as i64), yk, g)?;
        }
        return Ok(cur);
    } else {
        return Err(err("type"));
    }
    rebuild(d.t(), items)
}

/// A list of the original type from amended items ('type when a typed list would change).
fn rebuild(t: i8, items: Vec<KObj>) -> QResult {
    if t == 0 {
        return Ok(KObj::list(items));
    }
    if items.iter().any(|x| x.t() != -t) {
        return Err(err("type"));
    }
    if items.is_empty() {
        return Ok(KObj::vector(t, 0));
    }
    Ok(from_items(items))
}

/// Position of key `k` in `keys` (count when absent).
fn find(keys: &KObj, k: &KObj) -> QResult {
    if keys.t() == KS && k.t() == -KS {
        let p = k.get_sym_ptr();
        let pos = keys
            .slice::<*const libc::c_char>()
            .iter()
            .position(|&s| s == p);
        return Ok(KObj::long(pos.unwrap_or(keys.len() as usize) as i64));
    }
    super::verbs::apply_prim("?", vec![keys.clone(), k.clone()])
}

fn amend_dict(d: KObj, i: &KObj, y: Option<KObj>, g: &mut Step) -> QResult {
    let keys = d.dict_keys();
    let vals = d.dict_values();
    let targets: Vec<KObj> = if is_identity(i) {
        values::list_items(&keys)
    } else if i.is_vector() && keys.t() != 0 {
        values::list_items(i)
    } else {
        vec![i.clone()]
    };
    let m = targets.len();
    let mut kitems = values::list_items(&keys);
    let mut vitems = values::list_items(&vals);
    for (k, key) in targets.into_iter().enumerate() {
        let mut pos = int_of(&find(&keys, &key)?).ok_or_else(|| err("type"))? as usize;
        if pos >= keys.len() as usize {
            // a key added earlier in this same amend (d[`a`b]:(x;y) with both new)
            if let Some(j) = kitems[keys.len() as usize..]
                .iter()
                .position(|k| super::verbs::compare::matches(k, &key))
            {
                pos = keys.len() as usize + j;
            } else {
                pos = kitems.len();
            }
        }
        let yk = if m == 1 && !i.is_vector() {
            y.clone()
        } else {
            y_at(&y, k, m)?
        };
        if pos < vitems.len() && pos < kitems.len() {
            vitems[pos] = g(vitems[pos].clone(), yk)?;
        } else {
            // a new key: only plain assignment knows its value
            let v = match yk {
                Some(v) => g(KObj::identity(), Some(v.clone())).or(Ok::<KObj, super::QErr>(v))?,
                None => return Err(err("nyi")),
            };
            kitems.push(key);
            vitems.push(v);
        }
    }
    let nk = if keys.t() == 0 {
        KObj::list(kitems)
    } else {
        rebuild(keys.t(), kitems)?
    };
    let nv = if vals.t() == 0 {
        KObj::list(vitems)
    } else {
        let t = vals.t();
        if vitems.iter().all(|x| x.t() == -t) {
            rebuild(t, vitems)?
        } else {
            KObj::list(vitems)
        }
    };
    Ok(KObj::dict(nk, nv))
}
