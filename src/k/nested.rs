//! Nested q data read as a whole, so that no layer above walks a general list by hand:
//! [`Array`], an n-d array of one element type (an atom, a simple vector, or general lists of
//! them of one shape: what becomes one tensor), and [`Node`], a node of a nested tree
//! (`` (`a;(`b;..);..) ``: a module definition's tree).
use anyhow::{bail, Result};

use super::from::FromQ;
use super::{read, K};

/// q data as an n-d array: its size (none for an atom), the q type of its items (positive; 0 for
/// an empty list, whose type nothing says) and its leaves, the atoms or vectors holding the items
/// in row-major order (borrowed from the value read).
pub struct Array {
    pub size: Vec<i64>,
    pub qtype: i8,
    pub leaves: Vec<K>,
}

impl Array {
    /// `x` as an array whose leaf types (q's: an atom's negative) `leaf` accepts;
    /// the errors are the first that a walk of the first item, then of the others in order,
    /// meets: `leaf`'s, a type mismatch between items, or ragged items (`length`).
    pub fn read_with(x: K, leaf: &dyn Fn(i8) -> Result<()>) -> Result<Array> {
        let mut leaves = vec![];
        let (size, qtype) = walk(x, leaf, &mut leaves)?;
        Ok(Array {
            size,
            qtype,
            leaves,
        })
    }
}

fn walk(x: K, leaf: &dyn Fn(i8) -> Result<()>, out: &mut Vec<K>) -> Result<(Vec<i64>, i8)> {
    let t = read::ktype(x);
    if t != 0 {
        leaf(t)?;
        out.push(x);
        return Ok(if t < 0 {
            (vec![], -t)
        } else {
            (vec![read::len(x)], t)
        });
    }
    let items = read::items(&x).unwrap_or(&[]);
    let Some((first, rest)) = items.split_first() else {
        return Ok((vec![0], 0));
    };
    let (inner, ty) = walk(*first, leaf, out)?;
    for it in rest {
        let (s, t2) = walk(*it, leaf, out)?;
        if t2 != ty {
            bail!(
                "type mismatch: {} and {} in one list",
                read::type_name(ty),
                read::type_name(t2)
            );
        }
        if s != inner {
            bail!("length: dimension mismatch, {:?} vs {:?}", inner, s);
        }
    }
    let mut full = vec![items.len() as i64];
    full.extend(inner);
    Ok((full, ty))
}

/// An array of numbers: boolean, byte, short, int, long, real, float or char items, or an
/// enumeration's indices; anything else is another kind.
impl FromQ for Array {
    const TYPE: &'static str = "an array of numbers";
    fn read(x: K) -> Result<Option<Array>> {
        let number = |t: i8| matches!(t, 1 | 4..=10 | 20..=76);
        let t = read::ktype(x);
        if t != 0 && !number(t.abs()) {
            return Ok(None);
        }
        Array::read_with(x, &|t| {
            if number(t.abs()) {
                Ok(())
            } else {
                bail!("an array of numbers holds a {}", read::type_name(t))
            }
        })
        .map(Some)
    }
}

/// A node of a nested tree: a general list that is not empty, its first item the node's own
/// value and the others its children (borrowed from the value read). Anything else is a leaf
/// (another kind).
pub struct Node {
    pub head: K,
    pub children: Vec<K>,
}

impl FromQ for Node {
    const TYPE: &'static str = "a tree's node";
    fn read(x: K) -> Result<Option<Node>> {
        Ok(read::items(&x)
            .and_then(|v| v.split_first())
            .map(|(h, c)| Node {
                head: *h,
                children: c.to_vec(),
            }))
    }
}
