//! Typed q functions (issue 36, part 4): the declaration `qfn! { fn f(dim: i64, keepdim: bool) }`
//! drives the reading of q's argument and the error text: an argument of the wrong kind names
//! the function (the guard's `'f:`), the argument (`keepdim`) and the kind (`a boolean`), in
//! ktorch's wording (`ARG expected as TYPE, given WHAT`, as `k::from::expected`); a count of
//! arguments other than the declaration's is `expected (dim;keepdim), given N arguments`
//! (`k::from::items`). The session domain's functions, declared so, keep ktorch's own texts
//! (`'seed: expected a long seed`, `'version: unrecognized version ...`), and so do the device
//! domain's (`'query: not a ktorch handle`, `'elapsed: expected (event;event)`). qhost's lib provides
//! the k.h API in-process.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// under src/k's invariant (every K is a live q value made here).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use qhost::kapi::exports::result_of;
use qhost::kapi::*;

mod common;
use common::call;

ktorch::qfn! {
    /// A typed q function of two arguments: a long and a boolean.
    fn pick(dim: i64, keepdim: bool) -> Result<i64> {
        Ok(if keepdim { dim } else { -dim })
    }

    /// One argument: q's argument itself.
    fn twice(n: i64) -> Result<i64> {
        Ok(2 * n)
    }

    /// One required argument and two trailing optionals, defaults applied here: `reduce x`,
    /// `reduce(x;dim)`, `reduce(x;keepdim)`, `reduce(x;dim;keepdim)`.
    fn reduce(x: Vec<i64>, dim: Option<i64>, keepdim: Option<bool>) -> Result<Vec<i64>> {
        Ok(vec![x.len() as i64, dim.unwrap_or(-1), keepdim.unwrap_or(false) as i64])
    }

    /// Two required arguments and one trailing optional.
    fn scale(a: i64, b: i64, by: Option<f64>) -> Result<f64> {
        Ok((a + b) as f64 * by.unwrap_or(1.0))
    }

    /// A usage of its own for a count's error.
    fn usage(a: i64, b: i64) -> Result<i64> as "(PNG file name; image)" {
        Ok(a + b)
    }

    /// No required argument, one optional: `count[]` or `count n`.
    fn count(n: Option<i64>) -> Result<i64> {
        Ok(n.unwrap_or(10))
    }

    /// A nullable long followed by a required argument is required (`0N` its `None`).
    fn nullable(size: Option<i64>, flag: bool) -> Result<i64> {
        Ok(size.unwrap_or(if flag { 1 } else { 0 }))
    }
}

/// A long vector.
fn longs(v: &[i64]) -> KObj {
    v.iter()
        .fold(KObj::vector(7, 0), |x, j| x.append_raw(&j.to_ne_bytes()))
}

/// The longs of a long vector.
fn longs_of(x: &KObj) -> Vec<i64> {
    (0..x.len()).map(|i| x.elem(i).get_long()).collect()
}

/// `x` as the list `(x;y)` a `"name" / 2` row of src/fns.rs hands its function.
fn two(x: KObj, y: KObj) -> KObj {
    KObj::list(vec![x, y])
}

#[test]
fn trailing_optionals_absent_are_none_given_are_read_by_kind() {
    let longs = || longs(&[1, 2, 3]);
    let got = |x: &KObj| -> Vec<i64> { longs_of(&guarded("reduce", reduce::q, x).unwrap()) };
    // alone: the one required argument
    assert_eq!(got(&longs()), vec![3, -1, 0]);
    // each optional taken by its kind, from the back
    assert_eq!(
        got(&KObj::list(vec![longs(), KObj::long(0)])),
        vec![3, 0, 0]
    );
    assert_eq!(
        got(&KObj::list(vec![longs(), KObj::bool(true)])),
        vec![3, -1, 1]
    );
    assert_eq!(
        got(&KObj::list(vec![longs(), KObj::long(1), KObj::bool(true)])),
        vec![3, 1, 1]
    );
    // the typed function itself: None is absent
    assert_eq!(reduce(vec![1], None, Some(true)).unwrap(), vec![1, -1, 1]);
    // two required and one optional
    let r = guarded(
        "scale",
        scale::q,
        &KObj::list(vec![KObj::long(1), KObj::long(2)]),
    )
    .unwrap();
    assert_eq!(r.get_float(), 3.0);
    let r = guarded(
        "scale",
        scale::q,
        &KObj::list(vec![KObj::long(1), KObj::long(2), KObj::float(0.5)]),
    )
    .unwrap();
    assert_eq!(r.get_float(), 1.5);
    // no required argument: `::` none given, a value the optional
    assert_eq!(
        guarded("count", count::q, &KObj::identity())
            .unwrap()
            .get_long(),
        10
    );
    assert_eq!(
        guarded("count", count::q, &KObj::long(3))
            .unwrap()
            .get_long(),
        3
    );
    // a nullable long before a required flag: required, 0N its None
    let r = guarded(
        "nullable",
        nullable::q,
        &KObj::list(vec![KObj::long(i64::MIN), KObj::bool(true)]),
    );
    assert_eq!(r.unwrap().get_long(), 1);
    let e = guarded("nullable", nullable::q, &KObj::bool(true)).unwrap_err();
    assert_eq!(e, "nullable: expected (size;flag), given boolean scalar");
}

#[test]
fn a_trailing_optional_of_another_kind_names_the_function_the_argument_and_the_kind() {
    let longs = || longs(&[1, 2, 3]);
    let e = guarded(
        "reduce",
        reduce::q,
        &KObj::list(vec![longs(), KObj::sym("a")]),
    )
    .unwrap_err();
    assert_eq!(e, "reduce: dim expected as a long, given symbol scalar");
    let e = guarded(
        "reduce",
        reduce::q,
        &KObj::list(vec![longs(), KObj::long(1), KObj::float(1.0)]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "reduce: keepdim expected as a boolean, given float scalar"
    );
    let e = guarded(
        "scale",
        scale::q,
        &KObj::list(vec![KObj::long(1), KObj::long(2), KObj::sym("x")]),
    )
    .unwrap_err();
    assert_eq!(e, "scale: by expected as a float, given symbol scalar");
    // a required argument of another kind, alone or in the list
    let e = guarded("reduce", reduce::q, &KObj::sym("a")).unwrap_err();
    assert_eq!(
        e,
        "reduce: x expected as a long or long list, given symbol scalar"
    );
    let e = guarded(
        "reduce",
        reduce::q,
        &KObj::list(vec![KObj::sym("a"), KObj::long(0)]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "reduce: x expected as a long or long list, given symbol scalar"
    );
    let e = guarded("count", count::q, &KObj::sym("a")).unwrap_err();
    assert_eq!(e, "count: n expected as a long, given symbol scalar");
}

#[test]
fn a_count_other_than_the_declarations_brackets_the_optionals() {
    let five = KObj::list((0..5).map(KObj::long).collect());
    let e = guarded("reduce", reduce::q, &five).unwrap_err();
    assert_eq!(e, "reduce: expected (x;[dim];[keepdim]), given 5 arguments");
    // (a one-item list of a long would be a handle's form)
    let e = guarded("scale", scale::q, &KObj::list(vec![KObj::float(1.0)])).unwrap_err();
    assert_eq!(e, "scale: expected (a;b;[by]), given 1 argument");
    let e = guarded("usage", usage::q, &KObj::long(1)).unwrap_err();
    assert_eq!(
        e,
        "usage: expected (PNG file name; image), given long scalar"
    );
}

#[test]
fn a_two_argument_row_hands_its_function_both_arguments() {
    // `pick[3;1b]` as a `"pick" / 2` row calls it: each argument read as its parameter
    let r = guarded("pick", pick::q, &two(KObj::long(3), KObj::bool(true)));
    assert_eq!(r.unwrap().get_long(), 3);
    let e = guarded("pick", pick::q, &two(KObj::long(3), KObj::sym("b"))).unwrap_err();
    assert_eq!(
        e,
        "pick: keepdim expected as a boolean, given symbol scalar"
    );
}

/// Run `f` as q function `name` inside ktorch's guard, as a fns row does.
fn guarded(
    name: &'static str,
    f: fn(kdbplus::api::K) -> ktorch::k::KResult,
    x: &KObj,
) -> Result<KObj, String> {
    ktorch::fns::ready();
    let r = ktorch::k::guard::guard(name, x.as_ptr() as kdbplus::api::K, f);
    result_of(r as K).map_err(|e| e.0)
}

#[test]
fn the_typed_function_is_called_with_typed_values() {
    assert_eq!(pick(3, false).unwrap(), -3);
    let r = guarded(
        "pick",
        pick::q,
        &KObj::list(vec![KObj::long(3), KObj::bool(true)]),
    );
    assert!(r.is_ok(), "{r:?}");
    assert!(guarded("twice", twice::q, &KObj::long(4)).is_ok());
}

#[test]
fn an_argument_of_another_kind_names_the_function_the_argument_and_the_kind() {
    let e = guarded(
        "pick",
        pick::q,
        &KObj::list(vec![KObj::long(3), KObj::float(1.0)]),
    )
    .unwrap_err();
    assert_eq!(e, "pick: keepdim expected as a boolean, given float scalar");
    let e = guarded(
        "pick",
        pick::q,
        &KObj::list(vec![KObj::int(3), KObj::bool(true)]),
    )
    .unwrap_err();
    assert_eq!(e, "pick: dim expected as a long, given int scalar");
    let e = guarded("twice", twice::q, &KObj::sym("a")).unwrap_err();
    assert_eq!(e, "twice: n expected as a long, given symbol scalar");
}

#[test]
fn a_count_other_than_the_declarations_is_the_usage() {
    let three = KObj::list(vec![KObj::long(3), KObj::bool(true), KObj::long(1)]);
    let e = guarded("pick", pick::q, &three).unwrap_err();
    assert_eq!(e, "pick: expected (dim;keepdim), given 3 arguments");
}

#[test]
fn the_session_functions_keep_ktorchs_words() {
    assert_eq!(
        call("seed", &KObj::sym("a")).unwrap_err(),
        "seed: expected a long seed"
    );
    assert_eq!(
        call("seed", &KObj::bool(true)).unwrap_err(),
        "seed: expected a long seed"
    );
    assert!(call("seed", &KObj::long(7)).is_ok());
    assert_eq!(
        call("version", &KObj::long(1)).unwrap_err(),
        "version: expected (), ::, or one of `all`ktorch`libtorch`cuda`cudadevices"
    );
    assert_eq!(
        call("version", &KObj::sym("x")).unwrap_err(),
        "version: unrecognized version `x, expected one of `all`ktorch`libtorch`cuda`cudadevices"
    );
    assert_eq!(
        call("setting", &KObj::long(1)).unwrap_err(),
        "setting: expected (), `name or (`name;value)"
    );
    assert_eq!(
        call(
            "setting",
            &KObj::list(vec![KObj::sym("threads"), KObj::bool(true)])
        )
        .unwrap_err(),
        "setting: `threads expects a positive long"
    );
    assert_eq!(
        call("loglevel", &KObj::float(1.0)).unwrap_err(),
        "loglevel: expected a level: one of `trace`debug`info`warn`error or 0-4"
    );
    assert_eq!(
        call("profile", &KObj::long(1)).unwrap_err(),
        "profile: expects `start, (`start;options), `stop, `table, `events or (`trace;file)"
    );
}

#[test]
fn the_device_functions_keep_ktorchs_words() {
    assert_eq!(
        call("cudadevices", &KObj::long(1)).unwrap_err(),
        "cudadevices: cudadevices[] returns count of available GPUs, cudadevices() returns CUDA syms"
    );
    assert_eq!(
        call("query", &KObj::long(1)).unwrap_err(),
        "query: not a ktorch handle"
    );
    assert_eq!(
        call("elapsed", &KObj::long(1)).unwrap_err(),
        "elapsed: expected (event;event)"
    );
    assert_eq!(
        call("sync", &KObj::sym("x")).unwrap_err(),
        "sync: unrecognized device `x"
    );
    assert_eq!(
        call("sync", &KObj::float(1.5)).unwrap_err(),
        "sync: expected (), a device, a device index, or a tensor, vector or dictionary"
    );
    assert!(call("sync", &KObj::sym("cpu")).is_ok());
    assert!(call("emptycache", &KObj::long(0)).is_ok());
}

#[test]
fn the_dist_functions_keep_ktorchs_words() {
    let x = KObj::list(vec![KObj::from_slice(KF, &[1.0f64, 2.0]), KObj::sym("bad")]);
    assert_eq!(
        call("allreduce", &x).unwrap_err(),
        "allreduce: unrecognized reduce op `bad, expecting one of `sum`avg`prod`min`max"
    );
    assert_eq!(
        call("distinit", &KObj::sym("mpi")).unwrap_err(),
        "distinit: unrecognized backend `mpi, expecting `gloo (CPU tensors) or `nccl (CUDA tensors)"
    );
}
