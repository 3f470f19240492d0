//! Typed q functions (issue 36): a domain function declares its q arguments in its Rust
//! signature, as PyO3's `#[pyfunction]` does, and [`qfn!`](crate::qfn) generates the one
//! function that takes `K`:
//!
//! ```text
//! qfn! {
//!     /// `seed n`: ...
//!     pub fn seed(n: Seed) -> Result<()> { .. }
//! }
//! ```
//!
//! keeps `seed` as written (typed: Rust callers and tests call it so) and adds `seed::q`, the
//! `fn(K) -> KResult` that the fns row names (`"seed" as "kseed" => session::seed::seed::q`):
//!
//! - no parameter: q's argument is ignored (`emptycache[]`);
//! - one parameter: q's argument is read as its kind ([`FromQ::from_q`](super::from::FromQ::from_q));
//! - two or more: q's argument is the list `(a;b;..)` of exactly that many items
//!   ([`from::items`](super::from::items), `expected (a;b), given N arguments`), each read as
//!   its kind;
//!
//! - trailing `Option<T>` parameters: optional arguments, read from the end of the list as
//!   [`from::Trailing`](super::from::Trailing) reads them (each taken when the argument has its
//!   kind `T`, else `None`: `f(x;dim;keepdim)` given as `f(x;1b)` has no `dim`); with one
//!   required parameter q's argument may be that one alone (`f x`: its kind's
//!   [`alone`](super::from::FromQ::alone), or a value that is no list); the usage in a count's
//!   error brackets them, `expected (x;[dim];[keepdim]), given 5 arguments`, and an argument
//!   none of them takes is the error of the optional of its place (`dim expected as a long,
//!   given a symbol`). An `Option<T>` followed by a required parameter is itself required (a
//!   nullable `T`, `0N` for `None`). Defaults are applied in the body (`dim.unwrap_or(-1)`);
//! - `-> R as "(file;image)"`: the usage a count's error says, in place of the parameters';
//! - a `"name" / 2` row of src/fns.rs (q calls it with two arguments) hands the two as the list
//!   `(x;y)`: a function of two parameters reads them as it reads `f(x;y)`;
//!
//! each read names its parameter in the error (`b expected as a long, given a symbol`), and the
//! guard puts the q function's name in front (`'f: b expected as ...`). A kind with ktorch's
//! own wording (`'seed: expected a long seed`) says it in its `FromQ::wrong`. The result is
//! made a q value by [`IntoQ`]. A q function whose argument q overloads on its shape (`version`
//! takes `()`, `::` or a name) takes one kind, an enum of the forms.
use anyhow::Result;

use super::{from, make, read, K};
use from::FromQ;

/// A typed result as a q value.
pub trait IntoQ {
    fn into_q(self) -> K;
}

/// A q value made already.
impl IntoQ for K {
    fn into_q(self) -> K {
        self
    }
}

/// Nothing: q's generic null `::`.
impl IntoQ for () {
    fn into_q(self) -> K {
        make::null()
    }
}

/// A boolean atom.
impl IntoQ for bool {
    fn into_q(self) -> K {
        make::boolean(self)
    }
}

/// A long atom.
impl IntoQ for i64 {
    fn into_q(self) -> K {
        make::long(self)
    }
}

/// A float atom.
impl IntoQ for f64 {
    fn into_q(self) -> K {
        make::float(self)
    }
}

/// A float vector.
impl IntoQ for Vec<f64> {
    fn into_q(self) -> K {
        make::floats(&self)
    }
}

/// A long vector.
impl IntoQ for Vec<i64> {
    fn into_q(self) -> K {
        make::longs(&self)
    }
}

/// A symbol atom.
impl IntoQ for &str {
    fn into_q(self) -> K {
        make::symbol(self)
    }
}

/// A char vector.
impl IntoQ for String {
    fn into_q(self) -> K {
        make::string(&self)
    }
}

/// The one required argument `arg` of a call with trailing optionals, when q's argument is it
/// alone: its kind says so ([`FromQ::alone`]: a handle, an array), or `x` is no argument list of
/// 1 to `max` items and reads as the kind (a symbol, a long vector, `()` for `Vec<i64>`).
/// `None`: `x` is the argument list. A value that is neither is the kind's error (no list), or
/// the count's (a list of too many).
pub fn alone<T: FromQ>(x: K, arg: &str, max: usize, usage: &str) -> Result<Option<T>> {
    if let Some(t) = T::alone(x)? {
        return Ok(Some(t));
    }
    match from::list(&x) {
        Some(v) if (1..=max).contains(&v.len()) => Ok(None),
        Some(_) => match T::read(x)? {
            Some(t) => Ok(Some(t)),
            None => from::items(&x, 1..=max, usage).map(|_| None),
        },
        None => T::from_q(x, arg).map(Some),
    }
}

/// The items of argument list `x` for `req` required arguments and up to `opt` optional ones:
/// with no required argument, `::` or `()` is none given and a value that is no list is the
/// one optional given.
pub fn arguments<'a>(x: &'a K, req: usize, opt: usize, usage: &str) -> Result<&'a [K]> {
    if req == 0 {
        if read::is_unset(*x) {
            return Ok(&[]);
        }
        if from::list(x).is_none() {
            return Ok(std::slice::from_ref(x));
        }
    }
    from::items(x, req..=req + opt, usage)
}

/// A kind's [`wrong`](FromQ::wrong): the error of a value of another kind.
pub type Wrong = fn(K, &str) -> anyhow::Error;

/// The error of an argument left unread after the optionals were taken from the back of
/// `v[..n]` (`taken`: which were): the last argument left, read as the optional of its place
/// among those not taken before the first taken (each was tried on it): that kind's
/// [`wrong`](FromQ::wrong), `ARG expected as TYPE, given WHAT` or the kind's own words.
pub fn unread(
    v: &[K],
    n: usize,
    req: usize,
    taken: &[bool],
    opts: &[(&str, Wrong)],
) -> anyhow::Error {
    let tried = taken.iter().position(|t| *t).unwrap_or(opts.len()).max(1);
    let (arg, wrong) = opts[(n - 1 - req).min(tried - 1)];
    wrong(v[n - 1], arg)
}

/// Declare typed q functions (see the module's doc): each `fn` as written, and beside it a
/// module of its name holding `q`, the `fn(K) -> KResult` that reads its arguments.
#[macro_export]
macro_rules! qfn {
    ($(
        $(#[$m:meta])*
        $vis:vis fn $name:ident ( $($p:tt)* ) -> $r:ty $(as $u:literal)? $body:block
    )*) => {$(
        $(#[$m])*
        // a hint: a small function (`add`'s hot path, `free h`) joins its wrapper's body
        #[inline]
        $vis fn $name($($p)*) -> $r $body

        #[doc = concat!("The q entry of [`", stringify!($name), "`](fn@", stringify!($name), ").")]
        $vis mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// Read q's argument as the typed parameters, call, and make the result a q value.
            pub fn q(x: $crate::k::K) -> $crate::k::KResult {
                $crate::qfn!(@params super::$name, x, [$($u)?], [] [] $($p)*)
            }
        }
    )*};
    // the parameters sorted, one at a time, into the required ones and the trailing optionals
    // (`Option<T>`): an `Option<T>` followed by a required parameter is a required parameter
    // of kind `Option<T>` (a nullable `T`), so only the last run of them is optional
    (@params $f:path, $x:ident, $u:tt, [$($r:tt)*] [$($o:tt)*]
        $a:ident : Option<$t:ty> $(, $($rest:tt)*)?) => {
        $crate::qfn!(@params $f, $x, $u, [$($r)*] [$($o)* ($a $t)] $($($rest)*)?)
    };
    (@params $f:path, $x:ident, $u:tt, [$($r:tt)*] [$(($oa:ident $ot:ty))*]
        $a:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::qfn!(@params $f, $x, $u, [$($r)* $(($oa Option<$ot>))* ($a $t)] [] $($($rest)*)?)
    };
    (@params $f:path, $x:ident, $u:tt, [$($r:tt)*] [$($o:tt)*]) => {
        $crate::qfn!(@call $f, $x, $u, [$($r)*] [$($o)*])
    };
    // no parameter: the argument is ignored
    (@call $f:path, $x:ident, $u:tt, [] []) => {{
        let _ = $x;
        Ok($crate::k::qfn::IntoQ::into_q($f()?))
    }};
    // one parameter: the argument itself
    (@call $f:path, $x:ident, $u:tt, [($a:ident $t:ty)] []) => {{
        let $a = <$t as $crate::k::from::FromQ>::from_q($x, stringify!($a))?;
        Ok($crate::k::qfn::IntoQ::into_q($f($a)?))
    }};
    // several: the list (a;b;..) of exactly that many
    (@call $f:path, $x:ident, $u:tt, [$(($a:ident $t:ty))+] []) => {{
        const N: usize = [$(stringify!($a)),+].len();
        let usage = $crate::qfn!(@usage $u, concat!("(", $crate::qfn!(@join $($a),+), ")"));
        let v = $crate::k::from::items(&$x, N..=N, usage)?;
        let mut i = 0usize;
        $(
            let $a = <$t as $crate::k::from::FromQ>::from_q(v[i], stringify!($a))?;
            i += 1;
        )+
        let _ = i;
        Ok($crate::k::qfn::IntoQ::into_q($f($($a),+)?))
    }};
    // one required argument and trailing optionals: `f x`, the argument alone (when its kind
    // says it comes alone, or it is no argument list of a count the call can have), or
    // `f(x;..)`
    (@call $f:path, $x:ident, $u:tt, [($a:ident $t:ty)] [$(($oa:ident $ot:ty))+]) => {{
        const O: usize = [$(stringify!($oa)),+].len();
        let usage = $crate::qfn!(@usage $u, concat!("(", $crate::qfn!(@join $a, $([$oa]),+), ")"));
        match $crate::k::qfn::alone::<$t>($x, stringify!($a), 1 + O, usage)? {
            Some($a) => {
                $(let $oa: Option<$ot> = None;)+
                Ok($crate::k::qfn::IntoQ::into_q($f($a, $($oa),+)?))
            }
            None => $crate::qfn!(@list $f, $x, usage, [($a $t)] [$(($oa $ot))+]),
        }
    }};
    // no or several required arguments and trailing optionals: `f(a;b;..)`
    (@call $f:path, $x:ident, $u:tt, [$(($a:ident $t:ty))*] [$(($oa:ident $ot:ty))+]) => {{
        let usage = $crate::qfn!(@usage $u, concat!("(", $crate::qfn!(@join $($a,)* $([$oa]),+), ")"));
        $crate::qfn!(@list $f, $x, usage, [$(($a $t))*] [$(($oa $ot))+])
    }};
    // the argument list: the required ones in order (their places do not depend on the
    // optionals given), then the optionals read from the back as `from::Trailing` reads them,
    // each taken when it has its kind
    (@list $f:path, $x:ident, $usage:ident, [$(($a:ident $t:ty))*] [$(($oa:ident $ot:ty))+]) => {{
        const R: usize = 0 $(+ $crate::qfn!(@one $a))*;
        const O: usize = [$(stringify!($oa)),+].len();
        let v = $crate::k::qfn::arguments(&$x, R, O, $usage)?;
        let mut i = 0usize;
        $(
            let $a = <$t as $crate::k::from::FromQ>::from_q(v[i], stringify!($a))?;
            i += 1;
        )*
        let _ = i;
        let mut n = v.len();
        let ($($oa,)+) = <($($ot,)+) as $crate::k::from::Trailing>::take(v, &mut n, R)?;
        if n != R {
            return Err($crate::k::qfn::unread(
                v,
                n,
                R,
                &[$($oa.is_some()),+],
                &[$((
                    stringify!($oa),
                    <$ot as $crate::k::from::FromQ>::wrong as $crate::k::qfn::Wrong,
                )),+],
            ));
        }
        Ok($crate::k::qfn::IntoQ::into_q($f($($a,)* $($oa),+)?))
    }};
    // a usage declared (`-> R as "(file;image)"`), else the parameters'
    (@usage [$u:literal], $d:expr) => { $u };
    (@usage [], $d:expr) => { $d };
    (@one $a:ident) => { 1 };
    (@join $a:tt) => { stringify!($a) };
    (@join $a:tt, $($b:tt),+) => { concat!(stringify!($a), ";", $crate::qfn!(@join $($b),+)) };
}
