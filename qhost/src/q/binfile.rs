//! Binary files: `` `:file 1: y `` (ref/file-binary.md, Save Binary) writes the raw bytes of
//! `y` and answers the file symbol; `read1` (ref/read1.md) reads a file's bytes, whole or
//! `(f;o;n)`/`(f;o)` from an offset; `hcount` (ref/hcount.md) a file's size.
//!
//! What KX documents byte for byte is done exactly: the raw bytes of an atom or simple vector
//! (`` `:hello 1: 1 `` writes 0x0100000000000000), parent directories made, an existing file
//! overwritten. The rest answers 'nyi: `1:` of a general list, table, dictionary or function
//! (q writes an anymap, whose bytes KX does not document), of symbols or enumerations, with
//! compression parameters `(f;b;a;l)`, Read Binary `(types;widths) 1: y`; `read1` of a handle
//! or fifo, of a string or a symbol without its colon, from past the end; `hcount` of a folder or
//! a missing file.
use super::values::int_of;
use super::{err, QErr, QResult};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

fn os_err(p: &str, e: &std::io::Error) -> QErr {
    let m = e.to_string();
    let m = m.split(" (os error").next().unwrap_or(&m).to_string();
    QErr(format!("{p}. OS reports: {m}"))
}

/// The path of a file symbol (`` `:path ``); anything else is 'nyi.
fn file_path(h: &KObj) -> Result<String, QErr> {
    if h.t() == -KS && h.get_sym().starts_with(':') && h.get_sym().len() > 1 {
        Ok(h.get_sym()[1..].to_string())
    } else {
        Err(err("nyi"))
    }
}

/// The raw bytes of `y` where KX documents them: an atom or simple vector of a type whose
/// elements are their value (not symbols: pointers; not enumerations).
fn raw_bytes(y: &KObj) -> Option<&[u8]> {
    let t = y.t();
    let plain =
        |t: i8| matches!(t, KB | UU | KG | KH | KI | KJ | KE | KF | KC) || (KP..=KT).contains(&t);
    if t > 0 && plain(t) {
        let n = y.len() as usize * elem_size(t);
        return Some(unsafe { std::slice::from_raw_parts(data::<u8>(y.as_ptr()), n) });
    }
    if t < 0 && plain(-t) {
        let p = if t == -UU {
            unsafe { data::<u8>(y.as_ptr()) }
        } else {
            unsafe { atom::<u8>(y.as_ptr()) }
        };
        return Some(unsafe { std::slice::from_raw_parts(p, elem_size(t)) });
    }
    None
}

/// `x 1: y`: Save Binary where `x` is a file symbol; Read Binary and compression are 'nyi.
pub fn one_colon(x: &KObj, y: &KObj) -> QResult {
    let p = file_path(x)?;
    let bytes = raw_bytes(y).ok_or_else(|| err("nyi"))?;
    let path = std::path::Path::new(&p);
    if p.ends_with('/') || path.is_dir() {
        return Err(err("nyi"));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| os_err(&p, &e))?;
    }
    std::fs::write(path, bytes).map_err(|e| os_err(&p, &e))?;
    Ok(x.clone())
}

/// A non-negative integer atom (an offset or a length).
fn count_of(x: &KObj) -> Result<u64, QErr> {
    match x.t() {
        t if t == -KJ || t == -KI || t == -KH => match int_of(x) {
            Some(v) if v >= 0 && v != i64::MAX => Ok(v as u64),
            _ => Err(err("nyi")),
        },
        _ => Err(err("nyi")),
    }
}

/// `read1 f`, `read1 (f;o;n)`, `read1 (f;o)`.
pub fn read1(x: &KObj) -> QResult {
    use std::io::{Read, Seek, SeekFrom};
    let (p, off, n) = if x.t() == 0 && (x.len() == 2 || x.len() == 3) {
        let it = x.items();
        let p = file_path(&it[0])?;
        let o = count_of(&it[1])?;
        let n = if it.len() == 3 {
            Some(count_of(&it[2])?)
        } else {
            None
        };
        (p, o, n)
    } else {
        (file_path(x)?, 0, None)
    };
    let mut f = std::fs::File::open(&p).map_err(|e| os_err(&p, &e))?;
    let meta = f.metadata().map_err(|e| os_err(&p, &e))?;
    if meta.is_dir() {
        return Err(err("nyi"));
    }
    let size = meta.len();
    if off > size {
        return Err(err("nyi"));
    }
    let len = n.map_or(size - off, |n| n.min(size - off));
    f.seek(SeekFrom::Start(off)).map_err(|e| os_err(&p, &e))?;
    let v = KObj::vector(KG, len as i64);
    f.read_exact(v.slice_mut::<u8>())
        .map_err(|e| os_err(&p, &e))?;
    Ok(v)
}

/// `hcount f`: the size of a file.
pub fn hcount(x: &KObj) -> QResult {
    let p = file_path(x)?;
    let m = std::fs::metadata(&p).map_err(|_| err("nyi"))?;
    if m.is_dir() {
        return Err(err("nyi"));
    }
    Ok(KObj::long(m.len() as i64))
}
