//! kdb+ IPC form (protocol version 3, little-endian), as b9/d9 and q's -8!/-9! use it.
//!
//! Message: 8-byte header (1 = little-endian, message type, compressed flag, 0, total length
//! as u32), then one object: type byte; atoms their value (symbols NUL-terminated, guids 16
//! bytes); vectors an attribute byte, an i32 count and the items; dict 99 keys then values;
//! table 98, attribute byte, then its column dict; error -128 its NUL-terminated text; `::`
//! 101 and a byte. Lambdas (100) are read back by evaluating their text; writing them, and
//! enumerations, mapped lists and other functions, answers 'nyi (foreign objects 'type, as q).
use libc::c_char;

use crate::kapi::error::{err, QErr, QResult};
use crate::kapi::kobj::*;
use crate::kapi::sym;

/// How a function object (types 100..111, what the interpreter holds) is written: set by the
/// interpreter (q::ipc::init), which knows what a function holds; the bytes after the type byte.
/// Unset, or answering 'nyi, the function is not written.
pub static FUNCTIONS: std::sync::OnceLock<WriteFunction> = std::sync::OnceLock::new();

/// Writes a function object's bytes after its type byte.
pub type WriteFunction = fn(&KObj, &mut Vec<u8>) -> Result<(), QErr>;

/// Item i of a typed vector as an atom (a general list's item as a new reference).
pub fn element(x: &KObj, i: i64) -> KObj {
    x.elem(i)
}

/// b9: the IPC bytes of x. Mode 0 (for kdb+ before 2.6) refuses timestamps and timespans;
/// other modes (-1, 1, 2, 3) write the same uncompressed v3 form.
pub fn serialize(x: &KObj, mode: i32) -> QResult {
    let mut out = vec![1u8, 0, 0, 0, 0, 0, 0, 0];
    write(x, mode, &mut out)?;
    let n = out.len();
    if n > u32::MAX as usize {
        return Err(err("limit"));
    }
    out[4..8].copy_from_slice(&(n as u32).to_le_bytes());
    Ok(KObj::from_slice(KG, &out))
}

fn write(x: &KObj, mode: i32, out: &mut Vec<u8>) -> Result<(), QErr> {
    let t = x.t();
    let p = x.as_ptr();
    if mode == 0 && matches!(t.abs(), KP | KN) {
        return Err(err("type"));
    }
    out.push(t as u8);
    match t {
        ERR => {
            out.extend_from_slice(sym::text(x.get_sym_ptr()).as_bytes());
            out.push(0);
        }
        t if t == -KS => {
            out.extend_from_slice(x.get_sym().as_bytes());
            out.push(0);
        }
        t if t == -UU => {
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(data::<u8>(p), 16) })
        }
        -19..=-1 => {
            let es = elem_size(t);
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(atom::<u8>(p), es) });
        }
        0..=19 => {
            out.push(x.attr());
            let n = x.len();
            if n > i32::MAX as i64 {
                return Err(err("limit"));
            }
            out.extend_from_slice(&(n as i32).to_le_bytes());
            match t {
                0 => {
                    for it in x.items() {
                        write(&it, mode, out)?;
                    }
                }
                KS => {
                    for s in x.sym_list() {
                        out.extend_from_slice(s.as_bytes());
                        out.push(0);
                    }
                }
                _ => out.extend_from_slice(unsafe {
                    std::slice::from_raw_parts(data::<u8>(p), n as usize * elem_size(t))
                }),
            }
        }
        XT => {
            out.push(x.attr());
            write(&x.table_dict(), mode, out)?;
        }
        XD => {
            // q marks a dict with sorted keys as type 127.
            if x.dict_keys().attr() == 1 {
                *out.last_mut().unwrap() = 127;
            }
            write(&x.dict_keys(), mode, out)?;
            write(&x.dict_values(), mode, out)?;
        }
        // `::`, the generic null: 101 and a zero byte
        101 if unsafe { (*atom::<*const u8>(p)).is_null() } => out.push(0),
        FN_DL => return Err(err("type")),
        100..=111 => match FUNCTIONS.get() {
            Some(f) => f(x, out)?,
            None => return Err(err("nyi")),
        },
        _ => return Err(err("nyi")),
    }
    Ok(())
}

/// d9: the value held by IPC bytes (a byte vector).
pub fn deserialize(x: &KObj) -> QResult {
    if x.t() != KG {
        return Err(err("type"));
    }
    let bytes = message(x.slice::<u8>())?;
    let mut r = Reader { b: &bytes, i: 8 };
    let v = r.object()?;
    if r.i != bytes.len() {
        return Err(err("badmsg"));
    }
    Ok(v)
}

/// okx: a complete, well-formed message?
pub fn valid(x: &KObj) -> bool {
    x.t() == KG && deserialize(x).is_ok()
}

/// Check the header and length; the message uncompressed.
fn message(b: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, QErr> {
    if b.len() < 9 || b.len() < u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize {
        return Err(err("badmsg"));
    }
    if b[0] != 1 {
        return Err(QErr("nyi: big-endian IPC".into()));
    }
    let n = u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize;
    let b = &b[..n];
    if b[2] == 0 {
        // read in place: a date's history from disk is megabytes (issue 33)
        return Ok(std::borrow::Cow::Borrowed(b));
    }
    decompress(b)
        .map(std::borrow::Cow::Owned)
        .ok_or_else(|| err("badmsg"))
}

/// kdb+ IPC decompression (the scheme of KX's c.java): a flag byte per 8 items; a set bit is a
/// back-reference (hash-table index, count) copying 2 + count bytes, a clear bit a literal.
fn decompress(b: &[u8]) -> Option<Vec<u8>> {
    let total = u32::from_le_bytes(b.get(8..12)?.try_into().ok()?) as usize;
    if total < 8 {
        return None;
    }
    let mut dst = vec![0u8; total];
    dst[..8].copy_from_slice(&b[..8]);
    dst[2] = 0;
    dst[4..8].copy_from_slice(&(total as u32).to_le_bytes());
    let mut table = [0usize; 256];
    let (mut s, mut p, mut d) = (8usize, 8usize, 12usize);
    let (mut f, mut bit) = (0u8, 0u32);
    while s < total {
        if bit == 0 {
            f = *b.get(d)?;
            d += 1;
            bit = 1;
        }
        let mut n = 0;
        let back = (f as u32) & bit != 0;
        if back {
            let mut r = table[*b.get(d)? as usize];
            d += 1;
            if s + 1 >= total || r + 1 >= s {
                return None;
            }
            dst[s] = dst[r];
            dst[s + 1] = dst[r + 1];
            s += 2;
            r += 2;
            n = *b.get(d)? as usize;
            d += 1;
            if s + n > total {
                return None;
            }
            for m in 0..n {
                dst[s + m] = dst[r + m];
            }
        } else {
            dst[s] = *b.get(d)?;
            s += 1;
            d += 1;
        }
        while p + 1 < s {
            table[(dst[p] ^ dst[p + 1]) as usize] = p;
            p += 1;
        }
        if back {
            s += n;
            p = s;
        }
        bit <<= 1;
        if bit == 256 {
            bit = 0;
        }
    }
    Some(dst)
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], QErr> {
        let end = self
            .i
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| err("badmsg"))?;
        let s = &self.b[self.i..end];
        self.i = end;
        Ok(s)
    }
    fn byte(&mut self) -> Result<u8, QErr> {
        Ok(self.take(1)?[0])
    }
    /// A NUL-terminated text.
    fn text(&mut self) -> Result<&[u8], QErr> {
        let rest = &self.b[self.i..];
        let z = rest
            .iter()
            .position(|&c| c == 0)
            .ok_or_else(|| err("badmsg"))?;
        self.i += z + 1;
        Ok(&rest[..z])
    }
    fn object(&mut self) -> QResult {
        let t = self.byte()? as i8;
        match t {
            ERR => Err(QErr(String::from_utf8_lossy(self.text()?).into_owned())),
            t if t == -KS => Ok(KObj::sym_ptr(sym::intern(self.text()?))),
            t if t == -UU => {
                let g: [u8; 16] = self.take(16)?.try_into().unwrap();
                let x = KObj::guid(g);
                unsafe { (*x.as_ptr()).n = 1 };
                Ok(x)
            }
            -19..=-1 => {
                let es = elem_size(t);
                let v = self.take(es)?;
                let a = alloc(t, 0);
                unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), atom::<u8>(a), es) };
                Ok(KObj::from_raw(a).unwrap())
            }
            0..=19 => {
                let attr = self.byte()?;
                let n = i32::from_le_bytes(self.take(4)?.try_into().unwrap());
                if n < 0 {
                    return Err(err("badmsg"));
                }
                let x = match t {
                    0 => {
                        let mut items = Vec::with_capacity((n as usize).min(self.b.len()));
                        for _ in 0..n {
                            items.push(self.object()?);
                        }
                        KObj::list(items)
                    }
                    KS => {
                        let mut ptrs: Vec<*const c_char> = Vec::new();
                        for _ in 0..n {
                            ptrs.push(sym::intern(self.text()?));
                        }
                        KObj::from_slice(KS, &ptrs)
                    }
                    _ => {
                        let bytes = n as usize * elem_size(t);
                        let v = self.take(bytes)?;
                        let x = KObj::vector(t, n as i64);
                        unsafe {
                            std::ptr::copy_nonoverlapping(v.as_ptr(), data::<u8>(x.as_ptr()), bytes)
                        };
                        x
                    }
                };
                x.set_attr(attr);
                Ok(x)
            }
            XT => {
                let attr = self.byte()?;
                let d = self.object()?;
                if d.t() != XD {
                    return Err(err("badmsg"));
                }
                let x = KObj::table(d);
                x.set_attr(attr);
                Ok(x)
            }
            XD | 127 => {
                let k = self.object()?;
                let v = self.object()?;
                Ok(KObj::dict(k, v))
            }
            FN_LAMBDA => {
                let ctx = String::from_utf8_lossy(self.text()?).into_owned();
                let src = self.object()?;
                if src.t() != KC || !ctx.is_empty() {
                    return Err(err("nyi"));
                }
                crate::kapi::hooks::eval_text(&src.as_string())
            }
            101 => {
                let b = self.byte()?;
                if b != 0 {
                    return Err(err("nyi"));
                }
                Ok(KObj::identity())
            }
            _ => Err(err("nyi")),
        }
    }
}
