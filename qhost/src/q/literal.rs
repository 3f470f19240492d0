//! Number-like literal words (`42`, `1.5e`, `0Nj`, `-0W`, `101b`, `0x0a`, `2026.01.01`,
//! `12:00:00.000`, `0D00:00:01`, `2026.01.01D12:00`) to K atoms, and a run of them to a vector
//! with q's typing rule (the last item's suffix types them all; a float among longs makes floats).
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// One parsed item before it is typed: the K type it asks for and its value.
#[derive(Clone, Copy, Debug)]
pub struct Lit {
    /// Positive K type (KJ for an unsuffixed integer, KF for a float form).
    pub t: i8,
    /// Whether a suffix (or the temporal form) fixed the type.
    pub explicit: bool,
    pub i: i64,
    pub f: f64,
    pub null: bool,
    /// +1 / -1 infinity.
    pub inf: i8,
    /// A clock with a type letter (`20:00t`): the letter types the whole vector.
    pub letter: bool,
}

impl Lit {
    fn int(v: i64) -> Lit {
        Lit {
            t: KJ,
            explicit: false,
            i: v,
            f: v as f64,
            null: false,
            inf: 0,
            letter: false,
        }
    }
    fn typed(t: i8, v: i64) -> Lit {
        Lit {
            t,
            explicit: true,
            i: v,
            f: v as f64,
            null: false,
            inf: 0,
            letter: false,
        }
    }
}

/// Days from 2000.01.01 to y.m.d (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468 - 10957
}

fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) || s.len() > 18 {
        return None;
    }
    s.parse().ok()
}

/// `yyyy.mm.dd` as days since 2000.01.01.
fn date(s: &str) -> Option<i64> {
    let p: Vec<&str> = s.split('.').collect();
    if p.len() != 3 || p[0].len() != 4 || p[1].len() != 2 || p[2].len() != 2 {
        return None;
    }
    let (y, m, d) = (digits(p[0])?, digits(p[1])?, digits(p[2])?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// `hh:mm[:ss[.fff...]]` as nanoseconds, with the count of parts and fraction digits.
fn clock(s: &str) -> Option<(i64, usize, usize)> {
    let (hms, frac) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let p: Vec<&str> = hms.split(':').collect();
    if p.is_empty() || p.len() > 3 || p.iter().skip(1).any(|x| x.len() != 2) {
        return None;
    }
    let mut ns = 0i64;
    let units = [3_600_000_000_000i64, 60_000_000_000, 1_000_000_000];
    for (k, part) in p.iter().enumerate() {
        ns = ns.checked_add(digits(part)?.checked_mul(units[k])?)?;
    }
    let mut fd = 0;
    if let Some(f) = frac {
        if p.len() != 3 || f.len() > 9 || (!f.is_empty() && digits(f).is_none()) {
            return None;
        }
        fd = f.len();
        let mut v = if f.is_empty() { 0 } else { digits(f)? };
        for _ in f.len()..9 {
            v *= 10;
        }
        ns += v;
    }
    Some((ns, p.len(), fd))
}

fn null_of(t: i8) -> Lit {
    Lit {
        t,
        explicit: true,
        i: 0,
        f: f64::NAN,
        null: true,
        inf: 0,
        letter: false,
    }
}

/// The type a one-letter suffix asks for (`b` and `x` are not suffixes: `1b` and `0x01` are
/// read as their own literal forms).
fn suffix_type(c: u8) -> Option<i8> {
    if c == b'b' || c == b'x' {
        return None;
    }
    type_of_letter(c)
}

fn is_temporal_type(t: i8) -> bool {
    matches!(t, KP | KM | KD | KZ | KN | KU | KV | KT)
}

/// Parse one word (no bool/byte forms) into a Lit.
pub fn parse_word(w: &str) -> Option<Lit> {
    let (neg, s) = match w.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, w),
    };
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    // nulls and infinities: 0N 0n 0W 0w with an optional suffix
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1], b'N' | b'n' | b'W' | b'w') {
        let t = match b.len() {
            2 => {
                if b[1] == b'N' || b[1] == b'W' {
                    KJ
                } else {
                    KF
                }
            }
            3 => suffix_type(b[2])?,
            _ => return None,
        };
        // `0Ng` is the null guid (basics/datatypes.md); a guid has no infinity
        if matches!(t, KC | KS) || (t == UU && b[1] != b'N') {
            return None;
        }
        let mut l = null_of(t);
        l.explicit = b.len() == 3;
        if b[1] == b'W' || b[1] == b'w' {
            l.null = false;
            l.inf = if neg { -1 } else { 1 };
            if b[1] == b'w' && b.len() == 2 {
                l.t = KF;
            }
        } else if neg {
            return None;
        }
        return Some(l);
    }
    let sign = if neg { -1 } else { 1 };
    // timespan 0D00:00:01 / timestamp 2026.01.01D12:00
    if let Some((a, c)) = s.split_once('D') {
        if a.contains('.') {
            let d = date(a)?;
            let ns = if c.is_empty() { 0 } else { clock(c)?.0 };
            return Some(Lit::typed(KP, sign * (d * 86_400_000_000_000 + ns)));
        }
        let d = digits(a)?;
        let ns = if c.is_empty() { 0 } else { clock(c)?.0 };
        return Some(Lit::typed(KN, sign * (d * 86_400_000_000_000 + ns)));
    }
    if let Some((a, c)) = s.split_once('T') {
        let d = date(a)?;
        let ns = if c.is_empty() { 0 } else { clock(c)?.0 };
        let mut l = Lit::typed(KZ, 0);
        l.f = sign as f64 * (d as f64 + ns as f64 / 86_400_000_000_000.0);
        return Some(l);
    }
    // a clock with a type letter: `20:00t` is a time (basics/comparison.md)
    if s.contains(':') && s.as_bytes().last().is_some_and(|c| c.is_ascii_alphabetic()) {
        let t = suffix_type(*s.as_bytes().last().unwrap())?;
        let (ns, _, _) = clock(&s[..s.len() - 1])?;
        let unit = match t {
            KT => 1_000_000,
            KU => 60_000_000_000,
            KV => 1_000_000_000,
            KN => 1,
            _ => return None,
        };
        if ns % unit != 0 {
            return None;
        }
        let mut l = Lit::typed(t, sign * ns / unit);
        l.letter = true;
        return Some(l);
    }
    if s.contains(':') {
        let (ns, parts, fd) = clock(s)?;
        return Some(match (parts, fd) {
            (2, _) => Lit::typed(KU, sign * ns / 60_000_000_000),
            (3, 0) if !s.contains('.') => Lit::typed(KV, sign * ns / 1_000_000_000),
            (3, fd) if fd <= 3 => Lit::typed(KT, sign * ns / 1_000_000),
            _ => Lit::typed(KN, sign * ns),
        });
    }
    // dates and months
    if s.matches('.').count() == 2 && s.len() == 10 {
        return date(s).map(|d| Lit::typed(KD, sign * d));
    }
    if s.len() == 8 && s.ends_with('m') && s.as_bytes()[4] == b'.' {
        let (y, m) = (digits(&s[0..4])?, digits(&s[5..7])?);
        if !(1..=12).contains(&m) {
            return None;
        }
        return Some(Lit::typed(KM, sign * ((y - 2000) * 12 + m - 1)));
    }
    // plain numbers with an optional suffix
    let last = *b.last().unwrap();
    let (body, suf) = if last.is_ascii_alphabetic() && !(last == b'e' && b.len() == 1) {
        (&s[..s.len() - 1], suffix_type(last))
    } else {
        (s, None)
    };
    if body.is_empty() {
        return None;
    }
    let float_form = body.contains('.') || body.contains('e');
    if !body
        .bytes()
        .all(|c| c.is_ascii_digit() || c == b'.' || c == b'e' || c == b'-')
    {
        return None;
    }
    if let Some(t) = suf {
        // zero with a temporal letter is that type's zero (`0p` is 2000.01.01D00:00:00.000000000,
        // basics/datatypes.md); other integers with a temporal letter are not read here
        if is_temporal_type(t) && body == "0" {
            return Some(if t == KZ {
                let mut l = Lit::typed(KZ, 0);
                l.f = 0.0;
                l
            } else {
                Lit::typed(t, 0)
            });
        }
        if !matches!(t, KH | KI | KJ | KE | KF) {
            return None;
        }
    } else if last.is_ascii_alphabetic() && last != b'e' {
        return None;
    }
    if float_form || matches!(suf, Some(KE) | Some(KF)) {
        let v: f64 = body.parse().ok()?;
        if !float_form && suf.is_none() {
            return None;
        }
        let v = if neg { -v } else { v };
        if matches!(suf, Some(KH) | Some(KI) | Some(KJ)) {
            return None;
        }
        let mut l = Lit::int(0);
        l.t = suf.unwrap_or(KF);
        l.explicit = suf.is_some();
        l.f = v;
        return Some(l);
    }
    let v: i64 = body.parse().ok()?;
    let v = sign * v;
    match suf {
        None => Some(Lit::int(v)),
        Some(t) => Some(Lit::typed(t, v)),
    }
}

/// Typed vector or atom from items, following q: the last item's explicit type wins, else a
/// float among integers makes all floats. Mixed temporal kinds are not a literal (None).
pub fn make(items: &[Lit]) -> Option<KObj> {
    let last = items.last()?;
    let mut t = last.t;
    if !last.explicit {
        if items.iter().any(|l| l.t == KF) {
            t = KF;
        } else if let Some(l) = items.iter().find(|l| l.explicit) {
            t = l.t;
        }
    }
    // months without their letter before the last item's (`2017.05 2017.09m`, ref/greater.md)
    let months: Vec<Lit>;
    let items = if t == KM && items.iter().any(|l| l.t == KF && !l.explicit) {
        months = items
            .iter()
            .map(|l| {
                if l.t == KF && !l.explicit && !l.null && l.inf == 0 {
                    let y = l.f.trunc();
                    let m = ((l.f - y) * 100.0).round() as i64;
                    if (1..=12).contains(&m) {
                        return Lit::typed(KM, (y as i64 - 2000) * 12 + m - 1);
                    }
                }
                *l
            })
            .collect();
        &months[..]
    } else {
        items
    };
    // `13:30 20:00t`: the letter makes every clock a time (basics/comparison.md)
    let clocks: Vec<Lit>;
    let items = if last.letter && matches!(t, KT | KU | KV | KN) {
        let ns_per = |t: i8| -> i64 {
            match t {
                KT => 1_000_000,
                KU => 60_000_000_000,
                KV => 1_000_000_000,
                _ => 1,
            }
        };
        clocks = items
            .iter()
            .map(|l| {
                if matches!(l.t, KT | KU | KV) && !l.null && l.inf == 0 && l.t != t {
                    let ns = l.i * ns_per(l.t);
                    if ns % ns_per(t) == 0 {
                        return Lit::typed(t, ns / ns_per(t));
                    }
                }
                *l
            })
            .collect();
        &clocks[..]
    } else {
        items
    };
    if t == UU {
        // only nulls are guid literals
        if !items.iter().all(|l| l.null && l.t == UU) {
            return None;
        }
        let v = KObj::vector(UU, items.len() as i64);
        unsafe { std::ptr::write_bytes(data::<u8>(v.as_ptr()), 0, 16 * items.len()) };
        return Some(if items.len() == 1 {
            crate::q::values::elem(&v, 0)
        } else {
            v
        });
    }
    for l in items {
        // integers fit any numeric type; explicit other kinds must agree
        let ok = l.t == t
            || (!l.explicit && matches!(t, KH | KI | KJ | KE | KF))
            || (l.null && !l.explicit)
            || (l.inf != 0 && !l.explicit);
        if !ok {
            return None;
        }
    }
    let n = items.len();
    let atom = n == 1;
    let v = KObj::vector(t, n as i64);
    for (k, l) in items.iter().enumerate() {
        let fv = if l.null {
            f64::NAN
        } else if l.inf != 0 {
            l.inf as f64 * f64::INFINITY
        } else if l.t == KF || l.t == KE || l.t == KZ {
            l.f
        } else {
            l.i as f64
        };
        let iv = |max: i64, min: i64| -> i64 {
            if l.null {
                min
            } else if l.inf > 0 {
                max
            } else if l.inf < 0 {
                -max
            } else {
                l.i
            }
        };
        unsafe {
            let p = data::<u8>(v.as_ptr());
            match t {
                KH => *(p as *mut i16).add(k) = iv(i16::MAX as i64, i16::MIN as i64) as i16,
                KI | KM | KD | KU | KV | KT => {
                    *(p as *mut i32).add(k) = iv(i32::MAX as i64, i32::MIN as i64) as i32
                }
                KJ | KP | KN => *(p as *mut i64).add(k) = iv(i64::MAX, i64::MIN),
                KE => *(p as *mut f32).add(k) = fv as f32,
                KF | KZ => *(p as *mut f64).add(k) = fv,
                _ => return None,
            }
        }
    }
    if atom {
        return Some(crate::q::values::elem(&v, 0));
    }
    Some(v)
}

/// `101b` / `1b`: booleans.
pub fn bools(w: &str) -> Option<KObj> {
    let body = w.strip_suffix('b')?;
    if body.is_empty() || !body.bytes().all(|c| c == b'0' || c == b'1') {
        return None;
    }
    let v: Vec<u8> = body.bytes().map(|c| c - b'0').collect();
    if v.len() == 1 {
        return Some(KObj::bool(v[0] == 1));
    }
    Some(KObj::from_slice(KB, &v))
}

/// `0x1f` (atom) / `0x0102` (vector) / `0x` (empty): bytes.
pub fn bytes(w: &str) -> Option<KObj> {
    let h = w.strip_prefix("0x")?;
    if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let h = if h.len() % 2 == 1 {
        format!("0{h}")
    } else {
        h.to_string()
    };
    let v: Vec<u8> = (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    if v.len() == 1 {
        return Some(KObj::byte(v[0]));
    }
    Some(KObj::from_slice(KG, &v))
}
