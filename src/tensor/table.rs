//! q tables ⇄ tensors (issue 33): a table's numeric columns become one 2-d tensor, rows by
//! columns (`tensor t`), or a dictionary of column tensors (`dict t`); a keyed table gives its
//! value columns (its keys name rows, as a DataFrame's index), and any column of it is chosen by
//! name. Enumerated columns (a historical database's `sym`) are their long indices (an
//! embedding's input). The 2-d tensor's type is what torch.result_type gives for the columns
//! (`promote`): int and long give long, long and real give real, real and float give float.
//!
//! One copy, at memory speed: the columns' data (src/k's views) are interleaved into the new
//! tensor's storage (src/cxx's view) by the kernel of src/cxx/interleave.rs, which costs what a
//! memcpy of the same bytes costs (`make bench`, "table → tensor").
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use crate::cxx::{interleave::interleave, storage};
use crate::k::from::{self, FromQ};
use crate::k::{data, read, K};

/// A column of a table: its name and its (borrowed) vector.
#[derive(Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub k: K,
}

/// The columns of a table or keyed table (borrowed: they live as long as the argument).
pub struct Table {
    /// Every column, keys first for a keyed table.
    pub cols: Vec<Column>,
    /// How many of `cols` are the keys of a keyed table (0 for a table).
    pub nkeys: usize,
    pub rows: i64,
}

/// Is `x` a table (98) or a keyed table (a dictionary of two tables)?
pub fn is_table(x: K) -> bool {
    match read::ktype(x) {
        98 => true,
        99 => {
            read::dict_parts(x).is_some_and(|(k, v)| read::ktype(k) == 98 && read::ktype(v) == 98)
        }
        _ => false,
    }
}

fn columns_of(t: K) -> Result<Vec<Column>> {
    let d = read::table_dict(t).ok_or_else(|| anyhow!("expected a table"))?;
    let (k, v) = read::dict_parts(d).ok_or_else(|| anyhow!("malformed table"))?;
    let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("table column names must be symbols"))?;
    let cols = from::list(&v).ok_or_else(|| {
        anyhow!(
            "table columns must be a general list of vectors, given type {}h",
            read::ktype(v)
        )
    })?;
    Ok(names
        .into_iter()
        .zip(cols.iter())
        .map(|(name, k)| Column { name, k: *k })
        .collect())
}

impl Table {
    /// The columns of table or keyed table `x`; None for any other value.
    pub fn read(x: K) -> Result<Option<Table>> {
        if !is_table(x) {
            return Ok(None);
        }
        let (cols, nkeys, rows) = if read::ktype(x) == 98 {
            (columns_of(x)?, 0, read::len(x))
        } else {
            let (k, v) = read::dict_parts(x).unwrap();
            let mut c = columns_of(k)?;
            let n = c.len();
            c.extend(columns_of(v)?);
            (c, n, read::len(k))
        };
        if let Some(c) = cols
            .iter()
            .find(|c| read::ktype(c.k) < 0 || read::len(c.k) != rows)
        {
            bail!(
                "column `{} has {} rows, the table {rows}",
                c.name,
                read::len(c.k)
            );
        }
        Ok(Some(Table { cols, nkeys, rows }))
    }

    /// The columns a conversion takes when none are named: a table's all, a keyed table's values.
    pub fn values(&self) -> &[Column] {
        &self.cols[self.nkeys..]
    }

    /// The key columns of a keyed table (none for a table).
    pub fn keys(&self) -> &[Column] {
        &self.cols[..self.nkeys]
    }

    /// The columns named, in the order named; an unknown name is an error naming it.
    pub fn pick(&self, names: &[&str]) -> Result<Vec<Column>> {
        names
            .iter()
            .map(|n| {
                self.cols
                    .iter()
                    .find(|c| c.name == *n)
                    .copied()
                    .ok_or_else(|| {
                        anyhow!(
                            "no column `{n} in the table (columns: {})",
                            self.cols
                                .iter()
                                .map(|c| format!("`{}", c.name))
                                .collect::<String>()
                        )
                    })
            })
            .collect()
    }
}

/// The tensor kind of a column, or an error naming the column and what it is.
pub fn column_kind(c: &Column) -> Result<Kind> {
    let t = read::ktype(c.k);
    Ok(match t {
        1 => Kind::Bool,
        4 => Kind::Uint8,
        5 => Kind::Int16,
        6 => Kind::Int,
        7 => Kind::Int64,
        8 => Kind::Float,
        9 => Kind::Double,
        10 => Kind::Int8,
        20..=76 => Kind::Int64, // an enumeration: the indices into its domain
        11 => bail!(
            "column `{} is symbol: enumerate it (`sym$, `sym?) for long indices, or leave it out",
            c.name
        ),
        0 => bail!(
            "column `{} is a general list, not a simple numeric column",
            c.name
        ),
        12..=19 => bail!(
            "column `{} is {}, not numeric: cast it (\"j\"$, \"f\"$) or leave it out",
            c.name,
            crate::registry::describe(c.k)
        ),
        _ => bail!("column `{} is type {t}h, not numeric", c.name),
    })
}

/// Where a kind stands in PyTorch's promotion: bool < integers < floating.
fn category(k: Kind) -> u8 {
    match k {
        Kind::Bool => 0,
        Kind::Uint8 | Kind::Int8 | Kind::Int16 | Kind::Int | Kind::Int64 => 1,
        _ => 2,
    }
}

/// torch.promote_types for the kinds q columns make (c10's promoteTypes table): the higher
/// category wins (bool, integer, floating); within one, the wider; uint8 with int8 is int16.
pub fn promote(a: Kind, b: Kind) -> Kind {
    if a == b {
        return a;
    }
    let (ca, cb) = (category(a), category(b));
    if ca != cb {
        return if ca > cb { a } else { b };
    }
    let rank = |k: Kind| match k {
        Kind::Uint8 | Kind::Int8 => 1,
        Kind::Int16 => 2,
        Kind::Int => 3,
        Kind::Int64 => 4,
        Kind::Float => 5,
        Kind::Double => 6,
        _ => 0,
    };
    if matches!(
        (a, b),
        (Kind::Uint8, Kind::Int8) | (Kind::Int8, Kind::Uint8)
    ) {
        return Kind::Int16;
    }
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// The kind of a 2-d tensor of these columns: their promoted kind (torch.result_type).
pub fn result_kind(cols: &[Column]) -> Result<Kind> {
    let mut k: Option<Kind> = None;
    for c in cols {
        let ck = column_kind(c)?;
        k = Some(k.map_or(ck, |a| promote(a, ck)));
    }
    k.ok_or_else(|| anyhow!("no columns"))
}

/// An empty CPU tensor, in pinned memory when it is bound for a CUDA device.
fn empty(size: &[i64], kind: Kind, pinned: bool) -> Result<Tensor> {
    if !pinned {
        return Ok(Tensor::f_empty(size, (kind, Device::Cpu))?);
    }
    super::pinned::empty_pinned(size, kind)
}

/// The columns as one tensor of `rows` x columns of `kind` (their promoted kind when None), in
/// pinned memory when `pinned` (bound for CUDA).
pub fn matrix(cols: &[Column], rows: i64, kind: Option<Kind>, pinned: bool) -> Result<Tensor> {
    if cols.is_empty() {
        bail!("no columns to make a tensor of");
    }
    let promoted = result_kind(cols)?;
    let want = kind.unwrap_or(promoted);
    // the copy writes q's own kinds and the wider ones; anything else (half, bfloat16) is made
    // from the promoted kind
    let direct = matches!(
        want,
        Kind::Bool
            | Kind::Uint8
            | Kind::Int8
            | Kind::Int16
            | Kind::Int
            | Kind::Int64
            | Kind::Float
            | Kind::Double
    ) && (want != Kind::Bool || promoted == Kind::Bool);
    let k = if direct { want } else { promoted };
    let mut out = empty(&[rows, cols.len() as i64], k, pinned && direct)?;
    let bytes = rows.max(0) as usize * cols.len() * k.elt_size_in_bytes();
    if bytes >= HUGE && !(pinned && direct) {
        storage::huge_pages(&mut out);
    }
    if rows > 0 {
        let src = cols
            .iter()
            .map(|c| {
                let d = data::bytes(&c.k)
                    .ok_or_else(|| anyhow!("column `{} is no simple list", c.name))?;
                Ok((d, read::ktype(c.k)))
            })
            .collect::<Result<Vec<_>>>()?;
        let dst = storage::bytes_mut(&mut out)
            .ok_or_else(|| anyhow!("a new tensor's memory is not one run on the host"))?;
        interleave(&src, rows as usize, dst, k);
    }
    Ok(if direct { out } else { out.f_to_kind(want)? })
}

/// From this size on, a new tensor's memory is asked for in huge pages.
const HUGE: usize = 32 << 20;

/// One column as a 1-d tensor of its own kind (`kind` None) or of `kind`.
pub fn column(c: &Column, kind: Option<Kind>) -> Result<Tensor> {
    let rows = read::len(c.k);
    let t = matrix(std::slice::from_ref(c), rows, kind, false)?;
    Ok(t.f_view([rows])?)
}

/// Every column chosen as its own tensor, keeping its kind (`dict t`).
pub fn columns(cols: &[Column]) -> Result<Vec<(String, Tensor)>> {
    cols.iter()
        .map(|c| Ok((c.name.to_string(), column(c, None)?)))
        .collect()
}

/// Table `x` as one 2-d tensor of its value columns (`tensor t`), in pinned memory when bound
/// for CUDA; None when `x` is no table.
pub fn to_tensor(x: K, pinned: bool) -> Result<Option<Tensor>> {
    let Some(t) = Table::read(x)? else {
        return Ok(None);
    };
    if t.values().is_empty() {
        bail!("table has no columns");
    }
    Ok(Some(matrix(t.values(), t.rows, None, pinned)?))
}
