//! `dv` and `tree` (ktorch.cpp's `dvt`, `tdv`): a module definition written as a nested tree,
//! `` (`a;(`b;enlist(`c;1);enlist(`d;2))) ``, and as depth-value pairs,
//! `` ((0;`a);(1;`b);(2;(`c;1));(2;(`d;2))) ``, each from the other.
use anyhow::bail;

use super::spec::dv_count;
use crate::k::from::{self, FromQ, Whole};
use crate::k::nested::Node;
use crate::k::{make, KResult, K};
use crate::tensor::opargs::describe;

/// `dv tree`: the depth-value pairs of a nested tree.
pub fn dv(x: K) -> KResult {
    fn walk(d: i64, x: K, out: &mut Vec<K>) {
        let node = Node::of(x);
        let y = node.as_ref().map_or(x, |n| n.head);
        let v = match (<&str>::of(y), Vec::<&str>::of(y)) {
            (Some(s), _) => make::symbol(s),
            (None, Some(s)) if s.len() == 1 => make::symbol(s[0]),
            _ => make::share(y),
        };
        out.push(make::list(vec![make::long(d), v]));
        if let Some(n) = node {
            for c in n.children {
                walk(d + 1, c, out);
            }
        }
    }
    let mut out = vec![];
    walk(0, x, &mut out);
    Ok(make::list(out))
}

/// `tree dv`: the nested tree of depth-value pairs.
pub fn tree(x: K) -> KResult {
    let n = dv_count(x);
    if n == 0 {
        bail!("unable to parse (depth;value) pairs, given {}", describe(x));
    }
    let pairs: Vec<(i64, K)> = if n < 0 {
        vec![x]
    } else {
        from::list(&x).unwrap().to_vec()
    }
    .into_iter()
    .map(|p| {
        let v = from::list(&p).unwrap();
        (Whole::of(v[0]).map(|w| w.0).unwrap(), v[1])
    })
    .collect();
    Ok(build(&pairs, 0, pairs.len() - 1, 0))
}

/// The tree of pairs i..=j, whose first is at depth n: its value, then the subtrees of its
/// children (each starting at the next pair one deeper than n).
fn build(p: &[(i64, K)], i: usize, j: usize, n: i64) -> K {
    let v = p[i].1;
    if i == j {
        return match <&str>::of(v) {
            Some(s) => make::symbols(&[s]),
            None => make::list_of(&[v]),
        };
    }
    let mut z = vec![make::share(v)];
    let first = i + 1;
    let mut k = first;
    for a in first..=j {
        if a > k && p[a].0 - n == 1 {
            z.push(build(p, k, a - 1, n + 1));
            k = a;
        }
        if a == j {
            z.push(build(p, k, j, n + 1));
        }
    }
    make::list(z)
}
