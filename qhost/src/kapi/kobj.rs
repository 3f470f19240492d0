//! The K object exactly as k.h (KXVER 3, 64-bit) lays it out, its allocation and reference
//! counting, and `KObj`, the owning handle the interpreter works with.
//!
//! Layout: `m a t u` (4 bytes), `r` (i32 refcount, 0 = one reference, as q), then at offset 8
//! either an atom's value or a vector's length `n`; vector data starts at offset 16.
//! Every object is one `malloc` block so that an extension may `r0` what we made and vice versa.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicI64, Ordering};

use super::sym;

pub mod func;
pub mod pool;
use func::Func;

/// k.h's `struct k0`, field for field.
#[repr(C)]
pub struct K0 {
    pub m: i8,
    pub a: i8,
    pub t: i8,
    pub u: u8,
    pub r: i32,
    /// Atom value or vector length; read through the typed accessors.
    pub n: i64,
}

pub type K = *mut K0;

/// Live K objects, for the leak check (QHOST_LEAKCHECK).
static LIVE: AtomicI64 = AtomicI64::new(0);

pub fn live_objects() -> i64 {
    LIVE.load(Ordering::SeqCst)
}

// Type codes (k.h names).
pub const KB: i8 = 1;
pub const UU: i8 = 2;
pub const KG: i8 = 4;
pub const KH: i8 = 5;
pub const KI: i8 = 6;
pub const KJ: i8 = 7;
pub const KE: i8 = 8;
pub const KF: i8 = 9;
pub const KC: i8 = 10;
pub const KS: i8 = 11;
pub const KP: i8 = 12;
pub const KM: i8 = 13;
pub const KD: i8 = 14;
pub const KZ: i8 = 15;
pub const KN: i8 = 16;
pub const KU: i8 = 17;
pub const KV: i8 = 18;
pub const KT: i8 = 19;
pub const XT: i8 = 98;
pub const XD: i8 = 99;
pub const FN_LAMBDA: i8 = 100;
pub const FN_DL: i8 = 112;
pub const ERR: i8 = -128;

// Nulls and infinities.
pub const NH: i16 = i16::MIN;
pub const NI: i32 = i32::MIN;
pub const NJ: i64 = i64::MIN;
pub const WH: i16 = i16::MAX;
pub const WI: i32 = i32::MAX;
pub const WJ: i64 = i64::MAX;

/// The type a q type letter names, as in casts (`"j"$x`) and literal suffixes (`1j`):
/// b g x h i j e f c s p m d z n u v t.
pub fn type_of_letter(c: u8) -> Option<i8> {
    Some(match c {
        b'b' => KB,
        b'g' => UU,
        b'x' => KG,
        b'h' => KH,
        b'i' => KI,
        b'j' => KJ,
        b'e' => KE,
        b'f' => KF,
        b'c' => KC,
        b's' => KS,
        b'p' => KP,
        b'm' => KM,
        b'd' => KD,
        b'z' => KZ,
        b'n' => KN,
        b'u' => KU,
        b'v' => KV,
        b't' => KT,
        _ => return None,
    })
}

/// Bytes per element of a vector of type `t` (absolute value); 8 for general lists and
/// pointer-holding types.
pub fn elem_size(t: i8) -> usize {
    match t.unsigned_abs() as i8 {
        0 => 8,
        KB | KG | KC => 1,
        UU => 16,
        KH => 2,
        KI | KE | KM | KD | KU | KV | KT => 4,
        KJ | KF | KS | KP | KZ | KN => 8,
        _ => 8,
    }
}

/// Allocate an object of type `t`: an atom when `t < 0` (or a function/dict/table header),
/// otherwise a vector of `n` elements. A simple vector's data is not zeroed, as in kdb+'s ktn
/// (zeroing costs as much as the copy that fills a converted vector): whoever makes one writes
/// every element. General lists (and dictionaries, atoms, headers) are zeroed, so a list's
/// items are (K)0 until filled and r0 of a part-filled one is safe.
pub fn alloc(t: i8, n: i64) -> K {
    let bytes = match t {
        t if t == -UU => 32, // a guid atom keeps its 16 bytes at offset 16
        XD => 32,            // keys and values
        t if !(0..XT).contains(&t) => 16,
        _ => 16 + elem_size(t) * (n.max(0) as usize),
    };
    // Never malloc(0); round to 16 so data is always aligned for any element type.
    let bytes = (bytes + 15) & !15;
    let simple_vector = (1..XT).contains(&t);
    // a kept block of this size (pool.rs; lists only: other headers are 16 bytes)
    let kept = if (0..XT).contains(&t) {
        pool::take(bytes)
    } else {
        std::ptr::null_mut()
    };
    let p = unsafe {
        if !kept.is_null() {
            if !simple_vector {
                // a general list's items start (K)0, as calloc gives them
                std::ptr::write_bytes(kept as *mut u8, 0, bytes);
            }
            kept
        } else if simple_vector {
            libc::malloc(bytes)
        } else {
            libc::calloc(1, bytes)
        }
    } as K;
    if p.is_null() {
        eprintln!("qhost: out of memory allocating {bytes} bytes");
        std::process::abort();
    }
    unsafe {
        if simple_vector {
            // the header calloc would have zeroed: attribute and flags
            (*p).m = 0;
            (*p).a = 0;
            (*p).u = 0;
        }
        (*p).t = t;
        (*p).r = 0;
        if (0..XT).contains(&t) {
            (*p).n = n;
        } else if t == XD {
            (*p).n = 2;
        } else if t == -UU {
            (*p).n = 1; // as q: a guid atom reads as one 16-byte element
        }
    }
    LIVE.fetch_add(1, Ordering::SeqCst);
    p
}

/// Allocate as q's pool does for `ka`/`ktn`: the header set, nothing else. Atoms and vectors of
/// any type, general lists included, come back with their value or items unset (filled with
/// the poison pattern in strict mode). A function type's payload is the exception: it is one
/// byte `g` (q's primitive number; `ka(101)` then `->g=0` is the generic null) followed by
/// bytes that q never reads, zeroed here so that the payload reads as that number.
pub fn alloc_uninit(t: i8, n: i64) -> K {
    let bytes = match t {
        t if t == -UU => 32,
        XD => 32,
        t if !(0..XT).contains(&t) => 16,
        _ => 16 + elem_size(t) * (n.max(0) as usize),
    };
    let bytes = (bytes + 15) & !15;
    let kept = if (0..XT).contains(&t) {
        pool::take(bytes)
    } else {
        std::ptr::null_mut()
    };
    let p = if kept.is_null() {
        unsafe { libc::malloc(bytes) }
    } else {
        kept
    } as K;
    if p.is_null() {
        eprintln!("qhost: out of memory allocating {bytes} bytes");
        std::process::abort();
    }
    unsafe {
        if super::strict::on() {
            super::strict::poison((p as *mut u8).add(8), bytes - 8);
        }
        (*p).m = 0;
        (*p).a = 0;
        (*p).u = 0;
        (*p).t = t;
        (*p).r = 0;
        if (0..XT).contains(&t) {
            (*p).n = n;
        } else if t == XD {
            (*p).n = 2;
        } else if t == -UU {
            (*p).n = 1;
        } else if t >= FN_LAMBDA {
            // g (offset 8) stays as allocated; the 7 bytes after it are not q's
            std::ptr::write_bytes((p as *mut u8).add(9), 0, 7);
        }
    }
    LIVE.fetch_add(1, Ordering::SeqCst);
    p
}

/// An error object (t = -128) whose `s` points at its own copy of `msg`, stored after the
/// header in the same block: the text lives exactly as long as the object and is never
/// interned (q's symbol table does not grow with error texts).
pub fn alloc_error(msg: &[u8]) -> K {
    let msg = match msg.iter().position(|&b| b == 0) {
        Some(i) => &msg[..i],
        None => msg,
    };
    let bytes = (16 + msg.len() + 1 + 15) & !15;
    let p = unsafe { libc::calloc(1, bytes) } as K;
    if p.is_null() {
        eprintln!("qhost: out of memory allocating {bytes} bytes");
        std::process::abort();
    }
    unsafe {
        (*p).t = ERR;
        let text = (p as *mut u8).add(16);
        std::ptr::copy_nonoverlapping(msg.as_ptr(), text, msg.len());
        *atom::<*const u8>(p) = text;
    }
    LIVE.fetch_add(1, Ordering::SeqCst);
    p
}

/// A function object's payload that is not a boxed `Func`: q's primitive number from `ka`.
#[inline]
pub fn is_prim_number(payload: usize) -> bool {
    payload < 256
}

/// Pointer to a vector's data (offset 16).
///
/// # Safety
/// `x` is a live K object (a list, for the pointer to mean its items).
#[inline]
pub unsafe fn data<T>(x: K) -> *mut T {
    (x as *mut u8).add(16) as *mut T
}

/// Pointer to an atom's value (offset 8).
///
/// # Safety
/// `x` is a live K object (an atom, for the pointer to mean its value).
#[inline]
pub unsafe fn atom<T>(x: K) -> *mut T {
    (x as *mut u8).add(8) as *mut T
}

/// q's r1: one more reference.
///
/// # Safety
/// `x` is null or a live K object.
pub unsafe fn incref(x: K) -> K {
    if !x.is_null() {
        if super::threads::PARALLEL.load(Ordering::Relaxed) {
            refcount_atomic(x).fetch_add(1, Ordering::SeqCst);
        } else {
            (*x).r += 1;
        }
    }
    x
}

/// The `r` field as an atomic, for when peach's threads share objects.
unsafe fn refcount_atomic<'a>(x: K) -> &'a std::sync::atomic::AtomicI32 {
    &*(std::ptr::addr_of_mut!((*x).r) as *const std::sync::atomic::AtomicI32)
}

/// q's r0: drop one reference, freeing children (general lists, dict, table) and function
/// payloads when the last goes.
///
/// # Safety
/// `x` is null or a live K object whose reference the caller gives up (not used after).
pub unsafe fn decref(x: K) {
    if x.is_null() {
        return;
    }
    if x as usize == super::strict::POISON_PTR {
        super::strict::fatal(
            "r0 of a list item never set (ktn(0,n) or ktn(KS,n) items must all be set first, \
             as KX's C API documents)",
        );
    }
    if super::threads::PARALLEL.load(Ordering::Relaxed) {
        // another thread may drop the same object at once: only the one that takes the
        // count from 0 frees it
        let r = refcount_atomic(x);
        let mut cur = r.load(Ordering::SeqCst);
        loop {
            if cur == 0 {
                break;
            }
            match r.compare_exchange(cur, cur - 1, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return,
                Err(c) => cur = c,
            }
        }
    } else if (*x).r > 0 {
        (*x).r -= 1;
        return;
    }
    let t = (*x).t;
    if t == 0 || t == XD {
        let n = (*x).n as usize;
        let items = data::<K>(x);
        for i in 0..n {
            decref(*items.add(i));
        }
    } else if t == XT {
        decref(*atom::<K>(x));
    } else if (FN_LAMBDA..=FN_DL).contains(&t) {
        let f = *atom::<*mut Func>(x);
        if !is_prim_number(f as usize) {
            drop(Box::from_raw(f));
        }
    }
    LIVE.fetch_sub(1, Ordering::SeqCst);
    if (0..XT).contains(&t) {
        // the size alloc gave a list of this type and count (resize keeps n in step; a count
        // an extension lowered gives a smaller size, and the block is only ever reused smaller)
        let bytes = (16 + elem_size(t) * ((*x).n.max(0) as usize) + 15) & !15;
        if pool::put(x as *mut libc::c_void, bytes) {
            return;
        }
    }
    libc::free(x as *mut libc::c_void);
}

/// Grow a vector in place (by realloc) to hold `n` elements; returns the possibly moved object.
/// Only valid when the caller holds the only reference.
///
/// # Safety
/// `x` is a live vector of which the caller holds the only reference; `x` is not used after
/// (the result replaces it).
pub unsafe fn resize(x: K, n: i64) -> K {
    let t = (*x).t;
    let bytes = (16 + elem_size(t) * n as usize + 15) & !15;
    let p = libc::realloc(x as *mut libc::c_void, bytes) as K;
    if p.is_null() {
        eprintln!("qhost: out of memory growing a list to {n}");
        std::process::abort();
    }
    (*p).n = n;
    p
}

/// An owned reference to a K object: `Clone` is r1, `Drop` is r0.
pub struct KObj(NonNull<K0>);

impl Clone for KObj {
    fn clone(&self) -> Self {
        unsafe { incref(self.0.as_ptr()) };
        KObj(self.0)
    }
}

impl Drop for KObj {
    fn drop(&mut self) {
        unsafe { decref(self.0.as_ptr()) }
    }
}

impl std::fmt::Debug for KObj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KObj(t={}, n={})", self.t(), self.len())
    }
}

impl KObj {
    /// Take ownership of a reference the caller owns. None for a null pointer.
    pub fn from_raw(x: K) -> Option<KObj> {
        NonNull::new(x).map(KObj)
    }
    /// Borrow: the caller does not own `x`, so take a new reference.
    pub fn from_borrowed(x: K) -> Option<KObj> {
        NonNull::new(x).map(|p| {
            unsafe { incref(p.as_ptr()) };
            KObj(p)
        })
    }
    /// Give up ownership to C (the reference now belongs to the receiver).
    pub fn into_raw(self) -> K {
        let p = self.0.as_ptr();
        std::mem::forget(self);
        p
    }
    pub fn as_ptr(&self) -> K {
        self.0.as_ptr()
    }
    pub fn t(&self) -> i8 {
        unsafe { (*self.as_ptr()).t }
    }
    pub fn attr(&self) -> u8 {
        unsafe { (*self.as_ptr()).u }
    }
    pub fn set_attr(&self, u: u8) {
        unsafe { (*self.as_ptr()).u = u }
    }
    /// q's reference count (0 = sole owner).
    pub fn refcount(&self) -> i32 {
        unsafe { (*self.as_ptr()).r }
    }
    pub fn is_atom(&self) -> bool {
        self.t() < 0
    }
    pub fn is_vector(&self) -> bool {
        (0..XT).contains(&self.t())
    }
    pub fn is_func(&self) -> bool {
        self.t() >= FN_LAMBDA
    }
    /// Count as q's `count`: vectors and lists their length, dict/table their rows, atoms 1.
    pub fn len(&self) -> i64 {
        let t = self.t();
        if (0..XT).contains(&t) {
            unsafe { (*self.as_ptr()).n }
        } else if t == XD {
            self.dict_keys().len()
        } else if t == XT {
            let d = self.table_dict();
            let v = d.dict_values();
            if v.is_empty() {
                0
            } else {
                v.item(0).len()
            }
        } else {
            1
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // ---- constructors -------------------------------------------------------------------
    pub fn vector(t: i8, n: i64) -> KObj {
        KObj::from_raw(alloc(t, n)).unwrap()
    }
    fn atom_of<T: Copy>(t: i8, v: T) -> KObj {
        let x = alloc(t, 0);
        unsafe { *atom::<T>(x) = v };
        KObj::from_raw(x).unwrap()
    }
    pub fn bool(b: bool) -> KObj {
        Self::atom_of(-KB, b as u8)
    }
    pub fn byte(v: u8) -> KObj {
        Self::atom_of(-KG, v)
    }
    pub fn short(v: i16) -> KObj {
        Self::atom_of(-KH, v)
    }
    pub fn int(v: i32) -> KObj {
        Self::atom_of(-KI, v)
    }
    pub fn long(v: i64) -> KObj {
        Self::atom_of(-KJ, v)
    }
    pub fn real(v: f32) -> KObj {
        Self::atom_of(-KE, v)
    }
    pub fn float(v: f64) -> KObj {
        Self::atom_of(-KF, v)
    }
    pub fn char(c: u8) -> KObj {
        Self::atom_of(-KC, c)
    }
    pub fn sym(s: &str) -> KObj {
        Self::atom_of(-KS, sym::intern(s.as_bytes()))
    }
    pub fn sym_ptr(s: *const libc::c_char) -> KObj {
        Self::atom_of(-KS, s)
    }
    pub fn guid(g: [u8; 16]) -> KObj {
        let p = alloc(-UU, 0);
        unsafe { std::ptr::copy_nonoverlapping(g.as_ptr(), data::<u8>(p), 16) };
        KObj::from_raw(p).unwrap()
    }
    /// A temporal atom (timestamp, timespan: i64; date, time, month, minute, second: i32).
    pub fn temporal(t: i8, v: i64) -> KObj {
        match t.abs() {
            KP | KN => Self::atom_of(-t.abs(), v),
            KZ => Self::atom_of(-KZ, v as f64),
            _ => Self::atom_of(-t.abs(), v as i32),
        }
    }
    pub fn datetime(v: f64) -> KObj {
        Self::atom_of(-KZ, v)
    }
    /// The generic null `::` (type 101, value 0), as q represents it.
    pub fn identity() -> KObj {
        Self::atom_of(101, 0u64)
    }
    pub fn string(s: &str) -> KObj {
        Self::from_slice(KC, s.as_bytes())
    }
    pub fn from_slice<T: Copy>(t: i8, v: &[T]) -> KObj {
        debug_assert_eq!(elem_size(t), std::mem::size_of::<T>());
        let x = KObj::vector(t, v.len() as i64);
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), data::<T>(x.as_ptr()), v.len()) };
        x
    }
    pub fn syms<S: AsRef<str>>(v: &[S]) -> KObj {
        let ptrs: Vec<*const libc::c_char> = v
            .iter()
            .map(|s| sym::intern(s.as_ref().as_bytes()))
            .collect();
        Self::from_slice(KS, &ptrs)
    }
    /// A general list (type 0) that takes ownership of its items.
    pub fn list(items: Vec<KObj>) -> KObj {
        let x = KObj::vector(0, items.len() as i64);
        let d = unsafe { data::<K>(x.as_ptr()) };
        for (i, it) in items.into_iter().enumerate() {
            unsafe { *d.add(i) = it.into_raw() };
        }
        x
    }
    pub fn dict(keys: KObj, values: KObj) -> KObj {
        let x = KObj::vector(XD, 2);
        unsafe {
            *data::<K>(x.as_ptr()) = keys.into_raw();
            *data::<K>(x.as_ptr()).add(1) = values.into_raw();
        }
        x
    }
    /// A table: its value at offset 8 is the column dictionary.
    pub fn table(dict: KObj) -> KObj {
        let x = alloc(XT, 0);
        unsafe { *atom::<K>(x) = dict.into_raw() };
        KObj::from_raw(x).unwrap()
    }
    /// A function object of type `t` (100..112) owning its Rust description.
    pub fn func(t: i8, f: Func) -> KObj {
        let x = alloc(t, 0);
        unsafe { *atom::<*mut Func>(x) = Box::into_raw(Box::new(f)) };
        KObj::from_raw(x).unwrap()
    }

    // ---- accessors ----------------------------------------------------------------------
    pub fn get_bool(&self) -> bool {
        unsafe { *atom::<u8>(self.as_ptr()) != 0 }
    }
    pub fn get_byte(&self) -> u8 {
        unsafe { *atom::<u8>(self.as_ptr()) }
    }
    pub fn get_short(&self) -> i16 {
        unsafe { *atom::<i16>(self.as_ptr()) }
    }
    pub fn get_int(&self) -> i32 {
        unsafe { *atom::<i32>(self.as_ptr()) }
    }
    pub fn get_long(&self) -> i64 {
        unsafe { *atom::<i64>(self.as_ptr()) }
    }
    pub fn get_real(&self) -> f32 {
        unsafe { *atom::<f32>(self.as_ptr()) }
    }
    pub fn get_float(&self) -> f64 {
        unsafe { *atom::<f64>(self.as_ptr()) }
    }
    pub fn get_sym_ptr(&self) -> *const libc::c_char {
        unsafe { *atom::<*const libc::c_char>(self.as_ptr()) }
    }
    /// A symbol atom's text.
    pub fn get_sym(&self) -> &'static str {
        sym::text(self.get_sym_ptr())
    }
    /// The vector's elements as a slice of `T` (caller picks the T matching the type).
    /// The items of a simple or general list; empty for atoms, dictionaries and tables, whose
    /// header holds no item count (reading one as a count would run off the object).
    pub fn slice<T>(&self) -> &[T] {
        let t = self.t();
        if !(0..=19).contains(&t) {
            return &[];
        }
        unsafe { std::slice::from_raw_parts(data::<T>(self.as_ptr()), (*self.as_ptr()).n as usize) }
    }
    /// Mutable view; only sound while this is the sole reference or the caller is building it.
    #[allow(clippy::mut_from_ref)]
    pub fn slice_mut<T>(&self) -> &mut [T] {
        unsafe {
            std::slice::from_raw_parts_mut(data::<T>(self.as_ptr()), (*self.as_ptr()).n as usize)
        }
    }
    /// A string (char vector) as text (lossy for non-UTF-8 bytes).
    pub fn as_string(&self) -> String {
        if self.t() == -KC {
            return String::from_utf8_lossy(&[self.get_byte()]).into_owned();
        }
        if self.t() != KC {
            return String::new();
        }
        String::from_utf8_lossy(self.slice::<u8>()).into_owned()
    }
    /// Symbol vector as texts.
    pub fn sym_list(&self) -> Vec<&'static str> {
        self.slice::<*const libc::c_char>()
            .iter()
            .map(|p| sym::text(*p))
            .collect()
    }
    /// Item `i` of a general list, dict (0 keys, 1 values), as a new reference.
    pub fn item(&self, i: i64) -> KObj {
        // only general lists, dictionaries, tables and functions hold K pointers: reading a
        // typed vector's data as pointers would be undefined behaviour (use `elem`)
        let t = self.t();
        assert!(
            t == 0 || t >= 98,
            "KObj::item on a list of type {t}: use elem"
        );
        assert!(
            t != 0 || (i >= 0 && i < unsafe { (*self.as_ptr()).n }),
            "KObj::item {i} out of range"
        );
        let p = unsafe { *data::<K>(self.as_ptr()).add(i as usize) };
        KObj::from_borrowed(p).expect("null item in list")
    }
    /// Item `i` of a list: an atom for a typed vector, the item itself for a general list.
    pub fn elem(&self, i: i64) -> KObj {
        let t = self.t();
        if t == 0 {
            return self.item(i);
        }
        let es = elem_size(t);
        let a = alloc(-t, 0);
        unsafe {
            let src = data::<u8>(self.as_ptr()).add(i as usize * es);
            // A guid atom keeps its 16 bytes where a vector's data would be.
            let dst = if t == UU {
                data::<u8>(a)
            } else {
                atom::<u8>(a)
            };
            std::ptr::copy_nonoverlapping(src, dst, es);
        }
        KObj::from_raw(a).unwrap()
    }
    /// Items of a general list as new references.
    pub fn items(&self) -> Vec<KObj> {
        (0..self.len()).map(|i| self.item(i)).collect()
    }
    pub fn dict_keys(&self) -> KObj {
        self.item(0)
    }
    pub fn dict_values(&self) -> KObj {
        self.item(1)
    }
    pub fn table_dict(&self) -> KObj {
        KObj::from_borrowed(unsafe { *atom::<K>(self.as_ptr()) }).unwrap()
    }
    /// The function description of a function object.
    pub fn func_ref(&self) -> &Func {
        unsafe { &**atom::<*mut Func>(self.as_ptr()) }
    }
    /// Append to a vector/list this handle solely owns (q's ja/jk semantics), returning the
    /// possibly moved object.
    pub fn append_raw(self, bytes: &[u8]) -> KObj {
        let t = self.t();
        let n = self.len();
        let es = elem_size(t);
        debug_assert_eq!(bytes.len(), es);
        let p = unsafe { resize(self.into_raw(), n + 1) };
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), data::<u8>(p).add(n as usize * es), es)
        };
        KObj::from_raw(p).unwrap()
    }
    /// Pointer identity.
    pub fn same(&self, other: &KObj) -> bool {
        self.as_ptr() == other.as_ptr()
    }
}
