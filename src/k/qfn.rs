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
//! each read names its parameter in the error (`b expected as a long, given a symbol`), and the
//! guard puts the q function's name in front (`'f: b expected as ...`). A kind with ktorch's
//! own wording (`'seed: expected a long seed`) says it in its `FromQ::wrong`. The result is
//! made a q value by [`IntoQ`]. A q function whose argument q overloads on its shape (`version`
//! takes `()`, `::` or a name) takes one kind, an enum of the forms.
use super::{make, K};

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

/// A char vector.
impl IntoQ for String {
    fn into_q(self) -> K {
        make::string(&self)
    }
}

/// Declare typed q functions (see the module's doc): each `fn` as written, and beside it a
/// module of its name holding `q`, the `fn(K) -> KResult` that reads its arguments.
#[macro_export]
macro_rules! qfn {
    ($(
        $(#[$m:meta])*
        $vis:vis fn $name:ident ( $($a:ident : $t:ty),* $(,)? ) -> $r:ty $body:block
    )*) => {$(
        $(#[$m])*
        $vis fn $name($($a: $t),*) -> $r $body

        #[doc = concat!("The q entry of [`", stringify!($name), "`](fn@", stringify!($name), ").")]
        $vis mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// Read q's argument as the typed parameters, call, and make the result a q value.
            pub fn q(x: $crate::k::K) -> $crate::k::KResult {
                $crate::qfn!(@call super::$name, x, [$($a: $t),*])
            }
        }
    )*};
    // no parameter: the argument is ignored
    (@call $f:path, $x:ident, []) => {{
        let _ = $x;
        Ok($crate::k::qfn::IntoQ::into_q($f()?))
    }};
    // one parameter: the argument itself
    (@call $f:path, $x:ident, [$a:ident : $t:ty]) => {{
        let $a = <$t as $crate::k::from::FromQ>::from_q($x, stringify!($a))?;
        Ok($crate::k::qfn::IntoQ::into_q($f($a)?))
    }};
    // several: the list (a;b;..) of exactly that many
    (@call $f:path, $x:ident, [$($a:ident : $t:ty),+]) => {{
        const N: usize = [$(stringify!($a)),+].len();
        let usage = concat!("(", $crate::qfn!(@join $($a),+), ")");
        let v = $crate::k::from::items(&$x, N..=N, usage)?;
        let mut i = 0usize;
        $(
            let $a = <$t as $crate::k::from::FromQ>::from_q(v[i], stringify!($a))?;
            i += 1;
        )+
        let _ = i;
        Ok($crate::k::qfn::IntoQ::into_q($f($($a),+)?))
    }};
    (@join $a:ident) => { stringify!($a) };
    (@join $a:ident, $($b:ident),+) => { concat!(stringify!($a), ";", $crate::qfn!(@join $($b),+)) };
}
