//! Functional forms of modules (knn.cpp's `act`, `flatten`, `linear`): `relu x`,
//! `relu(x;inplace)`, `softmax(x;dim)`, `softmax(x;dim;type)`, `logsoftmax(..)`,
//! `flatten x`, `flatten(x;start)`, `flatten(x;start;end)`, `linear(x;w)`, `linear(x;w;b)`.
//! x is a tensor handle (result a new handle; null after an in-place call) or q data (result q
//! data). Options may also be given by name, as in module definitions: `` softmax(x;`dim,1) ``.
pub mod act;
pub mod conv;
pub mod distance;
pub mod norm;
pub mod rnn;
pub mod shape;
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::tensor::opargs::{self, describe, Input};
use crate::tensor::{arg, options, result};
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

/// The input tensor, whether it came from a handle, and the remaining arguments.
pub fn input(x: &K) -> Result<(Tensor, bool, &[K])> {
    let (a, x) = (x, *x);
    if opargs::is_tensor(x) {
        return Ok((crate::registry::tensor(x)?, true, &[]));
    }
    if let Some(v) = from::list(a) {
        if v.first().is_some_and(|a| opargs::is_tensor(*a)) {
            return Ok((crate::registry::tensor(v[0])?, true, &v[1..]));
        }
    }
    if let Some(t) = opargs::array(x) {
        return Ok((t, false, &[]));
    }
    match from::list(a) {
        Some(v) if !v.is_empty() => {
            let (t, h) = arg(v[0])?;
            Ok((t, h, &v[1..]))
        }
        _ => bail!("unrecognized arg(s), given {}", describe(x)),
    }
}

/// Options by position, owning the list made from a dictionary's simple values (which the
/// options may point into).
pub struct Opts {
    vals: Vec<Option<K>>,
    _made: Option<crate::k::Owned>,
}

impl std::ops::Deref for Opts {
    type Target = [Option<K>];
    fn deref(&self) -> &[Option<K>] {
        &self.vals
    }
}

/// Options named `names` from positional args and trailing pairs (a dictionary or a list
/// `` (`name;value;..) ``).
pub fn opts(args: &[K], names: &[&str]) -> Result<Opts> {
    let mut v: Vec<Option<K>> = vec![None; names.len()];
    let mut made = None;
    let mut pos = args;
    if let Some(last) = args.last() {
        if read::dict_parts(*last).is_some()
            || (read::ktype(*last) == 0
                && from::list(last)
                    .is_some_and(|i| i.first().is_some_and(|a| <&str>::of(*a).is_some())))
        {
            let items: Vec<(&str, K)> = match read::dict_parts(*last) {
                Some((k, vals)) => {
                    let ks = Vec::<&str>::of(k)
                        .ok_or_else(|| anyhow!("option names expected as symbols"))?;
                    let vs = super::spec::exploded(vals, ks.len())?;
                    let items = ks.into_iter().zip(vs.iter().copied()).collect();
                    made = vs.made;
                    items
                }
                None => from::list(last)
                    .unwrap()
                    .chunks(2)
                    .map(|p| (<&str>::of(p[0]).unwrap_or(""), *p.get(1).unwrap_or(&p[0])))
                    .collect(),
            };
            for (k, x) in items {
                let i = names
                    .iter()
                    .position(|n| *n == k)
                    .ok_or_else(|| anyhow!("unrecognized option `{k}"))?;
                v[i] = Some(x);
            }
            pos = &args[..args.len() - 1];
        }
    }
    if pos.len() > names.len() {
        bail!(
            "expected up to {} positional arg(s), given {}",
            names.len(),
            pos.len()
        );
    }
    for (i, x) in pos.iter().enumerate() {
        v[i] = Some(*x);
    }
    Ok(Opts {
        vals: v,
        _made: made,
    })
}

pub fn long(opt: &str, x: K) -> Result<i64> {
    i64::of(x).ok_or_else(|| anyhow!("{opt}: expected long scalar, given {}", describe(x)))
}

pub fn done(r: Tensor, t: &Tensor, handle: bool) -> KResult {
    if handle && r.data_ptr() == t.data_ptr() && r.size() == t.size() && r.kind() == t.kind() {
        return Ok(make::null());
    }
    result(r, handle)
}

/// A layer named by a type: the type parameter of a kind that reads a layer's options
/// ([`ByLayer`], distance's `Distance`), one marker type per q function (made by
/// `by_layer!`).
pub trait Named {
    const NAME: &'static str;
}

/// The layer of marker `L`.
pub fn layer_of<L: Named>() -> Result<&'static super::layers::Layer> {
    super::layers::find(L::NAME).ok_or_else(|| anyhow!("no layer `{}", L::NAME))
}

/// A module of layer `l` from the options after the inputs: positional values, then
/// name-value pairs last (as in a module's definition).
pub fn module_of(l: &'static super::layers::Layer, args: &[K]) -> Result<super::Module> {
    let (pos, named) = match args.last() {
        Some(last) => match super::spec::pairs(*last)? {
            Some(p) => (&args[..args.len() - 1], p),
            None => (args, super::spec::Pairs::default()),
        },
        None => (args, super::spec::Pairs::default()),
    };
    let opts = super::spec::options(l, pos, &named)?;
    super::Module::new(l, None, opts)
}

/// The functional form of parameter-free layer `L`: `f x`, `f(x;opt1;..)`,
/// `` f(x;..;`name,value) `` (the layer's own options, positional then by name as in
/// definitions): the input, whether it came from a handle, and the module of the options.
pub struct ByLayer<L: Named> {
    t: Tensor,
    handle: bool,
    module: super::Module,
    _layer: std::marker::PhantomData<L>,
}

impl<L: Named> FromQ for ByLayer<L> {
    const TYPE: &'static str = "an input and the layer's options";
    /// Every value is a call or an error (the input's, or the options' naming the layer).
    fn read(x: K) -> Result<Option<ByLayer<L>>> {
        let l = layer_of::<L>()?;
        let (t, handle, args) = input(&x)?;
        Ok(Some(ByLayer {
            t,
            handle,
            module: module_of(l, args)?,
            _layer: std::marker::PhantomData,
        }))
    }
}

impl<L: Named> ByLayer<L> {
    /// The layer run once in evaluation mode (rrelu's mean slope; fractional pooling still
    /// draws from the global generator): a new handle for a tensor input (null when done in
    /// place), q data for q data.
    pub fn run(self) -> KResult {
        let r = self.module.forward1(&super::Run::new(false), &self.t)?;
        done(r, &self.t, self.handle)
    }
}

/// Typed q functions run by the layer of their name: `by_layer!(Kind: celu, elu)` makes
/// `celu(call: Kind<which::celu>)` (and its `celu::q`) answering `call.run()`, with a marker
/// type of [`Named`] for each name in a module `which` of the caller.
macro_rules! by_layer {
    ($kind:ident: $($name:ident),+ $(,)?) => {
        /// The layer of each q function here, as a type ([`Named`](crate::nn::functional::Named)).
        #[allow(non_camel_case_types)]
        mod which {
            $(
                pub struct $name;
                impl $crate::nn::functional::Named for $name {
                    const NAME: &'static str = stringify!($name);
                }
            )+
        }
        $(
            $crate::qfn! {
                #[doc = concat!("`", stringify!($name), "`: the layer of that name run on the input with the options given.")]
                pub fn $name(call: $kind<which::$name>) -> KResult {
                    call.run()
                }
            }
        )+
    };
}
pub(crate) use by_layer;

/// `relu x`, `relu(x;inplace)`, the flag also by name.
pub struct Relu {
    t: Tensor,
    handle: bool,
    inplace: bool,
}

impl FromQ for Relu {
    const TYPE: &'static str = "an input and an in-place flag";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Relu>> {
        let (t, handle, args) = input(&x)?;
        let o = opts(args, &["inplace"])?;
        let inplace = match o[0] {
            None => false,
            Some(f) => bool::of(f)
                .ok_or_else(|| anyhow!("unrecognized option(s), expected single boolean flag"))?,
        };
        Ok(Some(Relu { t, handle, inplace }))
    }
}

crate::qfn! {
    /// `relu x`, `relu(x;inplace)`: max(x,0), in place on a tensor when the flag is on (null).
    pub fn relu(x: Relu) -> KResult {
        let r = if x.inplace {
            x.t.shallow_clone().f_relu_()?
        } else {
            x.t.f_relu()?
        };
        done(r, &x.t, x.handle)
    }
}

/// softmax, logsoftmax, softmin: `(x;dim)` or `(x;dim;type)` (also by name); x alone takes
/// ktorch's (deprecated) default dimension: 0 for 0, 1 and 3-dimensional inputs, else 1.
pub struct Soft {
    t: Tensor,
    handle: bool,
    dim: i64,
    kind: Option<Kind>,
}

impl FromQ for Soft {
    const TYPE: &'static str = "an input, dimension and data type";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Soft>> {
        let (t, handle, args) = input(&x)?;
        if args.is_empty() && (opargs::is_tensor(x) || opargs::array(x).is_some()) {
            let d = t.dim();
            let dim = if d == 0 || d == 1 || d == 3 { 0 } else { 1 };
            return Ok(Some(Soft {
                t,
                handle,
                dim,
                kind: None,
            }));
        }
        let o = opts(args, &["dim", "dtype"])?;
        let Some(d) = o[0] else {
            bail!("unrecognized arg(s), expected dim or (dim;data type)")
        };
        let dim = long("dim", d)?;
        let kind =
            match o[1] {
                None => None,
                Some(s) => Some(<&str>::of(s).and_then(options::kind_from_name).ok_or_else(
                    || anyhow!("dtype: expected data type symbol, given {}", describe(s)),
                )?),
            };
        Ok(Some(Soft {
            t,
            handle,
            dim,
            kind,
        }))
    }
}

impl Soft {
    /// `f` of the input along the dimension, in the data type given.
    pub fn apply(
        self,
        f: fn(&Tensor, i64, Option<Kind>) -> Result<Tensor, tch::TchError>,
    ) -> KResult {
        done(f(&self.t, self.dim, self.kind)?, &self.t, self.handle)
    }
}

crate::qfn! {
    /// `softmax(x;dim)`, `softmax(x;dim;type)`, `softmax x`.
    pub fn softmax(x: Soft) -> KResult {
        x.apply(|t, d, k| t.f_softmax(d, k))
    }

    /// `logsoftmax(x;dim)`, `logsoftmax(x;dim;type)`, `logsoftmax x`.
    pub fn logsoftmax(x: Soft) -> KResult {
        x.apply(|t, d, k| t.f_log_softmax(d, k))
    }
}

/// `flatten x` (from dimension 0, unlike the module's 1), `flatten(x;start)`,
/// `flatten(x;start;end)`, options also by name.
pub struct Flatten {
    t: Tensor,
    handle: bool,
    start: i64,
    end: i64,
}

impl FromQ for Flatten {
    const TYPE: &'static str = "an input and start and end dimensions";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Flatten>> {
        let (t, handle, args) = input(&x)?;
        let o = opts(args, &["start", "end"])?;
        let start = o[0].map(|a| long("start", a)).transpose()?.unwrap_or(0);
        let end = o[1].map(|a| long("end", a)).transpose()?.unwrap_or(-1);
        Ok(Some(Flatten {
            t,
            handle,
            start,
            end,
        }))
    }
}

crate::qfn! {
    /// `flatten x`, `flatten(x;start)`, `flatten(x;start;end)`: dimensions start to end made one.
    pub fn flatten(x: Flatten) -> KResult {
        done(x.t.f_flatten(x.start, x.end)?, &x.t, x.handle)
    }
}

/// Tensor inputs given as q data or handles, as one: q data goes to the device of the first
/// handle (ktorch's `xtenarg`), and a result is a handle if any input was one.
pub fn together<const N: usize>(inputs: [Option<Input>; N]) -> Result<(Vec<Tensor>, bool)> {
    let given: Vec<Input> = inputs.into_iter().flatten().collect();
    let device = given.iter().find(|i| i.handle).map(|i| i.t.device());
    let ts = given
        .into_iter()
        .map(|i| match device {
            Some(d) if !i.handle && d != tch::Device::Cpu => i.t.f_to_device(d),
            _ => Ok(i.t),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((ts, device.is_some()))
}

crate::qfn! {
    /// `linear(x;w)`, `linear(x;w;b)`: x w' + b, any of them q data or tensors.
    pub fn linear(x: Input, w: Input, b: Option<Input>) -> KResult as "(input;weight;[bias])" {
        let (ts, h) = together([Some(x), Some(w), b])?;
        result(ts[0].f_linear(&ts[1], ts.get(2))?, h)
    }
}
