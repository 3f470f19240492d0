//! The argument generator: seeded and reproducible (a function's calls depend only on the seed,
//! the function's name and the call's number), making K values of every kind a q user can pass:
//! atoms of every type with nulls and infinities, vectors (empty, one, a few), size-like long
//! vectors with huge and negative values, symbols that ktorch understands, strings, general
//! lists nesting all of these, dictionaries, tables, functions, and handles (live objects of each
//! class, freed, forged, of the wrong type), often in the `(handle;x;y)` / `(`option;x)` forms
//! ktorch functions take.
use qhost::kapi::*;

use crate::fixtures::{classes, handle, Fixtures};

include!(concat!(env!("OUT_DIR"), "/vocab.rs"));

/// splitmix64: small, fast, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    /// A generator for call `n` of function `name` under `seed`.
    pub fn for_call(seed: u64, name: &str, n: u64) -> Rng {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in name.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        let mut r = Rng(seed ^ h ^ n.wrapping_mul(0x9E3779B97F4A7C15));
        r.next();
        r
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

// q's nulls and infinities
const NJ: i64 = i64::MIN;
const WJ: i64 = i64::MAX;
const NI: i32 = i32::MIN;
const WI: i32 = i32::MAX;
const NH: i16 = i16::MIN;
const WH: i16 = i16::MAX;

/// Integers worth trying: small ones that are valid sizes, dims and counts, and the edges.
/// "Big" stops at 100000 so that a call asked for that much stays small; 1e12 and 0W must fail.
const LONGS: &[i64] = &[
    0,
    1,
    2,
    3,
    1,
    2,
    -1,
    -2,
    5,
    7,
    100000,
    1_000_000_000_000,
    NJ,
    WJ,
    -WJ,
    i64::MIN + 2,
];
const FLOATS: &[f64] = &[
    0.0,
    1.0,
    -1.0,
    0.5,
    0.1,
    2.0,
    1e-8,
    1e300,
    -1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    3.0,
];
/// Sizes: mostly small dims, with the values a size must refuse.
const SIZES: &[i64] = &[
    0,
    1,
    2,
    3,
    4,
    1,
    2,
    -1,
    1000,
    1_000_000_000_000,
    NJ,
    WJ,
    -WJ,
];
/// Strings: empty, a word, names of things (files under the temp folder the child runs in).
const STRINGS: &[&str] = &[
    "", "a", "abc", "x.png", "log.txt", "float", "linear", ":", "a/b/c",
];
/// Kinds of value, by weight.
const KINDS: &[(Kind, u64)] = &[
    (Kind::Atom, 14),
    (Kind::Vector, 12),
    (Kind::Sizes, 8),
    (Kind::Symbol, 14),
    (Kind::Symbols, 4),
    (Kind::Str, 3),
    (Kind::Handle, 16),
    (Kind::List, 10),
    (Kind::Form, 10),
    (Kind::Dict, 4),
    (Kind::Table, 2),
    (Kind::Func, 2),
    (Kind::Nil, 3),
];

#[derive(Clone, Copy)]
enum Kind {
    Atom,
    Vector,
    Sizes,
    Symbol,
    Symbols,
    Str,
    Handle,
    List,
    Form,
    Dict,
    Table,
    Func,
    Nil,
}

/// The simple types q has (1..19 without 3).
const TYPES: &[i8] = &[
    1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
];

pub struct Gen<'r, 'f, 'l> {
    pub rng: &'r mut Rng,
    pub fx: &'f mut Fixtures<'l>,
}

impl Gen<'_, '_, '_> {
    /// The arguments of one call of function `name` of rank `rank`: for a typed q function, half
    /// the time the forms it declares (forms.rs).
    pub fn args(&mut self, name: &str, rank: i64) -> Vec<KObj> {
        if let Some(kinds) = crate::forms::declared(name).filter(|_| rank == 1) {
            if self.rng.chance(50) {
                return vec![crate::forms::args(self, kinds)];
            }
        }
        if rank == 1 {
            return vec![self.top()];
        }
        (0..rank).map(|_| self.value(2)).collect()
    }

    /// A one-argument function's argument: often a form ktorch functions take.
    fn top(&mut self) -> KObj {
        match self.rng.below(10) {
            0..=3 => self.form(),
            _ => self.value(3),
        }
    }

    fn kind(&mut self, depth: u32) -> Kind {
        let total: u64 = KINDS.iter().map(|k| k.1).sum();
        loop {
            let mut r = self.rng.below(total);
            for &(k, w) in KINDS {
                if r < w {
                    // no nesting at the bottom
                    if depth == 0 && matches!(k, Kind::List | Kind::Form | Kind::Dict | Kind::Table)
                    {
                        break;
                    }
                    return k;
                }
                r -= w;
            }
        }
    }

    pub fn value(&mut self, depth: u32) -> KObj {
        match self.kind(depth) {
            Kind::Atom => {
                let t = *self.rng.pick(TYPES);
                self.atom(t)
            }
            Kind::Vector => {
                let t = *self.rng.pick(TYPES);
                let n = *self.rng.pick(&[0u64, 1, 2, 3, 4, 6]);
                self.vector(t, n)
            }
            Kind::Sizes => self.sizes(),
            Kind::Symbol => self.symbol(),
            Kind::Symbols => {
                let n = self.rng.below(4);
                let v: Vec<&str> = (0..n).map(|_| *self.rng.pick(VOCAB)).collect();
                KObj::syms(&v)
            }
            // now and then a file of the corpus for the model and weight readers (files.rs)
            Kind::Str if self.rng.chance(25) => {
                KObj::string(self.rng.pick::<&str>(crate::files::FILES))
            }
            Kind::Str => self.string(),
            Kind::Handle => self.handle(),
            Kind::List => {
                let n = self.rng.below(5);
                KObj::list((0..n).map(|_| self.value(depth - 1)).collect())
            }
            Kind::Form => self.form_at(depth - 1),
            Kind::Dict => self.dict(depth - 1),
            Kind::Table => self.table(),
            Kind::Func => self.func(),
            Kind::Nil => KObj::identity(),
        }
    }

    /// `(handle;x..)`, `(`option;x..)`, `(x;`option;y)`: the shapes of ktorch's arguments.
    fn form(&mut self) -> KObj {
        self.form_at(2)
    }

    fn form_at(&mut self, depth: u32) -> KObj {
        let n = self.rng.below(4);
        let head = match self.rng.below(3) {
            0 => self.handle(),
            1 => self.symbol(),
            _ => self.value(depth),
        };
        let mut items = vec![head];
        for _ in 0..n {
            items.push(if self.rng.chance(25) {
                self.symbol()
            } else {
                self.value(depth)
            });
        }
        KObj::list(items)
    }

    /// A size-like long vector (one to four dimensions, edges included).
    pub fn sizes(&mut self) -> KObj {
        let n = 1 + self.rng.below(4);
        let v: Vec<i64> = (0..n).map(|_| *self.rng.pick(SIZES)).collect();
        KObj::from_slice(KJ, &v)
    }

    pub fn string(&mut self) -> KObj {
        KObj::string(self.rng.pick::<&str>(STRINGS))
    }

    pub fn symbol(&mut self) -> KObj {
        if self.rng.chance(4) {
            return KObj::sym(&format!(":{}", self.rng.pick(crate::files::FILES)));
        }
        if self.rng.chance(5) {
            return KObj::sym(self.rng.pick::<&str>(&["", "nosuch", "cuda:99", "x y"]));
        }
        KObj::sym(self.rng.pick::<&str>(VOCAB))
    }

    pub fn handle(&mut self) -> KObj {
        match self.rng.below(20) {
            0..=13 => {
                let c = *self.rng.pick(classes());
                let v = self.rng.next();
                self.fx.live(c, v)
            }
            14 | 15 => self.fx.freed(),
            16 => handle(*self.rng.pick(&[999999, -1, NJ, WJ, 0])),
            17 => KObj::list(vec![KObj::float(1.0)]),
            18 => KObj::list(vec![KObj::int(1)]),
            _ => KObj::list(vec![KObj::list(vec![KObj::long(1)])]),
        }
    }

    pub fn atom(&mut self, t: i8) -> KObj {
        let j = *self.rng.pick(LONGS);
        let f = *self.rng.pick(FLOATS);
        match t {
            KB => KObj::bool(self.rng.chance(50)),
            UU => {
                let mut g = [0u8; 16];
                if self.rng.chance(50) {
                    g.iter_mut().for_each(|b| *b = self.rng.next() as u8);
                }
                KObj::guid(g)
            }
            KG => KObj::byte(j as u8),
            KH => KObj::short(*self.rng.pick(&[0, 1, 2, -1, NH, WH, -WH])),
            KI => KObj::int(*self.rng.pick(&[0, 1, 2, 3, -1, NI, WI, -WI])),
            KJ => KObj::long(j),
            KE => KObj::real(f as f32),
            KF => KObj::float(f),
            KC => KObj::char(*self.rng.pick(b"a b\0")),
            KS => self.symbol(),
            KZ => KObj::datetime(f),
            KP | KN => KObj::temporal(t, j),
            _ => KObj::temporal(t, *self.rng.pick(&[0, 1, -1, NI as i64, WI as i64])),
        }
    }

    pub fn vector(&mut self, t: i8, n: u64) -> KObj {
        match t {
            KB | KG | KC => {
                let v: Vec<u8> = (0..n).map(|_| self.rng.next() as u8 % 4).collect();
                KObj::from_slice(t, &v)
            }
            UU => {
                let v: Vec<[u8; 16]> = (0..n).map(|_| [self.rng.next() as u8; 16]).collect();
                KObj::from_slice(t, &v)
            }
            KH => {
                let v: Vec<i16> = (0..n).map(|_| *self.rng.pick(LONGS) as i16).collect();
                KObj::from_slice(t, &v)
            }
            KI | KM | KD | KU | KV | KT => {
                let v: Vec<i32> = (0..n)
                    .map(|_| *self.rng.pick(&[0, 1, 2, 3, -1, NI, WI]))
                    .collect();
                KObj::from_slice(t, &v)
            }
            KJ | KP | KN => {
                let v: Vec<i64> = (0..n).map(|_| *self.rng.pick(LONGS)).collect();
                KObj::from_slice(t, &v)
            }
            KE => {
                let v: Vec<f32> = (0..n).map(|_| *self.rng.pick(FLOATS) as f32).collect();
                KObj::from_slice(t, &v)
            }
            KF | KZ => {
                let v: Vec<f64> = (0..n).map(|_| *self.rng.pick(FLOATS)).collect();
                KObj::from_slice(t, &v)
            }
            _ => {
                let v: Vec<&str> = (0..n).map(|_| *self.rng.pick(VOCAB)).collect();
                KObj::syms(&v)
            }
        }
    }

    fn dict(&mut self, depth: u32) -> KObj {
        let n = self.rng.below(4);
        let keys: Vec<&str> = (0..n).map(|_| *self.rng.pick(VOCAB)).collect();
        if self.rng.chance(15) {
            // keys that are not symbols
            let k = self.vector(KJ, n);
            return KObj::dict(k, KObj::list((0..n).map(|_| self.value(depth)).collect()));
        }
        let vals = (0..n).map(|_| self.value(depth)).collect();
        KObj::dict(KObj::syms(&keys), KObj::list(vals))
    }

    fn table(&mut self) -> KObj {
        let n = self.rng.below(4);
        let t = *self.rng.pick(&[KJ, KF, KE, KS, KB]);
        let a = self.vector(t, n);
        let b = self.vector(KF, n);
        KObj::table(KObj::dict(KObj::syms(&["a", "b"]), KObj::list(vec![a, b])))
    }

    /// A q function: one that answers, one that signals, the identity.
    fn func(&mut self) -> KObj {
        let src = *self.rng.pick(&["{x}", "{[x;y]x}", "{'`boom}", "{::}"]);
        match qhost::q::eval_text(src) {
            Ok(f) => f,
            Err(_) => KObj::identity(),
        }
    }
}
