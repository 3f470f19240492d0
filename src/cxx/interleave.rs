//! The table kernel (tensor/table.rs's `tensor t`): q columns interleaved into a tensor's
//! storage as a row-major matrix, converting each column's type as a tensor's `to` does. One
//! copy, at memory speed: the columns are interleaved a block of rows at a time into a small
//! buffer that stays in the first-level cache, and each block goes to the tensor's storage with
//! non-temporal stores (as memcpy writes a large copy: no read of the destination first), so the
//! transpose costs what a memcpy of the same bytes costs (`make bench`, "table → tensor").
//!
//! Raw memory, behind the boundary: `interleave` takes the columns' data as slices (src/k's
//! views) and the destination as one (`storage::bytes_mut`), and checks every length, width
//! and alignment the loops below rely on before they run.
use tch::Kind;

/// The width of a column item as the kernel reads it (q type `qt`): boolean, byte and char one
/// byte, short two, int and real four, anything else (long, float, enumerations' indices) eight.
fn q_width(qt: i8) -> usize {
    match qt {
        1 | 4 | 10 => 1,
        5 => 2,
        6 | 8 => 4,
        _ => 8,
    }
}

/// Write `rows` rows of the columns `src` (each its data and q type) into `dst` as a row-major
/// matrix of kind `k` (bool, uint8, int8, int16, int, long, float or double; bool only when
/// every column is boolean).
pub fn interleave(src: &[(&[u8], i8)], rows: usize, dst: &mut [u8], k: Kind) {
    let es = match k {
        Kind::Bool | Kind::Uint8 | Kind::Int8 => 1,
        Kind::Int16 => 2,
        Kind::Int | Kind::Float => 4,
        Kind::Int64 | Kind::Double => 8,
        _ => panic!("interleave into a tensor of {k:?}"),
    };
    assert!(
        k != Kind::Bool || src.iter().all(|(_, qt)| *qt == 1),
        "bool from non-booleans"
    );
    assert_eq!(
        dst.len(),
        rows * src.len() * es,
        "interleave: destination size"
    );
    assert!(
        (dst.as_ptr() as usize).is_multiple_of(es),
        "interleave: destination alignment"
    );
    for (d, qt) in src {
        let w = q_width(*qt);
        assert!(
            d.len() >= rows * w,
            "interleave: a column shorter than the rows"
        );
        assert!(
            (d.as_ptr() as usize).is_multiple_of(w),
            "interleave: a column's alignment"
        );
    }
    if rows == 0 || src.is_empty() {
        return;
    }
    let cols: Vec<(*const u8, i8)> = src.iter().map(|(d, qt)| (d.as_ptr(), *qt)).collect();
    // SAFETY: checked above: each column holds at least `rows` aligned items of the width its q type is
    // read at, `dst` holds rows x columns aligned items of kind `k`, and bool only from booleans.
    unsafe { interleave_raw(&cols, rows, dst.as_mut_ptr(), k) }
}

/// Rows interleaved a block at a time: this many bytes of output per block (fits the first
/// level cache with the sources' lines).
const BLOCK: usize = 16 << 10;
/// From this size on, blocks go out with non-temporal stores (the output would not stay cached).
const STREAM: usize = 4 << 20;

#[repr(C, align(64))]
struct Buf([u8; BLOCK]);

/// Write `rows` rows of the columns `src` (data pointer and q type each) into `dst` as a
/// row-major matrix of kind `k`.
///
/// # Safety
/// Each source points at `rows` items of its q type; `dst` has room for rows x columns items of
/// kind `k`; `k` is bool only when every source is boolean.
unsafe fn interleave_raw(src: &[(*const u8, i8)], rows: usize, dst: *mut u8, k: Kind) {
    let nc = src.len();
    let es = k.elt_size_in_bytes();
    let total = rows * nc * es;
    // one column of the same type: a plain copy
    if nc == 1 && same(src[0].1, k) {
        super::memcopy::copy_bytes(src[0].0, dst, total);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if total >= STREAM && (es == 8 || es == 4) && (dst as usize).is_multiple_of(es) {
        if es == 8 {
            rows_streamed::<u64>(src, rows, dst as *mut u64, k);
        } else {
            rows_streamed::<u32>(src, rows, dst as *mut u32, k);
        }
        return;
    }
    let stream = total >= STREAM && (dst as usize).is_multiple_of(16);
    // rows per block: a multiple of 64 (so each block's bytes are whole cache lines), at least 64
    let per = ((BLOCK / (nc * es)) / 64 * 64).max(64);
    let mut boxed: Option<Vec<u8>> = None;
    let mut local = Buf([0; BLOCK]);
    let buf: *mut u8 = if per * nc * es <= BLOCK {
        local.0.as_mut_ptr()
    } else {
        // very wide tables: a bigger block
        boxed.insert(vec![0u8; per * nc * es + 64]).as_mut_ptr()
    };
    let buf = buf.add(buf.align_offset(64).min(63));
    let mut r0 = 0;
    while r0 < rows {
        let n = per.min(rows - r0);
        let out = if stream { buf } else { dst.add(r0 * nc * es) };
        for (j, (p, qt)) in src.iter().enumerate() {
            block(*p, *qt, r0, n, out, nc, j, k);
        }
        if stream {
            stream_copy(buf, dst.add(r0 * nc * es), n * nc * es);
        }
        r0 += n;
    }
    if stream {
        #[cfg(target_arch = "x86_64")]
        std::arch::x86_64::_mm_sfence();
    }
    drop(boxed);
}

/// Is q type `qt` stored as kind `k` (no conversion)?
fn same(qt: i8, k: Kind) -> bool {
    matches!(
        (qt, k),
        (1, Kind::Bool)
            | (4, Kind::Uint8)
            | (10, Kind::Int8)
            | (5, Kind::Int16)
            | (6, Kind::Int)
            | (7 | 20..=76, Kind::Int64)
            | (8, Kind::Float)
            | (9, Kind::Double)
    )
}

/// An element written with a non-temporal store (movnti): it goes to memory through the
/// write-combining buffers, which fill whole lines as the rows are written in order, without
/// reading the destination first.
#[cfg(target_arch = "x86_64")]
trait Stream: Copy {
    /// # Safety
    /// `d` is valid for a write of `Self`, aligned.
    unsafe fn put(d: *mut Self, v: Self);
}
#[cfg(target_arch = "x86_64")]
impl Stream for u64 {
    unsafe fn put(d: *mut u64, v: u64) {
        std::arch::x86_64::_mm_stream_si64(d as *mut i64, v as i64)
    }
}
#[cfg(target_arch = "x86_64")]
impl Stream for u32 {
    unsafe fn put(d: *mut u32, v: u32) {
        std::arch::x86_64::_mm_stream_si32(d as *mut i32, v as i32)
    }
}

/// Large outputs of 4- or 8-byte items: a block of rows at a time, columns of another type
/// converted into a small buffer first (in the first-level cache), then each row's items written
/// in order with non-temporal stores straight from the columns (or their converted block).
///
/// # Safety
/// As `interleave`; `T` is the width of kind `k`, `dst` aligned to it.
#[cfg(target_arch = "x86_64")]
unsafe fn rows_streamed<T: Stream>(src: &[(*const u8, i8)], rows: usize, dst: *mut T, k: Kind) {
    let nc = src.len();
    let es = std::mem::size_of::<T>();
    let per = (BLOCK / (nc * es)).clamp(64, 4096);
    let convert: Vec<bool> = src.iter().map(|(_, qt)| !same(*qt, k)).collect();
    let mut conv = vec![std::mem::zeroed::<T>(); per * convert.iter().filter(|c| **c).count()];
    let mut cols: Vec<*const T> = vec![std::ptr::null(); nc];
    let mut d = dst;
    // rows of an even count of 8-byte items start 16-byte aligned when the first does
    let pairs = es == 8 && nc.is_multiple_of(2) && (dst as usize).is_multiple_of(16);
    let mut r0 = 0;
    while r0 < rows {
        let n = per.min(rows - r0);
        let mut at = 0;
        for (j, (p, qt)) in src.iter().enumerate() {
            if convert[j] {
                let b = conv.as_mut_ptr().add(at * per);
                block(*p, *qt, r0, n, b as *mut u8, 1, 0, k);
                cols[j] = b;
                at += 1;
            } else {
                cols[j] = (*p as *const T).add(r0);
            }
        }
        if pairs {
            // 8-byte items, an even number of columns: two rows of two columns a step
            pairs_u64(&cols, n, d as *mut u64);
            d = d.add(n * nc);
        } else {
            for i in 0..n {
                for c in &cols {
                    T::put(d, *c.add(i));
                    d = d.add(1);
                }
            }
        }
        r0 += n;
    }
    std::arch::x86_64::_mm_sfence();
}

/// Rows `0..n` of the 8-byte columns `cols` (an even count of them) into `d`, row-major: for two
/// rows at a time, each pair of columns is loaded as two 16-byte vectors (two rows of each),
/// unpacked into the two rows' pairs and written with 16-byte non-temporal stores: half the
/// stores of item-by-item `movnti`.
///
/// # Safety
/// Each column pointer has `n` items to read (as `u64`); `d` has room for n x cols.len() items
/// and is 16-byte aligned, cols.len() even.
#[cfg(target_arch = "x86_64")]
unsafe fn pairs_u64<T>(cols: &[*const T], n: usize, d: *mut u64) {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_stream_si128, _mm_unpackhi_epi64, _mm_unpacklo_epi64,
    };
    let nc = cols.len();
    let c: Vec<*const u64> = cols.iter().map(|p| *p as *const u64).collect();
    let mut i = 0;
    while i + 2 <= n {
        let (r, s) = (d.add(i * nc), d.add((i + 1) * nc));
        for p in (0..nc).step_by(2) {
            let a = _mm_loadu_si128(c[p].add(i) as *const __m128i);
            let b = _mm_loadu_si128(c[p + 1].add(i) as *const __m128i);
            _mm_stream_si128(r.add(p) as *mut __m128i, _mm_unpacklo_epi64(a, b));
            _mm_stream_si128(s.add(p) as *mut __m128i, _mm_unpackhi_epi64(a, b));
        }
        i += 2;
    }
    if i < n {
        for (p, col) in c.iter().enumerate() {
            u64::put(d.add(i * nc + p), *col.add(i));
        }
    }
}

/// Copy `n` bytes to `dst` (16-byte aligned) with non-temporal stores where the CPU has them.
///
/// # Safety
/// `src` valid for `n` bytes of reads (16-byte aligned), `dst` for `n` bytes of writes.
unsafe fn stream_copy(src: *const u8, dst: *mut u8, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_load_si128, _mm_stream_si128};
        let whole = n / 16;
        for i in 0..whole {
            let v = _mm_load_si128((src as *const __m128i).add(i));
            _mm_stream_si128((dst as *mut __m128i).add(i), v);
        }
        let done = whole * 16;
        std::ptr::copy_nonoverlapping(src.add(done), dst.add(done), n - done);
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::ptr::copy_nonoverlapping(src, dst, n);
}

/// Column `j` of rows `r0..r0+n` (source of q type `qt`) into `out`, a block of rows of `nc`
/// items of kind `k`, converting as a tensor's `to` does (C casts).
///
/// # Safety
/// As `interleave`: the source has at least `r0 + n` items, `out` room for n x nc items.
#[allow(clippy::too_many_arguments)]
unsafe fn block(
    p: *const u8,
    qt: i8,
    r0: usize,
    n: usize,
    out: *mut u8,
    nc: usize,
    j: usize,
    k: Kind,
) {
    macro_rules! go {
        ($S:ty, $T:ty) => {{
            let s = (p as *const $S).add(r0);
            let o = (out as *mut $T).add(j);
            for i in 0..n {
                *o.add(i * nc) = *s.add(i) as $T;
            }
        }};
    }
    macro_rules! to {
        ($T:ty) => {
            match qt {
                1 | 4 => go!(u8, $T),
                10 => go!(i8, $T),
                5 => go!(i16, $T),
                6 => go!(i32, $T),
                8 => go!(f32, $T),
                9 => go!(f64, $T),
                _ => go!(i64, $T), // long, and enumerations' indices
            }
        };
    }
    match k {
        Kind::Bool | Kind::Uint8 => to!(u8),
        Kind::Int8 => to!(i8),
        Kind::Int16 => to!(i16),
        Kind::Int => to!(i32),
        Kind::Int64 => to!(i64),
        Kind::Float => to!(f32),
        _ => to!(f64),
    }
}
