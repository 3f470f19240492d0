//! Reading module definitions as ktorch does (knn.cpp's `msyms`, `mtree`, `mdv`, and the option
//! readers' `xargc`/`xpairs`):
//! - one layer: a symbol `` `relu ``, type and name `` `relu`r ``, or a general list of type,
//!   optional name, positional options and, last, named options: a dictionary
//!   (`` `in`out!784 10 ``), a list `` (`bias;0b) `` or `` `bias`inplace... `` pairs, or a list
//!   of pairs `` ((`in;784);(`out;10)) ``;
//! - a tree: a general list whose first item defines a container and whose other items are its
//!   children, each a tree in turn (`` (`sequential; enlist(`linear;5;2); `relu) ``), which is
//!   why a lone list of options is enlisted: `` module enlist(`linear;784;10) ``;
//! - depth-value pairs: `` (0;`sequential) `` or a list of them,
//!   `` ((0;`sequential); (1;(`linear;64;10)); (1;`relu)) ``.
use anyhow::{anyhow, bail, Result};

use super::layers::{self, Def, Layer, Opt, Ty, Val};
use super::Module;
use crate::k::from::{self, FromQ, Number as Num, Whole, Wholes};
use crate::k::{make, read, Owned, K};
use crate::tensor::opargs::describe;

/// Named options given last: (name, value) in order, owning the q values made while reading
/// them (a simple list's items as atoms), which its K's may point into.
#[derive(Default)]
pub struct Pairs {
    list: Vec<(&'static str, K)>,
    _made: Option<Owned>,
}

impl std::ops::Deref for Pairs {
    type Target = Vec<(&'static str, K)>;
    fn deref(&self) -> &Self::Target {
        &self.list
    }
}

impl FromIterator<(&'static str, K)> for Pairs {
    /// Pairs of values borrowed from the arguments (nothing made).
    fn from_iter<I: IntoIterator<Item = (&'static str, K)>>(i: I) -> Pairs {
        Pairs {
            list: i.into_iter().collect(),
            _made: None,
        }
    }
}

impl Pairs {
    /// `list`, whose values may point into `made`.
    fn with(list: Vec<(&'static str, K)>, made: Option<Owned>) -> Pairs {
        Pairs { list, _made: made }
    }
}

/// The pairs in `x` if `x` has one of the name-value forms (ktorch's `xpairs`).
pub fn pairs(x: K) -> Result<Option<Pairs>> {
    if let Some((k, v)) = read::dict_parts(x) {
        let keys = match Vec::<&str>::of(k) {
            Some(s) => s,
            None if read::ktype(k) == 0 && read::len(k) == 0 => vec![],
            None => bail!("unexpected name,value dictionary with {} keys", describe(k)),
        };
        let vals = exploded(v, keys.len())?;
        let list = keys.into_iter().zip(vals.iter().copied()).collect();
        return Ok(Some(Pairs::with(list, vals.made)));
    }
    if let Some(s) = Vec::<&str>::of(x) {
        if s.len() % 2 == 1 {
            bail!(
                "uneven no. of symbols for name,value pairs: {}",
                s.join("`")
            );
        }
        // values are symbols too: make each a symbol atom on demand (kept as the list's items)
        let vals = exploded(x, s.len())?;
        let list = s
            .chunks(2)
            .zip(vals.chunks(2))
            .map(|(k, v)| (k[0], v[1]))
            .collect();
        return Ok(Some(Pairs::with(list, vals.made)));
    }
    let Some(items) = from::list(&x) else {
        return Ok(None);
    };
    if items.is_empty() {
        return Ok(Some(Pairs::default()));
    }
    if <&str>::of(items[0]).is_some() {
        if items.len() % 2 == 1 {
            bail!("uneven no. of elements for name,value pairs in list");
        }
        return items
            .chunks(2)
            .enumerate()
            .map(|(i, p)| {
                Ok((
                    <&str>::of(p[0]).ok_or_else(|| {
                        anyhow!(
                            "unrecognized name for pair, element[{}], expected symbol, given {}",
                            2 * i,
                            describe(p[0])
                        )
                    })?,
                    p[1],
                ))
            })
            .collect::<Result<_>>()
            .map(Some);
    }
    let is_pair = |y: K| {
        read::len(y) == 2
            && (read::ktype(y) == 11 || from::list(&y).is_some_and(|v| <&str>::of(v[0]).is_some()))
    };
    if is_pair(items[0]) {
        let mut v = vec![];
        // the values of symbol-list pairs, made as atoms: one list owns them all
        let mut made = vec![];
        for (i, y) in items.iter().enumerate() {
            if !is_pair(*y) {
                bail!("name,value pair[{i}] has no name symbol or not 2 elements");
            }
            let e = exploded(*y, 2)?;
            let k = <&str>::of(e[0])
                .or_else(|| Vec::<&str>::of(*y).map(|s| s[0]))
                .unwrap();
            v.push((k, e[1]));
            made.extend(e.made);
        }
        let made = (!made.is_empty())
            .then(|| Owned::new(make::list(made.into_iter().map(Owned::into_raw).collect())));
        return Ok(Some(Pairs::with(v, made)));
    }
    Ok(None)
}

/// Items of a list as atoms: a general list's own items (borrowed from the argument), or the
/// items of a list made from a simple one, which this value owns (released when it is dropped,
/// also on an error or a panic: tch panics from some `f_` methods taking a Scalar).
pub struct Exploded {
    items: Vec<K>,
    pub made: Option<Owned>,
}

impl std::ops::Deref for Exploded {
    type Target = [K];
    fn deref(&self) -> &[K] {
        &self.items
    }
}

pub fn exploded(x: K, n: usize) -> Result<Exploded> {
    if read::len(x) as usize != n {
        bail!("expected {n} value(s), given {}", read::len(x));
    }
    if let Some(v) = from::list(&x) {
        return Ok(Exploded {
            items: v.to_vec(),
            made: None,
        });
    }
    let e = Owned::new(make::explode(x));
    Ok(Exploded {
        items: e.items().unwrap().to_vec(),
        made: Some(e),
    })
}

/// A value of option type `ty` from `x`, else an error naming the module and option.
/// `nullable`: `::` (or a null long/double) leaves the option unset.
fn value(owner: &str, name: &str, ty: Ty, nullable: bool, x: K) -> Result<Val> {
    let t = read::ktype(x);
    if nullable
        && (read::is_unset(x)
            || (t == -7 && Whole::of(x).map(|w| w.0) == Some(i64::MIN))
            || (t == -9 && matches!(Num::of(x), Some(Num::Float(f)) if f.is_nan())))
    {
        return Ok(Val::None);
    }
    let float = |x: K| match Num::of(x) {
        Some(Num::Int(i)) => Some(i as f64),
        Some(Num::Float(f)) => Some(f),
        None => None,
    };
    let count = |n: usize, len: usize| n == 0 || len == n;
    let one_of = |choices: &[&str], s: &'static str| choices.is_empty() || choices.contains(&s);
    let v = match ty {
        Ty::Long if matches!(t, -7..=-5) => Whole::of(x).map(|w| w.0).map(Val::Long),
        Ty::Bool => bool::of(x).map(Val::Bool),
        Ty::Float if matches!(t, -9..=-5) => float(x).map(Val::Float),
        Ty::Size(_) if matches!(t, -7..=-5) => Whole::of(x)
            .map(|w| w.0)
            .map(|j| Val::Longs(layers::expand(&[j], ty))),
        Ty::Size(n) if matches!(t, 5..=7) => Wholes::of(x)
            .map(|w| w.0)
            .filter(|v| count(n, v.len()))
            .map(Val::Longs),
        Ty::SizeOrSym(_, c) if t == -11 => <&str>::of(x).filter(|s| c.contains(s)).map(Val::Sym),
        Ty::SizeOrSym(_, _) if matches!(t, -7..=-5) => Whole::of(x)
            .map(|w| w.0)
            .map(|j| Val::Longs(layers::expand(&[j], ty))),
        Ty::SizeOrSym(n, _) if matches!(t, 5..=7) => Wholes::of(x)
            .map(|w| w.0)
            .filter(|v| count(n, v.len()))
            .map(Val::Longs),
        Ty::Floats(_) if matches!(t, -9..=-5) => {
            float(x).map(|f| Val::Floats(layers::expand(&[f], ty)))
        }
        Ty::Floats(n) if matches!(t, 5..=9) => {
            let v: Option<Vec<f64>> = exploded(x, read::len(x) as usize)
                .ok()
                .and_then(|e| e.iter().map(|i| float(*i)).collect());
            v.filter(|v| count(n, v.len())).map(Val::Floats)
        }
        Ty::Sym(c) => <&str>::of(x).filter(|s| one_of(c, s)).map(Val::Sym),
        Ty::Syms(c) => Vec::<&str>::of(x)
            .or_else(|| <&str>::of(x).map(|s| vec![s]))
            .filter(|v| v.iter().all(|s| one_of(c, s)))
            .map(Val::Syms),
        Ty::Str => <&str>::of(x)
            .map(Val::Sym)
            .or_else(|| String::of(x).map(Val::Str)),
        _ => None,
    };
    // Sizes (kernels, strides, padding, dilation, output sizes) past 2^31 make libtorch's
    // output-size arithmetic overflow: a pooling loop over a kernel of 0W never ends (found by
    // ktorch-fuzz). No real layer comes near the bound. A null (0N) is kept: in adaptive pooling's
    // output sizes it means "as the input".
    if let Some(Val::Longs(l)) = &v {
        if let Some(j) = l
            .iter()
            .find(|j| **j != i64::MIN && j.unsigned_abs() > i32::MAX as u64)
        {
            bail!(
                "{owner} {name}: size {j} out of range (at most {} either side of 0)",
                i32::MAX
            );
        }
    }
    v.ok_or_else(|| {
        let want = match ty {
            Ty::Long => "long scalar".to_string(),
            Ty::Bool => "boolean scalar".to_string(),
            Ty::Float => "double".to_string(),
            Ty::Size(0) => "long(s)".to_string(),
            Ty::Size(n) => format!("long scalar or list of {n} longs"),
            Ty::SizeOrSym(n, c) => format!(
                "long scalar or list of {n} longs, or one of `{}",
                c.join("`")
            ),
            Ty::Floats(0) => "double(s)".to_string(),
            Ty::Floats(n) => format!("double scalar or list of {n} doubles"),
            Ty::Sym([]) => "symbol".to_string(),
            Ty::Sym(c) => format!("one of `{}", c.join("`")),
            Ty::Syms([]) => "symbol(s)".to_string(),
            Ty::Syms(c) => format!("symbol(s) from `{}", c.join("`")),
            Ty::Str => "symbol or string".to_string(),
        };
        anyhow!("{owner} {name}: expected {want}, given {}", describe(x))
    })
}

/// The options of layer `l` from the positional values and pairs, with defaults filled in.
pub fn options(l: &Layer, pos: &[K], named: &[(&'static str, K)]) -> Result<Vec<Val>> {
    settings(l.name, l.opts, pos, named)
}

/// Values for the option table `opts` of `owner` (a layer, an optimizer) from positional values
/// and pairs, with defaults filled in; errors name the owner and the option.
pub fn settings(
    owner: &str,
    opts: &[Opt],
    pos: &[K],
    named: &[(&'static str, K)],
) -> Result<Vec<Val>> {
    settings_from(
        owner,
        opts,
        opts.iter().map(|o| o.default.val(o.ty)).collect(),
        pos,
        named,
    )
}

/// As [`settings`], starting from `base` instead of the defaults: an optimizer's group takes the
/// options given and keeps the others from the optimizer's defaults or its current options
/// (kopt.cpp's `optedit`, as PyTorch's `add_param_group`).
pub fn settings_from(
    owner: &str,
    opts: &[Opt],
    base: Vec<Option<Val>>,
    pos: &[K],
    named: &[(&'static str, K)],
) -> Result<Vec<Val>> {
    if pos.len() > opts.len() {
        if opts.is_empty() {
            bail!("{owner}: no arguments expected");
        }
        bail!(
            "{owner}: expected up to {} positional arg(s), {} given",
            opts.len(),
            pos.len()
        );
    }
    let mut v = base;
    let nullable = |i: usize| opts[i].default == Def::Null;
    for (i, x) in pos.iter().enumerate() {
        v[i] = Some(value(owner, opts[i].name, opts[i].ty, nullable(i), *x)?);
    }
    for (k, x) in named {
        let Some(i) = opts.iter().position(|o| o.name == *k) else {
            if opts.is_empty() {
                bail!("{owner}: no arguments expected");
            }
            bail!("{owner}: unrecognized option `{k}");
        };
        v[i] = Some(value(owner, k, opts[i].ty, nullable(i), *x)?);
    }
    v.into_iter()
        .zip(opts)
        .map(|(v, o)| v.ok_or_else(|| anyhow!("{owner}: no value given for option `{}", o.name)))
        .collect()
}

/// One layer definition: a symbol, symbols (type, name, then options given as symbols) or a
/// general list (type; optional name; options..). Returns the module (without children).
pub fn layer(x: K) -> Result<Module> {
    let syms: Exploded;
    let (ty, name, rest): (&str, Option<&str>, &[K]) = if let Some(s) = <&str>::of(x) {
        (s, None, &[])
    } else if let Some(s) = Vec::<&str>::of(x) {
        match s.len() {
            0 => bail!("empty symbol list"),
            1 | 2 => (s[0], s.get(1).copied(), &[]),
            n => {
                syms = exploded(x, n)?;
                (s[0], Some(s[1]), &syms[2..])
            }
        }
    } else if let Some(v) = from::list(&x) {
        let Some(s) = v.first().and_then(|a| <&str>::of(*a)) else {
            bail!(
                "no module symbol found, given {}",
                if v.is_empty() {
                    "empty list".into()
                } else {
                    describe(v[0])
                }
            );
        };
        match v.get(1).and_then(|a| <&str>::of(*a)) {
            Some(n) => (s, Some(n), &v[2..]),
            None => (s, None, &v[1..]),
        }
    } else {
        bail!("unrecognized module definition, given {}", describe(x));
    };
    let l = layers::find(ty).ok_or_else(|| anyhow!("unrecognized module type: `{ty}"))?;
    // a symbol list last is name-value pairs only when it names options (a callback's input
    // types `tensor`tensor are a value)
    let named_opt = |k: &str| {
        l.opts.iter().any(|o| o.name == k) || (ty == "callback" && matches!(k, "parms" | "buffers"))
    };
    let names_opts = |x: K| {
        // a dictionary last names options only when its keys are options (a callback's
        // parameters may be given as one)
        if let Some((k, _)) = read::dict_parts(x).filter(|_| ty == "callback") {
            return Vec::<&str>::of(k).is_none_or(|s| s.iter().all(|k| named_opt(k)));
        }
        Vec::<&str>::of(x).is_none_or(|s| s.iter().step_by(2).all(|k| named_opt(k)))
    };
    let (pos, named) = match rest.last().filter(|x| names_opts(**x)) {
        Some(last) => match pairs(*last)? {
            Some(p) => (&rest[..rest.len() - 1], p),
            None => (rest, Pairs::default()),
        },
        None => (rest, Pairs::default()),
    };
    // a callback's `parms` and `buffers` (4th and 5th positional, or named) are tensors for its
    // q function, not options (knn/callback.cpp's cbparms)
    if ty == "callback" {
        // `named`'s values may point into a list it owns: it lives to the end of this branch
        let (mut pos, mut kept) = (pos.to_vec(), named.to_vec());
        let mut given: Vec<(bool, K)> = vec![];
        for (i, b) in [(4, true), (3, false)] {
            if pos.len() > i {
                given.push((b, pos.remove(i)));
            }
        }
        kept.retain(|(k, v)| match *k {
            "parms" | "buffers" => {
                given.push((*k == "buffers", *v));
                false
            }
            _ => true,
        });
        let opts = options(l, &pos, &kept)?;
        drop(named);
        let mut m = Module::new(l, name.map(str::to_string), opts)?;
        for (buffers, v) in given {
            for (k, t) in callback_tensors(v, buffers)? {
                if buffers {
                    m.buffers.push((k, t));
                } else {
                    m.parms.push((k, t));
                }
            }
        }
        return Ok(m);
    }
    let opts = options(l, pos, &named)?;
    Module::new(l, name.map(str::to_string), opts)
}

/// A callback's parameters or buffers: a q dictionary, (names;values), or a dictionary handle;
/// parameters require gradients (libtorch's `register_parameter`).
fn callback_tensors(x: K, buffers: bool) -> Result<Vec<(String, tch::Tensor)>> {
    let what = if buffers { "buffers" } else { "parms" };
    let ts: Vec<(String, tch::Tensor)> =
        if crate::registry::class_of(x) == Some(crate::registry::Class::Dictionary) {
            crate::registry::with(x, |o| match o {
                crate::registry::Obj::Dict(d) => Ok(d
                    .iter()
                    .map(|(k, t)| (k.clone(), t.shallow_clone()))
                    .collect()),
                _ => unreachable!(),
            })?
        } else {
            // the values, borrowed from `x` or from the list `exploded` made (owned by `_vals`)
            let mut _vals = None;
            let mut explode = |v: K, n: usize| -> Result<Vec<K>> {
                let e = exploded(v, n)?;
                let items = e.to_vec();
                _vals = Some(e);
                Ok(items)
            };
            let (keys, vals): (Vec<&str>, Vec<K>) = if let Some((k, v)) = read::dict_parts(x) {
                let keys = Vec::<&str>::of(k).ok_or_else(|| {
                    anyhow!(
                        "callback {what}: expected symbol keys, given {}",
                        describe(k)
                    )
                })?;
                let n = keys.len();
                (keys, explode(v, n)?)
            } else {
                match from::list(&x) {
                    Some([k, v]) if <&str>::of(*k).is_some() => {
                        (vec![<&str>::of(*k).unwrap()], vec![*v])
                    }
                    Some([k, v]) if Vec::<&str>::of(*k).is_some() => {
                        let keys = Vec::<&str>::of(*k).unwrap();
                        let n = keys.len();
                        (keys, explode(*v, n)?)
                    }
                    _ => bail!(
                        "callback {what}: expected k dictionary or (syms;vals), given {}",
                        describe(x)
                    ),
                }
            };
            keys.iter()
                .zip(vals)
                .map(|(k, v)| Ok((k.to_string(), crate::tensor::convert::to_tensor(v)?)))
                .collect::<Result<_>>()?
        };
    ts.into_iter()
        .map(|(k, t)| {
            Ok((
                k,
                if buffers {
                    t.f_detach()?
                } else {
                    t.f_detach()?.f_set_requires_grad(true)?
                },
            ))
        })
        .collect()
}

/// The stack of containers being filled (ktorch's `Modules`): a new definition at depth d goes
/// into the container at depth d-1.
#[derive(Default)]
pub struct Stack(Vec<Module>);

impl Stack {
    /// Pop to `n` modules, adding each popped one to the one below it.
    fn unwind(&mut self, n: usize) -> Result<()> {
        while self.0.len() > n {
            let m = self.0.pop().unwrap();
            match self.0.last_mut() {
                Some(p) => p.push(m)?,
                None => {
                    self.0.push(m);
                    break;
                }
            }
        }
        Ok(())
    }

    /// Add module `m` at depth `d`.
    pub fn push(&mut self, d: i64, m: Module) -> Result<()> {
        let n = self.0.len() as i64;
        let min = if n > 0 { 1 } else { 0 };
        if d < min {
            bail!("{}: depth {d} below min depth of {min}", m.layer.name);
        }
        if d > n {
            bail!("{}: depth {d} above max depth of {n}", m.layer.name);
        }
        self.unwind(d as usize)?;
        if let Some(top) = self.0.last() {
            if !top.layer.container {
                bail!(
                    "unable to add a {} module as a child of a {} module",
                    m.layer.name,
                    top.layer.name
                );
            }
        }
        if m.layer.container || self.0.is_empty() {
            self.0.push(m);
        } else {
            self.0.last_mut().unwrap().push(m)?;
        }
        Ok(())
    }

    /// The finished module: everything added to the first one.
    pub fn finish(mut self) -> Result<Module> {
        self.unwind(1)?;
        self.0
            .pop()
            .ok_or_else(|| anyhow!("empty module stack -- cannot get originating module"))
    }
}

/// A tree definition at depth `d`.
pub fn tree(x: K, d: i64, q: &mut Stack) -> Result<()> {
    match from::list(&x) {
        Some(v) if !v.is_empty() => {
            q.push(d, layer(v[0])?)?;
            for c in &v[1..] {
                tree(*c, d + 1, q)?;
            }
            Ok(())
        }
        _ => q.push(d, layer(x)?),
    }
}

/// ktorch's `xdv`: 0 when `x` is not depth-value pairs, -1 for one pair, else the count.
pub fn dv_count(x: K) -> i64 {
    let Some(v) = from::list(&x) else { return 0 };
    if v.len() == 2 && read::ktype(v[0]) == -7 {
        return -1;
    }
    if v.is_empty() || v.iter().any(|i| dv_count(*i) != -1) {
        return 0;
    }
    v.len() as i64
}

/// Depth-value pairs (`n` from `dv_count`).
pub fn dv(x: K, n: i64, q: &mut Stack) -> Result<()> {
    let pairs: Vec<K> = if n < 0 {
        vec![x]
    } else {
        from::list(&x).unwrap().to_vec()
    };
    for p in pairs {
        let v = from::list(&p).unwrap();
        q.push(Whole::of(v[0]).map(|w| w.0).unwrap(), layer(v[1])?)?;
    }
    Ok(())
}
