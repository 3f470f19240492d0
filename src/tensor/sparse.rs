//! Sparse (COO) tensors, as ktorch's sparse.rst: `sparse` (from q data or a dense tensor, with a
//! number of sparse dimensions or another sparse tensor's indices as a mask), `dense`,
//! `coalesce` (in place), `indices` and `values` (q data, or a handle when the handle is
//! enlisted), `sparseindex`, and the counts `nnz sparsedim densedim`. The `` `sparse `` layout
//! option and the `` tensor(`sparse;..) `` creation mode come here too (`check_mode`, `coo`).
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use super::info::{query, sparsedim_of, Attr, Held};
use super::options::{self, Options};
use super::{arg, convert, opargs, result};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry::{self, Obj};

/// ktorch's form for reading part of a tensor: `f h` gives q data, `f enlist h` a new handle.
/// Returns the handle and whether the result is to be a handle.
pub fn ptr_or_enlisted(x: K) -> Option<(K, bool)> {
    if registry::is_handle(x) {
        return Some((x, false));
    }
    match from::list(&x) {
        Some([h]) if registry::is_handle(*h) => Some((*h, true)),
        _ => None,
    }
}

/// The tensor of `h` or `enlist h` (true: the result is to be a handle) when it is what `want`
/// names (`sparse`, `complex`) as `is` tests it, else ktorch's `expects a .. tensor` error.
pub fn part_of(x: K, want: &str, is: fn(&Tensor) -> bool) -> Result<(Tensor, bool)> {
    let usage = || format!("expects a {want} tensor (enlist to return tensor ptr)");
    let (h, handle) =
        ptr_or_enlisted(x).ok_or_else(|| anyhow!("{}, given {}", usage(), opargs::describe(x)))?;
    if !opargs::is_tensor(h) {
        bail!("{}, given {}", usage(), opargs::describe(h));
    }
    let t = registry::tensor(h)?;
    if !t.defined() {
        bail!("{}, given an undefined tensor", usage());
    }
    if !is(&t) {
        let layout = if t.is_sparse() { "sparse" } else { "dense" };
        bail!(
            "{}, given a {layout} {} tensor",
            usage(),
            options::kind_name(t.kind())
        );
    }
    Ok((t, handle))
}

fn is_sparse(t: &Tensor) -> bool {
    t.is_sparse()
}

/// A sparse tensor given as `h` (its part comes back as q data) or `enlist h` (as a handle).
pub struct SparsePart {
    t: Tensor,
    handle: bool,
}

impl FromQ for SparsePart {
    const TYPE: &'static str = "a sparse tensor (enlist to return tensor ptr)";
    /// Every value is the tensor or ktorch's error.
    fn read(x: K) -> Result<Option<SparsePart>> {
        let (t, handle) = part_of(x, "sparse", is_sparse)?;
        Ok(Some(SparsePart { t, handle }))
    }
}

crate::qfn! {
    /// `indices h` the indices of a sparse tensor, one row per sparse dimension and one column
    /// per value (duplicates too, for a tensor not coalesced); `indices enlist h` as a new handle.
    pub fn indices(x: SparsePart) -> KResult {
        result(x.t.f_internal_indices()?, x.handle)
    }

    /// `values h` the values of a sparse tensor (rows of the dense dimensions when it has any);
    /// `values enlist h` as a new handle.
    pub fn values(x: SparsePart) -> KResult {
        result(x.t.f_internal_values()?, x.handle)
    }
}

/// The handle of a sparse tensor and its tensor, else an error naming what was given.
pub struct SparseHandle {
    h: K,
    t: Tensor,
}

impl FromQ for SparseHandle {
    const TYPE: &'static str = "a sparse tensor";
    /// Every value is the tensor or ktorch's error.
    fn read(x: K) -> Result<Option<SparseHandle>> {
        let t = if opargs::is_tensor(x) {
            Some(registry::tensor(x)?)
        } else {
            None
        };
        match t {
            Some(t) if t.defined() && t.is_sparse() => Ok(Some(SparseHandle { h: x, t })),
            Some(_) => bail!("expects a sparse tensor, given a dense tensor"),
            None => bail!("expects a sparse tensor, given {}", opargs::describe(x)),
        }
    }
}

crate::qfn! {
    /// `coalesce h`: sort the indices of a sparse tensor and sum the values of duplicates, in
    /// place (the handle then holds the coalesced tensor); null.
    pub fn coalesce(x: SparseHandle) -> KResult {
        if !x.t.is_coalesced() {
            registry::replace(x.h, Obj::Tensor(x.t.f_coalesce()?))?;
        }
        Ok(make::null())
    }

    /// `dense h`: a new dense tensor from a sparse one.
    pub fn dense(x: SparseHandle) -> KResult {
        Ok(registry::add(Obj::Tensor(x.t.f_to_dense(None, false)?)))
    }
}

/// `sparse`'s forms: a tensor handle or an array made sparse whole, `(input;sparsedim)`, or
/// `(input;mask)` with the sparse tensor whose indices to use.
pub enum Sparsing {
    Whole(Tensor),
    Dims(Tensor, i64),
    Mask(Tensor, Tensor),
}

impl FromQ for Sparsing {
    const TYPE: &'static str = "input, (input;sparsedim) or (input;sparse tensor)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Sparsing>> {
        if registry::is_handle(x) {
            return Ok(Some(Sparsing::Whole(registry::tensor(x)?)));
        }
        if let Some(&[input, second]) = from::list(&x)
            .filter(|v| v.len() == 2 && (i64::of(v[1]).is_some() || registry::is_handle(v[1])))
        {
            let (t, _) = arg(input)?;
            return Ok(Some(match i64::of(second) {
                Some(d) => Sparsing::Dims(t, d),
                None => Sparsing::Mask(t, registry::tensor(second)?),
            }));
        }
        let t = opargs::array(x)
            .ok_or_else(|| anyhow!("unrecognized arg(s), expected {}", Self::TYPE))?;
        Ok(Some(Sparsing::Whole(t)))
    }
}

crate::qfn! {
    /// `sparse x`, `sparse(x;sparsedim)`, `sparse(x;mask)`: a new sparse tensor (always a
    /// handle) from q data or a tensor; with a number of sparse dimensions (the rest are dense),
    /// or with the indices of sparse tensor `mask` and the values of `x` there.
    pub fn sparse(x: Sparsing) -> KResult {
        let t = match x {
            Sparsing::Whole(t) => t.f_to_sparse(None, None::<&[i64]>, None)?,
            Sparsing::Dims(t, d) => {
                if d < 0 || d > t.dim() as i64 {
                    bail!("sparse dimensions must be 0-{}, given {d}", t.dim());
                }
                t.f_to_sparse_sparse_dim(d)?
            }
            Sparsing::Mask(t, mask) => {
                if !mask.is_sparse() {
                    bail!("2nd arg is not a sparse tensor, unable to use its indices");
                }
                t.f_sparse_mask(&mask)?
            }
        };
        Ok(registry::add(Obj::Tensor(t)))
    }
}

/// `sparseindex`'s forms: a tensor handle, `(input;sparsedim)`, or q data.
pub enum Indexing {
    Handle(Tensor),
    Dims(Tensor, bool, i64),
    Data(Tensor),
}

impl FromQ for Indexing {
    const TYPE: &'static str = "input or (input;sparsedim)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Indexing>> {
        if registry::is_handle(x) {
            return Ok(Some(Indexing::Handle(registry::tensor(x)?)));
        }
        if let Some(&[input, d]) =
            from::list(&x).filter(|v| v.len() == 2 && i64::of(v[1]).is_some())
        {
            let (t, h) = arg(input)?;
            let d = i64::of(d).expect("checked");
            return Ok(Some(Indexing::Dims(t, h, d)));
        }
        Ok(Some(Indexing::Data(convert::to_tensor(x)?)))
    }
}

crate::qfn! {
    /// `sparseindex x` the indices of the non-zero values of an array or tensor (one row per
    /// dimension, one column per value); `sparseindex(x;sparsedim)` of its non-zero slices over
    /// the first `sparsedim` dimensions. q data in, q data out; a tensor in, a new handle out.
    pub fn sparseindex(x: Indexing) -> KResult {
        match x {
            Indexing::Handle(t) => result(t.f_nonzero()?.f_tr()?, true),
            Indexing::Dims(t, h, d) => {
                if d < 1 || d > t.dim() as i64 {
                    bail!("sparse dimensions must be 1-{}, given {d}", t.dim());
                }
                let first = Tensor::f_arange(d, (Kind::Int64, t.device()))?;
                let nz = t.f_nonzero()?.f_index_select(1, &first)?;
                // nonzero's rows are in order: equal leading indices are next to each other
                let (u, _, _) = nz.f_unique_consecutive(false, false, 0)?;
                result(u.f_tr()?, h)
            }
            Indexing::Data(t) => result(t.f_nonzero()?.f_tr()?, false),
        }
    }
}

fn nnz_of(t: &Tensor) -> Result<i64> {
    Ok(if !t.defined() {
        0
    } else if t.is_sparse() {
        t.f_internal_nnz()?
    } else {
        t.f_count_nonzero(None)?.f_int64_value(&[])?
    })
}
fn densedim_of(t: &Tensor) -> Result<i64> {
    Ok(if !t.defined() {
        0
    } else if t.is_sparse() {
        t.f_dense_dim()?
    } else {
        t.dim() as i64
    })
}

crate::qfn! {
    /// `nnz h`: the values a sparse tensor holds, counted over its sparse dimensions (the non-zero
    /// elements of a dense tensor). A vector or dictionary gives one count per tensor.
    pub fn nnz(x: Held<false>) -> KResult {
        query(x, Attr::Long(&nnz_of))
    }
}
crate::qfn! {
    /// `sparsedim h`: the number of sparse dimensions (0 for a dense tensor).
    pub fn sparsedim(x: Held<false>) -> KResult {
        query(x, Attr::Long(&sparsedim_of))
    }
}
crate::qfn! {
    /// `densedim h`: the number of dense dimensions (all of a dense tensor's).
    pub fn densedim(x: Held<false>) -> KResult {
        query(x, Attr::Long(&densedim_of))
    }
}

/// The creation modes a sparse layout allows, and the options a sparse tensor cannot have.
pub fn check_mode(mode: &str, o: &Options, out: bool) -> Result<()> {
    if o.sparse == Some(false) {
        bail!("sparse mode incompatible with layout set to strided");
    }
    if o.pin == Some(true) {
        bail!("sparse tensors cannot have pinned memory");
    }
    if !matches!(mode, "empty" | "zeros" | "complex" | "sparse") {
        bail!("{mode}: not implemented for sparse tensors");
    }
    if mode == "sparse" && out {
        bail!("sparse not implemented with output tensors");
    }
    Ok(())
}

/// `` tensor(`sparse;size) `` an empty sparse tensor; `` tensor(`sparse;ind;val) ``,
/// `` tensor(`sparse;ind;val;size) ``: from indices (a matrix, one row per sparse dimension) and
/// values (one per column of indices, or one dense slice each), the size at least the indices'.
/// Options (applied after) may come last; the dtype is the values' unless an option says.
pub fn coo(args: &[K], o: &Options) -> Result<Tensor> {
    let size = |x: K| {
        Vec::<i64>::of(x)
            .filter(|_| crate::k::read::ktype(x) != 0)
            .ok_or_else(|| anyhow!("`sparse: size expected as long(s)"))
    };
    let (i, v, s) = match args {
        [s] => {
            let kind = o.kind.unwrap_or_else(options::default_kind);
            return Ok(Tensor::f_sparse_coo_tensor(size(*s)?, (kind, Device::Cpu))?);
        }
        [i, v] => (*i, *v, None),
        [i, v, s] => (*i, *v, Some(size(*s)?)),
        _ => bail!("`sparse expects (size), (indices;values) or (indices;values;size), with optional tensor options"),
    };
    let i = convert::to_tensor(i)?;
    let v = convert::to_tensor(v)?;
    if !matches!(
        i.kind(),
        Kind::Uint8 | Kind::Int8 | Kind::Int16 | Kind::Int | Kind::Int64
    ) {
        bail!(
            "`sparse: indices expected as integers, given {}",
            options::kind_name(i.kind())
        );
    }
    let i = i.f_to_kind(Kind::Int64)?;
    if i.dim() != 2 {
        bail!("`sparse: indices expected as a matrix, one row per sparse dimension, given {}-dim array", i.dim());
    }
    let (sd, n) = (i.size()[0], i.size()[1]);
    if v.dim() == 0 || v.size()[0] != n {
        bail!(
            "`sparse: {n} index column(s) but values of size {:?}",
            v.size()
        );
    }
    // libtorch's invariant checks are off by default: bad indices must not reach a kernel
    if n > 0 {
        let lo: Vec<i64> = Vec::<i64>::try_from(&i.f_amin(&[1i64][..], false)?)?;
        if lo.iter().any(|j| *j < 0) {
            bail!("`sparse: negative index");
        }
    }
    let kind = o.kind.unwrap_or(v.kind());
    let v = v.f_to_kind(kind)?;
    let t = match s {
        None => Tensor::f_sparse_coo_tensor_indices(&i, &v, (kind, Device::Cpu), false)?,
        Some(s) => {
            let dense = &v.size()[1..];
            if s.len() as i64 != sd + dense.len() as i64 || &s[sd as usize..] != dense {
                bail!("`sparse: size {s:?} does not fit {sd} sparse dimension(s) and values of size {:?}", v.size());
            }
            if n > 0 {
                let hi: Vec<i64> = Vec::<i64>::try_from(&i.f_amax(&[1i64][..], false)?)?;
                if let Some(d) = (0..hi.len()).find(|d| hi[*d] >= s[*d]) {
                    bail!(
                        "`sparse: index {} out of range for size {} of dimension {d}",
                        hi[d],
                        s[d]
                    );
                }
            }
            Tensor::f_sparse_coo_tensor_indices_size(
                &i,
                &v,
                s.as_slice(),
                (kind, Device::Cpu),
                false,
            )?
        }
    };
    Ok(t)
}
