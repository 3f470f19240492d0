//! Text keywords: lower upper trim ltrim rtrim string like ss ssr vs sv.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    Some(match name {
        "lower" => map_text(x, &|s| s.to_ascii_lowercase()),
        "upper" => map_text(x, &|s| s.to_ascii_uppercase()),
        // on other vectors trim drops leading and trailing nulls; other atoms are themselves
        // (ref/trim.md `trim 0N 0N 1 2 3 0N 0N  4 5 0N 0N`, `trim 42`)
        "trim" | "ltrim" | "rtrim" if x.t() > 0 && x.t() < 20 && !matches!(x.t(), KC | KS) => {
            let n = x.len() as usize;
            let (l, r) = (name != "rtrim", name != "ltrim");
            let mut a = 0;
            let mut b = n;
            while l && a < b && is_null_at(x, a) {
                a += 1;
            }
            while r && b > a && is_null_at(x, b - 1) {
                b -= 1;
            }
            Ok(rows(x, &(a as i64..b as i64).collect::<Vec<_>>()))
        }
        "trim" | "ltrim" | "rtrim" if x.is_atom() && !matches!(-x.t(), KC | KS) => Ok(x.clone()),
        // a table column by column (ref/trim.md `rtrim ([]a:..;b:..)`)
        "trim" | "ltrim" | "rtrim" if x.t() == XT => {
            let (names, cols) = crate::q::values::table_cols(x);
            cols.iter()
                .map(|c| monad(name, c).unwrap())
                .collect::<Result<Vec<_>, _>>()
                .map(|c| crate::q::values::make_table(names, c))
        }
        "trim" => map_text(x, &|s| trim(s, true, true)),
        "ltrim" => map_text(x, &|s| trim(s, true, false)),
        "rtrim" => map_text(x, &|s| trim(s, false, true)),
        // a keyword's text is q's k definition, which qhost knows only where KX shows it
        "string" if !crate::q::display::showable(x) => Err(err("nyi")),
        "string" => Ok(string(x)),
        "hsym" => map_text(x, &|s| {
            if s.starts_with(b":") {
                s.to_vec()
            } else {
                [b":", s].concat()
            }
        })
        .and_then(|r| {
            if x.t().abs() == KS {
                Ok(r)
            } else {
                Err(type_err())
            }
        }),
        _ => return None,
    })
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    Some(match name {
        "like" => like(x, y),
        "ss" => ss(x, y),
        "vs" => vs(x, y),
        "sv" => sv(x, y),
        _ => return None,
    })
}

fn trim(s: &[u8], l: bool, r: bool) -> Vec<u8> {
    let mut a = 0;
    let mut b = s.len();
    while l && a < b && s[a] == b' ' {
        a += 1;
    }
    while r && b > a && s[b - 1] == b' ' {
        b -= 1;
    }
    s[a..b].to_vec()
}

/// Apply a text function to a string, char, symbol, or lists/dicts of them.
fn map_text(x: &KObj, f: &dyn Fn(&[u8]) -> Vec<u8>) -> QResult {
    match x.t() {
        KC => Ok(KObj::from_slice(KC, &f(x.slice::<u8>()))),
        t if t == -KC => {
            let r = f(&[x.get_byte()]);
            Ok(if r.len() == 1 {
                KObj::char(r[0])
            } else {
                KObj::from_slice(KC, &r)
            })
        }
        t if t == -KS => Ok(KObj::sym(&String::from_utf8_lossy(&f(x
            .get_sym()
            .as_bytes())))),
        KS => Ok(KObj::syms(
            &x.sym_list()
                .iter()
                .map(|s| String::from_utf8_lossy(&f(s.as_bytes())).into_owned())
                .collect::<Vec<_>>(),
        )),
        0 => Ok(from_items(
            x.items()
                .iter()
                .map(|i| map_text(i, f))
                .collect::<Result<_, _>>()?,
        )),
        XD => Ok(KObj::dict(x.dict_keys(), map_text(&x.dict_values(), f)?)),
        _ => Err(type_err()),
    }
}

/// `string x`: an atom's text as a char vector; a list's items each (a char atom gives a
/// one-char string).
pub fn string(x: &KObj) -> KObj {
    match x.t() {
        t if t == -KC => from_items(vec![x.clone()]),
        t if t < 0 => KObj::string(&crate::q::display::atom_text(x, false)),
        XD => KObj::dict(x.dict_keys(), string(&x.dict_values())),
        XT => {
            let (n, c) = table_cols(x);
            make_table(n, c.iter().map(string).collect())
        }
        t if (0..XT).contains(&t) => KObj::list(items(x).iter().map(string).collect()),
        _ => KObj::string(crate::q::display::show_text(x).trim_end()),
    }
}

/// Text of a string or symbol (or char).
fn text(x: &KObj) -> Option<Vec<u8>> {
    match x.t() {
        KC => Some(x.slice::<u8>().to_vec()),
        t if t == -KC => Some(vec![x.get_byte()]),
        t if t == -KS => Some(x.get_sym().as_bytes().to_vec()),
        _ => None,
    }
}

/// q's like patterns: `*` any run, `?` any char, `[abc]` / `[^abc]` / `[a-z]` a set.
fn glob(p: &[u8], s: &[u8]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(b'*') => (0..=s.len()).any(|k| glob(&p[1..], &s[k..])),
        Some(b'?') => !s.is_empty() && glob(&p[1..], &s[1..]),
        Some(b'[') => {
            // a `]` right after `[` (or `[^`) is in the set (basics/regex.md `[]]`)
            let from = if p.get(1) == Some(&b'^') { 2 } else { 1 };
            let skip = from + usize::from(p.get(from) == Some(&b']'));
            let Some(end) = p
                .iter()
                .skip(skip)
                .position(|&c| c == b']')
                .map(|e| e + skip)
            else {
                return !s.is_empty() && s[0] == b'[' && glob(&p[1..], &s[1..]);
            };
            if s.is_empty() {
                return false;
            }
            let set = &p[1..end];
            let (neg, set) = if set.first() == Some(&b'^') {
                (true, &set[1..])
            } else {
                (false, set)
            };
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == b'-' {
                    hit |= (set[i]..=set[i + 2]).contains(&s[0]);
                    i += 3;
                } else {
                    hit |= set[i] == s[0];
                    i += 1;
                }
            }
            hit != neg && glob(&p[end + 1..], &s[1..])
        }
        Some(&c) => !s.is_empty() && s[0] == c && glob(&p[1..], &s[1..]),
    }
}

fn like(x: &KObj, p: &KObj) -> QResult {
    // a dictionary: its values, keys kept (ref/like.md)
    if x.t() == XD && x.dict_keys().t() != XT {
        return Ok(KObj::dict(x.dict_keys(), like(&x.dict_values(), p)?));
    }
    let pat = text(p).ok_or_else(type_err)?;
    if let Some(s) = text(x) {
        return Ok(KObj::bool(glob(&pat, &s)));
    }
    match x.t() {
        KS => Ok(KObj::from_slice(
            KB,
            &x.sym_list()
                .iter()
                .map(|s| glob(&pat, s.as_bytes()) as u8)
                .collect::<Vec<_>>(),
        )),
        // a general list of strings; symbols in a general list are 'type (basics/
        // implicit-iteration.md `(`quick;`quack`quark) like "qu?ck"`)
        0 => Ok(from_items(
            x.items()
                .iter()
                .map(|i| {
                    if matches!(i.t(), KC | 0) || i.t() == -KC {
                        like(i, p)
                    } else {
                        Err(type_err())
                    }
                })
                .collect::<Result<_, _>>()?,
        )),
        _ => Err(type_err()),
    }
}

/// Start positions of non-overlapping occurrences of literal `pat` in `s`.
fn find_all(s: &[u8], pat: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    if pat.is_empty() {
        return out;
    }
    let mut i = 0;
    while i + pat.len() <= s.len() {
        if &s[i..i + pat.len()] == pat {
            out.push(i);
            i += pat.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Patterns with wildcards are outside the subset for ss/ssr.
fn literal_pattern(p: &[u8]) -> Result<(), crate::q::QErr> {
    if p.iter().any(|c| matches!(c, b'*' | b'?' | b'[')) {
        Err(nyi())
    } else {
        Ok(())
    }
}

fn ss(x: &KObj, y: &KObj) -> QResult {
    let (s, p) = (text(x).ok_or_else(type_err)?, text(y).ok_or_else(type_err)?);
    // an empty pattern is 'length (basics/regex.md)
    if p.is_empty() {
        return Err(len_err());
    }
    literal_pattern(&p)?;
    Ok(KObj::from_slice(
        KJ,
        &find_all(&s, &p)
            .iter()
            .map(|&i| i as i64)
            .collect::<Vec<_>>(),
    ))
}

/// `ssr[s;pattern;replacement]`.
pub fn ssr(x: &KObj, y: &KObj, z: &KObj) -> QResult {
    // the text is a string: a char atom is 'type (basics/glossary.md `ssr["a";"a";"-"]`)
    if x.t() != KC {
        return Err(type_err());
    }
    // a function making each replacement (ref/ss.md `ssr[s;"t?r";upper]`): not done here
    if z.t() >= 100 {
        return Err(nyi());
    }
    let (s, p, r) = (
        text(x).ok_or_else(type_err)?,
        text(y).ok_or_else(type_err)?,
        text(z).ok_or_else(type_err)?,
    );
    literal_pattern(&p)?;
    let mut out = Vec::new();
    let mut last = 0;
    for i in find_all(&s, &p) {
        out.extend_from_slice(&s[last..i]);
        out.extend_from_slice(&r);
        last = i + p.len();
    }
    out.extend_from_slice(&s[last..]);
    Ok(KObj::from_slice(KC, &out))
}

/// `sep vs text` splits; `` ` vs `a.b `` splits a symbol on dots; `0b vs n` bits, `0x0 vs n` bytes.
fn vs(x: &KObj, y: &KObj) -> QResult {
    if x.t() == -KS && x.get_sym().is_empty() && y.t() == -KS && y.get_sym().starts_with(':') {
        // a file handle splits into folder and file (code.kx.com/q/ref/vs):
        // ` vs `:/home/kdb/data/mytable is `:/home/kdb/data`mytable
        let h = y.get_sym();
        return Ok(match h.rfind('/') {
            Some(i) => KObj::syms(&[h[..i].to_string(), h[i + 1..].to_string()]),
            // no folder in the handle: what q answers is not documented
            None => return Err(nyi()),
        });
    }
    if x.t() == -KS && x.get_sym().is_empty() && (y.t() == KC || y.t() == KG) {
        return lines(y.slice::<u8>());
    }
    if x.t() == -KS && x.get_sym().is_empty() {
        let s = text(y).ok_or_else(type_err)?;
        return Ok(KObj::syms(
            &s.split(|&c| c == b'.')
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect::<Vec<_>>(),
        ));
    }
    if let (Some(sep), Some(s)) = (
        text(x),
        if y.t() == KC {
            Some(y.slice::<u8>().to_vec())
        } else {
            None
        },
    ) {
        let mut parts = Vec::new();
        let mut last = 0;
        for i in find_all(&s, &sep) {
            parts.push(KObj::from_slice(KC, &s[last..i]));
            last = i + sep.len();
        }
        parts.push(KObj::from_slice(KC, &s[last..]));
        return Ok(KObj::list(parts));
    }
    // bytes cut at a byte delimiter (ref/vs.md "Byte Vectors": `0x02 vs 0x0102010201`)
    if (x.t() == -KG || x.t() == KG) && y.t() == KG {
        let sep = if x.is_atom() {
            vec![x.get_byte()]
        } else {
            x.slice::<u8>().to_vec()
        };
        if sep.is_empty() {
            return Err(nyi());
        }
        let s = y.slice::<u8>();
        let mut parts = Vec::new();
        let mut last = 0;
        for i in find_all(s, &sep) {
            parts.push(KObj::from_slice(KG, &s[last..i]));
            last = i + sep.len();
        }
        parts.push(KObj::from_slice(KG, &s[last..]));
        return Ok(KObj::list(parts));
    }
    // `0x0 vs n`: the number's bytes, most significant first (ref/vs.md "Byte representation":
    // `0x0 vs 2413e` is 0x4516d000)
    if x.t() == -KG && x.get_byte() == 0 {
        let b: Vec<u8> = match y.t() {
            t if t == -KH => y.get_short().to_be_bytes().to_vec(),
            t if t == -KI => y.get_int().to_be_bytes().to_vec(),
            t if t == -KJ => y.get_long().to_be_bytes().to_vec(),
            t if t == -KE => y.get_real().to_be_bytes().to_vec(),
            t if t == -KF => y.get_float().to_be_bytes().to_vec(),
            _ => return Err(nyi()),
        };
        return Ok(KObj::from_slice(KG, &b));
    }
    if x.t() == -KB && int_atom(y).is_some() {
        let bits = match y.t() {
            t if t == -KH => 16,
            t if t == -KI => 32,
            _ => 64,
        };
        let v = ivals(y).unwrap()[0] as u64;
        let b: Vec<u8> = (0..bits).rev().map(|k| ((v >> k) & 1) as u8).collect();
        return Ok(KObj::from_slice(KB, &b));
    }
    if matches!(x.t().abs(), KH | KI | KJ) && matches!(y.t().abs(), KH | KI | KJ) {
        return base_vs(x, y);
    }
    Err(nyi())
}

/// `` ` vs text ``: lines, at `\n` or `\r\n`, a trailing line break elided (ref/vs.md "String
/// or bytestream by linebreak"); bytes give strings as text does. Empty text, or text ending in
/// more than one line break, is 'nyi (the page shows neither).
fn lines(s: &[u8]) -> QResult {
    if s.is_empty() || s.ends_with(b"\n\n") || s.ends_with(b"\n\r\n") {
        return Err(nyi());
    }
    let body = s.strip_suffix(b"\n").unwrap_or(s);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    Ok(KObj::list(
        body.split(|&c| c == b'\n')
            .map(|l| KObj::from_slice(KC, l.strip_suffix(b"\r").unwrap_or(l)))
            .collect(),
    ))
}

/// Integer-base `vs` (code.kx.com/q/ref/vs "Encode"): `10 vs 1234` is `1 2 3 4`, mixed radix
/// `24 60 60 vs 3805` is `1 3 25` (every digit reduced by its base); with a vector y the
/// result has a row per digit and a column per number (`10 vs 1 10 100`). Negative values and
/// bases below 2 are 'nyi.
fn base_vs(x: &KObj, y: &KObj) -> QResult {
    let bases = int_list(x)
        .or_else(|| int_atom(x).map(|b| vec![b]))
        .ok_or_else(type_err)?;
    let ys = int_list(y)
        .or_else(|| int_atom(y).map(|v| vec![v]))
        .ok_or_else(type_err)?;
    if bases.iter().any(|&b| b < 2) || ys.iter().any(|&v| v < 0) {
        return Err(nyi());
    }
    let digits_of = |v: i64, n: usize| -> Vec<i64> {
        let mut d = vec![0i64; n];
        let mut v = v;
        for k in (0..n).rev() {
            let b = if x.is_atom() { bases[0] } else { bases[k] };
            d[k] = v % b;
            v /= b;
        }
        d
    };
    let n = if x.is_atom() {
        // as many digits as the largest number needs (at least one)
        let b = bases[0];
        let m = ys.iter().copied().max().unwrap_or(0);
        let mut n = 1;
        let mut p = m / b;
        while p > 0 {
            n += 1;
            p /= b;
        }
        if ys.iter().all(|&v| v == 0) && y.is_atom() {
            return Err(nyi());
        }
        n
    } else {
        bases.len()
    };
    let t = if y.t().abs() == KJ || x.t().abs() == KJ {
        KJ
    } else {
        y.t().abs()
    };
    if y.is_atom() {
        return Ok(build_i(t, false, &digits_of(ys[0], n)));
    }
    let cols: Vec<Vec<i64>> = ys.iter().map(|&v| digits_of(v, n)).collect();
    Ok(KObj::list(
        (0..n)
            .map(|r| build_i(t, false, &cols.iter().map(|c| c[r]).collect::<Vec<_>>()))
            .collect(),
    ))
}

/// `sep sv strings` joins; `` ` sv `a`b `` dots symbols; `base sv digits`; `0b sv bits`.
fn sv(x: &KObj, y: &KObj) -> QResult {
    if x.t() == -KS && x.get_sym().is_empty() && y.t() == KS {
        // as q: a file handle first joins a path with "/", else names join with "."
        let parts = y.sym_list();
        let sep = if parts.first().is_some_and(|p| p.starts_with(':')) {
            "/"
        } else {
            "."
        };
        return Ok(KObj::sym(&parts.join(sep)));
    }
    if x.t() == -KS && x.get_sym().is_empty() && y.t() == 0 && y.items().iter().all(|i| i.t() == KC)
    {
        // ` sv strings: lines joined, each ended by a newline (code.kx.com/q/ref/sv)
        let mut out = Vec::new();
        for i in y.items() {
            out.extend_from_slice(i.slice::<u8>());
            out.push(b'\n');
        }
        return Ok(KObj::from_slice(KC, &out));
    }
    if let Some(sep) = text(x).filter(|_| x.t() != -KS) {
        if y.t() == 0 || y.t() == KC {
            let parts: Vec<Vec<u8>> = items(y)
                .iter()
                .map(|i| text(i).ok_or_else(type_err))
                .collect::<Result<_, _>>()?;
            return Ok(KObj::from_slice(KC, &parts.join(&sep[..])));
        }
    }
    // bytes and bits to a number, big-endian (ref/sv.md): 2, 4, 8 or 16 bytes give a short, int,
    // long or guid; 8, 16, 32, 64 or 128 bits a byte, short, int, long or guid
    if (x.t() == -KG && y.t() == KG) || (x.t() == -KB && y.t() == KB) {
        let bytes: Vec<u8> = if y.t() == KG {
            y.slice::<u8>().to_vec()
        } else {
            if y.len() % 8 != 0 {
                return Err(err("nyi"));
            }
            y.slice::<u8>()
                .chunks(8)
                .map(|c| c.iter().fold(0u8, |a, &b| (a << 1) | (b != 0) as u8))
                .collect()
        };
        let be = |n: usize| bytes.iter().take(n).fold(0u64, |a, &b| (a << 8) | b as u64);
        return match bytes.len() {
            1 if y.t() == KB => Ok(KObj::byte(bytes[0])),
            2 => Ok(KObj::short(be(2) as u16 as i16)),
            4 => Ok(KObj::int(be(4) as u32 as i32)),
            8 => Ok(KObj::long(be(8) as i64)),
            16 => {
                let mut g = [0u8; 16];
                g.copy_from_slice(&bytes);
                Ok(KObj::guid(g))
            }
            _ => Err(err("nyi")),
        };
    }
    // a separator of several bytes: the page's one example (sv.md `0x0203 sv 0x0203 vs "x"$til
    // 6` is 0x0001020304, a byte short of a join) does not show the rule
    if x.t() == KG && y.t() == 0 {
        return Err(nyi());
    }
    // a byte separator joins byte vectors (ref/sv.md `0x02 sv (enlist 0x01;...)`)
    if x.t() == -KG && y.t() == 0 && y.items().iter().all(|i| i.t() == KG) {
        let mut out = Vec::new();
        for (k, i) in y.items().iter().enumerate() {
            if k > 0 {
                out.push(x.get_byte());
            }
            out.extend_from_slice(i.slice::<u8>());
        }
        return Ok(KObj::from_slice(KG, &out));
    }
    if let (Some(b), Some(d)) = (
        int_list(x).filter(|_| !x.is_atom()),
        int_list(y).filter(|_| !y.is_atom()),
    ) {
        // mixed radix: 24 60 60 sv 1 3 25 is 3805
        if b.len() != d.len() {
            return Err(len_err());
        }
        return Ok(KObj::long(
            b.iter()
                .zip(&d)
                .fold(0i64, |a, (&r, &v)| a.wrapping_mul(r).wrapping_add(v)),
        ));
    }
    if y.t() == 0 && !y.is_empty() && (int_atom(x).is_some() || int_list(x).is_some()) {
        // a matrix of digits (a row per digit) decodes column by column
        let rows: Vec<Vec<i64>> = y
            .items()
            .iter()
            .map(|r| int_list(r).ok_or_else(type_err))
            .collect::<Result<_, _>>()?;
        let n = rows[0].len();
        if rows.iter().any(|r| r.len() != n) {
            return Err(len_err());
        }
        let bases: Vec<i64> = match int_atom(x) {
            Some(b) => vec![b; rows.len()],
            None => int_list(x).unwrap(),
        };
        if bases.len() != rows.len() {
            return Err(len_err());
        }
        let v: Vec<i64> = (0..n)
            .map(|c| {
                rows.iter()
                    .zip(&bases)
                    .fold(0i64, |a, (r, &b)| a.wrapping_mul(b).wrapping_add(r[c]))
            })
            .collect();
        return Ok(KObj::from_slice(KJ, &v));
    }
    if let (Some(b), Some(d)) = (int_atom(x), int_list(y)) {
        return Ok(KObj::long(
            d.iter()
                .fold(0i64, |a, &v| a.wrapping_mul(b).wrapping_add(v)),
        ));
    }
    if y.t() == 0 && y.is_empty() {
        return Err(err("type"));
    }
    Err(nyi())
}
