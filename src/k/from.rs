//! The one extraction trait: a q argument read as a typed Rust value (as PyO3's `FromPyObject`
//! reads a Python one), and the readers of ktorch's argument lists built on it.
//!
//! - [`FromQ`]: one argument kind: its name in errors (`TYPE`), and `read`, which answers
//!   `Ok(None)` for a value of another kind (so that a trailing optional argument is skipped, as
//!   ktorch's `if(n>1 && xbool(x,n-1,b)) n--;` chains skip it), `Err` for a value of this kind
//!   that is wrong (an unknown dtype name), and `Some` for the value. `from_q` is the required
//!   form: another kind is the error `ARG expected as TYPE, given WHAT`.
//! - impls here for q's own kinds, with ktorch's acceptance: `bool` (a boolean atom), `i64` (a
//!   long atom: ktorch reads dimensions, offsets and indices as longs only), `f64` (a float
//!   atom), `f32` (a real atom), [`Number`] (any numeric atom), [`Integer`] (a short, int or long
//!   atom), [`Double`] (a float atom or an `Integer`), [`Whole`] (any integral atom, widened as q
//!   does), `Vec<i64>` (a long atom, long vector or `()`), [`Sizes`] (a long atom or long vector),
//!   [`Wholes`] (a short, int or long vector), `Vec<f64>` (a float vector), [`Sym`] and `&str` (a
//!   symbol atom), `Vec<&str>` (a symbol vector), [`Syms`] and `Vec<Sym>` (a symbol atom or
//!   vector), `String` (a char vector or atom), [`Unset`] (`::`), and `Option<T>` for a `T` whose
//!   q null means "not given" (`0N`, `0n`); the kinds of the layers above (tensor inputs, output
//!   tensors and vectors, dtypes, tensor options) implement it where their types live. `of` reads
//!   one of q's own kinds where no error can arise (`bool::of(x)`).
//! - [`Args`]: an argument list `(a;b;..)` read from the end, each optional argument taken when
//!   it has its kind and enough arguments remain before it; [`Trailing`]: a tuple of optional
//!   arguments read that way in one step (`(Vec<i64>, bool, Kind)` for `(x;dim;keepdim;dtype)`);
//!   [`call`]: `f x` or `f(x;opt..;output)` in one step.
//! - [`options`]: options after a function's inputs, positional then name-value pairs ([`pairs`]:
//!   ktorch's four forms), each an [`Item`] (a value, or an element of a simple list) read as a
//!   `FromQ` kind.
//!
//! The guard puts the function's name in front of every error (`'mean: ...`).
use anyhow::{anyhow, bail, Result};

use super::{hooks, read, K};

/// What `x` is, for an error's "given ...": the class of a handle (through the hook the
/// registry's layer installs), else its q type.
pub fn describe(x: K) -> String {
    (hooks::hooks().describe)(x)
}

/// The error `ARG expected as TYPE, given WHAT`.
pub fn expected(arg: &str, ty: &str, x: K) -> anyhow::Error {
    anyhow!("{arg} expected as {ty}, given {}", describe(x))
}

/// The id of `x` if it has the form of a ktorch handle: a one-item general list holding a long.
pub fn handle_id(x: K) -> Option<i64> {
    match read::items(&x) {
        Some([j]) if read::ktype(*j) == -7 => read::long(*j),
        _ => None,
    }
}

/// The items of an argument list `(a;b;..)`: a general list that is not a handle's form.
pub fn list(x: &K) -> Option<&[K]> {
    read::items(x).filter(|_| handle_id(*x).is_none())
}

/// The items of the argument list `x`, a count of them in `n`, else `expected USAGE, given N
/// argument(s)` (or `given WHAT` when `x` is no argument list).
pub fn items<'a>(x: &'a K, n: std::ops::RangeInclusive<usize>, usage: &str) -> Result<&'a [K]> {
    match list(x) {
        Some(v) if n.contains(&v.len()) => Ok(v),
        Some(v) => bail!(
            "expected {usage}, given {} argument{}",
            v.len(),
            if v.len() == 1 { "" } else { "s" }
        ),
        None => bail!("expected {usage}, given {}", describe(*x)),
    }
}

/// One kind of q argument read as a Rust value.
pub trait FromQ: Sized {
    /// The kind in an error: `a long`, `a boolean`, `a tensor`...
    const TYPE: &'static str;
    /// `x` as this kind: `Ok(None)` when `x` is another kind of value.
    fn read(x: K) -> Result<Option<Self>>;
    /// `x` as this kind, else [`wrong`](FromQ::wrong)'s error. Inlined into each typed
    /// function's wrapper: the hot calls (`add(x;y)`, `free h`) pay no call for it.
    #[inline(always)]
    fn from_q(x: K, arg: &str) -> Result<Self> {
        Self::read(x)?.ok_or_else(|| Self::wrong(x, arg))
    }
    /// The error of argument `arg` given as another kind: `ARG expected as TYPE, given WHAT`; a
    /// kind with ktorch's own words for it (`expected a long seed`) says them here.
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        expected(arg, Self::TYPE, x)
    }
    /// `x` as this kind, for a kind whose `read` cannot fail (q's own: numbers, flags, symbols):
    /// `None` when `x` is another kind (a failed read would be `None` too).
    fn of(x: K) -> Option<Self> {
        Self::read(x).ok().flatten()
    }
    /// `x` as a whole when it is one value of this kind and not an argument list (`f x`, for an
    /// input that may come alone): `Ok(None)` (the default) reads `x` as a list.
    fn alone(_x: K) -> Result<Option<Self>> {
        Ok(None)
    }
}

/// A boolean atom (flags: keepdim, upper, in place...).
impl FromQ for bool {
    const TYPE: &'static str = "a boolean";
    fn read(x: K) -> Result<Option<bool>> {
        Ok(read::boolean(x))
    }
}

/// A long atom only: ktorch reads dimensions, offsets, indices and counts as longs.
impl FromQ for i64 {
    const TYPE: &'static str = "a long";
    fn read(x: K) -> Result<Option<i64>> {
        Ok((read::ktype(x) == -7).then(|| read::long(x)).flatten())
    }
}

/// A float atom (a double tells a norm's order from a long dimension).
impl FromQ for f64 {
    const TYPE: &'static str = "a float";
    fn read(x: K) -> Result<Option<f64>> {
        Ok(read::float(x))
    }
}

/// Longs: a long atom, a long vector, or `()` (dimensions, sizes, indices).
impl FromQ for Vec<i64> {
    const TYPE: &'static str = "a long or long list";
    fn read(x: K) -> Result<Option<Vec<i64>>> {
        Ok(match read::ktype(x) {
            7 => read::longs(x),
            -7 => read::long(x).map(|j| vec![j]),
            0 if read::len(x) == 0 => Some(vec![]),
            _ => None,
        })
    }
}

/// Sizes as ktorch's `xsize` reads them: a long atom or a long vector (not `()`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes(pub Vec<i64>);

impl FromQ for Sizes {
    const TYPE: &'static str = "a long or long list";
    fn read(x: K) -> Result<Option<Sizes>> {
        Ok(match read::ktype(x) {
            7 | -7 => Vec::<i64>::read(x)?.map(Sizes),
            _ => None,
        })
    }
}

/// A number given as any numeric atom (boolean, byte, short, int, long, real, float): ktorch's
/// `xnum`, kept as an integer or a float as given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl FromQ for Number {
    const TYPE: &'static str = "a number";
    fn read(x: K) -> Result<Option<Number>> {
        Ok(match read::ktype(x) {
            -8 => read::real(x).map(|f| Number::Float(f as f64)),
            -9 => read::float(x).map(Number::Float),
            // boolean, byte, short, int, long (read::long answers None for any other type)
            _ => read::long(x).map(Number::Int),
        })
    }
}

impl From<Number> for tch::Scalar {
    fn from(n: Number) -> tch::Scalar {
        match n {
            Number::Int(i) => tch::Scalar::int(i),
            Number::Float(f) => tch::Scalar::float(f),
        }
    }
}

/// A symbol atom (interned by q: `'static`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sym(pub &'static str);

impl FromQ for Sym {
    const TYPE: &'static str = "a symbol";
    fn read(x: K) -> Result<Option<Sym>> {
        Ok(read::symbol(x).map(Sym))
    }
}

/// Symbols: a symbol atom or a symbol vector.
impl FromQ for Vec<Sym> {
    const TYPE: &'static str = "a symbol or symbol list";
    fn read(x: K) -> Result<Option<Vec<Sym>>> {
        Ok(read::symbol(x)
            .map(|s| vec![Sym(s)])
            .or_else(|| read::symbols(x).map(|v| v.into_iter().map(Sym).collect())))
    }
}

/// A string: a char vector or a char atom.
impl FromQ for String {
    const TYPE: &'static str = "a string";
    fn read(x: K) -> Result<Option<String>> {
        Ok(read::string(x))
    }
}

/// q's generic null `::` (an output position's "in place", an option's "not given").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unset;

impl FromQ for Unset {
    const TYPE: &'static str = "::";
    fn read(x: K) -> Result<Option<Unset>> {
        Ok(read::is_unset(x).then_some(Unset))
    }
}

/// A kind whose q null means "not given".
pub trait Nullable: FromQ {
    fn is_null(&self) -> bool;
}

impl Nullable for i64 {
    /// `0N`
    fn is_null(&self) -> bool {
        *self == i64::MIN
    }
}

impl Nullable for f64 {
    /// `0n` (any NaN, as ktorch's `null(double)`)
    fn is_null(&self) -> bool {
        self.is_nan()
    }
}

/// `T`, its q null read as `None` (ktorch's optional sizes and tolerances: `0N`, `0n`).
impl<T: Nullable> FromQ for Option<T> {
    const TYPE: &'static str = T::TYPE;
    fn read(x: K) -> Result<Option<Option<T>>> {
        Ok(T::read(x)?.map(|v| (!v.is_null()).then_some(v)))
    }
}

/// Optional arguments at the end of a list, read from the back: a tuple of kinds, each taken at
/// most once, when the argument before those taken has its kind (`(A, B)` reads `B`, then `A`).
pub trait Trailing {
    /// The values: a tuple of `Option`s, in the tuple's order.
    type Out;
    /// How many optional arguments.
    const LEN: usize;
    /// Take them from `v[..*n]`, leaving at least `keep` arguments.
    fn take(v: &[K], n: &mut usize, keep: usize) -> Result<Self::Out>;
    /// None of them given.
    fn none() -> Self::Out;
}

/// The last of `v[..*n]` as a `T`, when more than `keep` remain and it is one.
fn take_one<T: FromQ>(v: &[K], n: &mut usize, keep: usize) -> Result<Option<T>> {
    if *n > keep {
        if let Some(t) = T::read(v[*n - 1])? {
            *n -= 1;
            return Ok(Some(t));
        }
    }
    Ok(None)
}

impl Trailing for () {
    type Out = ();
    const LEN: usize = 0;
    fn take(_: &[K], _: &mut usize, _: usize) -> Result<()> {
        Ok(())
    }
    fn none() {}
}

macro_rules! trailing {
    // `$t $v`: each kind and its variable, in the tuple's order; `$rt $rv`: the same, last first
    ($len:literal; $($t:ident $v:ident),+; $($rt:ident $rv:ident),+) => {
        impl<$($t: FromQ),+> Trailing for ($($t,)+) {
            type Out = ($(Option<$t>,)+);
            const LEN: usize = $len;
            fn take(v: &[K], n: &mut usize, keep: usize) -> Result<Self::Out> {
                $(let $rv = take_one::<$rt>(v, n, keep)?;)+
                Ok(($($v,)+))
            }
            fn none() -> Self::Out {
                ($(None::<$t>,)+)
            }
        }
    };
}

trailing!(1; A a; A a);
trailing!(2; A a, B b; B b, A a);
trailing!(3; A a, B b, C c; C c, B b, A a);
trailing!(4; A a, B b, C c, D d; D d, C c, B b, A a);

/// The arguments of one call, read from the end (ktorch's `n` counted down).
pub struct Args {
    v: Vec<K>,
    n: usize,
}

impl Args {
    /// `x` as the only argument when it is one `T` by itself (`f x`: a handle, an array), else
    /// the items of the argument list `x`, of 1 to `max` items.
    pub fn of<T: FromQ>(x: K, max: usize, usage: &str) -> Result<(Args, Option<T>)> {
        if let Some(t) = T::alone(x)? {
            return Ok((Args { v: vec![x], n: 1 }, Some(t)));
        }
        Ok((Self::list(x, 1, max, usage)?, None))
    }

    /// The items of the argument list `x`, `min` to `max` of them, else `expected MIN-MAX args,
    /// USAGE, given N` (or `not implemented for WHAT` when `x` is no list).
    pub fn list(x: K, min: usize, max: usize, usage: &str) -> Result<Args> {
        match list(&x) {
            Some(v) if (min..=max).contains(&v.len()) => Ok(Args {
                v: v.to_vec(),
                n: v.len(),
            }),
            Some(v) => bail!("expected {min}-{max} args, {usage}, given {}", v.len()),
            None => bail!("not implemented for {}", describe(x)),
        }
    }

    /// How many arguments were given.
    pub fn given(&self) -> usize {
        self.v.len()
    }

    /// How many arguments are left.
    pub fn left(&self) -> usize {
        self.n
    }

    /// The last argument left, as a `T`, when more than `keep` remain and it is one.
    pub fn opt<T: FromQ>(&mut self, keep: usize) -> Result<Option<T>> {
        take_one(&self.v, &mut self.n, keep)
    }

    /// The last two arguments left, as a `T` and a `U`, when more than `keep + 1` remain and
    /// both are read.
    pub fn opt2<T: FromQ, U: FromQ>(&mut self, keep: usize) -> Result<Option<(T, U)>> {
        let n = self.n;
        if n > keep + 1 {
            if let Some(a) = T::read(self.v[n - 2])? {
                if let Some(b) = U::read(self.v[n - 1])? {
                    self.n -= 2;
                    return Ok(Some((a, b)));
                }
            }
        }
        Ok(None)
    }

    /// The optional arguments of tuple `S`, read from the back, leaving at least `keep`.
    pub fn trailing<S: Trailing>(&mut self, keep: usize) -> Result<S::Out> {
        S::take(&self.v, &mut self.n, keep)
    }

    /// The arguments left, which must number `want`, else `unrecognized arg(s), expected USAGE`.
    pub fn rest(&self, want: usize, usage: &str) -> Result<&[K]> {
        if self.n != want {
            bail!("unrecognized arg(s), expected {usage}");
        }
        Ok(&self.v[..self.n])
    }

    /// Argument `i` (from 0) as a `T`, named `arg` in an error.
    pub fn get<T: FromQ>(&self, i: usize, arg: &str) -> Result<T> {
        T::from_q(self.v[i], arg)
    }

    /// Argument `i` (from 0), as given.
    pub fn at(&self, i: usize) -> K {
        self.v[i]
    }
}

/// One call of ktorch's form for one input with optional arguments (reductions, cumulative
/// sums, norms...): `f x` (the input alone), or `f(x;opt..;output)`.
pub struct Call<I, S: Trailing, O: Trailing> {
    /// The input.
    pub input: I,
    /// Was the input given alone (not in an argument list)?
    pub alone: bool,
    /// How many arguments were given.
    pub given: usize,
    /// The optional arguments (`S`'s values).
    pub opts: S::Out,
    /// The output (`O`'s value: `()` for a function without one).
    pub out: O::Out,
}

/// Read `x` as `f x` or `f(x;S..;O)`: the input `I` first, then the optional arguments of `S`
/// and the output `O` (a one-tuple, or `()`), read from the back after it, each when it has its
/// kind. `usage` names the full form, `(input;dim;keepdim;output)`.
pub fn call<I: FromQ, S: Trailing, O: Trailing>(x: K, usage: &str) -> Result<Call<I, S, O>> {
    if let Some(input) = I::alone(x)? {
        return Ok(Call {
            input,
            alone: true,
            given: 1,
            opts: S::none(),
            out: O::none(),
        });
    }
    let max = 1 + S::LEN + O::LEN;
    let v =
        list(&x).ok_or_else(|| anyhow!("not implemented for {}, expected {usage}", describe(x)))?;
    if v.is_empty() || v.len() > max {
        bail!("expected up to {max} args, {usage}, given {}", v.len());
    }
    let mut n = v.len();
    let out = O::take(v, &mut n, 1)?;
    let opts = S::take(v, &mut n, 1)?;
    if n != 1 {
        bail!("unrecognized args, expected up to {max}, {usage}");
    }
    Ok(Call {
        input: I::from_q(v[0], "input")?,
        alone: false,
        given: v.len(),
        opts,
        out,
    })
}

/// One value of a name-value structure: a q value, or element `i` of a simple list (the value
/// of `` `reduce`sum ``, or of a dictionary whose values are a simple list).
#[derive(Clone, Copy)]
pub enum Item {
    K(K),
    At(K, usize),
}

/// The width of one value of q type `t` (atom or simple list): None for guids and other types.
fn width(t: i8) -> Option<usize> {
    Some(match t.unsigned_abs() {
        1 | 4 | 10 => 1,
        5 => 2,
        6 | 8 | 13 | 14 | 17 | 18 | 19 => 4,
        7 | 9 | 11 | 12 | 15 | 16 => 8,
        _ => return None,
    })
}

impl Item {
    /// What the item is, for an error's "given ..." (`long scalar` for an element of a long list).
    pub fn describe(self) -> String {
        match self {
            Item::K(x) => describe(x),
            Item::At(x, _) => describe(x).replace(" list", " scalar"),
        }
    }
    /// The item as a `T`: an element of a simple list read as the atom it holds.
    pub fn read<T: FromQ>(self) -> Result<Option<T>> {
        match self {
            Item::K(x) => T::read(x),
            Item::At(x, i) => match self.atom() {
                Some(a) => T::read(a.k()),
                None => bail!("element {i} of {} cannot be read", describe(x)),
            },
        }
    }
    /// The item as a q value of its own: the value, or the element made an atom.
    pub fn atom(self) -> Option<super::Owned> {
        match self {
            Item::K(x) => Some(super::Owned::share(x)),
            Item::At(x, i) => {
                let t = read::ktype(x);
                let w = width(t).filter(|_| t > 0 && (i as i64) < read::len(x))?;
                let bytes = &read::vector_bytes(&x, w)[i * w..(i + 1) * w];
                Some(super::Owned::new(super::make::atom(-t, bytes)))
            }
        }
    }
}

/// `x` as a name-value structure (ktorch's `xpairs`): a dictionary of symbols to values, an even
/// symbol list `` `a`1`b`2 `` (names and symbols), a list `` (`a;1;`b;2) ``, or a list of pairs
/// `` ((`a;1);(`b;2)) ``; `()` is none. `Ok(None)` when `x` is no such structure.
pub fn pairs(x: K) -> Result<Option<Vec<(&'static str, Item)>>> {
    if handle_id(x).is_some() {
        return Ok(None);
    }
    if let Some((k, v)) = read::dict_parts(x) {
        let keys = match read::symbols(k) {
            Some(s) => s,
            None if read::ktype(k) == 0 && read::len(k) == 0 => vec![],
            None => bail!(
                "unexpected name,value dictionary with {} as keys",
                describe(k)
            ),
        };
        let vals: Vec<Item> = match read::items(&v) {
            Some(items) => items.iter().map(|i| Item::K(*i)).collect(),
            None => (0..read::len(v) as usize).map(|i| Item::At(v, i)).collect(),
        };
        return Ok(Some(keys.into_iter().zip(vals).collect()));
    }
    if let Some(s) = read::symbols(x) {
        if s.len() % 2 != 0 {
            bail!(
                "uneven no. of symbols for name,value pairs: {}",
                s.join(",")
            );
        }
        return Ok(Some(
            (0..s.len() / 2)
                .map(|i| (s[2 * i], Item::At(x, 2 * i + 1)))
                .collect(),
        ));
    }
    let Some(items) = read::items(&x) else {
        return Ok(None);
    };
    if items.is_empty() {
        return Ok(Some(vec![]));
    }
    if read::symbol(items[0]).is_some() {
        if items.len() % 2 != 0 {
            bail!("uneven no. of elements for name,value pairs in list");
        }
        return (0..items.len() / 2)
            .map(|i| match read::symbol(items[2 * i]) {
                Some(s) => Ok((s, Item::K(items[2 * i + 1]))),
                None => bail!(
                    "unrecognized name for pair, element[{}], expected symbol, given {}",
                    2 * i,
                    describe(items[2 * i])
                ),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some);
    }
    let is_pair = |y: K| match (read::symbols(y), read::items(&y)) {
        (Some(s), _) => s.len() == 2,
        (_, Some(v)) => v.len() == 2 && read::symbol(v[0]).is_some(),
        _ => false,
    };
    if !is_pair(items[0]) {
        return Ok(None);
    }
    items
        .iter()
        .enumerate()
        .map(|(i, y)| match (read::symbols(*y), read::items(y)) {
            (Some(s), _) if s.len() == 2 => Ok((s[0], Item::At(*y, 1))),
            (_, Some(v)) if v.len() == 2 && read::symbol(v[0]).is_some() => {
                Ok((read::symbol(v[0]).unwrap_or(""), Item::K(v[1])))
            }
            _ => bail!("name,value pair[{i}] is not a (name;value) pair"),
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// Options after a function's inputs as ktorch's losses read them (kloss.cpp's `xargc`): the
/// positional options `v`, named `names` in order, then optionally name-value pairs (`pairs`) as
/// the last argument; a symbol in the last positional place is option `sym` (a loss's
/// reduction). Answers each option given as (name, item) in the order they apply (a later one
/// overrides an earlier one): `sym` given positionally, the positional options, the pairs.
pub fn options(
    v: &[K],
    names: &[&'static str],
    sym: &'static str,
) -> Result<Vec<(&'static str, Item)>> {
    let (mut pos, named) = match v.split_last() {
        Some((last, rest)) => match pairs(*last)? {
            Some(p) => (rest, p),
            None => (v, vec![]),
        },
        None => (v, vec![]),
    };
    let mut given = vec![];
    if let Some((last, rest)) = pos.split_last() {
        if read::symbol(*last).is_some() {
            given.push((sym, Item::K(*last)));
            pos = rest;
        }
    }
    if pos.len() > names.len() {
        if names.is_empty() {
            bail!("{sym}: expected symbol, given {}", describe(pos[0]));
        }
        bail!(
            "expected up to {} positional option{} ({}) and a {sym} symbol after the inputs, given {}",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(";"),
            pos.len()
        );
    }
    given.extend(pos.iter().zip(names).map(|(x, n)| (*n, Item::K(*x))));
    for (k, x) in named {
        match names.iter().chain([&sym]).find(|n| **n == k) {
            Some(n) => given.push((*n, x)),
            None => {
                let all: Vec<&str> = names.iter().copied().chain([sym]).collect();
                bail!("option: {k} not recognized, expected {}", all.join(","));
            }
        }
    }
    Ok(given)
}

/// An integer given as a short, int or long atom (not a boolean or byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Integer(pub i64);

impl FromQ for Integer {
    const TYPE: &'static str = "long scalar";
    fn read(x: K) -> Result<Option<Integer>> {
        Ok(matches!(read::ktype(x), -7..=-5)
            .then(|| read::long(x).map(Integer))
            .flatten())
    }
}

/// A double given as a float atom or an `Integer` (short, int or long).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Double(pub f64);

impl FromQ for Double {
    const TYPE: &'static str = "double";
    fn read(x: K) -> Result<Option<Double>> {
        Ok(match read::float(x) {
            Some(f) => Some(Double(f)),
            None => Integer::read(x)?.map(|Integer(j)| Double(j as f64)),
        })
    }
}

/// A symbol list (type 11h; an atom is not one).
impl FromQ for Vec<&'static str> {
    const TYPE: &'static str = "a symbol list";
    fn read(x: K) -> Result<Option<Vec<&'static str>>> {
        Ok(read::symbols(x))
    }
}

/// A symbol atom's text (as `Sym`, without the wrapper).
impl FromQ for &'static str {
    const TYPE: &'static str = "a symbol";
    fn read(x: K) -> Result<Option<&'static str>> {
        Ok(read::symbol(x))
    }
}

/// A real atom.
impl FromQ for f32 {
    const TYPE: &'static str = "a real";
    fn read(x: K) -> Result<Option<f32>> {
        Ok(read::real(x))
    }
}

/// A float list.
impl FromQ for Vec<f64> {
    const TYPE: &'static str = "a float list";
    fn read(x: K) -> Result<Option<Vec<f64>>> {
        Ok(read::floats(x))
    }
}

/// Any integral atom (boolean, byte, short, int or long) as a long, as q widens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole(pub i64);

impl FromQ for Whole {
    const TYPE: &'static str = "a whole number";
    fn read(x: K) -> Result<Option<Whole>> {
        Ok(read::long(x).map(Whole))
    }
}

/// A short, int or long list as longs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wholes(pub Vec<i64>);

impl FromQ for Wholes {
    const TYPE: &'static str = "a long list";
    fn read(x: K) -> Result<Option<Wholes>> {
        Ok(read::longs(x).map(Wholes))
    }
}

/// Symbols: a symbol atom or a symbol list, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Syms(pub Vec<&'static str>);

impl FromQ for Syms {
    const TYPE: &'static str = "a symbol or symbol list";
    fn read(x: K) -> Result<Option<Syms>> {
        Ok(read::symbol(x)
            .map(|s| vec![s])
            .or_else(|| read::symbols(x))
            .map(Syms))
    }
}
