//! `$`: casts (type char, type name or type number on the left), parsing text (upper-case type
//! char), symbols from strings (`` `$ ``), padding (`n$string`).
use super::atomic::atomic1;
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};

pub fn monad(_name: &str, _x: &KObj) -> Option<QResult> {
    None
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    if name != "$" {
        return None;
    }
    Some(cast(x, y))
}

/// The base type a type char names (lower case), with whether it parses text (upper case).
fn char_type(c: u8) -> Option<(i8, bool)> {
    let t = type_of_letter(c.to_ascii_lowercase())?;
    Some((t, c.is_ascii_uppercase()))
}

/// The base type of a type name (`` `long ``); the empty symbol is `$'s symbol-from-string.
fn name_type(s: &str) -> Option<i8> {
    Some(match s {
        "" | "symbol" => KS,
        "boolean" => KB,
        "guid" => UU,
        "byte" => KG,
        "short" => KH,
        "int" => KI,
        "long" => KJ,
        "real" => KE,
        "float" => KF,
        "char" => KC,
        "timestamp" => KP,
        "month" => KM,
        "date" => KD,
        "datetime" => KZ,
        "timespan" => KN,
        "minute" => KU,
        "second" => KV,
        "time" => KT,
        _ => return None,
    })
}

/// Whether `s` names a type for `$` (`` `int$ ``), not an enumeration's domain.
pub fn is_type_name(s: &str) -> bool {
    name_type(s).is_some()
}

/// `x $ y`.
fn cast(x: &KObj, y: &KObj) -> QResult {
    // `0h` or `"*"`: Identity where y is not a string (ref/cast.md)
    if (x.t() == -KH && x.get_short() == 0) || (x.t() == -KC && x.get_byte() == b'*') {
        return if is_text(y) {
            Err(err("nyi"))
        } else {
            Ok(y.clone())
        };
    }
    // a list of types (`"ej"$(x;y)`, `(12h;"m";`date)$42`), or of widths (`3 -4$("a";"b")`):
    // pairwise with y's items
    if matches!(x.t(), KC | KH | KI | KJ | KS) || (x.t() == 0 && !x.is_empty()) {
        let xs = items(x);
        let ys = if y.is_atom() {
            vec![y.clone(); xs.len()]
        } else {
            items(y)
        };
        if xs.len() != ys.len() {
            return Err(len_err());
        }
        let out: Vec<KObj> = xs
            .iter()
            .zip(ys.iter())
            .map(|(a, b)| cast(a, b))
            .collect::<Result<_, _>>()?;
        return Ok(from_items(out));
    }
    let (t, parse) = match x.t() {
        t if t == -KC => char_type(x.get_byte()).ok_or_else(|| err("domain"))?,
        // a symbol that names no type enumerates against that list (ref/enumerate.md), and
        // `year`dd`mm`hh`uu`ss take a temporal's parts (ref/cast.md): nyi
        t if t == -KS => (name_type(x.get_sym()).ok_or_else(|| err("nyi"))?, false),
        // a long is Pad's width (ref/pad.md), string-atomic through lists, dictionaries and
        // tables; a long with anything else is not documented: nyi
        t if t == -KJ => return pad_deep(x.get_long(), y),
        // a negative short: the type's upper-case letter, parsing text (ref/tok.md
        // `-8h$"3.14"` is 3.14e)
        t if t == -KH && x.get_short() < 0 && is_text(y) => (-(x.get_short() as i64) as i8, true),
        t if t == -KH || t == -KI => {
            let n = int_atom(x).unwrap();
            if y.t() == KC || y.t() == -KC || (y.t() == 0 && y.is_empty()) {
                return pad(n, y);
            }
            if (1..=19).contains(&n.abs()) && n != 3 {
                (n.abs() as i8, false)
            } else {
                return Err(err("domain"));
            }
        }
        _ => return Err(type_err()),
    };
    if y.t() == 0 && y.is_empty() {
        return Ok(KObj::vector(t, 0)); // `symbol$() and `$() are empty typed vectors too
    }
    if parse || (t == KS && is_text(y)) {
        return parse_text(t, y);
    }
    to_type_deep(t, y)
}

fn is_text(y: &KObj) -> bool {
    y.t() == KC || y.t() == -KC || (y.t() == 0 && y.items().iter().all(is_text))
}

/// Cast through lists, dictionaries and tables to base type t.
fn to_type_deep(t: i8, y: &KObj) -> QResult {
    if y.t() == 0 && y.is_empty() {
        return Ok(KObj::vector(t, 0)); // `long$() is an empty long vector
    }
    atomic1(y, &|v| to_type(t, v))
}

/// Nanoseconds per unit of each temporal type (months and dates handled by calendar/day).
const DAY_NS: i64 = 86_400_000_000_000;

fn unit_ns(t: i8) -> i64 {
    match t {
        KP | KN => 1,
        KT => 1_000_000,
        KV => 1_000_000_000,
        KU => 60_000_000_000,
        KD => DAY_NS,
        _ => 0,
    }
}

/// Cast a simple value to base type t.
pub fn to_type(t: i8, y: &KObj) -> QResult {
    let s = y.t().abs();
    let atom = y.is_atom();
    if s == t {
        return Ok(y.clone());
    }
    if s == KS || t == KS || s == UU || t == UU {
        return Err(type_err());
    }
    // between temporal types: convert through nanoseconds
    if is_temporal(s) && is_temporal(t) {
        return temporal(t, y);
    }
    if matches!(t, KE | KF | KZ) {
        return Ok(build_f(t, atom, &fvals(y).ok_or_else(type_err)?));
    }
    if matches!(s, KE | KF | KZ) {
        let v = fvals(y).unwrap();
        if t == KB {
            return Ok(build_i(
                KB,
                atom,
                &v.iter().map(|&a| (a != 0.0) as i64).collect::<Vec<_>>(),
            ));
        }
        return Ok(build_f(t, atom, &v));
    }
    // a long past an int's range becomes a byte as the int's limit would (ref/cast.md
    // `"x"$-2 -1 0 1 2+0Wi` is 0xfdfeffffff)
    if t == KG && s == KJ {
        let v: Vec<i64> = ivals(y)
            .ok_or_else(type_err)?
            .into_iter()
            .map(|v| {
                if v == NJ {
                    v
                } else {
                    v.clamp(-(i32::MAX as i64), i32::MAX as i64)
                }
            })
            .collect();
        return Ok(build_i(t, atom, &v));
    }
    Ok(build_i(t, atom, &ivals(y).ok_or_else(type_err)?))
}

/// Timestamp/date/time/... conversions: absolute (timestamp, date, month, datetime) keep the
/// instant; time-of-day types (time, minute, second) from absolute ones take the time of day.
fn temporal(t: i8, y: &KObj) -> QResult {
    let s = y.t().abs();
    let atom = y.is_atom();
    // a date is a whole number of days of a datetime, whatever its range (basics/datatypes.md
    // `"z"$0001.01.01-1`)
    if s == KD && t == KZ {
        let v: Vec<f64> = ivals(y)
            .unwrap()
            .iter()
            .map(|&d| match d {
                NJ => f64::NAN,
                WJ => f64::INFINITY,
                d if d == -WJ => f64::NEG_INFINITY,
                d => d as f64,
            })
            .collect();
        return Ok(build_f(KZ, atom, &v));
    }
    if t == KM {
        let d = if s == KD { y.clone() } else { temporal(KD, y)? };
        let v: Vec<i64> = ivals(&d)
            .unwrap()
            .iter()
            .map(|&d| if d == NJ { NJ } else { days_to_month(d) })
            .collect();
        return Ok(build_i(KM, atom, &v));
    }
    if s == KM {
        let v: Vec<i64> = ivals(y)
            .unwrap()
            .iter()
            .map(|&m| if m == NJ { NJ } else { month_to_days(m) })
            .collect();
        let d = build_i(KD, atom, &v);
        return if t == KD { Ok(d) } else { temporal(t, &d) };
    }
    let ns: Vec<i64> = if s == KZ {
        fvals(y)
            .unwrap()
            .iter()
            .map(|&d| {
                if d.is_nan() {
                    NJ
                } else {
                    (d * DAY_NS as f64).round() as i64
                }
            })
            .collect()
    } else {
        ivals(y)
            .unwrap()
            .iter()
            .map(|&v| {
                if v == NJ || v.abs() == WJ {
                    v
                } else {
                    // past a timestamp's range: its infinity (basics/datatypes.md
                    // `` `timestamp$1666.09.02 `` is -0Wp)
                    v.checked_mul(unit_ns(s))
                        .filter(|&n| n != NJ)
                        .unwrap_or(if v < 0 { -WJ } else { WJ })
                }
            })
            .collect()
    };
    let absolute = |k: i8| matches!(k, KP | KD | KZ);
    let ns: Vec<i64> = if absolute(s) && !absolute(t) && t != KN {
        ns.iter()
            .map(|&v| if v == NJ { NJ } else { v.rem_euclid(DAY_NS) })
            .collect()
    } else {
        ns
    };
    if t == KZ {
        return Ok(build_f(
            KZ,
            atom,
            &ns.iter()
                .map(|&v| {
                    if v == NJ {
                        f64::NAN
                    } else {
                        v as f64 / DAY_NS as f64
                    }
                })
                .collect::<Vec<_>>(),
        ));
    }
    let u = unit_ns(t);
    Ok(build_i(
        t,
        atom,
        &ns.iter()
            .map(|&v| {
                if v == NJ || v.abs() == WJ {
                    v
                } else {
                    v.div_euclid(u)
                }
            })
            .collect::<Vec<_>>(),
    ))
}

fn month_to_days(m: i64) -> i64 {
    let y = 2000 + m.div_euclid(12);
    crate::q::literal::days_from_civil(y, m.rem_euclid(12) + 1, 1)
}

/// The month (since 2000.01) containing day d (since 2000.01.01).
pub fn days_to_month(d: i64) -> i64 {
    let (y, m, _) = civil_from_days(d);
    (y - 2000) * 12 + m - 1
}

/// `"J"$"42"`, `` `$"abc" ``: text to values; what does not parse is null.
fn parse_text(t: i8, y: &KObj) -> QResult {
    match y.t() {
        KC => parse_one(t, &y.as_string()),
        t0 if t0 == -KC => parse_one(t, &(y.get_byte() as char).to_string()),
        0 => Ok(from_items(
            y.items()
                .iter()
                .map(|s| parse_text(t, s))
                .collect::<Result<_, _>>()?,
        )),
        _ => Err(type_err()),
    }
}

pub fn parse_one(t: i8, s: &str) -> QResult {
    let s = s.trim();
    if t == KS {
        return Ok(KObj::sym(s));
    }
    if t == KC {
        return Ok(KObj::string(s));
    }
    if t == KB {
        // ref/tok.md "Truthy characters": `.Q.an where"B"$'.Q.an` is "txyTXY1"
        return Ok(KObj::bool(matches!(
            s,
            "1" | "t" | "T" | "x" | "X" | "y" | "Y" | "true"
        )));
    }
    if t == UU {
        // IP addresses and other layouts ref/tok.md shows are nyi
        return match parse_guid(s) {
            Some(g) => Ok(KObj::guid(g)),
            None if s.is_empty() => Ok(null_atom(UU)),
            None => Err(err("nyi")),
        };
    }
    // "X"$: two hex digits (ref/tok.md `"X"$"42"` is 0x42)
    if t == KG {
        return match u8::from_str_radix(s, 16) {
            Ok(b) if s.len() == 2 => Ok(KObj::byte(b)),
            _ if s.is_empty() => Ok(null_atom(KG)),
            _ => Err(err("nyi")),
        };
    }
    // ref/tok.md reads temporal text in more layouts than q prints (digits only, unix seconds
    // for "P", dashes): qhost reads the printed layouts and answers 'nyi to the others; an IP
    // address as "I" is nyi
    if !s.is_empty() {
        let printed = match t {
            KP => s.contains('D') && !s.contains('-') && s.contains('.'),
            KN => s.contains('D') || s.contains(':'),
            KT | KU | KV => s.contains(':') && !s.contains('D'),
            KZ => s.contains('T') && !s.contains('-'),
            KI | KJ | KH => s.matches('.').count() < 2,
            _ => true,
        };
        if !printed {
            return Err(err("nyi"));
        }
    }
    if matches!(t, KD | KM) {
        return parse_date(t, s);
    }
    let lit = crate::q::literal::parse_word(s).and_then(|l| crate::q::literal::make(&[l]));
    match lit {
        Some(v) if v.t() < 0 && v.t() != -KS => to_type(t, &v),
        _ => Ok(null_atom(t)),
    }
}

/// `"D"$` and `"M"$` (code.kx.com/q/ref/tok): dates as yyyy.mm.dd, yyyy-mm-dd or yyyymmdd,
/// months as yyyy.mm, yyyy-mm or yyyymm; text that is no date is null. Other layouts q reads
/// (mm/dd/yyyy by \z) are 'nyi.
fn parse_date(t: i8, s: &str) -> QResult {
    if s.contains('/') {
        return Err(err("nyi"));
    }
    let digits = |p: &str| -> Option<i64> {
        if !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()) {
            p.parse().ok()
        } else {
            None
        }
    };
    let parts: Vec<&str> = if s.contains('.') {
        s.split('.').collect()
    } else if s.contains('-') {
        s.split('-').collect()
    } else if t == KD && s.len() == 8 {
        vec![&s[0..4], &s[4..6], &s[6..8]]
    } else if t == KM && s.len() == 6 {
        vec![&s[0..4], &s[4..6]]
    } else {
        vec![]
    };
    let want = if t == KD { 3 } else { 2 };
    let ok = parts.len() == want && parts[0].len() == 4 && parts[1..].iter().all(|p| p.len() == 2);
    let v: Option<Vec<i64>> = if ok {
        parts.iter().map(|p| digits(p)).collect()
    } else {
        None
    };
    let Some(v) = v else {
        return Ok(null_atom(t));
    };
    let (y, m) = (v[0], v[1]);
    if !(1..=12).contains(&m) {
        return Ok(null_atom(t));
    }
    if t == KM {
        return Ok(build_i(KM, true, &[(y - 2000) * 12 + m - 1]));
    }
    let d = v[2];
    let days = crate::q::literal::days_from_civil(y, m, d);
    // a day past the month's end (2001.02.30) is null, as q answers
    if d < 1 || civil_from_days(days) != (y, m, d) {
        return Ok(null_atom(t));
    }
    Ok(build_i(KD, true, &[days]))
}

fn pad_deep(n: i64, y: &KObj) -> QResult {
    match y.t() {
        KC => pad(n, y),
        t if t == -KC => pad(n, y),
        0 => Ok(KObj::list(
            y.items()
                .iter()
                .map(|v| pad_deep(n, v))
                .collect::<Result<_, _>>()?,
        )),
        XD => Ok(KObj::dict(y.dict_keys(), pad_deep(n, &y.dict_values())?)),
        XT => {
            let (names, cols) = table_cols(y);
            Ok(make_table(
                names,
                cols.iter()
                    .map(|c| pad_deep(n, c))
                    .collect::<Result<_, _>>()?,
            ))
        }
        _ => Err(err("nyi")),
    }
}

/// `n$string`: pad on the right (negative n: on the left) or truncate.
fn pad(n: i64, y: &KObj) -> QResult {
    let s: Vec<u8> = if y.t() == -KC {
        vec![y.get_byte()]
    } else {
        y.slice::<u8>().to_vec()
    };
    let w = n.unsigned_abs() as usize;
    let mut out = vec![b' '; w];
    if n >= 0 {
        let k = s.len().min(w);
        out[..k].copy_from_slice(&s[..k]);
    } else {
        let k = s.len().min(w);
        out[w - k..].copy_from_slice(&s[s.len() - k..]);
    }
    Ok(KObj::from_slice(KC, &out))
}

/// `"G"$"00010203-0405-0607-0809-0a0b0c0d0e0f"` (dashes optional): 32 hex digits.
fn parse_guid(s: &str) -> Option<[u8; 16]> {
    let hex: Vec<u8> = s.bytes().filter(|&c| c != b'-').collect();
    if hex.len() != 32 {
        return None;
    }
    let mut g = [0u8; 16];
    for (i, b) in g.iter_mut().enumerate() {
        *b = u8::from_str_radix(std::str::from_utf8(&hex[2 * i..2 * i + 2]).ok()?, 16).ok()?;
    }
    Some(g)
}
