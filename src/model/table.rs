//! Models fed from q tables (issue 33): `train(m;t;features;target)` and `test(..)` take a
//! table's columns by name as the model's data; the model keeps the names, so `evaluate(m;t)`
//! picks the same feature columns of a new table (any other columns are left alone) and answers
//! a table whose column is named after the target, and `score(m;t)` (score.rs) does the same for
//! a subscriber's `upd`.
//!
//! Features: a symbol (one column: a rows x 1 matrix, or a vector of long indices when it is an
//! enumeration), symbols (a matrix input, rows by columns) or a general list of those (several
//! inputs, for a module that takes several). A group of columns
//! that are all enumerations is the long indices of an embedding; any other group is made in the
//! module's floating type (its first floating parameter's, else the default dtype), whatever the
//! columns' own types: a float64 q column feeds a float32 model as `torch.tensor(df.values,
//! dtype=torch.float32)` does. Target: a symbol or symbols; with a loss of class indices (`ce`,
//! `nll`, `multimargin`) one column is the long class of each row (a vector); otherwise one
//! column is a rows x 1 matrix (the shape of a one-output model's output), several a rows x n
//! matrix, in the module's floating type.
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use super::of;
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::nn::{ModRef, Module};
use crate::registry;
use crate::tensor::convert;
use crate::tensor::opargs::describe;
use crate::tensor::side::Side;
use crate::tensor::table::{column_kind, matrix, Table};

/// Column names: one (a vector) or several (a matrix).
#[derive(Clone, Debug)]
pub struct Group {
    pub names: Vec<String>,
    /// Named by a symbol atom: one column, as a vector.
    pub atom: bool,
}

/// The columns a model was given its data from: its inputs and its target(s).
#[derive(Clone, Debug)]
pub struct Columns {
    pub features: Vec<Group>,
    pub target: Option<Group>,
}

impl Group {
    /// A symbol or symbols; None for anything else.
    fn read(x: K) -> Option<Group> {
        if let Some(s) = <&str>::of(x) {
            return Some(Group {
                names: vec![s.to_string()],
                atom: true,
            });
        }
        Vec::<&str>::of(x).filter(|v| !v.is_empty()).map(|v| Group {
            names: v.iter().map(|s| s.to_string()).collect(),
            atom: false,
        })
    }
    fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }
    /// q's form of the names: a symbol or symbols.
    fn q(&self) -> K {
        if self.atom {
            make::symbol(&self.names[0])
        } else {
            make::symbols(&self.names())
        }
    }
}

/// Feature columns: a symbol, symbols, or a general list of those (one group per input).
pub fn features(x: K) -> Result<Vec<Group>> {
    if let Some(g) = Group::read(x) {
        return Ok(vec![g]);
    }
    match from::list(&x) {
        Some(v) if !v.is_empty() && !registry::is_handle(x) => v
            .iter()
            .map(|i| Group::read(*i))
            .collect::<Option<Vec<Group>>>()
            .ok_or_else(|| {
                anyhow!(
                    "features: expected a symbol, symbols or a list of those, given {}",
                    describe(x)
                )
            }),
        _ => bail!(
            "features: expected a symbol, symbols or a list of those, given {}",
            describe(x)
        ),
    }
}

/// Target columns: a symbol or symbols.
pub fn target(x: K) -> Result<Group> {
    Group::read(x).ok_or_else(|| {
        anyhow!(
            "target: expected a symbol or symbols, given {}",
            describe(x)
        )
    })
}

impl Columns {
    /// The names as q has them: features, then target (`::` without one).
    pub fn q(&self) -> K {
        let f = if self.features.len() == 1 {
            self.features[0].q()
        } else {
            make::list(self.features.iter().map(Group::q).collect())
        };
        let t = self.target.as_ref().map_or_else(make::null, Group::q);
        make::dict(&["features", "target"], vec![f, t])
    }
}

/// What reading a table for a module needs to know of it.
#[derive(Clone, Copy)]
pub struct Want {
    /// The module's floating type.
    pub float: Kind,
    pub device: Device,
    /// The loss takes class indices.
    pub classes: bool,
}

/// The floating type of a module: its first floating parameter's, else the default dtype.
pub fn float_kind(m: &Module) -> Kind {
    m.named_parameters()
        .iter()
        .map(|(_, t)| t.kind())
        .find(|k| matches!(k, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double))
        .unwrap_or_else(crate::tensor::options::default_kind)
}

pub fn is_class_loss(name: &str) -> bool {
    matches!(name, "ce" | "nll" | "multimargin")
}

/// One group of columns as a tensor: enumerations' long indices, else the floating type; a
/// vector for a symbol, a matrix for symbols.
fn group_tensor(t: &Table, g: &Group, w: &Want) -> Result<Tensor> {
    let cols = t.pick(&g.names())?;
    let enums = cols.iter().all(|c| (20..=76).contains(&read::ktype(c.k)));
    for c in &cols {
        column_kind(c)?;
    }
    let kind = if enums { Kind::Int64 } else { w.float };
    let x = matrix(&cols, t.rows, Some(kind), w.device.is_cuda())?;
    // one enumerated column: a vector of indices (an embedding's input); one other: rows x 1
    let x = if g.atom && enums {
        x.f_view([t.rows])?
    } else {
        x
    };
    on(x, w.device)
}

fn on(x: Tensor, d: Device) -> Result<Tensor> {
    Ok(if d.is_cuda() {
        let k = x.kind();
        x.f_to_device_(d, k, true, false)?
    } else if d != Device::Cpu {
        x.f_to_device(d)?
    } else {
        x
    })
}

/// The inputs of a module from table `t`: the feature groups, or all the table's value columns
/// (as one matrix) when none are named.
pub fn inputs(t: &Table, features: Option<&[Group]>, w: &Want) -> Result<Vec<Tensor>> {
    match features {
        Some(gs) => gs.iter().map(|g| group_tensor(t, g, w)).collect(),
        None => {
            let g = Group {
                names: t.values().iter().map(|c| c.name.to_string()).collect(),
                atom: false,
            };
            if g.names.is_empty() {
                bail!("table has no columns");
            }
            Ok(vec![group_tensor(t, &g, w)?])
        }
    }
}

/// The target tensor of table `t`: class indices for a class loss and one column, else the
/// floating type as a matrix.
pub fn target_tensor(t: &Table, g: &Group, w: &Want) -> Result<Tensor> {
    let cols = t.pick(&g.names())?;
    for c in &cols {
        column_kind(c)?;
    }
    if w.classes && g.atom {
        let x = matrix(&cols, t.rows, Some(Kind::Int64), w.device.is_cuda())?.f_view([t.rows])?;
        return on(x, w.device);
    }
    on(
        matrix(&cols, t.rows, Some(w.float), w.device.is_cuda())?,
        w.device,
    )
}

/// What a model's table data needs: its module's type and device, its loss's kind.
fn want(h: K) -> Result<Want> {
    registry::with(h, |o| {
        let m = of(o)?;
        let q = m.module.get();
        Ok(Want {
            float: float_kind(q),
            device: q.device(),
            classes: is_class_loss(m.loss.name()),
        })
    })
}

/// `train(m;t;features;target)`, `test(..)`, and `(m;t;target)` with every other value column a
/// feature: the model's data from the table's columns; answers the number of batches.
pub fn define(h: K, training: bool, t: K, features: Option<K>, target: K) -> Result<i64> {
    let tb = Table::read(t)?.ok_or_else(|| anyhow!("expected a table, given {}", describe(t)))?;
    let tg = self::target(target)?;
    let fs = match features {
        Some(f) => self::features(f)?,
        None => {
            let names: Vec<String> = tb
                .values()
                .iter()
                .map(|c| c.name.to_string())
                .filter(|n| !tg.names.contains(n))
                .collect();
            if names.is_empty() {
                bail!("no feature columns: the table has only the target");
            }
            vec![Group { names, atom: false }]
        }
    };
    let w = want(h)?;
    let x = inputs(&tb, Some(&fs), &w).map_err(|e| anyhow!("features: {e}"))?;
    let y = target_tensor(&tb, &tg, &w).map_err(|e| anyhow!("target: {e}"))?;
    let cols = Columns {
        features: fs,
        target: Some(tg),
    };
    registry::with(h, |o| {
        let m = of(o)?;
        let side = |v: Vec<Tensor>| {
            let mut s = Side::Empty;
            for t in v {
                s.push(t);
            }
            s
        };
        let (d, s) = if training {
            (&mut m.data, &m.train)
        } else {
            (&mut m.testdata, &m.test)
        };
        d.set(side(x), Side::One(y))?;
        let n = d.batches(s);
        m.columns = Some(Arc::new(cols));
        Ok(n)
    })
}

crate::qfn! {
    /// `columns m`: the feature and target columns a model was given its data from (`::`
    /// before).
    pub fn columns(m: crate::device::Handle) -> KResult {
        registry::with(m.k(), |o| {
            Ok(of(o)?.columns.as_ref().map_or_else(make::null, |c| c.q()))
        })
    }
}

/// What scoring a table needs of a model or module: the module, its columns (a model given
/// table data), its floating type and device.
pub fn scorer(h: K) -> Result<(ModRef, Option<Arc<Columns>>)> {
    registry::with(h, |o| {
        let cols = o.get::<super::Model>().and_then(|m| m.columns.clone());
        match o.part::<ModRef>() {
            Some(q) => Ok((q.share(), cols)),
            None => bail!("expected a model or module, given {}", o.class()),
        }
    })
}

/// Output `y` (rows first) as a table: one column per target name when it has that many, else
/// one column named after the target (or `output`): a vector for one value per row, rows of
/// values otherwise.
pub fn output_table(y: &Tensor, names: Option<&Group>, rows: i64) -> KResult {
    let y = y.f_detach()?.f_to_device(Device::Cpu)?;
    let size = y.size();
    if size.first() != Some(&rows) {
        bail!("output of {size:?} for {rows} rows: expected one output row per table row");
    }
    let first = names.map_or("output", |g| g.names[0].as_str());
    if size.len() == 2 && size[1] > 1 && names.is_some_and(|g| g.names.len() as i64 == size[1]) {
        let g = names.unwrap();
        let cols =
            make::try_vec((0..size[1]).map(|j| convert::to_q(&y.f_select(1, j)?.f_contiguous()?)))?;
        return Ok(make::table(&g.names(), cols));
    }
    let col = if size.len() == 2 && size[1] == 1 {
        convert::to_q(&y.f_view([rows])?)?
    } else {
        convert::to_q(&y)?
    };
    Ok(make::table(&[first], vec![col]))
}

/// `value` keyed by the keys of `t` when `t` is a keyed table, else `value` itself.
pub fn keyed_like(t: K, value: K) -> K {
    match read::dict_parts(t) {
        Some((k, _)) if read::ktype(t) == 99 => make::dict_of(make::share(k), value),
        _ => value,
    }
}
