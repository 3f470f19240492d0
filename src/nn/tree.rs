//! `dv` and `tree` (ktorch.cpp's `dvt`, `tdv`): a module definition written as a nested tree,
//! `` (`a;(`b;enlist(`c;1);enlist(`d;2))) ``, and as depth-value pairs,
//! `` ((0;`a);(1;`b);(2;(`c;1));(2;(`d;2))) ``, each from the other.
use anyhow::{anyhow, Result};

use super::spec::dv_count;
use crate::k::from::{self, FromQ, Whole};
use crate::k::nested::Node;
use crate::k::{make, KResult, K};
use crate::tensor::opargs::describe;

/// A module definition written as a nested tree: any q value (a leaf is a value of its own).
pub struct Definition(K);

impl FromQ for Definition {
    const TYPE: &'static str = "a definition";
    fn read(x: K) -> Result<Option<Definition>> {
        Ok(Some(Definition(x)))
    }
}

crate::qfn! {
    /// `dv tree`: the depth-value pairs of a nested tree.
    pub fn dv(x: Definition) -> KResult {
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
        walk(0, x.0, &mut out);
        Ok(make::list(out))
    }
}

/// Depth-value pairs (ktorch's `xdv`): one `(depth;value)` pair or a list of them, each depth
/// an integral atom.
pub struct Pairs(Vec<(i64, K)>);

impl FromQ for Pairs {
    const TYPE: &'static str = "(depth;value) pairs";
    fn read(x: K) -> Result<Option<Pairs>> {
        let n = dv_count(x);
        if n == 0 {
            return Ok(None);
        }
        let pairs = if n < 0 {
            vec![x]
        } else {
            from::list(&x).unwrap_or(&[]).to_vec()
        };
        Ok(Some(Pairs(
            pairs
                .into_iter()
                .filter_map(|p| match from::list(&p)? {
                    [d, v] => Some((Whole::of(*d)?.0, *v)),
                    _ => None,
                })
                .collect(),
        )))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("unable to parse (depth;value) pairs, given {}", describe(x))
    }
}

crate::qfn! {
    /// `tree dv`: the nested tree of depth-value pairs.
    pub fn tree(p: Pairs) -> KResult {
        Ok(build(&p.0, 0, p.0.len() - 1, 0))
    }
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
