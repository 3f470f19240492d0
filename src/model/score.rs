//! `score(m;x)`: a model or module in evaluation mode on new rows, for a subscriber's `upd`
//! (issue 33). `x` is a table or keyed table (the model's feature columns by name when it was
//! given table data, else all value columns), a dictionary (one row: column name to value), or q
//! data (a vector for one row, a matrix). The answer is plain q data: a table's rows give one
//! value per row (a vector) when the model has one output, else a row of outputs per row; a
//! dictionary's row gives an atom, or a vector of outputs; q data (reals or floats: both are
//! made the module's floating type) gives the output's shape. `evaluate(m;t)` of a table (table
//! data picked as table.rs reads a model's) answers a table, keyed as `t` is.
//!
//! A `linear` layer or a `sequential` of linear layers and elementwise activations on the CPU in
//! float32 runs through nn/plan.rs for up to a few hundred thousand multiply-adds (a table's
//! columns read straight into its input, its output written straight into a q vector): no
//! tensor is made and libtorch is not called. Any other module (TorchScript and AOTInductor
//! ones too), device or size goes through its forward as `evaluate` does.
// The plan's fast path reads q's columns and writes q's real vectors in place (no tensor, no
// copy through a Vec), through src/k's typed views of q vectors (k::data).
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use std::sync::Arc;

use super::table::{float_kind, inputs, keyed_like, output_table, scorer, Columns, Want};
use crate::k::from::{self, FromQ};
use crate::k::{data, make, read, KResult, K};
use crate::nn::forward::{Call, EFORWARD};
use crate::nn::plan::plan;
use crate::nn::ModRef;
use crate::registry;
use crate::tensor::convert;
use crate::tensor::opargs::describe;
use crate::tensor::table::{column_kind, Column, Table};

/// `evaluate(m;t)`: the module (of a model or a module) in evaluation mode on the table's
/// feature columns; answers a table, keyed as `t` is, whose columns are named after the target.
pub fn evaluate(h: K, t: K) -> KResult {
    let tb = Table::read(t)?.ok_or_else(|| anyhow!("expected a table, given {}", describe(t)))?;
    let (q, cols) = scorer(h)?;
    let names = cols.as_ref().and_then(|c| c.target.clone());
    // linear layers and activations on a few rows: the plan, as score (score.rs)
    if let Some(p) = crate::nn::plan::plan(q.get()) {
        let f = cols.as_ref().map(|c| c.features.as_slice());
        if let Some((x, n)) = table_input(&p, &tb, f)? {
            let mut y = vec![0f32; n * p.out];
            p.run(&x, n, &mut y);
            let y = Tensor::from_slice(&y).f_view([n as i64, p.out as i64])?;
            return Ok(keyed_like(t, output_table(&y, names.as_ref(), tb.rows)?));
        }
    }
    let w = Want {
        float: float_kind(q.get()),
        device: q.get().device(),
        classes: false,
    };
    let x = inputs(&tb, cols.as_ref().map(|c| c.features.as_slice()), &w)?;
    let out = Call::new(q, x, EFORWARD).run()?.first()?;
    let value = output_table(&out, names.as_ref(), tb.rows)?;
    Ok(keyed_like(t, value))
}

/// Above this many multiply-adds a call goes through libtorch (its matrix products are faster
/// there than the plan's loops).
const FAST_WORK: usize = 1 << 20;

/// The rows to score.
enum Rows {
    Table(Table),
    /// A dictionary of column names to atoms: one row (the atoms held by the list).
    Row {
        values: Vec<(&'static str, K)>,
        _atoms: crate::k::Owned,
    },
    Data(K),
}

fn rows_of(x: K) -> Result<Rows> {
    if let Some(t) = Table::read(x)? {
        return Ok(Rows::Table(t));
    }
    if let Some((k, v)) = read::dict_parts(x) {
        let names = Vec::<&str>::of(k).ok_or_else(|| {
            anyhow!(
                "a row's dictionary needs symbol keys, given {}",
                describe(k)
            )
        })?;
        let vals = crate::k::Owned::new(make::explode(v));
        let items = vals.items().unwrap_or(&[]).to_vec();
        if items.len() != names.len() {
            bail!(
                "a row's dictionary has {} keys, {} values",
                names.len(),
                items.len()
            );
        }
        // the atoms live in `vals` (exploded from a simple list, or shared from a general one)
        let row = names.into_iter().zip(items).collect::<Vec<_>>();
        return Ok(Rows::Row {
            values: row,
            _atoms: vals,
        });
    }
    Ok(Rows::Data(x))
}

/// A numeric atom as f32 (C casts, as a tensor's `to`).
fn atom_f32(name: &str, a: K) -> Result<f32> {
    let t = read::ktype(a);
    // the atom's own bytes (its type's width): none for what is no simple atom
    let Some(b) = crate::k::data::atom_bytes(&a) else {
        bail!("`{name} is {}, not a number", describe(a))
    };
    Ok(match t {
        -1 | -4 => b[0] as f32,
        -10 => b[0] as i8 as f32,
        -5 => i16::from_ne_bytes([b[0], b[1]]) as f32,
        -6 => i32::from_ne_bytes(b[..4].try_into().unwrap()) as f32,
        -7 => i64::from_ne_bytes(b[..8].try_into().unwrap()) as f32,
        -8 => f32::from_ne_bytes(b[..4].try_into().unwrap()),
        -9 => f64::from_ne_bytes(b[..8].try_into().unwrap()) as f32,
        _ => bail!("`{name} is {}, not a number", describe(a)),
    })
}

/// Columns read into `x` (rows x columns, float32), converting each column's type.
fn gather(cols: &[Column], rows: usize, x: &mut [f32]) -> Result<()> {
    let nc = cols.len();
    for (j, c) in cols.iter().enumerate() {
        column_kind(c)?;
        macro_rules! go {
            ($S:ty) => {{
                let s = data::slice::<$S>(&c.k)
                    .filter(|s| s.len() >= rows)
                    .ok_or_else(|| anyhow!("column `{} is not {rows} items", c.name))?;
                for (r, v) in s[..rows].iter().enumerate() {
                    x[r * nc + j] = *v as f32;
                }
            }};
        }
        match read::ktype(c.k) {
            1 | 4 => go!(u8),
            10 => go!(i8),
            5 => go!(i16),
            6 => go!(i32),
            7 => go!(i64),
            8 => go!(f32),
            9 => go!(f64),
            t => bail!("column `{} is type {t}h, not for a float model", c.name),
        }
    }
    Ok(())
}

/// `score(m;x)`: the model or module (its scoring columns, if a model's) and the rows.
pub struct Scoring {
    q: ModRef,
    cols: Option<Arc<Columns>>,
    rows: Rows,
}

impl FromQ for Scoring {
    const TYPE: &'static str = "(model;table), (model;row dictionary) or (model;data)";
    /// Every value is a call or an error (the model's, then the rows').
    fn read(x: K) -> Result<Option<Scoring>> {
        let (h, data) = match from::list(&x) {
            Some([h, d]) if registry::is_handle(*h) => (*h, *d),
            _ => bail!("expected {}, given {}", Self::TYPE, describe(x)),
        };
        let (q, cols) = scorer(h)?;
        Ok(Some(Scoring {
            q,
            cols,
            rows: rows_of(data)?,
        }))
    }
}

crate::qfn! {
    /// `score(m;x)`.
    pub fn score(x: Scoring) -> KResult {
        let Scoring { q, cols, rows } = x;
        let features = cols.as_ref().map(|c| c.features.as_slice());
        let module = q.get();
        // the plan: one input, read from the columns (enumerations are an embedding's: not here)
        if let Some(p) = plan(module) {
            let one = features.is_none_or(|f| f.len() == 1);
            match &rows {
                Rows::Table(t) if one => {
                    if let Some((xin, n)) = table_input(&p, t, features)? {
                        return Ok(out_rows(&p, &xin, n));
                    }
                }
                Rows::Row { values: r, .. } if one && p.work <= FAST_WORK => {
                    let xin = row_values(r, features.map(|f| &f[0]))?;
                    if xin.len() != p.inp {
                        bail!("{} features for a module of {} inputs", xin.len(), p.inp);
                    }
                    let mut y = vec![0f32; p.out];
                    p.run(&xin, 1, &mut y);
                    return Ok(if p.out == 1 {
                        make::atom(-8, &y[0].to_ne_bytes())
                    } else {
                        reals(&y)
                    });
                }
                // q data: a real or float vector (one row) or a list of them (rows), the shape of
                // the output as libtorch's forward gives it
                Rows::Data(d) => {
                    if let Some((xin, n, matrix)) = floats_of(*d, p.inp) {
                        if n * p.work <= FAST_WORK {
                            let mut y = vec![0f32; n * p.out];
                            p.run(&xin, n, &mut y);
                            return Ok(if matrix {
                                make::list(y.chunks(p.out).map(reals).collect())
                            } else {
                                reals(&y)
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        // libtorch's forward, as evaluate
        let w = Want {
            float: float_kind(module),
            device: module.device(),
            classes: false,
        };
        let (xs, squeeze) = match &rows {
            Rows::Table(t) => (inputs(t, features, &w)?, Some(t.rows)),
            Rows::Row { values: r, .. } => {
                let v = row_values(r, features.map(|f| &f[0]))?;
                let t = Tensor::from_slice(&v)
                    .f_view([1, v.len() as i64])?
                    .f_to_kind(w.float)?;
                (vec![t.f_to_device(w.device)?], Some(-1))
            }
            // q's floats (or reals) in the module's floating type, as the plan reads them
            Rows::Data(d) => {
                let t = convert::to_tensor_on(*d, Some(w.device))?;
                let t = if matches!(t.kind(), tch::Kind::Float | tch::Kind::Double)
                    && t.kind() != w.float
                {
                    t.f_to_kind(w.float)?
                } else {
                    t
                };
                (vec![t], None)
            }
        };
        let y = Call::new(q.share(), xs, EFORWARD).run()?.first()?;
        let y = y.f_to_device(tch::Device::Cpu)?;
        let s = y.size();
        match squeeze {
            // a table: one value per row, or rows of values
            Some(n) if n >= 0 => {
                if s.first() != Some(&n) {
                    bail!("output of {s:?} for {n} rows");
                }
                if s.len() == 2 && s[1] == 1 {
                    convert::to_q(&y.f_view([n])?)
                } else {
                    convert::to_q(&y)
                }
            }
            // one row: an atom, or the row of outputs
            Some(_) => {
                let y = y.f_flatten(0, -1)?;
                if y.size()[0] == 1 {
                    convert::to_q(&y.f_view([] as [i64; 0])?)
                } else {
                    convert::to_q(&y)
                }
            }
            None => convert::to_q(&y),
        }
    }
}

/// A real or float vector of `inp` items (one row), or a general list of them (rows), as
/// float32 rows: (values, rows, given as a matrix); None for anything else.
fn floats_of(x: K, inp: usize) -> Option<(Vec<f32>, usize, bool)> {
    let row = |v: K, out: &mut Vec<f32>| -> bool {
        if read::len(v) as usize != inp {
            return false;
        }
        match (data::slice::<f32>(&v), data::slice::<f64>(&v)) {
            (Some(r), _) if read::ktype(v) == 8 => out.extend_from_slice(r),
            (_, Some(f)) if read::ktype(v) == 9 => out.extend(f.iter().map(|v| *v as f32)),
            _ => return false,
        }
        true
    };
    let mut out = Vec::new();
    if matches!(read::ktype(x), 8 | 9) {
        return row(x, &mut out).then_some((out, 1, false));
    }
    let items = from::list(&x).filter(|v| !v.is_empty() && !registry::is_handle(x))?;
    out.reserve(items.len() * inp);
    for v in items {
        if !row(*v, &mut out) {
            return None;
        }
    }
    Some((out, items.len(), true))
}

/// The values of a row's dictionary as floats: the features named (all, in order, when none).
fn row_values(r: &[(&'static str, K)], g: Option<&super::table::Group>) -> Result<Vec<f32>> {
    match g {
        Some(g) => g
            .names
            .iter()
            .map(|n| {
                let (_, a) = r
                    .iter()
                    .find(|(k, _)| k == n)
                    .ok_or_else(|| anyhow!("no `{n} in the row"))?;
                atom_f32(n, *a)
            })
            .collect(),
        None => r.iter().map(|(k, a)| atom_f32(k, *a)).collect(),
    }
}

/// The plan's input from table `t`: its feature columns (the model's one group, or all value
/// columns) read as float32 rows; None where the plan does not take them (enumerations, too
/// much work for it), an error where the count of columns is not the module's.
pub fn table_input(
    p: &crate::nn::plan::Plan,
    t: &Table,
    features: Option<&[super::table::Group]>,
) -> Result<Option<(Vec<f32>, usize)>> {
    if (t.rows as usize) * p.work > FAST_WORK || features.is_some_and(|f| f.len() != 1) {
        return Ok(None);
    }
    let picked;
    let cs: &[Column] = match features {
        Some(f) => {
            picked = t.pick(&f[0].names.iter().map(String::as_str).collect::<Vec<_>>())?;
            &picked
        }
        None => t.values(),
    };
    if !cs.iter().all(|c| matches!(read::ktype(c.k), 1 | 4..=10)) {
        return Ok(None);
    }
    if cs.len() != p.inp {
        bail!(
            "{} feature columns for a module of {} inputs",
            cs.len(),
            p.inp
        );
    }
    let n = t.rows as usize;
    let mut xin = vec![0f32; n * p.inp];
    gather(cs, n, &mut xin)?;
    Ok(Some((xin, n)))
}

/// `n` rows through plan `p`: a real vector for one output per row, else a real row per row.
fn out_rows(p: &crate::nn::plan::Plan, x: &[f32], n: usize) -> K {
    if p.out == 1 {
        return data::filled::<f32>(n, |y| p.run(x, n, y));
    }
    let mut y = vec![0f32; n * p.out];
    p.run(x, n, &mut y);
    make::list(y.chunks(p.out).map(reals).collect())
}

fn reals(v: &[f32]) -> K {
    data::filled::<f32>(v.len(), |d| d.copy_from_slice(v))
}
