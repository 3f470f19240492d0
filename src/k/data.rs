//! q vectors' data as Rust slices: the one place the layers above read a q vector's items in
//! place (a tensor's copy, a table's columns, the plan's rows) or write a new vector's. Each
//! view checks the vector's type against the element type asked for and takes its length from
//! the header, so a caller can no longer get the width or the count wrong; a new vector's data is
//! written only through `filled`, before q or anyone else sees it (q's vectors are shared values:
//! an argument is never written).
use super::{native, read, K};

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that is the item of some q vector types: `TYPES` lists them (the first is the one
/// `filled` makes). Sealed: the impls below are the layout facts of k.h, and no other type may
/// claim a q layout.
pub trait Elem: sealed::Sealed + Copy + 'static {
    const TYPES: &'static [i8];
}

macro_rules! elem {
    ($($t:ty => [$($q:expr),+]),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Elem for $t {
            const TYPES: &'static [i8] = &[$($q),+];
        }
    )*};
}
// boolean and byte are one byte each (a boolean is 0 or 1); month, date, minute, second and time
// are ints; timestamp and timespan longs; datetime a float (k.h's layouts)
elem! {
    u8 => [4, 1],
    i8 => [10],
    i16 => [5],
    i32 => [6, 13, 14, 17, 18, 19],
    i64 => [7, 12, 16],
    f32 => [8],
    f64 => [9, 15],
}

/// The width in bytes of an item of simple list type `t` (1..=19 but symbols, and the
/// enumerations 20..=76, whose items are long indices); None for any other type.
pub fn width(t: i8) -> Option<usize> {
    Some(match t {
        1 | 4 | 10 => 1,
        2 => 16,
        5 => 2,
        6 | 8 | 13 | 14 | 17 | 18 | 19 => 4,
        7 | 9 | 12 | 15 | 16 | 20..=76 => 8,
        _ => return None,
    })
}

/// The items of vector `x` as `T`s when its type is one of `T`'s (borrowed: they live as long as
/// the K they were read from).
pub fn slice<T: Elem>(x: &K) -> Option<&[T]> {
    let t = read::ktype(*x);
    if !T::TYPES.contains(&t) {
        return None;
    }
    // SAFETY: `x` is a live simple list of type `t`, whose `len` items of `T`'s size and
    // alignment (k.h: data at offset 16) start at `data`.
    Some(unsafe { std::slice::from_raw_parts(read::data::<T>(*x), read::len(*x) as usize) })
}

/// The data of simple vector `x` (a type `width` knows) as bytes: its items' whole width.
pub fn bytes(x: &K) -> Option<&[u8]> {
    let w = width(read::ktype(*x))?;
    // SAFETY: as `slice`: `len` items of `w` bytes each from `data`.
    Some(unsafe { std::slice::from_raw_parts(read::data::<u8>(*x), read::len(*x) as usize * w) })
}

/// A new vector of `n` items of `T` (q type `T::TYPES[0]`), its data written by `f` before it is
/// returned (owned, a new reference).
pub fn filled<T: Elem>(n: usize, f: impl FnOnce(&mut [T])) -> K {
    let x = new(T::TYPES[0], n);
    // SAFETY: `x` was just made as a list of `n` items of `T`'s type, held by no one else.
    f(unsafe { std::slice::from_raw_parts_mut(read::data::<T>(x), n) });
    x
}

/// A new vector of type `t` (one `width` knows) of `n` items, its data written as bytes by `f`;
/// None for a type of no fixed width.
pub fn filled_bytes(t: i8, n: usize, f: impl FnOnce(&mut [u8])) -> Option<K> {
    let w = width(t)?;
    let x = new(t, n);
    // SAFETY: `x` was just made as a list of `n` items of `w` bytes, held by no one else.
    f(unsafe { std::slice::from_raw_parts_mut(read::data::<u8>(x), n * w) });
    Some(x)
}

/// An atom's value bytes (k.h: from offset 8): the width of its type's item; None for a value
/// that is no atom of a fixed width.
pub fn atom_bytes(x: &K) -> Option<&[u8]> {
    let t = read::ktype(*x);
    let w = if t < 0 { width(-t)? } else { return None };
    // SAFETY: an atom of type `t` holds its `w`-byte value at offset 8 (k.h's union).
    Some(unsafe { std::slice::from_raw_parts((*x as *const u8).add(8), w) })
}

fn new(t: i8, n: usize) -> K {
    // SAFETY: k.h's ktn makes a new list of type `t` with room for `n` items.
    unsafe { native::ktn(t as i32, n as i64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_k_h() {
        assert_eq!(width(1), Some(1));
        assert_eq!(width(2), Some(16));
        assert_eq!(width(8), Some(4));
        assert_eq!(width(20), Some(8));
        assert_eq!(width(11), None);
        assert_eq!(width(0), None);
        assert_eq!(width(98), None);
        // every Elem type's q types have its width
        fn same<T: Elem>() {
            for t in T::TYPES {
                assert_eq!(width(*t), Some(std::mem::size_of::<T>()), "type {t}");
            }
        }
        same::<u8>();
        same::<i8>();
        same::<i16>();
        same::<i32>();
        same::<i64>();
        same::<f32>();
        same::<f64>();
    }
}
