//! The extraction trait `k::from::FromQ` and its argument lists, on q values made with k.h (qhost's
//! exports, in-process). The expectations are what q and ktorch document, not what the code
//! printed: q's types (KX's k.h: boolean -1h, byte -4h, short -5h, int -6h, long -7h, real -8h,
//! float -9h, symbol -11h, char -10h/10h, general list 0h, generic null `::` type 101h); q's
//! nulls (`0N` a long's minimum, `0n` a NaN); ktorch's readers (kutil.cpp: `xint64` reads a long
//! atom only, `xbool` a boolean atom only, `xnum` any numeric atom, `xsize` a long atom or long
//! list, `xdouble` a float atom; a handle is a one-item general list holding a long).
// This test plays q: it calls k.h on values it makes, under src/k's invariant (every K is a
// live q value made here), which stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use kdbplus::api::{native, K};
use ktorch::k::from::{self, Args, Double, FromQ, Integer, Number, Sizes, Sym, Unset};

// Link qhost's k.h exports into this test binary.
use qhost as _;

fn kb(b: bool) -> K {
    unsafe { native::kb(b as i32) }
}
fn kg(v: u8) -> K {
    unsafe { native::kg(v as i32) }
}
fn kh(v: i16) -> K {
    unsafe { native::kh(v as i32) }
}
fn ki(v: i32) -> K {
    unsafe { native::ki(v) }
}
fn kj(v: i64) -> K {
    unsafe { native::kj(v) }
}
fn ke(v: f32) -> K {
    unsafe { native::ke(v as f64) }
}
fn kf(v: f64) -> K {
    unsafe { native::kf(v) }
}
fn ks(s: &str) -> K {
    let c = std::ffi::CString::new(s).unwrap();
    unsafe { native::ks(c.as_ptr() as *mut _) }
}
fn kp(s: &str) -> K {
    let c = std::ffi::CString::new(s).unwrap();
    unsafe { native::kp(c.as_ptr() as *mut _) }
}
/// q's generic null `::` (type 101, value 0).
fn unset() -> K {
    let x = unsafe { native::ka(101) };
    unsafe { *(x as *mut u8).add(8) = 0 };
    x
}
/// A long list.
fn longs(v: &[i64]) -> K {
    let x = unsafe { native::ktn(7, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut((x as *mut u8).add(16) as *mut i64, v.len()) }
        .copy_from_slice(v);
    x
}
/// An int list.
fn ints(v: &[i32]) -> K {
    let x = unsafe { native::ktn(6, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut((x as *mut u8).add(16) as *mut i32, v.len()) }
        .copy_from_slice(v);
    x
}
/// A general list of the given items (owned by the list).
fn list(items: &[K]) -> K {
    let x = unsafe { native::ktn(0, items.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut((x as *mut u8).add(16) as *mut K, items.len()) }
        .copy_from_slice(items);
    x
}
fn free(x: K) {
    unsafe { native::r0(x) };
}

/// Read `x` as a `T`, then free it.
fn read<T: FromQ>(x: K) -> Option<T> {
    let r = T::read(x).expect("no error");
    free(x);
    r
}

#[test]
fn a_boolean_is_a_boolean_atom_only() {
    assert_eq!(read::<bool>(kb(true)), Some(true));
    assert_eq!(read::<bool>(kb(false)), Some(false));
    // ktorch's xbool: 1 is no flag, nor is a byte 0x01
    assert_eq!(read::<bool>(kj(1)), None);
    assert_eq!(read::<bool>(kg(1)), None);
}

#[test]
fn a_long_is_a_long_atom_only() {
    assert_eq!(read::<i64>(kj(42)), Some(42));
    assert_eq!(read::<i64>(kj(-3)), Some(-3));
    // ktorch's xint64 takes no int, short, boolean or float for a dimension
    assert_eq!(read::<i64>(ki(42)), None);
    assert_eq!(read::<i64>(kh(42)), None);
    assert_eq!(read::<i64>(kb(true)), None);
    assert_eq!(read::<i64>(kf(42.0)), None);
    // 0N is a long like any other; Option<i64> reads it as "not given"
    assert_eq!(read::<i64>(kj(i64::MIN)), Some(i64::MIN));
    assert_eq!(read::<Option<i64>>(kj(i64::MIN)), Some(None));
    assert_eq!(read::<Option<i64>>(kj(7)), Some(Some(7)));
    assert_eq!(read::<Option<i64>>(ki(7)), None);
}

#[test]
fn a_float_is_a_float_atom_and_0n_is_not_given() {
    assert_eq!(read::<f64>(kf(2.5)), Some(2.5));
    assert_eq!(read::<f64>(ke(2.5)), None);
    assert_eq!(read::<f64>(kj(2)), None);
    assert_eq!(read::<Option<f64>>(kf(f64::NAN)), Some(None));
    assert_eq!(read::<Option<f64>>(kf(0.5)), Some(Some(0.5)));
}

#[test]
fn a_number_is_any_numeric_atom_kept_integer_or_float() {
    assert_eq!(read::<Number>(kb(true)), Some(Number::Int(1)));
    assert_eq!(read::<Number>(kg(7)), Some(Number::Int(7)));
    assert_eq!(read::<Number>(kh(-2)), Some(Number::Int(-2)));
    assert_eq!(read::<Number>(ki(3)), Some(Number::Int(3)));
    assert_eq!(read::<Number>(kj(4)), Some(Number::Int(4)));
    assert_eq!(read::<Number>(ke(0.5)), Some(Number::Float(0.5)));
    assert_eq!(read::<Number>(kf(1.5)), Some(Number::Float(1.5)));
    assert_eq!(read::<Number>(ks("a")), None);
    assert_eq!(read::<Number>(longs(&[1])), None);
}

#[test]
fn longs_are_a_long_atom_a_long_list_or_an_empty_list() {
    assert_eq!(read::<Vec<i64>>(kj(1)), Some(vec![1]));
    assert_eq!(read::<Vec<i64>>(longs(&[0, 2])), Some(vec![0, 2]));
    assert_eq!(read::<Vec<i64>>(list(&[])), Some(vec![]));
    assert_eq!(read::<Vec<i64>>(ints(&[0, 2])), None);
    assert_eq!(read::<Vec<i64>>(ki(1)), None);
    // xsize: a long atom or long list, not ()
    assert_eq!(read::<Sizes>(longs(&[3, 4])), Some(Sizes(vec![3, 4])));
    assert_eq!(read::<Sizes>(kj(3)), Some(Sizes(vec![3])));
    assert_eq!(read::<Sizes>(list(&[])), None);
}

#[test]
fn symbols_strings_and_the_generic_null() {
    assert_eq!(read::<Sym>(ks("float")), Some(Sym("float")));
    assert_eq!(read::<Sym>(kp("float")), None);
    assert_eq!(read::<Vec<Sym>>(ks("a")), Some(vec![Sym("a")]));
    assert_eq!(read::<String>(kp("abc")), Some("abc".to_string()));
    assert_eq!(read::<String>(ks("abc")), None);
    assert_eq!(read::<Unset>(unset()), Some(Unset));
    assert_eq!(read::<Unset>(list(&[])), None);
}

#[test]
fn a_required_argument_of_another_kind_names_the_argument_and_what_was_given() {
    let x = ki(3);
    let e = i64::from_q(x, "dim").unwrap_err().to_string();
    free(x);
    assert_eq!(e, "dim expected as a long, given int scalar");
    let x = kf(1.0);
    let e = bool::from_q(x, "keepdim").unwrap_err().to_string();
    free(x);
    assert_eq!(e, "keepdim expected as a boolean, given float scalar");
}

#[test]
fn a_handle_is_not_an_argument_list() {
    // a handle: enlist a long (a one-item general list)
    let h = list(&[kj(5)]);
    assert_eq!(from::handle_id(h), Some(5));
    assert!(from::list(&h).is_none());
    let e = Args::list(h, 1, 3, "(x;y;z)").err().unwrap().to_string();
    assert_eq!(e, "not implemented for general list");
    free(h);
    // a one-item list of an int is no handle
    let x = list(&[ki(5)]);
    assert_eq!(from::handle_id(x), None);
    assert_eq!(from::list(&x).map(|v| v.len()), Some(1));
    free(x);
}

#[test]
fn trailing_optional_arguments_are_read_from_the_back_each_once_in_order() {
    let usage = "(x;dim;keepdim)";
    // (x;1;1b): both
    let x = list(&[longs(&[1, 2]), kj(1), kb(true)]);
    let mut a = Args::list(x, 1, 3, usage).unwrap();
    assert_eq!(a.trailing::<(i64, bool)>(1).unwrap(), (Some(1), Some(true)));
    assert_eq!(a.rest(1, usage).unwrap().len(), 1);
    free(x);
    // (x;1b): the flag alone
    let x = list(&[longs(&[1, 2]), kb(true)]);
    let mut a = Args::list(x, 1, 3, usage).unwrap();
    assert_eq!(a.trailing::<(i64, bool)>(1).unwrap(), (None, Some(true)));
    assert!(a.rest(1, usage).is_ok());
    free(x);
    // (x;1b;1): out of order, the flag is left over
    let x = list(&[longs(&[1, 2]), kb(true), kj(1)]);
    let mut a = Args::list(x, 1, 3, usage).unwrap();
    assert_eq!(a.trailing::<(i64, bool)>(1).unwrap(), (Some(1), None));
    assert_eq!(a.left(), 2);
    let e = a.rest(1, usage).unwrap_err().to_string();
    assert_eq!(e, "unrecognized arg(s), expected (x;dim;keepdim)");
    free(x);
    // too many
    let x = list(&[kj(1), kj(2), kj(3), kj(4)]);
    let e = Args::list(x, 1, 3, usage).err().unwrap().to_string();
    assert_eq!(e, "expected 1-3 args, (x;dim;keepdim), given 4");
    free(x);
}

#[test]
fn the_input_is_never_taken_as_an_optional_argument() {
    // (1;1b) with keep 1: the long stays as the input
    let x = list(&[kj(1), kb(false)]);
    let mut a = Args::list(x, 1, 3, "(x;dim;keepdim)").unwrap();
    assert_eq!(a.trailing::<(i64, bool)>(1).unwrap(), (None, Some(false)));
    assert_eq!(a.left(), 1);
    assert_eq!(a.get::<i64>(0, "x").unwrap(), 1);
    free(x);
}

#[test]
fn a_call_reads_input_options_and_output() {
    let usage = "(input;dim;keepdim;output)";
    let x = list(&[longs(&[1, 2]), kj(0), kb(true)]);
    let c = from::call::<Vec<i64>, (i64, bool), ()>(x, usage).unwrap();
    assert_eq!(c.input, vec![1, 2]);
    assert_eq!(c.opts, (Some(0), Some(true)));
    assert_eq!((c.alone, c.given), (false, 3));
    free(x);
    // more than input, options and output
    let x = list(&[longs(&[1, 2]), kj(0), kb(true), kj(1)]);
    let e = from::call::<Vec<i64>, (i64, bool), ()>(x, usage)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "expected up to 3 args, (input;dim;keepdim;output), given 4"
    );
    free(x);
    // an argument of no declared kind
    let x = list(&[longs(&[1, 2]), kf(0.5)]);
    let e = from::call::<Vec<i64>, (i64, bool), ()>(x, usage)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "unrecognized args, expected up to 3, (input;dim;keepdim;output)"
    );
    free(x);
}

/// A symbol list.
fn syms(v: &[&str]) -> K {
    let x = unsafe { native::ktn(11, v.len() as i64) };
    for (i, s) in v.iter().enumerate() {
        let c = std::ffi::CString::new(*s).unwrap();
        let p = unsafe { native::ss(c.as_ptr() as *mut _) };
        unsafe { *((x as *mut u8).add(16) as *mut *mut std::ffi::c_char).add(i) = p };
    }
    x
}

#[test]
fn loss_options_take_integers_and_doubles_as_kloss_does() {
    // an index or count: a short, int or long atom, not a boolean or float
    assert_eq!(read::<Integer>(kh(2)), Some(Integer(2)));
    assert_eq!(read::<Integer>(ki(2)), Some(Integer(2)));
    assert_eq!(read::<Integer>(kj(2)), Some(Integer(2)));
    assert_eq!(read::<Integer>(kb(true)), None);
    assert_eq!(read::<Integer>(kf(2.0)), None);
    // a margin or smoothing: a float atom or an integer
    assert_eq!(read::<Double>(kf(0.1)), Some(Double(0.1)));
    assert_eq!(read::<Double>(kj(1)), Some(Double(1.0)));
    assert_eq!(read::<Double>(ke(0.5)), None);
}

#[test]
fn name_value_pairs_in_each_of_ktorchs_forms() {
    // `reduce`sum: an even symbol list, its values elements of the list
    let x = syms(&["reduce", "sum"]);
    let p = from::pairs(x).unwrap().unwrap();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].0, "reduce");
    assert_eq!(p[0].1.read::<Sym>().unwrap(), Some(Sym("sum")));
    assert_eq!(p[0].1.describe(), "symbol scalar");
    free(x);
    // (`smoothing;.1;`ignore;2): a list of names and values
    let x = list(&[ks("smoothing"), kf(0.1), ks("ignore"), kj(2)]);
    let p = from::pairs(x).unwrap().unwrap();
    assert_eq!(
        p.iter().map(|p| p.0).collect::<Vec<_>>(),
        ["smoothing", "ignore"]
    );
    assert_eq!(p[1].1.read::<Integer>().unwrap(), Some(Integer(2)));
    free(x);
    // ((`smoothing;.1);(`ignore;2)): a list of pairs
    let x = list(&[
        list(&[ks("smoothing"), kf(0.1)]),
        list(&[ks("ignore"), kj(2)]),
    ]);
    let p = from::pairs(x).unwrap().unwrap();
    assert_eq!(p[0].1.read::<Double>().unwrap(), Some(Double(0.1)));
    free(x);
    // an uneven symbol list is an error; a long list is no name-value structure
    let x = syms(&["reduce"]);
    assert!(from::pairs(x).is_err());
    free(x);
    let x = longs(&[1, 2]);
    assert!(from::pairs(x).unwrap().is_none());
    free(x);
}

#[test]
fn options_after_the_inputs_positional_then_a_symbol_then_pairs() {
    let names = ["weight", "ignore", "smoothing"];
    // (w;-100;`sum): two positional options and the reduction
    let v = [longs(&[1, 2]), kj(-100), ks("sum")];
    let o = from::options(&v, &names, "reduce").unwrap();
    assert_eq!(
        o.iter().map(|p| p.0).collect::<Vec<_>>(),
        ["reduce", "weight", "ignore"]
    );
    v.into_iter().for_each(free);
    // pairs last, naming an option and the reduction
    let p = list(&[ks("smoothing"), kf(0.1), ks("reduce"), ks("none")]);
    let o = from::options(&[p], &names, "reduce").unwrap();
    assert_eq!(
        o.iter().map(|p| p.0).collect::<Vec<_>>(),
        ["smoothing", "reduce"]
    );
    free(p);
    // an unknown name
    let p = syms(&["nosuch", "none"]);
    let e = from::options(&[p], &names, "reduce")
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "option: nosuch not recognized, expected weight,ignore,smoothing,reduce"
    );
    free(p);
    // more positional options than the function has
    let v = [kj(1), kj(2)];
    let e = from::options(&v, &names[..1], "reduce")
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "expected up to 1 positional option (weight) and a reduce symbol after the inputs, given 2"
    );
    v.into_iter().for_each(free);
}
