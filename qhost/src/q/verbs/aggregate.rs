//! Aggregations and uniform running forms: sum sums prd prds max maxs min mins avg avgs dev var
//! med deltas ratios differ fills all any prev next xprev. Aggregations skip nulls (q's rule);
//! on a general list they fold the atomic verb item by item, on a table column by column.
use super::arith::{dyad as arith, Op};
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    // uniform functions go through a dictionary's values (a keyed table's value table) and a
    // table's columns (ref/ratios.md `ratios d`, `ratios t`, `ratios k`)
    let uniform = matches!(
        name,
        "sums" | "prds" | "maxs" | "mins" | "avgs" | "prev" | "next" | "deltas" | "ratios"
    );
    if uniform && x.t() == XD {
        return Some(monad(name, &x.dict_values())?.map(|v| KObj::dict(x.dict_keys(), v)));
    }
    if uniform && x.t() == XT {
        let (names, cols) = table_cols(x);
        let cols: Result<Vec<KObj>, _> = cols.iter().map(|c| monad(name, c).unwrap()).collect();
        return Some(cols.map(|c| make_table(names, c)));
    }
    // a keyed table is a dictionary: an aggregation goes through its values, the value table,
    // column by column (ref/avg.md `avg kt` is a| 11.33333 b| 5, as `avg t`)
    if is_keyed(x)
        && matches!(
            name,
            "sum" | "prd" | "max" | "min" | "avg" | "var" | "dev" | "svar" | "sdev"
        )
    {
        return monad(name, &x.dict_values());
    }
    let agg = |op: Op| Some(fold(op, x));
    match name {
        "sum" => agg(Op::Add),
        "prd" => agg(Op::Mul),
        "max" => agg(Op::Max),
        "min" => agg(Op::Min),
        "sums" => Some(scan(Op::Add, x)),
        "prds" => Some(scan(Op::Mul, x)),
        "maxs" => Some(scan(Op::Max, x)),
        "mins" => Some(scan(Op::Min, x)),
        "med" if med_by_items(x) => Some(med_items(x)),
        "avg" | "var" | "dev" | "med" | "svar" | "sdev" => Some(per_column(x, &|c| stat(name, c))),
        "avgs" => Some(avgs(x)),
        "all" | "any" => Some(all_any(name == "all", x)),
        "prev" => Some(shift(x, 1)),
        "next" => Some(shift(x, -1)),
        "deltas" => Some(pairwise(x, Op::Sub)),
        "ratios" => Some(pairwise(x, Op::Div)),
        "differ" => Some(differ(x)),
        "fills" => Some(fills(x)),
        _ => None,
    }
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    match name {
        "xprev" => Some(int_atom(x).ok_or_else(type_err).and_then(|n| shift(y, n))),
        // two simple vectors give a float (ref/sum.md `2 3 4 wsum 1 2 4` is 24f, but
        // `2 wsum 1 2 4` is 14)
        "wsum" => Some(
            arith(Op::Mul, x, y)
                .and_then(|p| fold(Op::Add, &p))
                .and_then(|r| {
                    let vectors = x.t() > 0 && y.t() > 0 && x.t() < 20 && y.t() < 20;
                    if vectors && r.is_atom() && matches!(-r.t(), KB | KG | KH | KI | KJ) {
                        super::cast::to_type(KF, &r)
                    } else {
                        Ok(r)
                    }
                }),
        ),
        "wavg" => Some(wavg(x, y)),
        "cov" | "cor" => Some(cov(name == "cor", x, y)),
        // mmin over nulls gives what ref/min.md shows (0N 0N 0N -3 -0W -0W), which qhost
        // cannot derive: nyi
        "mmin" if y.t() > 0 && (0..y.len()).any(|i| is_null_at(y, i as usize)) => Some(Err(nyi())),
        "mavg" | "msum" | "mmax" | "mmin" | "mcount" => Some(moving(name, x, y)),
        _ => None,
    }
}

/// Apply an aggregation to each column of a table (a dictionary of results) or to the values
/// of a dictionary; anything else directly.
fn per_column(x: &KObj, f: &dyn Fn(&KObj) -> QResult) -> QResult {
    match x.t() {
        XT => {
            let (names, cols) = table_cols(x);
            Ok(KObj::dict(
                names,
                from_items(cols.iter().map(f).collect::<Result<_, _>>()?),
            ))
        }
        XD => f(&x.dict_values()),
        _ => f(x),
    }
}

/// The identity of an aggregation in the type it works in.
fn identity(op: Op, t: i8) -> KObj {
    let float = matches!(t, KE | KF | KZ);
    match op {
        Op::Add | Op::Mul => {
            let one = (op == Op::Mul) as i64;
            if float {
                build_f(t, true, &[one as f64])
            } else {
                build_i(t, true, &[one])
            }
        }
        // max of nothing is -infinity, min +infinity (booleans: 0b / 1b)
        Op::Max | Op::Min => {
            let up = op == Op::Min;
            match t {
                KB | KG | KC => build_i(t, true, &[if up { 255 } else { 0 }]),
                _ if float => build_f(
                    t,
                    true,
                    &[if up { f64::INFINITY } else { f64::NEG_INFINITY }],
                ),
                _ => build_i(t, true, &[if up { WJ } else { -WJ }]),
            }
        }
        _ => KObj::long(0),
    }
}

/// sum/prd/max/min of one list: nulls skipped.
fn fold(op: Op, x: &KObj) -> QResult {
    // no arithmetic on characters: `sum "abc"`, `prd "abc"` are 'type (ref/sum.md, ref/prd.md)
    if x.t() == KC && matches!(op, Op::Add | Op::Mul) {
        return Err(type_err());
    }
    match x.t() {
        XT | XD => per_column(x, &|c| fold(op, c)),
        0 => {
            let it = x.items();
            if it.is_empty() {
                return Ok(identity(op, KJ));
            }
            it[1..]
                .iter()
                .try_fold(it[0].clone(), |a, b| arith(op, &a, b))
        }
        t if t < 0 => Ok(x.clone()),
        t => {
            let nn: Vec<i64> = (0..x.len())
                .filter(|&i| !is_null_at(x, i as usize))
                .collect();
            let vals = rows(x, &nn);
            let acc = identity(op, t);
            // whole-vector kernel: reduce values in i64 or f64
            if let (true, Some(v)) = (is_intlike(t), ivals(&vals)) {
                let r = match op {
                    Op::Add => v.iter().fold(0i64, |a, &b| a.wrapping_add(b)),
                    Op::Mul => v.iter().fold(1i64, |a, &b| a.wrapping_mul(b)),
                    Op::Max => v.iter().copied().max().unwrap_or(ivals(&acc).unwrap()[0]),
                    _ => v.iter().copied().min().unwrap_or(ivals(&acc).unwrap()[0]),
                };
                let rt = if matches!(op, Op::Add | Op::Mul) && matches!(t, KB | KG | KC) {
                    KI
                } else {
                    t
                };
                return Ok(build_i(rt, true, &[r]));
            }
            let v = fvals(&vals).ok_or_else(type_err)?;
            let r = match op {
                Op::Add => v.iter().sum(),
                Op::Mul => v.iter().product(),
                Op::Max => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                _ => v.iter().copied().fold(f64::INFINITY, f64::min),
            };
            Ok(build_f(t, true, &[r]))
        }
    }
}

/// sums/prds/maxs/mins: running fold; nulls count as the identity for sums/prds.
fn scan(op: Op, x: &KObj) -> QResult {
    if x.t() == KC && matches!(op, Op::Add | Op::Mul) {
        return Err(type_err());
    }
    match x.t() {
        XT => {
            let (names, cols) = table_cols(x);
            Ok(make_table(
                names,
                cols.iter().map(|c| scan(op, c)).collect::<Result<_, _>>()?,
            ))
        }
        XD => Ok(KObj::dict(x.dict_keys(), scan(op, &x.dict_values())?)),
        t if t < 0 => Ok(x.clone()),
        _ => {
            let it = rows_of(x);
            let mut out = Vec::with_capacity(it.len());
            let mut acc: Option<KObj> = None;
            for v in it {
                // nulls count as the identity: 0 for sums, 1 for prds, -0W for maxs, 0W for mins
                // (ref/max.md `maxs 0N 5 0N 1 3` is -0W 5 5 5 5, ref/min.md)
                let v = if v.is_atom() && is_null_at(&v, 0) && is_simple(&v) {
                    identity(op, -v.t())
                } else {
                    v
                };
                let next = match acc {
                    None => v,
                    Some(a) => arith(op, &a, &v)?,
                };
                out.push(next.clone());
                acc = Some(next);
            }
            // booleans summed are ints from the first item on
            let out = from_items(out);
            if matches!(op, Op::Add | Op::Mul) && matches!(out.t(), KB | KG | KC) {
                return Ok(build_i(KI, false, &ivals(&out).unwrap()));
            }
            Ok(out)
        }
    }
}

/// Non-null values of a numeric list as f64.
fn present(x: &KObj) -> Result<Vec<f64>, crate::q::QErr> {
    if x.t() == 0 && x.is_empty() {
        return Ok(vec![]);
    }
    if !is_simple(x) || x.t().abs() == KS {
        return Err(type_err());
    }
    Ok(fvals(x)
        .unwrap()
        .into_iter()
        .filter(|v| !v.is_nan())
        .collect())
}

/// `med` of a table, of a non-empty list of lists, or of a dictionary of lists: KX defines med as
/// `{avg x (iasc x)@floor .5*-1 0+count x,:()}` (code.kx.com/q/ref/med), so these take the
/// middle item(s) in q's sort order (lists item by item, a table's rows column by column) and
/// average them. KX's own example: `med t` of `t:flip`a`b!(10 -21 3;4 5 -6)` is `a|3 b|-6`, the
/// middle row, not each column's median (which would give b|4); `med d` of that dictionary is
/// `7 -8 -1.5`. ktorch's mnist/gan.q takes `med` of a batch's (discriminator;generator) losses.
fn med_by_items(x: &KObj) -> bool {
    let general = |v: &KObj| v.t() == 0 && !v.is_empty() && v.items().iter().all(|i| !i.is_atom());
    match x.t() {
        XT => !x.is_empty(),
        // a keyed table is a dictionary of two tables: its value rows are graded (KX's `med k`)
        XD => general(&x.dict_values()) || (x.dict_values().t() == XT && !x.is_empty()),
        _ => general(x),
    }
}

fn med_items(x: &KObj) -> QResult {
    let x = if x.t() == XD {
        x.dict_values()
    } else {
        x.clone()
    };
    let g = super::search_sort::grade(&x, false)?;
    let n = g.len();
    // floor .5*-1 0+count x: the one middle index twice for an odd count, the two middle ones
    // for an even count
    let mid = [g[(n - 1) / 2], g[n / 2]];
    let pair = take_rows(&x, &mid);
    if x.t() == XT {
        return per_column(&pair, &|c| stat("avg", c));
    }
    stat("avg", &pair)
}

/// avg var dev med of one list, as floats.
fn stat(name: &str, x: &KObj) -> QResult {
    if x.t() == 0 && !x.is_empty() && x.items().iter().all(|a| a.is_atom() && is_numeric(-a.t())) {
        // numeric atoms: the sum of those not null over the count of all (ref/avg.md:
        // `avg (1;0n;2;3)` is 1.5)
        if name != "avg" {
            return Err(nyi());
        }
        let v: Vec<f64> = x
            .items()
            .iter()
            .filter_map(|a| fvals(a).map(|v| v[0]))
            .filter(|f| !f.is_nan())
            .collect();
        return Ok(KObj::float(v.iter().sum::<f64>() / x.len() as f64));
    }
    if x.t() == 0 && !x.is_empty() {
        // a list of lists: atomic on the items
        let n = x.len() as f64;
        return match name {
            "avg" => arith(Op::Div, &fold(Op::Add, x)?, &KObj::float(n)),
            _ => Err(nyi()),
        };
    }
    let v = present(x)?;
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = || v.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / n;
    Ok(KObj::float(match name {
        "avg" => mean,
        "var" => var(),
        "dev" => var().sqrt(),
        "svar" => var() * n / (n - 1.0),
        "sdev" => (var() * n / (n - 1.0)).sqrt(),
        _ => {
            let mut s = v.clone();
            s.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let m = s.len();
            if m == 0 {
                f64::NAN
            } else if m % 2 == 1 {
                s[m / 2]
            } else {
                (s[m / 2 - 1] + s[m / 2]) / 2.0
            }
        }
    }))
}

fn avgs(x: &KObj) -> QResult {
    let v = fvals(x)
        .filter(|_| is_simple(x) && x.t().abs() != KS)
        .ok_or_else(type_err)?;
    let (mut s, mut n) = (0.0, 0.0);
    let out: Vec<f64> = v
        .into_iter()
        .map(|a| {
            if !a.is_nan() {
                s += a;
                n += 1.0;
            }
            s / n
        })
        .collect();
    Ok(build_f(KF, x.is_atom(), &out))
}

fn all_any(all: bool, x: &KObj) -> QResult {
    // of nothing: all is 1b, any 0b (ref/all-any.md)
    if x.t() == 0 && x.is_empty() {
        return Ok(KObj::bool(all));
    }
    if x.t() == XT {
        // code.kx.com/q/ref/all-any: on a table, a dictionary of each column's answer
        let (names, cols) = table_cols(x);
        let v: Vec<KObj> = cols
            .iter()
            .map(|c| all_any(all, c))
            .collect::<Result<_, _>>()?;
        return Ok(KObj::dict(
            names,
            KObj::from_slice(KB, &v.iter().map(|b| b.get_byte()).collect::<Vec<_>>()),
        ));
    }
    if x.t() == XD && x.dict_values().t() > 0 {
        // a dictionary aggregates its values, as q's other aggregates do (ktorch's mnist/swa.q:
        // `all copyparms(m;a)` on copyparms' dictionary of flags)
        return all_any(all, &x.dict_values());
    }
    if x.t() == 0 {
        return Err(type_err());
    }
    let v = fvals(x)
        .filter(|_| x.t().abs() != KS)
        .ok_or_else(type_err)?;
    Ok(KObj::bool(if all {
        v.iter().all(|&a| a != 0.0)
    } else {
        v.iter().any(|&a| a != 0.0)
    }))
}

/// prev (n=1), next (n=-1), n xprev: items moved along, nulls where none.
fn shift(x: &KObj, n: i64) -> QResult {
    if x.is_atom() {
        return Err(err("rank"));
    }
    let idx: Vec<i64> = (0..x.len())
        .map(|i| if i - n < 0 { x.len() } else { i - n })
        .collect();
    Ok(take_rows(x, &idx))
}

/// deltas/ratios: each item against the one before; the first against 0 (deltas) or as is.
fn pairwise(x: &KObj, op: Op) -> QResult {
    if x.is_atom() || x.is_empty() {
        return Ok(x.clone());
    }
    // a general list, as Each Prior: the first item as it is, then each item against the one
    // before it (ref/ratios.md `ratios d` of `a`b!(10 21 3;4 5 6) is a| 10 21 3, b| 0.4 ..)
    if x.t() == 0 {
        let it = crate::q::values::rows_of(x);
        let mut out = vec![it[0].clone()];
        for i in 1..it.len() {
            out.push(arith(op, &it[i], &it[i - 1])?);
        }
        return Ok(crate::q::values::from_items(out));
    }
    let prev = shift(x, 1)?;
    let r = arith(op, x, &prev)?;
    // the first item has no predecessor: it stays as it is
    let first = elem(x, 0);
    let first = if r.t() > 0 && first.t() != -r.t() {
        super::cast::to_type(r.t(), &first)?
    } else {
        first
    };
    let rest: Vec<i64> = (1..r.len()).collect();
    super::structure::join(&first, &rows(&r, &rest))
}

fn differ(x: &KObj) -> QResult {
    let it = rows_of(x);
    let v: Vec<u8> = (0..it.len())
        .map(|i| (i == 0 || !super::compare::matches(&it[i], &it[i - 1])) as u8)
        .collect();
    Ok(KObj::from_slice(KB, &v))
}

/// fills: each null replaced by the last non-null before it.
fn fills(x: &KObj) -> QResult {
    if !is_simple(x) || x.is_atom() {
        return if x.t() == XT {
            Err(nyi())
        } else {
            Ok(x.clone())
        };
    }
    let mut last: Option<i64> = None;
    let idx: Vec<i64> = (0..x.len())
        .map(|i| {
            if is_null_at(x, i as usize) {
                last.unwrap_or(i)
            } else {
                last = Some(i);
                i
            }
        })
        .collect();
    Ok(rows(x, &idx))
}

/// `w wavg x`: sum of w*x over sum of w.
fn wavg(w: &KObj, x: &KObj) -> QResult {
    // simple vectors: pairs with a null on either side are left out (ref/avg.md
    // `2 0N 4 5 wavg 1 2 0N 8` is 6f)
    if w.t() > 0 && x.t() > 0 && w.t() < 20 && x.t() < 20 && w.len() == x.len() {
        let keep: Vec<i64> = (0..w.len())
            .filter(|&i| !is_null_at(w, i as usize) && !is_null_at(x, i as usize))
            .collect();
        if (keep.len() as i64) < w.len() {
            return wavg(&rows(w, &keep), &rows(x, &keep));
        }
    }
    let num = fold(Op::Add, &arith(Op::Mul, w, x)?)?;
    arith(Op::Div, &num, &fold(Op::Add, w)?)
}

/// Population covariance, or correlation.
fn cov(cor: bool, x: &KObj, y: &KObj) -> QResult {
    let (a, b) = (present(x)?, present(y)?);
    if a.len() != x.len() as usize || b.len() != y.len() as usize {
        // nulls: cor leaves out the pairs with one (ref/cor.md `1 3 0N cor 1 3 9` is 1f); what
        // cov does with them is not on its page
        if !cor || x.len() != y.len() {
            return Err(nyi());
        }
        let (xs, ys) = (fvals(x).unwrap(), fvals(y).unwrap());
        let (a, b): (Vec<f64>, Vec<f64>) = xs
            .into_iter()
            .zip(ys)
            .filter(|(p, q)| !p.is_nan() && !q.is_nan())
            .unzip();
        return cov(true, &KObj::from_slice(KF, &a), &KObj::from_slice(KF, &b));
    }
    if a.len() != b.len() {
        return Err(len_err());
    }
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let c = a
        .iter()
        .zip(&b)
        .map(|(p, q)| (p - ma) * (q - mb))
        .sum::<f64>()
        / n;
    if !cor {
        return Ok(KObj::float(c));
    }
    let sd = |v: &[f64], m: f64| (v.iter().map(|p| (p - m) * (p - m)).sum::<f64>() / n).sqrt();
    Ok(KObj::float(c / (sd(&a, ma) * sd(&b, mb))))
}

/// Moving windows of n items: mavg msum mmax mmin mcount (nulls skipped).
fn moving(name: &str, n: &KObj, x: &KObj) -> QResult {
    // uniform: a dictionary's values, a table's columns (ref/count.md `2 mcount d`, ref/max.md)
    if x.t() == XD {
        // values that are rows of a matrix move over the rows (ref/count.md `2 mcount d` is
        // a| 1 1 1, b| 2 2 2): nyi
        if x.dict_values().t() == 0 {
            return Err(nyi());
        }
        return Ok(KObj::dict(
            x.dict_keys(),
            moving(name, n, &x.dict_values())?,
        ));
    }
    if x.t() == XT {
        let (names, cols) = table_cols(x);
        let cols = cols
            .iter()
            .map(|c| moving(name, n, c))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(make_table(names, cols));
    }
    let n = int_atom(n).ok_or_else(type_err)?;
    let v = fvals(x)
        .filter(|_| x.is_vector() && x.t() != KS)
        .ok_or_else(type_err)?;
    if n <= 0 {
        // an empty window: ref/avg.md shows `0 mavg 2 3` is 0n 0n; the others' answers are not
        // shown on KX's pages
        return match (name, n) {
            ("mavg", 0) => Ok(build_f(KF, false, &vec![f64::NAN; v.len()])),
            _ => Err(nyi()),
        };
    }
    let n = n as usize;
    let out: Vec<f64> = (0..v.len())
        .map(|i| {
            let w: Vec<f64> = v[i.saturating_sub(n - 1)..=i]
                .iter()
                .copied()
                .filter(|a| !a.is_nan())
                .collect();
            match name {
                "mavg" => w.iter().sum::<f64>() / w.len() as f64,
                "msum" => w.iter().sum(),
                "mmax" => w.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                "mmin" => w.iter().copied().fold(f64::INFINITY, f64::min),
                _ => w.len() as f64,
            }
        })
        .collect();
    let t = x.t();
    Ok(match name {
        "mavg" => build_f(KF, false, &out),
        "mcount" => build_f(KJ, false, &out),
        "msum" if is_intlike(t) => {
            build_f(if matches!(t, KB | KG | KC) { KI } else { t }, false, &out)
        }
        _ => build_f(t, false, &out),
    })
}
