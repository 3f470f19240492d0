//! K values that q cannot make but the C API can (another extension, a hand-built IPC message):
//! a dictionary whose values are an atom, not a list as long as its keys. ktorch must answer a q
//! error, never read the atom's bytes as a length (a symbol atom "counted" like its pointer: a
//! 700 TB allocation that Rust aborts on; ktorch-fuzz --calls 2000 --seed 11 found it in `ce`,
//! `smoothl1`, `triplet` and `train`). qhost's lib provides the k.h API in-process.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// as src/k does and under src/k's invariant (every K is a live q value made here), which
// stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use qhost::kapi::*;

mod common;
use common::call;

fn floats(v: &[f64]) -> KObj {
    KObj::from_slice(KF, v)
}

/// `` `a`b!`c ``: two keys, one symbol atom for values.
fn atom_dict(keys: &[&str], value: &str) -> KObj {
    KObj::dict(KObj::syms(keys), KObj::sym(value))
}

#[test]
fn loss_options_of_an_atom_are_an_error() {
    let x = || KObj::list(vec![floats(&[1., 2., 3.]), floats(&[3., 2., 1.])]);
    let cases = [
        (
            "ce",
            vec![
                x(),
                KObj::from_slice(KJ, &[0i64, 2]),
                atom_dict(&["smoothing", "reduce"], "le"),
            ],
        ),
        (
            "smoothl1",
            vec![
                floats(&[0.5, 2., 5.]),
                floats(&[1., 2., 3.]),
                atom_dict(&["beta", "reduce"], "lower"),
            ],
        ),
        (
            "triplet",
            vec![x(), x(), x(), atom_dict(&["margin", "p"], "irfft2")],
        ),
    ];
    for (name, args) in cases {
        let r = call(name, &KObj::list(args));
        let e = r
            .err()
            .unwrap_or_else(|| panic!("{name}: an atom for option values must fail"));
        assert!(
            e.starts_with(&format!("{name}:")),
            "{name}: error names the function: {e}"
        );
    }
    // the same options as a list work
    let ok = KObj::dict(
        KObj::syms(&["beta", "reduce"]),
        KObj::list(vec![KObj::float(1.0), KObj::sym("sum")]),
    );
    let r = call(
        "smoothl1",
        &KObj::list(vec![floats(&[0.5, 2., 5.]), floats(&[1., 2., 3.]), ok]),
    )
    .expect("smoothl1 with options");
    // |0.5-1| < 1: 0.5*0.25; |2-2| = 0; |5-3| >= 1: 2-0.5
    assert_eq!(r.get_float(), 0.125 + 0.0 + 1.5);
}
