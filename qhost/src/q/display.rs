//! How q prints values: the console form (`show`, REPL, `0N!`, `.Q.s`), the one-line form
//! (`-3!`, `.Q.s1`, items inside lists), the bare text of atoms (`string`, table cells) and
//! `.Q.fmt`/`.Q.f`. Floats use q's default precision (\P 7); console lines are cut at q's
//! default width (\c 25 80) with "..".
use crate::kapi::func::Func;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::values::{civil_from_days, elem, is_identity, is_null_at, table_cols};

use std::sync::atomic::{AtomicUsize, Ordering};

/// Console width (\c): lines longer than width-1 are cut to width-3 characters and "..".
static WIDTH: AtomicUsize = AtomicUsize::new(80);
/// Console height (\c): q's default 25 lines.
static HEIGHT: AtomicUsize = AtomicUsize::new(25);
/// Significant digits of floats (\P; 0 is q's "all", 17 digits).
static PRECISION: AtomicUsize = AtomicUsize::new(7);

/// `\P n`: significant digits of floats, 0..17 (0 shows all 17).
pub fn set_precision(p: usize) {
    PRECISION.store(p, Ordering::Relaxed)
}

pub fn precision() -> usize {
    PRECISION.load(Ordering::Relaxed)
}

/// `\c h w`: console height and width (q keeps them within 10..2000).
pub fn set_console(h: usize, w: usize) {
    HEIGHT.store(h.clamp(10, 2000), Ordering::Relaxed);
    WIDTH.store(w.clamp(10, 2000), Ordering::Relaxed);
}

pub fn console_size() -> (usize, usize) {
    (
        HEIGHT.load(Ordering::Relaxed),
        WIDTH.load(Ordering::Relaxed),
    )
}

/// The console text of `x` as q shows it (one or more lines, each ending in a newline).
pub fn show_text(x: &KObj) -> String {
    let mut out = String::new();
    // a value qhost cannot lay out (a bug) shows as q's one-line form rather than panicking
    let lines = crate::q::error::guard(|| Ok(console_lines(x)))
        .or_else(|_| crate::q::error::guard(|| Ok(vec![one_line(x)])))
        .unwrap_or_else(|_| vec!["'nyi".into()]);
    for line in lines {
        out.push_str(&clip(&line));
        out.push('\n');
    }
    out
}

/// `.Q.s1` / `-3!x`: the one-line form.
pub fn one_line(x: &KObj) -> String {
    if super::enums::is_enum(x) {
        return enum_text(x);
    }
    match x.t() {
        0 => match x.len() {
            0 => "()".into(),
            1 => format!(",{}", one_line(&x.item(0))),
            _ => format!(
                "({})",
                x.items().iter().map(one_line).collect::<Vec<_>>().join(";")
            ),
        },
        XD => {
            let (k, v) = (x.dict_keys(), x.dict_values());
            format!("{}!{}", paren_if_keyed(&k, one_line(&k)), one_line(&v))
        }
        XT => format!("+{}", one_line(&x.table_dict())),
        t if t < 0 => atom_console(x),
        t if (1..XT).contains(&t) => vector_text(x),
        _ => func_text(x),
    }
}

/// An enumeration as q shows it (ref/enumerate.md, ref/enum-extend.md): its attribute, then
/// `` `d$ `` and its symbols (`` `g#`foo$`a`b ``).
fn enum_text(x: &KObj) -> String {
    let (Some(d), Ok(v)) = (super::enums::domain(x), super::enums::values(x)) else {
        return "'nyi".into();
    };
    let attr = if x.is_atom() { 0 } else { x.attr() };
    let prefix = match attr {
        1 => "`s#",
        2 => "`u#",
        3 => "`p#",
        4 => "`g#",
        _ => "",
    };
    format!("{prefix}`{d}${}", one_line(&v))
}

/// Keys that are a table or a one-item list need parentheses before `!`.
fn paren_if_keyed(k: &KObj, s: String) -> String {
    // an empty typed vector (`` `symbol$() ``) too: q writes `` (`symbol$())!() ``
    if k.t() == XT || s.starts_with(',') || (k.t() > 0 && k.is_empty() && k.t() != KC) {
        format!("({s})")
    } else {
        s
    }
}

/// q keeps a console line within width-1 characters: a longer one is cut to width-3 and ".."
/// (every cut line q printed in ktorch's docs at \c 25 80 is 79 characters long).
fn clip(line: &str) -> String {
    let width = WIDTH.load(Ordering::Relaxed);
    if line.chars().count() > width - 1 {
        let cut: String = line.chars().take(width - 3).collect();
        format!("{cut}..")
    } else {
        line.to_string()
    }
}

fn console_lines(x: &KObj) -> Vec<String> {
    // a table's or dictionary's enumerations show as their symbols
    if matches!(x.t(), XT | XD) && super::enums::contains_enum(x) {
        if let Ok(v) = super::enums::unenumerate(x) {
            return console_lines(&v);
        }
    }
    match x.t() {
        0 if x.len() > 1 => list_lines(x),
        // a one-row matrix shows its row without the enlist comma (`1 2#0 2` is `0 2`)
        0 if x.len() == 1 && is_matrix(x) => matrix_rows(x),
        // `enlist ::` shows `::` (ref/identity.md uses it "to force display of a null")
        0 if x.len() == 1 && is_identity(&x.item(0)) => vec!["::".into()],
        XT => table_lines(x),
        XD if x.dict_keys().t() == XT && x.dict_values().t() == XT => keyed_lines(x),
        // a list of keys to a table's rows shows as a keyed table whose key column has no name
        // (ktorch's docs, info.rst: `options d` of a dictionary, ktorch.cpp's xD(keys;xT ..),
        // printed by q as ` | device dtype ..` over `a| cpu ..`)
        XD if x.dict_values().t() == XT && !x.dict_keys().is_empty() => keyed_lines(x),
        // an empty dictionary shows nothing (basics/dictsandtables.md `()!()`)
        XD if x.dict_keys().t() != XT && x.dict_keys().is_empty() => vec![],
        XD => dict_lines(x),
        _ if is_identity(x) => vec![],
        _ => vec![one_line(x)],
    }
}

/// Whether a general list shows as a matrix (its items split into aligned cells): every item
/// a list of one count, none of them a boolean, byte or char vector (those show whole, as
/// `011b`), no dictionary, table or function. Lists of different counts show each item in
/// one-line form (ktorch's docs, printed by q, show both layouts).
fn is_matrix(x: &KObj) -> bool {
    is_matrix_of(x, true)
}

/// `chars`: a char vector may be a row beside rows of other types (a dictionary's values:
/// ref/reverse.md `b| x y z`, ref/sublist.md); strings alone stay strings.
fn is_matrix_of(x: &KObj, chars: bool) -> bool {
    if x.t() != 0 || x.is_empty() {
        return false;
    }
    // boolean, byte and char vectors are rows only beside rows of another type (basics/
    // implicit-iteration.md `(2 3 4;(5; 6 7;8)) within 3 6` shows `0  1   1` over `1b 10b 0b`)
    let t0 = x.item(0).t();
    let chars = chars && x.items().iter().any(|i| i.t() != t0);
    if x.t() != 0 || x.is_empty() {
        return false;
    }
    let it = x.items();
    let n = it[0].len();
    // empty rows show each in its own form (`` `long$() `` a line, as ktorch's tensors.rst shows)
    n > 0
        && it.iter().all(|i| {
            (0..XT).contains(&i.t()) && (chars || !matches!(i.t(), KB | KG | KC)) && i.len() == n
        })
}

/// The lines of a general list: a matrix's rows with aligned columns, else each item in
/// one-line form.
fn list_lines(x: &KObj) -> Vec<String> {
    if !is_matrix(x) {
        return x.items().iter().map(one_line).collect();
    }
    matrix_rows(x)
}

/// A matrix's rows, cells aligned.
fn matrix_rows(x: &KObj) -> Vec<String> {
    let rows: Vec<Vec<String>> = x.items().iter().map(row_cells).collect();
    align_rows(&rows)
}

/// Rows of cells padded so that each column is as wide as its widest cell, one space apart.
fn align_rows(rows: &[Vec<String>]) -> Vec<String> {
    let ncol = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0usize; ncol];
    for r in rows {
        for (k, c) in r.iter().enumerate() {
            widths[k] = widths[k].max(c.chars().count());
        }
    }
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(k, c)| pad_right(c, widths[k]))
                .collect();
            cells.join(" ")
        })
        .collect()
}

/// A matrix row's cells: a vector's elements as table cells show them (no type suffix, nulls
/// blank, symbols bare), a general list's items as the console writes them (`` `a ``, `01b`).
fn row_cells(r: &KObj) -> Vec<String> {
    match r.t() {
        // a row of vectors of one numeric type (a layer of a 3-d array): each vector's
        // elements space-joined without suffix or comma (`1 2 3    4 5 6`, code.kx.com/phrases/shape)
        0 if uniform_vectors(r) => r
            .items()
            .iter()
            .map(|v| {
                (0..v.len())
                    .map(|i| atom_text(&elem(v, i), false))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect(),
        0 => r
            .items()
            .iter()
            .map(|i| {
                if i.t() < 0 {
                    atom_console(i)
                } else {
                    one_line(i)
                }
            })
            .collect(),
        _ => (0..r.len())
            .map(|i| atom_text(&elem(r, i), false))
            .collect(),
    }
}

/// Whether every item of a general list is a vector of one type other than boolean, byte or
/// char.
fn uniform_vectors(r: &KObj) -> bool {
    let it = r.items();
    let Some(t) = it.first().map(|i| i.t()) else {
        return false;
    };
    (1..XT).contains(&t) && !matches!(t, KB | KG | KC) && it.iter().all(|i| i.t() == t)
}

/// Left-justify s in w characters (`format!` widths are limited to u16).
fn pad_right(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else {
        let mut o = String::with_capacity(s.len() + w - n);
        o.push_str(s);
        o.extend(std::iter::repeat_n(' ', w - n));
        o
    }
}

/// Cells of a column: bare texts for a vector, one-line forms for a general list's items.
fn cells(col: &KObj) -> Vec<String> {
    if col.t() == 0 && is_matrix(col) {
        matrix_rows(col)
    } else if col.t() == 0 {
        col.items()
            .iter()
            .map(|i| {
                // an item of a general list, atom or not, shows as q writes it (`x, "a")
                one_line(i)
            })
            .collect()
    } else if col.t() > 0 && col.t() < XT {
        (0..col.len())
            .map(|i| atom_text(&elem(col, i), false))
            .collect()
    } else if col.t() == XT {
        // a table as a column: each row in one-line form
        crate::q::values::rows_of(col)
            .iter()
            .map(one_line)
            .collect()
    } else if col.t() < 0 {
        vec![atom_text(col, false)]
    } else {
        vec![one_line(col)]
    }
}

/// Columns laid out left-justified, one space apart; the header, dashes, then rows.
fn grid(names: &[String], cols: &[Vec<String>]) -> (Vec<String>, Vec<usize>) {
    let widths: Vec<usize> = names
        .iter()
        .zip(cols)
        .map(|(n, c)| {
            c.iter()
                .map(|s| s.chars().count())
                .chain([n.chars().count()])
                .max()
                .unwrap()
        })
        .collect();
    let n = cols.first().map(|c| c.len()).unwrap_or(0);
    let pad = |s: &str, w: usize| pad_right(s, w);
    let mut lines = vec![names
        .iter()
        .zip(&widths)
        .map(|(s, &w)| pad(s, w))
        .collect::<Vec<_>>()
        .join(" ")];
    for r in 0..n {
        lines.push(
            cols.iter()
                .zip(&widths)
                .map(|(c, &w)| pad(&c[r], w))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    (lines, widths)
}

fn table_lines(t: &KObj) -> Vec<String> {
    let (names, cols) = table_cols(t);
    let names: Vec<String> = names.sym_list().iter().map(|s| s.to_string()).collect();
    let cells: Vec<Vec<String>> = cols.iter().map(cells).collect();
    let (mut lines, widths) = grid(&names, &cells);
    let total = widths.iter().sum::<usize>() + widths.len().saturating_sub(1);
    lines.insert(1, "-".repeat(total));
    lines
}

fn keyed_lines(x: &KObj) -> Vec<String> {
    let (kn, kc) = if x.dict_keys().t() == XT {
        table_cols(&x.dict_keys())
    } else {
        (KObj::syms(&[""]), vec![x.dict_keys()])
    };
    let (vn, vc) = table_cols(&x.dict_values());
    let name = |n: KObj| {
        n.sym_list()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    let (kl, kw) = grid(&name(kn), &kc.iter().map(cells).collect::<Vec<_>>());
    let (vl, vw) = grid(&name(vn), &vc.iter().map(cells).collect::<Vec<_>>());
    let dash = |w: &[usize]| "-".repeat(w.iter().sum::<usize>() + w.len().saturating_sub(1));
    let mut lines = vec![
        format!("{}| {}", kl[0], vl[0]),
        format!("{}| {}", dash(&kw), dash(&vw)),
    ];
    for (a, b) in kl.iter().zip(vl.iter()).skip(1) {
        lines.push(format!("{a}| {b}"));
    }
    lines
}

fn dict_lines(d: &KObj) -> Vec<String> {
    let (k, v) = (d.dict_keys(), d.dict_values());
    if k.is_empty() {
        return vec![one_line(d)];
    }
    let ks = cells(&k);
    let vs: Vec<String> = if v.t() == XT {
        crate::q::values::rows_of(&v).iter().map(one_line).collect()
    } else if v.t() == 0 && is_matrix_of(&v, true) {
        // values that are all lists of one count line up as a matrix's rows
        matrix_rows(&v)
    } else {
        cells(&v)
    };
    let w = ks.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    ks.iter()
        .zip(vs.iter())
        .map(|(a, b)| format!("{}| {b}", pad_right(a, w)))
        .collect()
}

// ---- atoms ------------------------------------------------------------------------------

/// `%.{p}g` as C prints it.
pub fn fmt_g(v: f64, p: usize) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let e = format!("{:.*e}", p - 1, v);
    let (mant, exp) = e.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if exp < -4 || exp >= p as i32 {
        let mant = strip_zeros(mant);
        format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{v:.decimals$}"))
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Float text: 0n, 0w, -0w, or %g at q's precision.
fn float_text(v: f64) -> String {
    if v.is_nan() {
        "0n".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "0w".into()
        } else {
            "-0w".into()
        }
    } else {
        match precision() {
            0 => fmt_g(v, 17),
            p => fmt_g(v, p),
        }
    }
}

fn two(v: i64) -> String {
    format!("{v:02}")
}

fn date_text(d: i64) -> String {
    let (y, m, dd) = civil_from_days(d);
    // before year 1 q prints zeros (basics/datatypes.md `0001.01.01-1` is 0000.00.00)
    if y < 1 {
        return "0000.00.00".into();
    }
    format!("{y:04}.{}.{}", two(m), two(dd))
}

/// hh:mm:ss with a fraction of `digits` from a count of `unit`-per-second values.
fn clock_text(v: i64, per_sec: i64, digits: usize, parts: usize) -> String {
    let neg = v < 0;
    let v = v.abs();
    let secs = v / per_sec;
    let frac = v % per_sec;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut out = format!("{}{}:{}", if neg { "-" } else { "" }, two(h), two(m));
    if parts >= 3 {
        out.push_str(&format!(":{}", two(s)));
    }
    if digits > 0 {
        out.push_str(&format!(".{frac:0digits$}"));
    }
    out
}

const DAY_NS: i64 = 86_400_000_000_000;

/// Integer value of a temporal or integer atom (None when null; Some(±WJ) for infinities).
fn int_val(x: &KObj) -> i64 {
    crate::q::values::ivals(x).map(|v| v[0]).unwrap_or(0)
}

/// The text of a non-null, finite temporal value of base type t.
fn temporal_text(t: i8, v: i64, f: f64) -> String {
    match t {
        KD => date_text(v),
        KM => {
            let (y, m) = (2000 + v.div_euclid(12), v.rem_euclid(12) + 1);
            format!("{y:04}.{}", two(m))
        }
        KP => format!(
            "{}D{}",
            date_text(v.div_euclid(DAY_NS)),
            clock_text(v.rem_euclid(DAY_NS), 1_000_000_000, 9, 3)
        ),
        KN => {
            let neg = v < 0;
            let a = v.abs();
            format!(
                "{}{}D{}",
                if neg { "-" } else { "" },
                a / DAY_NS,
                clock_text(a % DAY_NS, 1_000_000_000, 9, 3)
            )
        }
        KT => clock_text(v, 1000, 3, 3),
        KU => clock_text(v * 60, 1, 0, 2),
        KV => clock_text(v, 1, 0, 3),
        KZ => {
            let ms = (f * 86_400_000.0).round() as i64;
            format!(
                "{}T{}",
                date_text(ms.div_euclid(86_400_000)),
                clock_text(ms.rem_euclid(86_400_000), 1000, 3, 3)
            )
        }
        _ => String::new(),
    }
}

/// The type letter q puts after a null or infinity (`0Nh`, `0Wd`...), "" for long.
fn type_char(t: i8) -> &'static str {
    match t {
        KB => "b",
        KG => "x",
        KH => "h",
        KI => "i",
        KJ => "",
        KE => "e",
        KF => "f",
        KC => "c",
        KS => "s",
        KP => "p",
        KM => "m",
        KD => "d",
        KZ => "z",
        KN => "n",
        KU => "u",
        KV => "v",
        KT => "t",
        _ => "",
    }
}

/// Whether a finite value of an integer-stored type is an infinity (±0W).
fn inf_of(t: i8, v: i64) -> Option<bool> {
    let _ = t;
    if v == WJ {
        Some(true)
    } else if v == -WJ {
        Some(false)
    } else {
        None
    }
}

/// The bare text of an atom as `string` gives it and table cells show it: no type suffix,
/// nulls empty, infinities 0W/0w. `console`: nulls and infinities as the console writes atoms.
pub fn atom_text(x: &KObj, console: bool) -> String {
    let t = -x.t();
    if is_null_at(x, 0) && !matches!(t, KC | KS | UU) {
        return if console { null_name(t) } else { String::new() };
    }
    match t {
        KB => (x.get_bool() as u8).to_string(),
        KG => format!("{:02x}", x.get_byte()),
        KC => (x.get_byte() as char).to_string(),
        KS => x.get_sym().to_string(),
        UU => {
            let g = unsafe { std::slice::from_raw_parts(data::<u8>(x.as_ptr()), 16) };
            let h: String = g.iter().map(|b| format!("{b:02x}")).collect();
            format!(
                "{}-{}-{}-{}-{}",
                &h[0..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..32]
            )
        }
        KE => float_text(x.get_real() as f64),
        KF => float_text(x.get_float()),
        KZ => {
            let f = x.get_float();
            if f.is_infinite() {
                if f > 0.0 {
                    "0wz".into()
                } else {
                    "-0wz".into()
                }
            } else {
                temporal_text(KZ, 0, f)
            }
        }
        _ => {
            let v = int_val(x);
            match inf_of(t, v) {
                Some(up) => format!(
                    "{}0W{}",
                    if up { "" } else { "-" },
                    if console { type_char(t) } else { "" }
                ),
                None if is_temporal_t(t) => temporal_text(t, v, 0.0),
                None => v.to_string(),
            }
        }
    }
}

fn is_temporal_t(t: i8) -> bool {
    matches!(t, KP | KM | KD | KN | KU | KV | KT)
}

fn null_name(t: i8) -> String {
    match t {
        KF => "0n".into(),
        _ => format!("0N{}", type_char(t)),
    }
}

/// An atom as the console shows it: `1i`, `1.5e`, `1f`, `0x01`, `"a"`, `` `a ``, `2000.01m`.
fn atom_console(x: &KObj) -> String {
    let t = -x.t();
    if is_null_at(x, 0) && !matches!(t, KC | KS | UU) {
        return null_name(t);
    }
    let s = atom_text(x, true);
    match t {
        KB => format!("{s}b"),
        KG => format!("0x{s}"),
        KC => format!("\"{}\"", escape(&[x.get_byte()])),
        KS => format!("`{s}"),
        KH | KI if !s.contains('W') => format!("{s}{}", type_char(t)),
        KE => format!("{s}e"),
        KF if plain_int(&s) => format!("{s}f"),
        KM if !s.contains('W') => format!("{s}m"),
        _ => s,
    }
}

fn plain_int(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_digit() || c == b'-')
}

/// A char vector's text with q's escapes.
fn escape(b: &[u8]) -> String {
    let mut s = String::new();
    for &c in b {
        match c {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            32..=126 => s.push(c as char),
            _ => s.push_str(&format!("\\{c:03o}")),
        }
    }
    s
}

/// A typed vector in one line: `1 2 3`, `1 2i`, `101b`, `0x0102`, `"ab"`, `` `a`b ``, `,1`,
/// `` `long$() ``, with an attribute prefix (`` `s# ``).
fn vector_text(x: &KObj) -> String {
    let t = x.t();
    let n = x.len();
    let attr = match x.attr() {
        1 => "`s#",
        2 => "`u#",
        3 => "`p#",
        4 => "`g#",
        _ => "",
    };
    if n == 0 {
        return match t {
            KC => format!("{attr}\"\""),
            _ => format!("{attr}`{}$()", type_name(t)),
        };
    }
    let one = if n == 1 { "," } else { "" };
    let body = match t {
        KB => format!(
            "{}b",
            x.slice::<u8>()
                .iter()
                .map(|b| if *b != 0 { '1' } else { '0' })
                .collect::<String>()
        ),
        KG => format!(
            "0x{}",
            x.slice::<u8>()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        ),
        KC => format!("\"{}\"", escape(x.slice::<u8>())),
        KS => x
            .sym_list()
            .iter()
            .map(|s| format!("`{s}"))
            .collect::<String>(),
        _ => {
            let items: Vec<String> = (0..n)
                .map(|i| {
                    let a = elem(x, i);
                    // a null guid shows its zeros (basics/datatypes.md `0Ng`)
                    if is_null_at(&a, 0) && t != UU {
                        if t == KF || t == KE {
                            "0n".into()
                        } else {
                            "0N".into()
                        }
                    } else {
                        atom_text(&a, false)
                    }
                })
                .collect();
            let suffix = match t {
                KH => "h",
                KI => "i",
                KE => "e",
                KF if items.iter().all(|s| plain_int(s)) => "f",
                KM => "m",
                _ => "",
            };
            format!("{}{suffix}", items.join(" "))
        }
    };
    format!("{attr}{one}{body}")
}

fn type_name(t: i8) -> &'static str {
    match t {
        KB => "boolean",
        UU => "guid",
        KG => "byte",
        KH => "short",
        KI => "int",
        KJ => "long",
        KE => "real",
        KF => "float",
        KC => "char",
        KS => "symbol",
        KP => "timestamp",
        KM => "month",
        KD => "date",
        KZ => "datetime",
        KN => "timespan",
        KU => "minute",
        KV => "second",
        KT => "time",
        _ => "",
    }
}

/// What q shows for a keyword that q defines in k, where KX's pages show it
/// (basics/exposed-infrastructure.md, variadic.md, parsetrees.md, funsql.md).
pub fn keyword_text(op: &str) -> Option<&'static str> {
    Some(match op {
        "deltas" => "-':",
        "type" => "@:",
        "iasc" => "k){$[0h>@x;'`rank;<x]}",
        "idesc" => "k){$[0h>@x;'`rank;>x]}",
        _ => return None,
    })
}

/// Whether q's text for a value is known: a keyword whose k definition KX's pages do not show
/// is not (`count` shows as q's `#:`, which qhost cannot vouch for): 'nyi to show it.
pub fn showable(x: &KObj) -> bool {
    if x.t() >= 100 && !is_identity(x) {
        return match x.func_ref() {
            Func::Prim { op } => {
                let word = op.as_bytes()[0].is_ascii_alphabetic();
                !word || keyword_text(op).is_some() || op == "enlist"
            }
            Func::Proj { f, args } => showable(f) && args.iter().flatten().all(showable),
            Func::Comp { fs } => fs.iter().all(showable),
            Func::Derived { f, .. } => showable(f),
            _ => true,
        };
    }
    match x.t() {
        0 => x.items().iter().all(showable),
        XD => showable(&x.dict_keys()) && showable(&x.dict_values()),
        XT => showable(&x.table_dict()),
        _ if super::enums::is_enum(x) => super::enums::values(x).is_ok(),
        _ => true,
    }
}

/// Functions as q shows them: a lambda's text, a primitive's name, projections and
/// derived functions built from their parts.
fn func_text(x: &KObj) -> String {
    if is_identity(x) {
        return "::".into();
    }
    if x.t() < 100 {
        return String::new();
    }
    match x.func_ref() {
        Func::Lambda(l) => l.text.clone(),
        Func::Prim { op } => keyword_text(op).unwrap_or(op).to_string(),
        Func::Proj { f, args } => {
            let a: Vec<String> = args
                .iter()
                .map(|a| a.as_ref().map(one_line).unwrap_or_default())
                .collect();
            format!("{}[{}]", one_line(f), a.join(";"))
        }
        Func::Comp { fs } => format!(
            "'[{}]",
            fs.iter().map(one_line).collect::<Vec<_>>().join(";")
        ),
        Func::Derived { f, adv } => format!("{}{adv}", one_line(f)),
        Func::Dl { .. } => "code".into(),
    }
}

/// `.Q.f[d;x]`: x with d decimals.
/// As q's .Q.f (basics/internal.md: `.Q.f[2;.045]` is "0.05" where printf's IEEE rounding
/// gives "0.04"): x times 10^d rounded to an integer, the point put back; a null is "".
pub fn fmt_fixed(d: usize, v: f64) -> String {
    if v.is_nan() {
        return String::new();
    }
    if v < 0.0 {
        return format!("-{}", fmt_fixed(d, -v));
    }
    let scaled = v * 10f64.powi(d as i32);
    if d == 0 || !scaled.is_finite() || scaled >= 9e15 {
        return format!("{v:.d$}");
    }
    let j = format!("{:0>w$}", scaled.round() as i64, w = d + 1);
    format!("{}.{}", &j[..j.len() - d], &j[j.len() - d..])
}

/// `.Q.fmt[w;d;x]`: x with d decimals right-justified in w characters (w stars if too wide).
pub fn fmt_width(w: usize, d: usize, v: f64) -> String {
    let s = fmt_fixed(d, v);
    if s.len() > w {
        "*".repeat(w)
    } else {
        format!("{}{s}", " ".repeat(w - s.len()))
    }
}
