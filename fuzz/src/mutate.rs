//! Changing one part of a valid call's arguments: a number to an edge value, a vector shortened,
//! emptied, lengthened or of another type, a symbol to another word, a handle to another object
//! (freed, forged, of another class), an item dropped or added, a value to a generated one. The
//! rest stays as it was, so the call gets past most checks and reaches the code behind them with
//! a valid-but-unusual combination.
use qhost::kapi::*;

use crate::fixtures::id_of;
use crate::gen::Gen;

/// `args` with one part changed (or, now and then, as they were: the same call again on the
/// state earlier calls left).
pub fn args(args: &[KObj], g: &mut Gen) -> Vec<KObj> {
    let mut out: Vec<KObj> = args.to_vec();
    if out.is_empty() || g.rng.chance(20) {
        return out;
    }
    let i = g.rng.below(out.len() as u64) as usize;
    out[i] = value(&out[i], g, 3);
    out
}

/// `x` with one part changed, at most `depth` levels down.
fn value(x: &KObj, g: &mut Gen, depth: u32) -> KObj {
    let t = x.t();
    let container = (t == 0 && id_of(x).is_none()) || t == XD;
    if !container || depth == 0 || (x.is_empty() && t == 0) || g.rng.chance(15) {
        return change(x, g);
    }
    if t == XD {
        let (k, v) = (x.dict_keys(), x.dict_values());
        return if g.rng.chance(20) {
            KObj::dict(change(&k, g), v)
        } else {
            KObj::dict(k, value(&v, g, depth - 1))
        };
    }
    let mut items = x.items();
    match g.rng.below(10) {
        0 => {
            // one item fewer
            let i = g.rng.below(items.len() as u64) as usize;
            items.remove(i);
        }
        1 => {
            // one more: a generated value or a copy of one there
            let extra = if g.rng.chance(50) {
                g.value(1)
            } else {
                g.rng.pick(&items).clone()
            };
            let at = g.rng.below(items.len() as u64 + 1) as usize;
            items.insert(at, extra);
        }
        _ => {
            let i = g.rng.below(items.len() as u64) as usize;
            items[i] = value(&items[i], g, depth - 1);
        }
    }
    KObj::list(items)
}

/// A replacement for `x` as a whole.
fn change(x: &KObj, g: &mut Gen) -> KObj {
    let t = x.t();
    if id_of(x).is_some() {
        return g.handle();
    }
    if g.rng.chance(15) {
        return g.value(2); // anything at all
    }
    match t {
        -19..=-1 => {
            if g.rng.chance(70) {
                g.atom(-t) // an edge value of the same type
            } else {
                let u = *g.rng.pick(NUMERIC);
                g.atom(u)
            }
        }
        1..=19 => vector(x, g),
        0 if x.is_empty() => g.value(1),
        _ => g.value(2),
    }
}

/// Numeric types a vector may be changed to.
const NUMERIC: &[i8] = &[KB, KH, KI, KJ, KE, KF];

/// A simple list emptied, shortened, lengthened, one element an edge value, of another numeric
/// type, or its first element alone (an atom where a list was).
fn vector(x: &KObj, g: &mut Gen) -> KObj {
    let t = x.t();
    let n = x.len() as usize;
    match g.rng.below(6) {
        0 => KObj::vector(t, 0),
        1 if n > 0 => edit(x, |v| {
            v.pop();
        }),
        2 if n > 0 => edit(x, |v| v.push(v[v.len() - 1].clone())),
        3 if n > 0 => {
            // one element an edge value of the type
            let a = g.atom(t);
            let i = g.rng.below(n as u64) as usize;
            let mut bytes = elements(x);
            let w = elem_size(t);
            bytes[i * w..(i + 1) * w].copy_from_slice(&atom_bytes(&a, w));
            raw(t, &bytes, n)
        }
        4 if NUMERIC.contains(&t) => {
            let u = *g.rng.pick(NUMERIC);
            retype(x, u)
        }
        _ if n > 0 && t != KS => {
            // the first element as an atom
            let w = elem_size(t);
            let b = elements(x);
            atom_from(t, &b[..w])
        }
        _ => g.value(1),
    }
}

/// The elements' bytes.
fn elements(x: &KObj) -> Vec<u8> {
    let w = elem_size(x.t());
    let v = x.slice::<u8>(); // n counts elements, not bytes: read the whole width
    let n = v.len();
    unsafe { std::slice::from_raw_parts(v.as_ptr(), n * w) }.to_vec()
}

/// A vector of type `t` and `n` elements from their bytes.
fn raw(t: i8, bytes: &[u8], n: usize) -> KObj {
    let x = KObj::vector(t, n as i64);
    let d = x.slice_mut::<u8>();
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), d.as_mut_ptr(), bytes.len()) };
    x
}

/// `x` with its elements (as byte-wide chunks) changed by `f`.
fn edit(x: &KObj, f: impl FnOnce(&mut Vec<Vec<u8>>)) -> KObj {
    let w = elem_size(x.t());
    let mut v: Vec<Vec<u8>> = elements(x).chunks(w).map(|c| c.to_vec()).collect();
    f(&mut v);
    raw(x.t(), &v.concat(), v.len())
}

/// An atom's value as `w` bytes.
fn atom_bytes(a: &KObj, w: usize) -> Vec<u8> {
    // a fresh one-element vector of the atom's type holds the same bytes as its data
    let b: Vec<u8> = match w {
        1 => vec![a.get_byte()],
        2 => a.get_short().to_ne_bytes().to_vec(),
        4 if a.t() == -KE => a.get_real().to_ne_bytes().to_vec(),
        4 => a.get_int().to_ne_bytes().to_vec(),
        8 if a.t() == -KF || a.t() == -KZ => a.get_float().to_ne_bytes().to_vec(),
        8 if a.t() == -KS => (a.get_sym_ptr() as usize).to_ne_bytes().to_vec(),
        8 => a.get_long().to_ne_bytes().to_vec(),
        _ => vec![0; w],
    };
    b
}

/// An atom of type -t from its bytes.
fn atom_from(t: i8, b: &[u8]) -> KObj {
    let v = raw(t, b, 1);
    match t {
        KB => KObj::bool(b[0] != 0),
        KG => KObj::byte(b[0]),
        KC => KObj::char(b[0]),
        KH => KObj::short(i16::from_ne_bytes([b[0], b[1]])),
        KI => KObj::int(i32::from_ne_bytes(b.try_into().unwrap())),
        KE => KObj::real(f32::from_ne_bytes(b.try_into().unwrap())),
        KJ => KObj::long(i64::from_ne_bytes(b.try_into().unwrap())),
        KF => KObj::float(f64::from_ne_bytes(b.try_into().unwrap())),
        KM | KD | KU | KV | KT => {
            KObj::temporal(t, i32::from_ne_bytes(b.try_into().unwrap()) as i64)
        }
        KP | KN => KObj::temporal(t, i64::from_ne_bytes(b.try_into().unwrap())),
        KZ => KObj::datetime(f64::from_ne_bytes(b.try_into().unwrap())),
        _ => v, // guids: a one-item list
    }
}

/// A numeric vector converted to numeric type `u` (values cast as q's `$` would, nulls aside).
fn retype(x: &KObj, u: i8) -> KObj {
    let f: Vec<f64> = match x.t() {
        KB => x.slice::<u8>().iter().map(|v| *v as f64).collect(),
        KH => x.slice::<i16>().iter().map(|v| *v as f64).collect(),
        KI => x.slice::<i32>().iter().map(|v| *v as f64).collect(),
        KJ => x.slice::<i64>().iter().map(|v| *v as f64).collect(),
        KE => x.slice::<f32>().iter().map(|v| *v as f64).collect(),
        _ => x.slice::<f64>().to_vec(),
    };
    match u {
        KB => KObj::from_slice(KB, &f.iter().map(|v| (*v != 0.0) as u8).collect::<Vec<_>>()),
        KH => KObj::from_slice(KH, &f.iter().map(|v| *v as i16).collect::<Vec<_>>()),
        KI => KObj::from_slice(KI, &f.iter().map(|v| *v as i32).collect::<Vec<_>>()),
        KJ => KObj::from_slice(KJ, &f.iter().map(|v| *v as i64).collect::<Vec<_>>()),
        KE => KObj::from_slice(KE, &f.iter().map(|v| *v as f32).collect::<Vec<_>>()),
        _ => KObj::from_slice(KF, &f),
    }
}
