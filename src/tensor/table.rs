//! q tables ⇄ tensors (issue 33): a table's numeric columns become one 2-d tensor, rows by
//! columns (`tensor t`), or a dictionary of column tensors (`dict t`); a keyed table gives its
//! value columns (its keys name rows, as a DataFrame's index), and any column of it is chosen by
//! name. Enumerated columns (a historical database's `sym`) are their long indices (an
//! embedding's input). The 2-d tensor's type is what torch.result_type gives for the columns
//! (`promote`): int and long give long, long and real give real, real and float give float.
//!
//! One copy, at memory speed: the columns are interleaved a block of rows at a time into a small
//! buffer that stays in the first-level cache, and each block goes to the tensor's storage with
//! non-temporal stores (as memcpy writes a large copy: no read of the destination first), so the
//! transpose costs what a memcpy of the same bytes costs (`make bench`, "table → tensor").
// raw memory kernels on a tensor's and a q value's data, not yet behind src/k or src/cxx (issue 36)
#![allow(unsafe_code)]
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use crate::k::from::{self, FromQ};
use crate::k::{make::data, read, K};

/// A column of a table: its name and its (borrowed) vector.
#[derive(Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub k: K,
}

/// The columns of a table or keyed table (borrowed: they live as long as the argument).
pub struct Table {
    /// Every column, keys first for a keyed table.
    pub cols: Vec<Column>,
    /// How many of `cols` are the keys of a keyed table (0 for a table).
    pub nkeys: usize,
    pub rows: i64,
}

/// Is `x` a table (98) or a keyed table (a dictionary of two tables)?
pub fn is_table(x: K) -> bool {
    match read::ktype(x) {
        98 => true,
        99 => {
            read::dict_parts(x).is_some_and(|(k, v)| read::ktype(k) == 98 && read::ktype(v) == 98)
        }
        _ => false,
    }
}

fn columns_of(t: K) -> Result<Vec<Column>> {
    let d = read::table_dict(t).ok_or_else(|| anyhow!("expected a table"))?;
    let (k, v) = read::dict_parts(d).ok_or_else(|| anyhow!("malformed table"))?;
    let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("table column names must be symbols"))?;
    let cols = from::list(&v).ok_or_else(|| {
        anyhow!(
            "table columns must be a general list of vectors, given type {}h",
            read::ktype(v)
        )
    })?;
    Ok(names
        .into_iter()
        .zip(cols.iter())
        .map(|(name, k)| Column { name, k: *k })
        .collect())
}

impl Table {
    /// The columns of table or keyed table `x`; None for any other value.
    pub fn read(x: K) -> Result<Option<Table>> {
        if !is_table(x) {
            return Ok(None);
        }
        let (cols, nkeys, rows) = if read::ktype(x) == 98 {
            (columns_of(x)?, 0, read::len(x))
        } else {
            let (k, v) = read::dict_parts(x).unwrap();
            let mut c = columns_of(k)?;
            let n = c.len();
            c.extend(columns_of(v)?);
            (c, n, read::len(k))
        };
        if let Some(c) = cols
            .iter()
            .find(|c| read::ktype(c.k) < 0 || read::len(c.k) != rows)
        {
            bail!(
                "column `{} has {} rows, the table {rows}",
                c.name,
                read::len(c.k)
            );
        }
        Ok(Some(Table { cols, nkeys, rows }))
    }

    /// The columns a conversion takes when none are named: a table's all, a keyed table's values.
    pub fn values(&self) -> &[Column] {
        &self.cols[self.nkeys..]
    }

    /// The key columns of a keyed table (none for a table).
    pub fn keys(&self) -> &[Column] {
        &self.cols[..self.nkeys]
    }

    /// The columns named, in the order named; an unknown name is an error naming it.
    pub fn pick(&self, names: &[&str]) -> Result<Vec<Column>> {
        names
            .iter()
            .map(|n| {
                self.cols
                    .iter()
                    .find(|c| c.name == *n)
                    .copied()
                    .ok_or_else(|| {
                        anyhow!(
                            "no column `{n} in the table (columns: {})",
                            self.cols
                                .iter()
                                .map(|c| format!("`{}", c.name))
                                .collect::<String>()
                        )
                    })
            })
            .collect()
    }
}

/// The tensor kind of a column, or an error naming the column and what it is.
pub fn column_kind(c: &Column) -> Result<Kind> {
    let t = read::ktype(c.k);
    Ok(match t {
        1 => Kind::Bool,
        4 => Kind::Uint8,
        5 => Kind::Int16,
        6 => Kind::Int,
        7 => Kind::Int64,
        8 => Kind::Float,
        9 => Kind::Double,
        10 => Kind::Int8,
        20..=76 => Kind::Int64, // an enumeration: the indices into its domain
        11 => bail!(
            "column `{} is symbol: enumerate it (`sym$, `sym?) for long indices, or leave it out",
            c.name
        ),
        0 => bail!(
            "column `{} is a general list, not a simple numeric column",
            c.name
        ),
        12..=19 => bail!(
            "column `{} is {}, not numeric: cast it (\"j\"$, \"f\"$) or leave it out",
            c.name,
            crate::registry::describe(c.k)
        ),
        _ => bail!("column `{} is type {t}h, not numeric", c.name),
    })
}

/// Where a kind stands in PyTorch's promotion: bool < integers < floating.
fn category(k: Kind) -> u8 {
    match k {
        Kind::Bool => 0,
        Kind::Uint8 | Kind::Int8 | Kind::Int16 | Kind::Int | Kind::Int64 => 1,
        _ => 2,
    }
}

/// torch.promote_types for the kinds q columns make (c10's promoteTypes table): the higher
/// category wins (bool, integer, floating); within one, the wider; uint8 with int8 is int16.
pub fn promote(a: Kind, b: Kind) -> Kind {
    if a == b {
        return a;
    }
    let (ca, cb) = (category(a), category(b));
    if ca != cb {
        return if ca > cb { a } else { b };
    }
    let rank = |k: Kind| match k {
        Kind::Uint8 | Kind::Int8 => 1,
        Kind::Int16 => 2,
        Kind::Int => 3,
        Kind::Int64 => 4,
        Kind::Float => 5,
        Kind::Double => 6,
        _ => 0,
    };
    if matches!(
        (a, b),
        (Kind::Uint8, Kind::Int8) | (Kind::Int8, Kind::Uint8)
    ) {
        return Kind::Int16;
    }
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// The kind of a 2-d tensor of these columns: their promoted kind (torch.result_type).
pub fn result_kind(cols: &[Column]) -> Result<Kind> {
    let mut k: Option<Kind> = None;
    for c in cols {
        let ck = column_kind(c)?;
        k = Some(k.map_or(ck, |a| promote(a, ck)));
    }
    k.ok_or_else(|| anyhow!("no columns"))
}

/// An empty CPU tensor, in pinned memory when it is bound for a CUDA device.
fn empty(size: &[i64], kind: Kind, pinned: bool) -> Result<Tensor> {
    if !pinned {
        return Ok(Tensor::f_empty(size, (kind, Device::Cpu))?);
    }
    super::pinned::empty_pinned(size, kind)
}

/// The columns as one tensor of `rows` x columns of `kind` (their promoted kind when None), in
/// pinned memory when `pinned` (bound for CUDA).
pub fn matrix(cols: &[Column], rows: i64, kind: Option<Kind>, pinned: bool) -> Result<Tensor> {
    if cols.is_empty() {
        bail!("no columns to make a tensor of");
    }
    let promoted = result_kind(cols)?;
    let want = kind.unwrap_or(promoted);
    // the copy writes q's own kinds and the wider ones; anything else (half, bfloat16) is made
    // from the promoted kind
    let direct = matches!(
        want,
        Kind::Bool
            | Kind::Uint8
            | Kind::Int8
            | Kind::Int16
            | Kind::Int
            | Kind::Int64
            | Kind::Float
            | Kind::Double
    ) && (want != Kind::Bool || promoted == Kind::Bool);
    let k = if direct { want } else { promoted };
    let out = empty(&[rows, cols.len() as i64], k, pinned && direct)?;
    let bytes = rows.max(0) as usize * cols.len() * k.elt_size_in_bytes();
    if bytes >= HUGE && !(pinned && direct) {
        // SAFETY: the range is inside the tensor's storage, just allocated, of `bytes` bytes.
        unsafe { huge_pages(out.data_ptr() as *mut u8, bytes) };
    }
    if rows > 0 {
        let src: Vec<(*const u8, i8)> = cols
            .iter()
            // SAFETY: each column is a live simple vector of `rows` items (Table::read checked).
            .map(|c| (unsafe { data::<u8>(c.k) } as *const u8, read::ktype(c.k)))
            .collect();
        // SAFETY: `out` is a contiguous CPU tensor of rows x cols items of kind `k`, and each
        // source has `rows` items of its q type.
        unsafe { interleave(&src, rows as usize, out.data_ptr() as *mut u8, k) };
    }
    Ok(if direct { out } else { out.f_to_kind(want)? })
}

/// From this size on, a new tensor's memory is asked for in huge pages.
const HUGE: usize = 32 << 20;

/// Ask the kernel for transparent huge pages on the whole 2 MB pages of `[p, p+n)` before the
/// first write (a fresh allocation's memory is mapped at first touch: 4 KB pages make one fault
/// each, 200,000 for 800 MB, which cost more than the copy; PyTorch's THP_MEM_ALLOC_ENABLE does
/// the same for its own large tensors). Advice only: where the kernel says no, nothing changes.
///
/// # Safety
/// `[p, p+n)` is memory this process owns.
unsafe fn huge_pages(p: *mut u8, n: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 2 << 20;
        let start = (p as usize).div_ceil(PAGE) * PAGE;
        let end = (p as usize + n) / PAGE * PAGE;
        if end > start {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// One column as a 1-d tensor of its own kind (`kind` None) or of `kind`.
pub fn column(c: &Column, kind: Option<Kind>) -> Result<Tensor> {
    let rows = read::len(c.k);
    let t = matrix(std::slice::from_ref(c), rows, kind, false)?;
    Ok(t.f_view([rows])?)
}

/// Every column chosen as its own tensor, keeping its kind (`dict t`).
pub fn columns(cols: &[Column]) -> Result<Vec<(String, Tensor)>> {
    cols.iter()
        .map(|c| Ok((c.name.to_string(), column(c, None)?)))
        .collect()
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
unsafe fn interleave(src: &[(*const u8, i8)], rows: usize, dst: *mut u8, k: Kind) {
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

/// Table `x` as one 2-d tensor of its value columns (`tensor t`), in pinned memory when bound
/// for CUDA; None when `x` is no table.
pub fn to_tensor(x: K, pinned: bool) -> Result<Option<Tensor>> {
    let Some(t) = Table::read(x)? else {
        return Ok(None);
    };
    if t.values().is_empty() {
        bail!("table has no columns");
    }
    Ok(Some(matrix(t.values(), t.rows, None, pinned)?))
}
