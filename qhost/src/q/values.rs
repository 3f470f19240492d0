//! Plumbing on K values that every layer above shares (the C API's `vk`, the console form, the
//! verbs, iterators, amend, qSQL): items of lists as atoms, rebuilding lists from items (q's
//! rule: atoms all of one type make a typed vector), typed nulls, rows of tables, and the two
//! numeric views (`ivals`: integers with nulls/infinities mapped onto i64's, `fvals`: f64 with
//! NaN/inf) that arithmetic, comparison, aggregation and casts all compute in. Knows nothing of
//! the interpreter (issue 32's one-way layers).
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QErr, QResult};

pub fn type_err() -> QErr {
    err("type")
}
pub fn len_err() -> QErr {
    err("length")
}
pub fn nyi() -> QErr {
    err("nyi")
}

thread_local! {
    /// Whether the fast paths (issue 31) run on this thread: each answers exactly what the
    /// generic path it short-cuts answers; off, only the generic paths run (the differential
    /// test, qhost/tests/fast_paths.rs, compares the two).
    static FAST: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether this thread takes the fast paths (on unless `set_fast_paths(false)`).
pub fn fast_paths() -> bool {
    FAST.with(|f| f.get())
}

/// Turn this thread's fast paths on or off (tests: compare them with the generic paths).
pub fn set_fast_paths(on: bool) {
    FAST.with(|f| f.set(on))
}

/// An atom or typed vector of a base type (1..19): what the vectorised kernels work on.
pub fn is_simple(x: &KObj) -> bool {
    let t = x.t().unsigned_abs() as i8;
    (1..=KT).contains(&t) && t != 3
}

/// Item `i` of a list: an atom for a typed vector, the item itself for a general list.
pub fn elem(x: &KObj, i: i64) -> KObj {
    if x.t() == XT {
        // a table's item is its row, a dictionary (a table nested as a column included)
        let (names, cols) = table_cols(x);
        return KObj::dict(names, from_items(cols.iter().map(|c| elem(c, i)).collect()));
    }
    x.elem(i)
}

/// The items of a list (atoms for a typed vector); an atom is its own single item.
pub fn items(x: &KObj) -> Vec<KObj> {
    if x.t() == 0 {
        x.items()
    } else if x.is_vector() {
        (0..x.len()).map(|i| elem(x, i)).collect()
    } else {
        vec![x.clone()]
    }
}

/// Copy atom `a`'s value into slot `k` of typed vector `out` (same base type).
fn put_atom(out: &KObj, k: usize, a: &KObj) {
    let vt = out.t();
    let es = elem_size(vt);
    unsafe {
        let dst = data::<u8>(out.as_ptr()).add(k * es);
        let src = if vt == UU {
            data::<u8>(a.as_ptr())
        } else {
            atom::<u8>(a.as_ptr())
        };
        std::ptr::copy_nonoverlapping(src, dst, es);
    }
}

/// A list from items as q builds results: atoms all of one base type make a typed vector,
/// anything else (or nothing) a general list.
pub fn from_items(v: Vec<KObj>) -> KObj {
    if v.is_empty() {
        return KObj::list(v);
    }
    let t = v[0].t();
    if (-KT..0).contains(&t) && v.iter().all(|x| x.t() == t) {
        let out = KObj::vector(-t, v.len() as i64);
        for (k, a) in v.iter().enumerate() {
            put_atom(&out, k, a);
        }
        return out;
    }
    if let Some(t) = dicts_as_table(&v) {
        return t;
    }
    KObj::list(v)
}

/// q makes a list of dictionaries with the same symbol keys (in the same order) a table: one
/// row per dictionary (code.kx.com/q/kb/faq "a list of conforming dictionaries is a table").
pub fn dicts_as_table(v: &[KObj]) -> Option<KObj> {
    let k0 = v.first()?;
    if k0.t() != XD || k0.dict_keys().t() != KS {
        return None;
    }
    let keys = k0.dict_keys();
    let names = keys.sym_list();
    if names.is_empty() {
        return None;
    }
    let mut vals: Vec<Vec<KObj>> = Vec::with_capacity(v.len());
    for d in v {
        if d.t() != XD || d.dict_keys().t() != KS || d.dict_keys().sym_list() != names {
            return None;
        }
        vals.push(items(&d.dict_values()));
    }
    let cols = (0..names.len())
        .map(|c| from_items(vals.iter().map(|r| r[c].clone()).collect()))
        .collect();
    Some(make_table(keys, cols))
}

/// A typed vector of `n` copies of atom `a` (a general list for non-simple `a`).
pub fn fill(a: &KObj, n: i64) -> KObj {
    if a.t() < 0 && a.t() >= -KT {
        let out = KObj::vector(-a.t(), n);
        for k in 0..n as usize {
            put_atom(&out, k, a);
        }
        out
    } else {
        KObj::list((0..n).map(|_| a.clone()).collect())
    }
}

/// The null atom of base type `t` (positive), as q indexes out of range: 0b, 0x00, 0Nh, 0Ni,
/// 0N, 0Ne, 0n, " ", `, 0Np ...; a general list's null is `::`'s stand-in, an empty list.
pub fn null_atom(t: i8) -> KObj {
    let a = KObj::vector(t.max(0), 1);
    if t > 0 {
        set_null(&a, 0);
        elem(&a, 0)
    } else {
        KObj::list(vec![])
    }
}

/// Write q's null into slot i of typed vector x.
pub fn set_null(x: &KObj, i: usize) {
    match x.t() {
        KH => x.slice_mut::<i16>()[i] = NH,
        KI | KM | KD | KU | KV | KT => x.slice_mut::<i32>()[i] = NI,
        KJ | KP | KN => x.slice_mut::<i64>()[i] = NJ,
        KE => x.slice_mut::<f32>()[i] = f32::NAN,
        KF | KZ => x.slice_mut::<f64>()[i] = f64::NAN,
        KC => x.slice_mut::<u8>()[i] = b' ',
        KS => x.slice_mut::<*const libc::c_char>()[i] = crate::kapi::sym::intern(b""),
        UU => x.slice_mut::<[u8; 16]>()[i] = [0; 16],
        // boolean and byte have no null: 0b, 0x00 (written: a new vector is not zeroed)
        KB | KG => x.slice_mut::<u8>()[i] = 0,
        _ => {}
    }
}

/// Whether slot i of a simple value (atom: i ignored) is q's null.
pub fn is_null_at(x: &KObj, i: usize) -> bool {
    let v = if x.is_atom() {
        KObj::clone(x)
    } else {
        elem(x, i as i64)
    };
    match -v.t() {
        KH => v.get_short() == NH,
        KI | KM | KD | KU | KV | KT => v.get_int() == NI,
        KJ | KP | KN => v.get_long() == NJ,
        KE => v.get_real().is_nan(),
        KF | KZ => v.get_float().is_nan(),
        KC => v.get_byte() == b' ',
        KS => v.get_sym().is_empty(),
        UU => (unsafe { std::slice::from_raw_parts(data::<u8>(v.as_ptr()), 16) }) == [0u8; 16],
        _ => false,
    }
}

/// Integer-like base types: values are exact integers underneath (temporal ones included).
pub fn is_intlike(t: i8) -> bool {
    matches!(
        t.abs(),
        KB | KG | KH | KI | KJ | KC | KP | KM | KD | KN | KU | KV | KT
    )
}
pub fn is_temporal(t: i8) -> bool {
    matches!(t.abs(), KP | KM | KD | KZ | KN | KU | KV | KT)
}
pub fn is_numeric(t: i8) -> bool {
    matches!(t.abs(), KB | KG | KH | KI | KJ | KE | KF)
}

/// Values of a simple integer-like atom or vector as i64, nulls as NJ and infinities as ±WJ
/// (temporal and cast code maps them to the target type's infinities).
pub fn ivals(x: &KObj) -> Option<Vec<i64>> {
    ivals_with(x, true)
}

/// Values as i64 with only nulls special: arithmetic and conversion to float widen a short or
/// int infinity to its value (basics/datatypes.md: `0Wi+5` is 2147483652, `` `float$0Wi `` is
/// 2.147484e+09, ref/cast.md `` `float$0Wh `` is 32767f).
pub fn ivals_exact(x: &KObj) -> Option<Vec<i64>> {
    ivals_with(x, false)
}

fn ivals_with(x: &KObj, infinities: bool) -> Option<Vec<i64>> {
    let t = x.t().abs();
    let one = |v: KObj| ivals_with(&v, infinities);
    if x.is_atom() {
        let v = KObj::vector(t, 1);
        put_atom(&v, 0, x);
        return one(v);
    }
    let widen = |s: &[i64], n: i64, w: i64| -> Vec<i64> {
        s.iter()
            .map(|&v| {
                if v == n {
                    NJ
                } else if infinities && v == w {
                    WJ
                } else if infinities && v == -w {
                    -WJ
                } else {
                    v
                }
            })
            .collect()
    };
    Some(match t {
        KB | KG | KC => x.slice::<u8>().iter().map(|&v| v as i64).collect(),
        KH => widen(
            &x.slice::<i16>()
                .iter()
                .map(|&v| v as i64)
                .collect::<Vec<_>>(),
            NH as i64,
            WH as i64,
        ),
        KI | KM | KD | KU | KV | KT => widen(
            &x.slice::<i32>()
                .iter()
                .map(|&v| v as i64)
                .collect::<Vec<_>>(),
            NI as i64,
            WI as i64,
        ),
        KJ | KP | KN => x.slice::<i64>().to_vec(),
        _ => return None,
    })
}

/// Values as f64: integer nulls become NaN; integer infinities are their values
/// (basics/datatypes.md: `` `float$0Wj `` is 9.223372e+18).
pub fn fvals(x: &KObj) -> Option<Vec<f64>> {
    let t = x.t().abs();
    match t {
        KE => Some(if x.is_atom() {
            vec![x.get_real() as f64]
        } else {
            x.slice::<f32>().iter().map(|&v| v as f64).collect()
        }),
        KF | KZ => Some(if x.is_atom() {
            vec![x.get_float()]
        } else {
            x.slice::<f64>().to_vec()
        }),
        _ => ivals_exact(x).map(|v| v.into_iter().map(i2f).collect()),
    }
}

pub fn i2f(v: i64) -> f64 {
    match v {
        NJ => f64::NAN,
        v => v as f64,
    }
}

/// Float to q integer: NaN is null, ±inf the infinities, otherwise rounded to nearest.
pub fn f2i(v: f64) -> i64 {
    if v.is_nan() {
        NJ
    } else if v >= 9.223_372_036_854_776e18 {
        WJ
    } else if v <= -9.223_372_036_854_776e18 {
        -WJ
    } else {
        v.round() as i64
    }
}

/// A simple value of base type `t` from i64 values (NJ/±WJ map to the type's null/infinities;
/// other values are truncated to the width, as machine arithmetic wraps).
pub fn build_i(t: i8, atom: bool, v: &[i64]) -> KObj {
    let x = KObj::vector(t, v.len() as i64);
    fn narrow<T: Copy>(out: &mut [T], v: &[i64], n: T, w: T, nw: T, cv: impl Fn(i64) -> T) {
        for (o, &a) in out.iter_mut().zip(v) {
            *o = match a {
                NJ => n,
                WJ => w,
                a if a == -WJ => nw,
                a => cv(a),
            };
        }
    }
    match t {
        KB => x
            .slice_mut::<u8>()
            .iter_mut()
            .zip(v)
            .for_each(|(o, &a)| *o = (a != 0) as u8),
        KG | KC => x
            .slice_mut::<u8>()
            .iter_mut()
            .zip(v)
            .for_each(|(o, &a)| *o = a as u8),
        KH => narrow(x.slice_mut::<i16>(), v, NH, WH, -WH, |a| a as i16),
        KI | KM | KD | KU | KV | KT => narrow(x.slice_mut::<i32>(), v, NI, WI, -WI, |a| a as i32),
        KJ | KP | KN => x.slice_mut::<i64>().copy_from_slice(v),
        KE => x
            .slice_mut::<f32>()
            .iter_mut()
            .zip(v)
            .for_each(|(o, &a)| *o = i2f(a) as f32),
        KF | KZ => x
            .slice_mut::<f64>()
            .iter_mut()
            .zip(v)
            .for_each(|(o, &a)| *o = i2f(a)),
        _ => unreachable!("build_i on type {t}"),
    }
    if atom {
        elem(&x, 0)
    } else {
        x
    }
}

/// A simple value of base type `t` from f64 values (rounded into integer types).
pub fn build_f(t: i8, atom: bool, v: &[f64]) -> KObj {
    match t {
        KE => {
            let x = KObj::from_slice(KE, &v.iter().map(|&a| a as f32).collect::<Vec<_>>());
            if atom {
                elem(&x, 0)
            } else {
                x
            }
        }
        KF | KZ => {
            let x = KObj::from_slice(t, v);
            if atom {
                elem(&x, 0)
            } else {
                x
            }
        }
        _ => build_i(t, atom, &v.iter().map(|&a| f2i(a)).collect::<Vec<_>>()),
    }
}

/// Length of the result of an atomic dyadic verb on simple x and y: None when both are atoms,
/// 'length when two lists differ.
pub fn conform(x: &KObj, y: &KObj) -> Result<Option<usize>, QErr> {
    match (x.is_atom(), y.is_atom()) {
        (true, true) => Ok(None),
        (false, true) => Ok(Some(x.len() as usize)),
        (true, false) => Ok(Some(y.len() as usize)),
        (false, false) if x.len() == y.len() => Ok(Some(x.len() as usize)),
        _ => Err(len_err()),
    }
}

/// Broadcast a binary kernel over two value vectors (an atom's single value repeats).
pub fn zip_with<A: Copy, B: Copy, R>(a: &[A], b: &[B], n: usize, f: impl Fn(A, B) -> R) -> Vec<R> {
    (0..n)
        .map(|i| {
            f(
                a[if a.len() == 1 { 0 } else { i }],
                b[if b.len() == 1 { 0 } else { i }],
            )
        })
        .collect()
}

/// An integer atom's value (boolean through long), None otherwise.
pub fn int_atom(x: &KObj) -> Option<i64> {
    if !fast_paths() {
        return if x.is_atom() && matches!(-x.t(), KB | KG | KH | KI | KJ) {
            ivals(x).map(|v| v[0])
        } else {
            None
        };
    }
    // as `ivals` maps them: nulls to NJ, a short's or int's infinities to ±WJ
    let wide = |v: i64, n: i64, w: i64| match v {
        v if v == n => NJ,
        v if v == w => WJ,
        v if v == -w => -WJ,
        v => v,
    };
    match -x.t() {
        KB | KG => Some(x.get_byte() as i64),
        KH => Some(wide(x.get_short() as i64, NH as i64, WH as i64)),
        KI => Some(wide(x.get_int() as i64, NI as i64, WI as i64)),
        KJ => Some(x.get_long()),
        _ => None,
    }
}

/// Integer vector (or atom as one) values, None for other types.
pub fn int_list(x: &KObj) -> Option<Vec<i64>> {
    if matches!(x.t().abs(), KB | KG | KH | KI | KJ) {
        ivals(x)
    } else if x.t() == 0 && x.is_empty() {
        Some(vec![])
    } else {
        None
    }
}

/// Items `idx` of a list keeping its type; an index out of range gives the null of the item
/// type (for a general list, of its first item's type, as q does).
pub fn rows(x: &KObj, idx: &[i64]) -> KObj {
    if x.t() == XT {
        // a table nested as a column: its rows
        return take_rows(x, idx);
    }
    if x.t() == XD {
        // a dictionary's entries at those places (never raw memory: x is not a vector)
        return KObj::dict(rows(&x.dict_keys(), idx), rows(&x.dict_values(), idx));
    }
    if x.t() < 0 || x.t() > XT {
        return KObj::list(idx.iter().map(|_| x.clone()).collect());
    }
    let n = x.len();
    let t = x.t();
    if t == 0 {
        let out: Vec<KObj> = idx
            .iter()
            .map(|&i| {
                if (0..n).contains(&i) {
                    x.item(i)
                } else {
                    list_null(x)
                }
            })
            .collect();
        return KObj::list(out);
    }
    let out = KObj::vector(t, idx.len() as i64);
    if !fast_paths() {
        let es = elem_size(t);
        for (k, &i) in idx.iter().enumerate() {
            if (0..n).contains(&i) {
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        data::<u8>(x.as_ptr()).add(i as usize * es),
                        data::<u8>(out.as_ptr()).add(k * es),
                        es,
                    )
                }
            } else {
                set_null(&out, k);
            }
        }
        return out;
    }
    // one typed copy per item (by element size), then q's null where an index is out of range
    fn gather<T: Copy>(x: &KObj, out: &KObj, idx: &[i64]) -> bool {
        let (src, dst) = (x.slice::<T>(), out.slice_mut::<T>());
        let mut missing = false;
        for (o, &i) in dst.iter_mut().zip(idx) {
            match usize::try_from(i).ok().and_then(|i| src.get(i)) {
                Some(v) => *o = *v,
                None => missing = true,
            }
        }
        missing
    }
    let missing = match elem_size(t) {
        1 => gather::<u8>(x, &out, idx),
        2 => gather::<i16>(x, &out, idx),
        4 => gather::<i32>(x, &out, idx),
        8 => gather::<i64>(x, &out, idx),
        _ => gather::<[u8; 16]>(x, &out, idx),
    };
    if missing {
        for (k, &i) in idx.iter().enumerate() {
            if !(0..n).contains(&i) {
                set_null(&out, k);
            }
        }
    }
    out
}

/// Items `lo..hi` (within the list) of a simple vector (types 1..19) or general list, as
/// `rows` gives them for those indices: one copy of the run.
pub fn row_range(x: &KObj, lo: i64, hi: i64) -> KObj {
    let t = x.t();
    debug_assert!((0..XT).contains(&t) && 0 <= lo && lo <= hi && hi <= x.len());
    let (lo, hi) = (lo as usize, hi as usize);
    if t == 0 {
        return KObj::list((lo..hi).map(|i| x.item(i as i64)).collect());
    }
    let es = elem_size(t);
    let out = KObj::vector(t, (hi - lo) as i64);
    // SAFETY: x is a simple vector of at least hi items of es bytes; out holds hi-lo of them
    unsafe {
        std::ptr::copy_nonoverlapping(
            data::<u8>(x.as_ptr()).add(lo * es),
            data::<u8>(out.as_ptr()),
            (hi - lo) * es,
        )
    }
    out
}

/// What an out-of-range index of a general list gives: the null of its first item's type.
pub fn list_null(x: &KObj) -> KObj {
    if x.is_empty() {
        return KObj::identity();
    }
    let f = x.item(0);
    if f.t() < 0 && f.t() >= -KT {
        null_atom(-f.t())
    } else if f.is_vector() {
        KObj::vector(f.t(), 0)
    } else {
        KObj::identity()
    }
}

/// The texts of a symbol atom or vector.
pub fn sym_texts(x: &KObj) -> Option<Vec<&'static str>> {
    match x.t() {
        t if t == -KS => Some(vec![x.get_sym()]),
        KS => Some(x.sym_list()),
        _ => None,
    }
}

/// Whether x is the generic null `::`.
pub fn is_identity(x: &KObj) -> bool {
    x.t() == 101 && x.get_long() == 0
}

/// Keys and values of a table's column dictionary: names and columns.
pub fn table_cols(t: &KObj) -> (KObj, Vec<KObj>) {
    let d = t.table_dict();
    (d.dict_keys(), d.dict_values().items())
}

/// A table from a symbol vector of names and its columns.
pub fn make_table(names: KObj, cols: Vec<KObj>) -> KObj {
    KObj::table(KObj::dict(names, KObj::list(cols)))
}

/// Whether a dictionary is a keyed table (table keys and table values).
pub fn is_keyed(x: &KObj) -> bool {
    x.t() == XD && x.dict_keys().t() == XT && x.dict_values().t() == XT
}

/// Result of a kernel, for callers that build atoms or vectors alike.
pub fn ok(x: KObj) -> QResult {
    Ok(x)
}

/// A hashable key for an item with `~`'s meaning (exact for floats, nulls equal): the type,
/// the count and the bytes of the values, recursively for lists, dictionaries and tables.
pub fn hkey(x: &KObj) -> Vec<u8> {
    let mut out = Vec::with_capacity(16);
    hkey_into(x, &mut out);
    out
}

fn hkey_into(x: &KObj, out: &mut Vec<u8>) {
    let t = x.t();
    out.push(t as u8);
    match t {
        0 => {
            out.extend_from_slice(&x.len().to_le_bytes());
            for i in x.items() {
                hkey_into(&i, out);
            }
        }
        XD => {
            hkey_into(&x.dict_keys(), out);
            hkey_into(&x.dict_values(), out);
        }
        XT => hkey_into(&x.table_dict(), out),
        _ if is_simple(x) && matches!(t.abs(), KE | KF | KZ) => {
            if x.is_vector() {
                out.extend_from_slice(&x.len().to_le_bytes());
            }
            for v in fvals(x).unwrap() {
                // one NaN, one zero: q's match treats them as equal
                let v = if v.is_nan() {
                    f64::NAN
                } else if v == 0.0 {
                    0.0
                } else {
                    v
                };
                out.extend_from_slice(&v.to_bits().to_le_bytes());
            }
        }
        _ if is_simple(x) => {
            let es = elem_size(t);
            let (p, n) = if x.is_atom() {
                let p = if t == -UU {
                    unsafe { data::<u8>(x.as_ptr()) }
                } else {
                    unsafe { atom::<u8>(x.as_ptr()) }
                };
                (p, es)
            } else {
                out.extend_from_slice(&x.len().to_le_bytes());
                (unsafe { data::<u8>(x.as_ptr()) }, es * x.len() as usize)
            };
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(p, n) });
        }
        _ => out.extend_from_slice(&(x.as_ptr() as usize).to_le_bytes()),
    }
}

/// Items of a list as q iterates them, rows (dictionaries) of a table included.
pub fn rows_of(x: &KObj) -> Vec<KObj> {
    if x.t() == XT {
        let (names, cols) = table_cols(x);
        (0..x.len())
            .map(|i| {
                KObj::dict(
                    names.clone(),
                    from_items(cols.iter().map(|c| elem(c, i)).collect()),
                )
            })
            .collect()
    } else {
        items(x)
    }
}

/// Rows `idx` of a list or table (out of range: nulls).
pub fn take_rows(x: &KObj, idx: &[i64]) -> KObj {
    if x.t() == XT {
        let (names, cols) = table_cols(x);
        return make_table(names, cols.iter().map(|c| rows(c, idx)).collect());
    }
    if x.t() == XD {
        return KObj::dict(
            take_rows(&x.dict_keys(), idx),
            take_rows(&x.dict_values(), idx),
        );
    }
    rows(x, idx)
}

/// Whether x is a list (vector or general list) as adverbs iterate it.
pub fn is_list(x: &KObj) -> bool {
    x.is_vector()
}

/// The items of a list as the iterators, amend and qSQL take them: a general list's items, a
/// vector's atoms, a table's rows (`items` also answers an atom as its own single item).
pub fn list_items(x: &KObj) -> Vec<KObj> {
    if x.t() == 0 {
        return x.items();
    }
    (0..x.len()).map(|i| elem(x, i)).collect()
}

/// Items of an argument list value for `.`: a general list's items, a vector's atoms.
pub fn arg_items(x: &KObj) -> Vec<KObj> {
    if x.is_vector() {
        list_items(x)
    } else {
        vec![x.clone()]
    }
}

/// An integer atom's value (boolean, byte, short, int, long), None for anything else.
pub fn int_of(x: &KObj) -> Option<i64> {
    Some(match x.t() {
        t if t == -KB => x.get_bool() as i64,
        t if t == -KG => x.get_byte() as i64,
        t if t == -KH => x.get_short() as i64,
        t if t == -KI => {
            let v = x.get_int();
            if v == NI {
                NJ
            } else {
                v as i64
            }
        }
        t if t == -KJ => x.get_long(),
        _ => return None,
    })
}

/// An integer vector's values (boolean..long), None for other types.
pub fn ints_of(x: &KObj) -> Option<Vec<i64>> {
    Some(match x.t() {
        KB => x.slice::<u8>().iter().map(|&v| v as i64).collect(),
        KG => x.slice::<u8>().iter().map(|&v| v as i64).collect(),
        KH => x.slice::<i16>().iter().map(|&v| v as i64).collect(),
        KI => x.slice::<i32>().iter().map(|&v| v as i64).collect(),
        KJ => x.slice::<i64>().to_vec(),
        _ => return None,
    })
}

/// q's truth of a condition atom: non-zero (any numeric or temporal atom, char, byte).
pub fn truthy(x: &KObj) -> Option<bool> {
    Some(match x.t() {
        t if t == -KB || t == -KG || t == -KC => x.get_byte() != 0,
        t if t == -KH => x.get_short() != 0,
        t if t == -KI || t == -KM || t == -KD || t == -KU || t == -KV || t == -KT => {
            x.get_int() != 0
        }
        t if t == -KJ || t == -KP || t == -KN => x.get_long() != 0,
        t if t == -KE => x.get_real() != 0.0,
        t if t == -KF || t == -KZ => x.get_float() != 0.0,
        _ => return None,
    })
}

/// Column names and column values of a table (simple, unkeyed).
pub fn table_parts(t: &KObj) -> (Vec<&'static str>, Vec<KObj>) {
    let d = t.table_dict();
    (d.dict_keys().sym_list(), d.dict_values().items())
}

/// A table from column names and columns.
pub fn table_of(names: &[String], cols: Vec<KObj>) -> KObj {
    KObj::table(KObj::dict(KObj::syms(names), KObj::list(cols)))
}

/// (year, month, day) of a day count since 2000.01.01.
pub fn civil_from_days(d: i64) -> (i64, i64, i64) {
    let z = d + 10957 + 719468;
    let era = z.div_euclid(146097);
    let doe = z.rem_euclid(146097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let dd = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, dd)
}
