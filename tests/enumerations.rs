//! Enumerated columns (issue 33): a historical database's `sym` column is an enumeration (types
//! 20-76, each item the long index of its symbol in the domain, 64-bit since kdb+ 3.0). This test
//! makes them as the C API can (every type 20-76, which qhost's interpreter, making type 20 only,
//! does not reach: tests/q/ktorch_tables.q has `` `sym? `` from q) and calls ktorch's entry
//! points in-process, as q would: `tensor` and `dict`
//! of a table with one give its indices as longs, and a model fed from the table gets them as
//! the long input of an embedding. The expected values are the indices themselves and q's
//! arithmetic on them.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// as src/k does and under src/k's invariant (every K is a live q value made here), which
// stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use qhost::kapi::*;

mod common;
use common::call;

/// An enumeration vector of type `t` holding `idx`.
fn enumeration(t: i8, idx: &[i64]) -> KObj {
    let v = KObj::vector(t, idx.len() as i64);
    v.slice_mut::<i64>().copy_from_slice(idx);
    v
}

fn table(names: &[&str], cols: Vec<KObj>) -> KObj {
    KObj::table(KObj::dict(KObj::syms(names), KObj::list(cols)))
}

const IDX: [i64; 5] = [3, 0, 2, 2, 1];

#[test]
fn an_enumerated_column_is_its_long_indices() {
    let t = table(
        &["sym", "px"],
        vec![
            enumeration(20, &IDX),
            KObj::from_slice(KF, &[1.5f64, 2.0, 2.5, 3.0, 3.5]),
        ],
    );
    // one tensor of both: long and float promote to double
    let h = call("tensor", &t).unwrap();
    assert_eq!(call("dtype", &h).unwrap().get_sym(), "double");
    let m = call("tensor", &h).unwrap();
    for (i, r) in m.items().iter().enumerate() {
        assert_eq!(r.slice::<f64>()[0], IDX[i] as f64);
    }
    call("free", &h).unwrap();
    // dict: the enumeration alone, as longs
    let d = call("dict", &t).unwrap();
    let q = call("dict", &d).unwrap();
    let sym = q.dict_values().item(0);
    assert_eq!(sym.t(), KJ);
    assert_eq!(sym.slice::<i64>(), &IDX);
    call("free", &d).unwrap();
    // an enumeration vector alone (another domain's type), as `tensor` of q data
    let h = call("tensor", &enumeration(21, &IDX)).unwrap();
    assert_eq!(call("dtype", &h).unwrap().get_sym(), "long");
    assert_eq!(call("tensor", &h).unwrap().slice::<i64>(), &IDX);
    call("free", &h).unwrap();
}

#[test]
fn an_enumerated_feature_feeds_an_embedding() {
    let def = |s: &str| qhost::q::eval::eval_text(s).unwrap();
    // the module: an embedding of 4 symbols in 2 dimensions, then a linear layer
    let q = call(
        "module",
        &def("enlist(`sequential;enlist(`embed;4;2);enlist(`linear;2;1))"),
    );
    let q = match q {
        Ok(q) => q,
        // the definition's form differs: seq builds it
        Err(_) => call("seq", &def("(`sequential;(`embed;4;2);(`linear;2;1))"))
            .and_then(|d| call("module", &d))
            .unwrap(),
    };
    let l = call("loss", &KObj::sym("mse")).unwrap();
    let o = call(
        "opt",
        &KObj::list(vec![KObj::sym("sgd"), q.clone(), KObj::float(0.1)]),
    )
    .unwrap();
    let m = call("model", &KObj::list(vec![q, l, o])).unwrap();
    let t = table(
        &["sym", "y"],
        vec![
            enumeration(20, &IDX),
            KObj::from_slice(KF, &[1.0f64, 0.0, 2.0, 2.0, 1.0]),
        ],
    );
    let n = call(
        "train",
        &KObj::list(vec![m.clone(), t.clone(), KObj::sym("sym"), KObj::sym("y")]),
    )
    .unwrap();
    assert_eq!(n.get_long(), 1);
    // the input is the indices, a long vector (an embedding's input)
    let data = call("data", &m).unwrap();
    let x = data.item(0);
    assert_eq!(x.t(), KJ);
    assert_eq!(x.slice::<i64>(), &IDX);
    // a pass trains, and evaluate names its output after the target
    let loss = call("run", &m).unwrap();
    assert!(loss.get_real().is_finite());
    let e = call("evaluate", &KObj::list(vec![m.clone(), t.clone()])).unwrap();
    assert_eq!(e.t(), 98);
    // a symbol column instead: the error says to enumerate it
    let s = table(
        &["sym", "y"],
        vec![
            KObj::syms(&["a", "b", "c", "c", "d"]),
            KObj::from_slice(KF, &[1.0f64, 0.0, 2.0, 2.0, 1.0]),
        ],
    );
    let err = call(
        "train",
        &KObj::list(vec![m.clone(), s, KObj::sym("sym"), KObj::sym("y")]),
    )
    .unwrap_err();
    assert_eq!(
        err,
        "train: features: column `sym is symbol: enumerate it (`sym$, `sym?) for long indices, or leave it out"
    );
    call("free", &m).unwrap();
}
