//! The one table of primitives (src/q/verbs/table.rs): every row's monad and dyad is the family
//! that runs that name (a row naming the wrong family would answer 'nyi where qhost has the
//! verb), and the names q uses infix are the dyadic keywords (KX's ref/ pages: `x div y`,
//! `x in y`, `f each x`).
use qhost::kapi::kobj::*;
use qhost::kapi::KObj;
use qhost::q::verbs::table::{find, is_infix, is_keyword, PRIMS};

#[test]
fn every_row_runs_in_the_family_it_names() {
    let x = KObj::from_slice(KJ, &[3i64, 1, 2]);
    let y = KObj::from_slice(KJ, &[1i64, 2, 3]);
    for p in PRIMS {
        if let Some(f) = p.monad {
            assert!(
                f(p.name, &x).is_some(),
                "{}: monad not its family's",
                p.name
            );
        }
        if let Some(f) = p.dyad {
            assert!(
                f(p.name, &x, &y).is_some(),
                "{}: dyad not its family's",
                p.name
            );
        }
        if let Some(u) = p.unary {
            let k = find(u).unwrap_or_else(|| panic!("{}: unary {u} has no row", p.name));
            // enlist takes any count: apply_prim runs it itself
            assert!(
                k.monad.is_some() || u == "enlist",
                "{}: unary {u} has no monad",
                p.name
            );
        }
    }
}

#[test]
fn names_are_unique_and_infix_words_are_the_dyadic_keywords() {
    for (i, p) in PRIMS.iter().enumerate() {
        assert!(
            PRIMS[..i].iter().all(|q| q.name != p.name),
            "{} twice",
            p.name
        );
    }
    for w in [
        "div", "in", "each", "set", "lj", "xbar", "like", "fby", "setenv",
    ] {
        assert!(is_infix(w), "{w}");
    }
    for w in ["count", "value", "ssr", "enlist", "md5", "+", ".Q.f"] {
        assert!(!is_infix(w), "{w}");
    }
    assert!(is_keyword("count") && !is_keyword("+") && !is_keyword(".Q.fmt"));
}
