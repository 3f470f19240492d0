//! Text files: `0:` (code.kx.com/q/ref/file-text) to parse delimited text into columns or a
//! table, to write lines to a file, and `key` on a folder or file handle
//! (code.kx.com/q/ref/key). Fixed-width parsing, and preparing text from a table, are 'nyi.
use super::values::{from_items, make_table};
use super::verbs::cast::parse_one;
use super::{err, QErr, QResult};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

fn os_err(p: &str, e: &std::io::Error) -> QErr {
    let m = e.to_string();
    let m = m.split(" (os error").next().unwrap_or(&m).to_string();
    QErr(format!("{p}. OS reports: {m}"))
}

fn path(h: &KObj) -> Option<String> {
    (h.t() == -KS && h.get_sym().starts_with(':')).then(|| h.get_sym()[1..].to_string())
}

/// `x 0: y`.
pub fn zero_colon(x: &KObj, y: &KObj) -> QResult {
    if let Some(p) = path(x) {
        return write_lines(x, &p, y);
    }
    if x.t() == 0 && x.len() == 2 && x.item(0).t() == KC {
        let delim = x.item(1);
        return match delim.t() {
            t if t == -KC => parse(&x.item(0), delim.get_byte(), false, y),
            KC if delim.len() == 1 => parse(&x.item(0), delim.slice::<u8>()[0], true, y),
            _ => Err(err("nyi")),
        };
    }
    Err(err("nyi"))
}

/// `` `:file 0: strings ``: each string a line.
fn write_lines(h: &KObj, p: &str, y: &KObj) -> QResult {
    let lines: Vec<&[u8]> = match y.t() {
        KC => vec![y.slice::<u8>()],
        0 if y.items().iter().all(|i| i.t() == KC) => {
            return {
                let mut out = Vec::new();
                for i in y.items() {
                    out.extend_from_slice(i.slice::<u8>());
                    out.push(b'\n');
                }
                std::fs::write(p, &out).map_err(|e| os_err(p, &e))?;
                Ok(h.clone())
            }
        }
        _ => return Err(err("type")),
    };
    let mut out = Vec::new();
    for l in lines {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    std::fs::write(p, &out).map_err(|e| os_err(p, &e))?;
    Ok(h.clone())
}

/// The text lines of y: a file's lines, or a list of strings.
fn lines(y: &KObj) -> Result<Vec<Vec<u8>>, QErr> {
    if let Some(p) = path(y) {
        let b = std::fs::read(&p).map_err(|e| os_err(&p, &e))?;
        let mut v: Vec<Vec<u8>> = b
            .split(|&c| c == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
            .collect();
        if b.ends_with(b"\n") {
            v.pop();
        }
        return Ok(v);
    }
    match y.t() {
        KC => Ok(vec![y.slice::<u8>().to_vec()]),
        0 if y.items().iter().all(|i| i.t() == KC) => {
            Ok(y.items().iter().map(|i| i.slice::<u8>().to_vec()).collect())
        }
        _ => Err(err("type")),
    }
}

/// Split a line at the delimiter; a field in double quotes may hold the delimiter, `""` is a
/// quote inside it.
fn fields(line: &[u8], d: u8) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut i = 0;
    let mut quoted = false;
    while i < line.len() {
        let c = line[i];
        if quoted {
            if c == b'"' && line.get(i + 1) == Some(&b'"') {
                cur.push(b'"');
                i += 1;
            } else if c == b'"' {
                quoted = false;
            } else {
                cur.push(c);
            }
        } else if c == b'"' && cur.is_empty() {
            quoted = true;
        } else if c == d {
            out.push(String::from_utf8_lossy(&cur).into_owned());
            cur.clear();
        } else {
            cur.push(c);
        }
        i += 1;
    }
    out.push(String::from_utf8_lossy(&cur).into_owned());
    out
}

/// `(types; delim) 0: y`: a column per type char (upper or lower case parses, `*` keeps the
/// text, a blank skips the field); with an enlisted delimiter the first line holds the column
/// names and the answer is a table.
fn parse(types: &KObj, d: u8, header: bool, y: &KObj) -> QResult {
    let tys = types.slice::<u8>().to_vec();
    let mut ls = lines(y)?;
    let names: Vec<String> = if header {
        if ls.is_empty() {
            return Err(err("length"));
        }
        let h = ls.remove(0);
        fields(&h, d)
    } else {
        vec![]
    };
    let mut cols: Vec<Vec<KObj>> = vec![Vec::new(); tys.len()];
    for l in &ls {
        let f = fields(l, d);
        for (k, &c) in tys.iter().enumerate() {
            if c == b' ' {
                continue;
            }
            let text = f.get(k).map(|s| s.as_str()).unwrap_or("");
            let v = if c == b'*' {
                KObj::string(text)
            } else {
                let t = type_of_letter(c.to_ascii_lowercase()).ok_or_else(|| err("nyi"))?;
                parse_one(t, text)?
            };
            cols[k].push(v);
        }
    }
    let mut out_names = Vec::new();
    let mut out_cols = Vec::new();
    for (k, &c) in tys.iter().enumerate() {
        if c == b' ' {
            continue;
        }
        let items = std::mem::take(&mut cols[k]);
        let col = if items.is_empty() {
            if c == b'*' {
                KObj::list(vec![])
            } else {
                KObj::vector(type_of_letter(c.to_ascii_lowercase()).unwrap(), 0)
            }
        } else {
            from_items(items)
        };
        out_cols.push(col);
        if header {
            out_names.push(names.get(k).cloned().unwrap_or_default());
        }
    }
    if header {
        return Ok(make_table(KObj::syms(&out_names), out_cols));
    }
    Ok(KObj::list(out_cols))
}

/// `key` of a file handle: a folder's entries (sorted), a file's own handle, `()` when there
/// is nothing at the path.
pub fn key_path(h: &KObj) -> QResult {
    let p = path(h).ok_or_else(|| err("type"))?;
    let md = match std::fs::metadata(if p.is_empty() { "." } else { &p }) {
        Ok(m) => m,
        Err(_) => return Ok(KObj::list(vec![])),
    };
    if !md.is_dir() {
        return Ok(h.clone());
    }
    let mut names: Vec<String> = std::fs::read_dir(if p.is_empty() { "." } else { &p })
        .map_err(|e| os_err(&p, &e))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(KObj::syms(&names))
}
