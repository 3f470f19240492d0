//! Shapes and views, ktorch's forms: `reshape`, `resize`, `View` `(input;size or example)`,
//! `narrow(input;dim;offset;size)`, `transpose`, `permute(input;dims)`, `expand(input;size)`,
//! `squeeze`, `unsqueeze`. Given q data the result is q data; given a tensor handle, a new handle
//! (a view sharing storage where PyTorch makes one), or null for the in-place forms.
use anyhow::bail;
use tch::Tensor;

use super::opargs::{self, array, Input};
use super::{convert, result};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

/// The size argument of reshape/resize/View/expand: longs, or a tensor handle whose size to use.
fn size_arg(x: K) -> anyhow::Result<Vec<i64>> {
    if registry::is_handle(x) {
        return Ok(registry::tensor(x)?.size());
    }
    Vec::<i64>::of(x).ok_or_else(|| {
        anyhow::anyhow!(
            "expected 2nd arg of size or tensor whose size to use, given {}",
            opargs::describe(x)
        )
    })
}

/// Fill in a size given as -1 from the number of elements `m` (resize_ does not infer).
fn infer(s: &[i64], m: i64) -> anyhow::Result<Vec<i64>> {
    let mut r = s.to_vec();
    let mut at = None;
    let mut n = 1i64;
    for (d, &v) in s.iter().enumerate() {
        if v == -1 {
            if at.is_some() {
                bail!("only one dimension can be inferred");
            }
            at = Some(d);
        } else if v >= 0 {
            n *= v;
        } else {
            bail!("invalid shape dimension {v}");
        }
    }
    if let Some(d) = at {
        if n == 0 || m % n != 0 {
            bail!("shape {s:?} is invalid for input of size {m}");
        }
        r[d] = m / n;
    }
    Ok(r)
}

/// `(input;size)` of reshape, resize and View, and of expand (`E`), the size given as longs or
/// as a tensor whose size to use; the size is read before the input, as ktorch does (its error
/// comes first).
pub struct Sized<const E: bool> {
    input: Input,
    size: Vec<i64>,
}

impl<const E: bool> FromQ for Sized<E> {
    const TYPE: &'static str = if E {
        "(input;size) or (input;tensor whose size to match)"
    } else {
        "(input;size) or (input;example tensor)"
    };
    /// Every value is the pair or an error.
    fn read(x: K) -> anyhow::Result<Option<Sized<E>>> {
        let [input, size] = from::items(&x, 2..=2, Self::TYPE)? else {
            unreachable!()
        };
        let size = size_arg(*size)?;
        let input = Input::from_q(*input, "input")?;
        Ok(Some(Sized { input, size }))
    }
}

enum Mode {
    Resize,
    Reshape,
    View,
}

fn resizing(x: Sized<false>, mode: Mode) -> KResult {
    let Sized {
        input: Input { mut t, handle: h },
        size: s,
    } = x;
    match mode {
        Mode::Resize => {
            let s = if s.iter().any(|&v| v < 0) {
                infer(&s, t.numel() as i64)?
            } else {
                s
            };
            // In place: a handle's tensor shares its TensorImpl with the registry's.
            let _ = t.f_resize_(s.as_slice())?;
            if h {
                Ok(make::null())
            } else {
                convert::to_q(&t)
            }
        }
        Mode::Reshape => result(t.f_reshape(s.as_slice())?, h),
        Mode::View => result(t.f_view_(s.as_slice())?, h),
    }
}

crate::qfn! {
    pub fn reshape(x: Sized<false>) -> KResult {
        resizing(x, Mode::Reshape)
    }
    pub fn resize(x: Sized<false>) -> KResult {
        resizing(x, Mode::Resize)
    }
    pub fn view(x: Sized<false>) -> KResult {
        resizing(x, Mode::View)
    }
}

/// What `narrow` narrows: each tensor of a vector (a new vector), or a tensor or q data.
enum Narrowed {
    Vector(Vec<Tensor>),
    One(Input),
}

/// `narrow`'s `(input;dim;offset;size)`, the three longs checked before the input is read.
pub struct Narrowing {
    input: Narrowed,
    dim: i64,
    start: i64,
    size: i64,
}

impl FromQ for Narrowing {
    const TYPE: &'static str = "(input;dim;offset;size)";
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Narrowing>> {
        let usage = Self::TYPE;
        let [input, d, i, w] = from::items(&x, 4..=4, usage)? else {
            unreachable!()
        };
        let (Some(dim), Some(start), Some(size)) = (i64::of(*d), i64::of(*i), i64::of(*w)) else {
            bail!("expected {usage} with dim, offset and size as longs")
        };
        let input = if opargs::is_vector(*input) {
            Narrowed::Vector(opargs::vector(*input)?)
        } else {
            Narrowed::One(Input::from_q(*input, "input")?)
        };
        Ok(Some(Narrowing {
            input,
            dim,
            start,
            size,
        }))
    }
}

crate::qfn! {
    /// `narrow(input;dim;offset;size)`: `size` elements of dimension `dim` from `offset`; each
    /// tensor of a vector narrowed into a new vector.
    pub fn narrow(x: Narrowing) -> KResult {
        let Narrowing {
            input,
            dim: d,
            start: i,
            size: w,
        } = x;
        match input {
            Narrowed::Vector(v) => {
                let v = v
                    .iter()
                    .map(|t| t.f_narrow(d, i, w))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(registry::add(Obj::Vector(v)))
            }
            Narrowed::One(Input { t, handle }) => result(t.f_narrow(d, i, w)?, handle),
        }
    }
}

/// PyTorch's `t()`: a 2-d transpose; tensors of fewer dimensions come back as they are.
fn t2(t: &Tensor) -> Result<Tensor, tch::TchError> {
    if t.dim() < 2 {
        t.f_alias()
    } else {
        t.f_transpose(0, 1)
    }
}

/// `transpose`'s forms: an atom or simple list (it comes back as it is), or a tensor, q data
/// or argument list `(tensor;dim1;dim2;inplace)` read as ktorch does.
pub enum Transposing {
    Same(K),
    Call {
        t: Tensor,
        handle: bool,
        dims: Option<(i64, i64)>,
        inplace: bool,
    },
}

impl FromQ for Transposing {
    const TYPE: &'static str =
        "tensor, (tensor;inplace), (tensor;dim1;dim2) or (tensor;dim1;dim2;inplace)";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Transposing>> {
        let t = read::ktype(x);
        if t != 0 && t != 101 {
            return Ok(Some(Transposing::Same(x))); // atoms and simple lists
        }
        let usage = Self::TYPE;
        if registry::is_handle(x) {
            return Ok(Some(Transposing::Call {
                t: registry::tensor(x)?,
                handle: true,
                dims: None,
                inplace: false,
            }));
        }
        let v = from::list(&x)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| anyhow::anyhow!("expected {usage}"))?;
        let (v, inplace) = match v.last().and_then(|b| bool::of(*b)) {
            Some(b) => (&v[..v.len() - 1], b),
            None => (v, false),
        };
        if v.is_empty() {
            bail!("expected {usage}, given only a flag");
        }
        let (t, handle, rest) = if registry::is_handle(v[0]) {
            (registry::tensor(v[0])?, true, &v[1..])
        } else if let Some(t) = array(x) {
            (t, false, &v[..0]) // all of x is one array
        } else {
            (convert::to_tensor(v[0])?, false, &v[1..])
        };
        let dims = match rest {
            [] => None,
            [i, j] => match (i64::of(*i), i64::of(*j)) {
                (Some(i), Some(j)) => Some((i, j)),
                _ => bail!("expected {usage}, dimensions as longs"),
            },
            _ => bail!("expected {usage}"),
        };
        Ok(Some(Transposing::Call {
            t,
            handle,
            dims,
            inplace,
        }))
    }
}

crate::qfn! {
    /// `transpose x`: a 2-d transpose (PyTorch's `t()`), `transpose(x;dim1;dim2)` those two
    /// dimensions swapped; a trailing true flag transposes a tensor in place.
    pub fn transpose(x: Transposing) -> KResult {
        let (mut t, h, dims, inplace) = match x {
            Transposing::Same(x) => return Ok(make::share(x)),
            Transposing::Call {
                t,
                handle,
                dims,
                inplace,
            } => (t, handle, dims, inplace),
        };
        let r = match dims {
            None if t.dim() > 2 => bail!(
                "a {}d tensor needs the two dimensions to be swapped",
                t.dim()
            ),
            None if h && inplace => {
                if t.dim() == 2 {
                    let _ = t.f_transpose_(0, 1)?;
                }
                return Ok(make::null());
            }
            None => t2(&t)?,
            Some((i, j)) if h && inplace => {
                let _ = t.f_transpose_(i, j)?;
                return Ok(make::null());
            }
            Some((i, j)) => t.f_transpose(i, j)?,
        };
        result(r, h)
    }
}

/// `permute`'s `(input;reordered dimensions)`, the dimensions checked before the input is read.
pub struct Permuting {
    input: Input,
    dims: Vec<i64>,
}

impl FromQ for Permuting {
    const TYPE: &'static str = "(input;reordered dimensions)";
    /// Every value is the pair or an error.
    fn read(x: K) -> anyhow::Result<Option<Permuting>> {
        let [input, dims] = from::items(&x, 2..=2, Self::TYPE)? else {
            unreachable!()
        };
        let dims = Vec::<i64>::of(*dims).ok_or_else(|| {
            anyhow::anyhow!(
                "expected 2nd arg of reordered dimensions, given {}",
                opargs::describe(*dims)
            )
        })?;
        let input = Input::from_q(*input, "input")?;
        Ok(Some(Permuting { input, dims }))
    }
}

/// `expand`'s forms: a pair of longs `(value;size)` (ktorch reads it as the value repeated
/// size times), or `(input;size)`.
pub enum Expanding {
    Repeat(i64, i64),
    Sized(Sized<true>),
}

impl FromQ for Expanding {
    const TYPE: &'static str = Sized::<true>::TYPE;
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Expanding>> {
        if read::ktype(x) == 7 && read::len(x) == 2 {
            let n = Vec::<i64>::of(x).unwrap_or_default();
            return Ok(Some(Expanding::Repeat(n[0], n[1])));
        }
        Sized::<true>::read(x).map(|s| s.map(Expanding::Sized))
    }
}

crate::qfn! {
    /// `permute(input;dims)`: the dimensions reordered.
    pub fn permute(x: Permuting) -> KResult {
        let Input { t, handle } = x.input;
        result(t.f_permute(x.dims.as_slice())?, handle)
    }

    /// `expand(input;size)`, `expand(input;tensor)`: a view with singleton dimensions expanded.
    pub fn expand(x: Expanding) -> KResult {
        match x {
            Expanding::Repeat(v, n) => {
                convert::to_q(&Tensor::from_slice(&[v]).f_expand([n], false)?)
            }
            Expanding::Sized(Sized {
                input: Input { t, handle },
                size,
            }) => result(t.f_expand(size.as_slice(), false)?, handle),
        }
    }
}

const NEED_DIM: &str = "requires 2nd arg specifying dimension to add";
const UNEXPECTED: &str = "unexpected arg(s), expected (input;dim;optional in-place flag)";

/// squeeze's (`A` true) and unsqueeze's forms: (input), (input;dim), (input;dim;inplace),
/// (input;inplace); `Data`: q data squeezed as a whole (squeeze only).
pub enum Squeezing<const A: bool> {
    Data(Tensor),
    Call {
        t: Tensor,
        handle: bool,
        dim: Option<i64>,
        inplace: bool,
    },
}

impl<const A: bool> FromQ for Squeezing<A> {
    const TYPE: &'static str = "(input;dim;optional in-place flag)";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Squeezing<A>>> {
        if registry::is_handle(x) {
            let t = registry::tensor(x)?;
            if !A {
                bail!("{NEED_DIM}");
            }
            return Ok(Some(Squeezing::Call {
                t,
                handle: true,
                dim: None,
                inplace: false,
            }));
        }
        let parsed = from::list(&x).and_then(|v| match v {
            [i, d] => i64::of(*d)
                .map(|d| (*i, Some(d), false))
                .or_else(|| bool::of(*d).map(|b| (*i, None, b))),
            [i, d, b] => i64::of(*d).zip(bool::of(*b)).map(|(d, b)| (*i, Some(d), b)),
            _ => None,
        });
        let Some((input, dim, inplace)) = parsed else {
            if A {
                if from::list(&x).is_some_and(|v| v.len() > 1 && registry::is_handle(v[0])) {
                    bail!("{UNEXPECTED}");
                }
                return Ok(Some(Squeezing::Data(convert::to_tensor(x)?)));
            }
            bail!("{UNEXPECTED}");
        };
        let dim = dim.filter(|d| *d != i64::MIN); // 0N: every dimension of size 1
        if !A && dim.is_none() {
            bail!("{NEED_DIM}");
        }
        let Input { t, handle } = Input::from_q(input, "input")?;
        Ok(Some(Squeezing::Call {
            t,
            handle,
            dim,
            inplace,
        }))
    }
}

fn squeezing<const A: bool>(x: Squeezing<A>) -> KResult {
    let (mut t, h, dim, inplace) = match x {
        Squeezing::Data(t) => return convert::to_q(&t.f_squeeze()?),
        Squeezing::Call {
            t,
            handle,
            dim,
            inplace,
        } => (t, handle, dim, inplace),
    };
    if h && inplace {
        let _ = match (A, dim) {
            (false, Some(d)) => t.f_unsqueeze_(d)?,
            (true, Some(d)) => t.f_squeeze_dim_(d)?,
            _ => t.f_squeeze_()?,
        };
        return Ok(make::null());
    }
    let r = match (A, dim) {
        (false, Some(d)) => t.f_unsqueeze(d)?,
        (true, Some(d)) => t.f_squeeze_dim(d)?,
        _ => t.f_squeeze()?,
    };
    result(r, h)
}

crate::qfn! {
    /// `squeeze x`: dimensions of size 1 removed; `squeeze(x;dim)` that one; a trailing true
    /// flag squeezes a tensor in place.
    pub fn squeeze(x: Squeezing<true>) -> KResult {
        squeezing(x)
    }

    /// `unsqueeze(x;dim)`: a dimension of size 1 added at `dim`; a trailing true flag adds it
    /// in place.
    pub fn unsqueeze(x: Squeezing<false>) -> KResult {
        squeezing(x)
    }
}
