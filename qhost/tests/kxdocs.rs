//! KX's reference pages replayed (issue 32): every `q)` input of docs/ref and docs/basics
//! (github.com/KxSystems/docs at the commit pinned in tests/kxdocs/cases.txt, extracted by
//! tests/kxdocs/extract.py, one q session per code block) is typed into qhost's console, a fresh
//! process per block, and what qhost prints is compared with what q printed on the page.
//!
//! Each input is classed:
//! - `match`: the same text (lines compared without trailing blanks), or the same error name;
//! - `nyi`: qhost answers 'nyi (allowed: qhost's rule);
//! - `error`: qhost signals another error where q answers (a value, or another error);
//! - `different`: qhost answers a value that is not what q printed (or a value where q signals);
//! - `crash`: the process ends (signal, abort) or hangs past the block's time limit.
//!
//! A different value after an input of the same block that answered 'nyi or an error is classed
//! with that input when it reads a global that input would have changed (a name it assigns, or
//! a table it names by symbol to `set`, `insert`, `upsert`, an amend `@[`t;..]`, `from `t` or
//! `xasc`-like sorts and keys) and that no answered input assigned whole since: the session is
//! not q's after it. The report marks each such input with the line it is classed with, and the
//! count is printed.
//!
//! The test fails on a `different` or a `crash` not listed in tests/kxdocs/page_errors.txt (each
//! listed with the KX page or rule that shows the page, not q, is wrong) or in
//! tests/kxdocs/known_different.txt (qhost's own open differences, issue 32's burn-down list: each
//! is a bug to fix or to make 'nyi, never a page error), on a listed input that no longer is one,
//! and when matches drop below tests/kxdocs/floor.txt. `KXDOCS_QHOST=path` replays another build;
//! `KXDOCS_REPORT=path` writes a line for every input: page:line, class, input, what q printed and what qhost printed (quoted).
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CASES: &str = include_str!("kxdocs/cases.txt");
const PAGE_ERRORS: &str = include_str!("kxdocs/page_errors.txt");
const FLOOR: &str = include_str!("kxdocs/floor.txt");
const KNOWN: &str = include_str!("kxdocs/known_different.txt");
/// A block (one process) that runs longer than this is a hang: classed as a crash.
const BLOCK_LIMIT: Duration = Duration::from_secs(20);

struct Input {
    line: usize,
    text: String,
    want: Vec<String>,
}

struct Block {
    page: String,
    inputs: Vec<Input>,
}

/// A block's inputs classed: (input's index, class, what qhost printed, the line of the earlier
/// 'nyi or error input a different value is classed with).
type Classed = Vec<(usize, Class, String, Option<usize>)>;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Class {
    Match,
    Nyi,
    Error,
    Different,
    Crash,
}

fn parse_cases() -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for l in CASES.lines() {
        if let Some(h) = l.strip_prefix("@ ") {
            let page = h.rsplit_once(':').map_or(h, |(p, _)| p).to_string();
            blocks.push(Block {
                page,
                inputs: Vec::new(),
            });
        } else if let Some(i) = l.strip_prefix('>') {
            let (n, t) = i.split_once('\t').expect("input line: >line<TAB>text");
            blocks.last_mut().unwrap().inputs.push(Input {
                line: n.parse().unwrap(),
                text: t.to_string(),
                want: Vec::new(),
            });
        } else if let Some(w) = l.strip_prefix('=') {
            let b = blocks.last_mut().unwrap();
            b.inputs.last_mut().unwrap().want.push(w.to_string());
        }
    }
    blocks.retain(|b| !b.inputs.is_empty());
    blocks
}

/// Lines without trailing blanks, trailing empty lines dropped.
fn norm<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let mut v: Vec<String> = lines
        .iter()
        .map(|l| l.as_ref().trim_end().to_string())
        .collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// The error name of a console line `'name ...`.
fn err_name(l: &str) -> Option<String> {
    let r = l.strip_prefix('\'')?;
    Some(r.split_whitespace().next().unwrap_or("").to_string())
}

fn classify(want: &[String], got: &str) -> Class {
    let want = norm(want);
    let got_lines: Vec<&str> = got.lines().collect();
    let got = norm(&got_lines);
    let got_err = got.last().and_then(|l| err_name(l));
    let want_err = want.first().and_then(|l| err_name(l));
    match (want_err, got_err) {
        (_, Some(g)) if g == "nyi" => Class::Nyi,
        (Some(w), Some(g)) if w == g => Class::Match,
        (Some(_), Some(_)) | (None, Some(_)) => Class::Error,
        (Some(_), None) => Class::Different,
        (None, None) if got == want => Class::Match,
        (None, None) => Class::Different,
    }
}

/// Type the block's inputs (except `skip`) into one qhost console; what it printed for each,
/// and whether the process ended abnormally (then the last output is the crashed input's).
fn run_block(b: &Block, skip: &HashSet<usize>) -> (Vec<(usize, String)>, bool) {
    let dir = std::env::temp_dir().join(format!(
        "qhost-kxdocs-{}-{}",
        std::process::id(),
        UNIQUE.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let idx: Vec<usize> = (0..b.inputs.len()).filter(|i| !skip.contains(i)).collect();
    let mut text = String::new();
    for &i in &idx {
        text.push_str(&b.inputs[i].text);
        text.push('\n');
    }
    let (mut rd, wr) = std::io::pipe().unwrap();
    // KXDOCS_QHOST=path replays another build (to count an older qhost by the same rules)
    let exe = std::env::var("KXDOCS_QHOST").unwrap_or_else(|_| env!("CARGO_BIN_EXE_qhost").into());
    let mut child = Command::new(exe)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(wr.try_clone().unwrap())
        .stderr(wr)
        .spawn()
        .expect("qhost runs");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = rd.read_to_end(&mut out);
        out
    });
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > BLOCK_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = feeder.join();
    let out = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    let crashed = !status.is_some_and(|s| s.success());
    // the console prints "q)" before reading each input: output i lies between prompts i and i+1
    let parts: Vec<&str> = split_prompts(&out);
    let mut res = Vec::new();
    for (k, &i) in idx.iter().enumerate() {
        match parts.get(k + 1) {
            Some(p) if k + 2 < parts.len() || !crashed => res.push((i, p.to_string())),
            Some(p) => {
                res.push((i, p.to_string()));
                break;
            }
            None => break,
        }
    }
    (res, crashed)
}

/// Split the console's output at its prompts: a "q)" at the start, after a newline or right
/// after another prompt (an input that printed nothing).
fn split_prompts(out: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let b = out.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'q' && b[i + 1] == b')' && (i == start || b[i - 1] == b'\n') {
            parts.push(&out[start..i]);
            start = i + 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    parts.push(&out[start..]);
    parts
}

static UNIQUE: AtomicUsize = AtomicUsize::new(0);

/// Every input of the block classed, with what qhost printed. A crash is classed and the block
/// run again from a fresh process without the inputs that crashed.
fn replay_block(b: &Block) -> Classed {
    let mut crashed_at = HashSet::new();
    let mut done: HashMap<usize, (Class, String)> = HashMap::new();
    loop {
        let (outs, crashed) = run_block(b, &crashed_at);
        let n = outs.len();
        for (k, (i, got)) in outs.into_iter().enumerate() {
            if crashed && k + 1 == n {
                crashed_at.insert(i);
                done.insert(i, (Class::Crash, got));
            } else {
                done.insert(i, (classify(&b.inputs[i].want, &got), got));
            }
        }
        if !crashed {
            break;
        }
        if n == 0 {
            // died before its first prompt
            for i in 0..b.inputs.len() {
                done.entry(i)
                    .or_insert((Class::Crash, "(no prompt)".into()));
            }
            break;
        }
    }
    let mut v: Classed = done
        .into_iter()
        .map(|(i, (c, g))| (i, c, g, None))
        .collect();
    v.sort_by_key(|x| x.0);
    // an input that answered 'nyi (or an error where q answers) left the session unlike q's:
    // a later different value that reads what it would have changed is that input's
    // consequence, classed with it (`x insert ..` 'nyi, then `x` shows x without the row),
    // until an answered input assigns that name whole again
    let mut tainted: Vec<(String, Class, usize)> = Vec::new();
    for (i, c, _, with) in v.iter_mut() {
        let inp = &b.inputs[*i];
        if *c == Class::Different {
            if let Some((_, t, line)) = tainted.iter().find(|(n, ..)| mentions(&inp.text, n)) {
                *c = *t;
                *with = Some(*line);
            }
        }
        let changed = changes(&inp.text);
        if matches!(*c, Class::Nyi | Class::Error) {
            let k = *c;
            tainted.extend(changed.into_iter().map(|(w, _)| (w, k, inp.line)));
        } else {
            // assigned whole by an input that answered as q: q's value again
            tainted.retain(|(n, ..)| !changed.iter().any(|(w, whole)| *whole && w == n));
        }
    }
    v
}

/// Whether q text names `n` (a whole word).
fn mentions(text: &str, n: &str) -> bool {
    text.match_indices(n).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + n.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The globals an input may change (outside strings), each with whether it is assigned whole: a
/// name before an assignment (`x:` and `x::` whole; `x[i]:`, `x+:`, `x,:` in part) and a symbol
/// naming a global that the input updates in place (`` `t insert .. ``, `` `a`b set .. ``,
/// `` `e?`a`b ``, `` @[`t;..] ``, `` delete c from `t ``, `` `c xasc `t ``), q's keywords left
/// out. Symbols as
/// data (`` `a`b`c?`d ``) change nothing.
fn changes(text: &str) -> Vec<(String, bool)> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == '\\' {
                i += 1;
            } else if c == '"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if c == '"' {
            in_str = true;
            i += 1;
            continue;
        }
        let word_start = c.is_alphabetic()
            && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_' || b[i - 1] == '.'));
        let sym = c == '`';
        if !(word_start || (c == '.' && i + 1 < b.len() && b[i + 1].is_alphabetic()) || sym) {
            i += 1;
            continue;
        }
        let start = if sym { i + 1 } else { i };
        let mut j = start;
        while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_' || b[j] == '.') {
            j += 1;
        }
        let w: String = b[start..j].iter().collect();
        if w.is_empty() || qhost::q::reserved::is_q_name(&w) {
            i = j.max(i + 1);
            continue;
        }
        if sym {
            if updated_by_name(&b, i, j) {
                out.push((w, false));
            }
            i = j.max(i + 1);
            continue;
        }
        // what follows: [..] then an operator then `:` is an assignment
        let mut k = j;
        let mut whole = true;
        if k < b.len() && b[k] == '[' {
            whole = false;
            let mut depth = 0;
            while k < b.len() {
                match b[k] {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            k += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
        }
        // `(a[1]):4`: a parenthesised target
        while k < b.len() && b[k] == ')' {
            whole = false;
            k += 1;
        }
        if k < b.len() && "+-*%,&|^#_!~<>=$?@.".contains(b[k]) && b.get(k + 1) == Some(&':') {
            whole = false;
            k += 1;
        }
        if k < b.len() && b[k] == ':' {
            out.push((w, whole));
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether the symbol at b[at..end] (its backtick at `at`) names a global the input updates in
/// place: before `set`/`insert`/`upsert` (a list of symbols before `set` counts whole), one
/// symbol before `?` (an enumeration extended), as the
/// first argument of an amend (`@[`, `.[`) or a functional update (`![`), after `from` in
/// `update`/`delete`, or after a sort or key keyword (`` `c xasc `t ``).
fn updated_by_name(b: &[char], at: usize, end: usize) -> bool {
    let before: String = b[..at].iter().collect();
    let before = before.trim_end();
    // the rest of a run of symbols (`a`b`c), then blanks, then the next word
    let mut k = end;
    while k < b.len() && (b[k] == '`' || b[k].is_alphanumeric() || b[k] == '_' || b[k] == '.') {
        k += 1;
    }
    while k < b.len() && b[k] == ' ' {
        k += 1;
    }
    let next: String = b[k..].iter().take_while(|c| c.is_alphanumeric()).collect();
    // `` `e?x `` with one symbol on the left extends the enumeration `e` (ref/enum-extend.md)
    let first = at == 0 || !(b[at - 1].is_alphanumeric() || b[at - 1] == '_' || b[at - 1] == '.');
    let one = first && !b[at + 1..k].contains(&'`');
    matches!(next.as_str(), "set" | "insert" | "upsert")
        || (one && b[end..].first() == Some(&'?'))
        || before.ends_with("@[")
        || before.ends_with(".[")
        || before.ends_with("![")
        || ["from", "xasc", "xdesc", "xkey", "xcol", "xcols"]
            .iter()
            .any(|w| {
                before.ends_with(w)
                    && !before[..before.len() - w.len()].ends_with(|c: char| c.is_alphanumeric())
            })
}

#[test]
fn kx_reference_pages() {
    let blocks = parse_cases();
    let list = |text: &str| -> HashMap<String, String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let mut f = l.splitn(3, '\t');
                let at = f.next().unwrap().to_string();
                let _input = f.next();
                (at, f.next().unwrap_or("").to_string())
            })
            .collect()
    };
    let page_errors = list(PAGE_ERRORS);
    let known = list(KNOWN);
    let mut listed = page_errors.clone();
    listed.extend(known.clone());
    let floor: usize = FLOOR
        .lines()
        .find_map(|l| l.strip_prefix("match "))
        .expect("floor.txt: match N")
        .trim()
        .parse()
        .unwrap();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Classed)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(b) = blocks.get(k) else { break };
                let r = replay_block(b);
                results.lock().unwrap().push((k, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut counts: HashMap<Class, usize> = HashMap::new();
    let mut bad = Vec::new();
    let mut seen_listed = HashSet::new();
    let mut report = String::new();
    let mut reclassed = 0;
    for (k, r) in &results {
        let b = &blocks[*k];
        for (i, c, got, with) in r {
            let inp = &b.inputs[*i];
            let at = format!("{}:{}", b.page, inp.line);
            *counts.entry(*c).or_default() += 1;
            let class = match with {
                Some(l) => {
                    reclassed += 1;
                    format!("{c:?} (a different value, after line {l})")
                }
                None => format!("{c:?}"),
            };
            report.push_str(&format!(
                "{at}\t{class}\t{}\t{:?}\t{:?}\n",
                inp.text,
                inp.want.join("\n"),
                got.trim_end()
            ));
            if matches!(c, Class::Different | Class::Crash) {
                if listed.contains_key(&at) {
                    seen_listed.insert(at.clone());
                } else {
                    bad.push(format!(
                        "{at} {c:?}: q){}\n  q printed: {:?}\n  qhost:     {:?}",
                        inp.text,
                        inp.want.join("\n"),
                        got.trim_end()
                    ));
                }
            }
        }
    }
    if let Ok(p) = std::env::var("KXDOCS_REPORT") {
        std::fs::write(p, &report).unwrap();
    }
    let total: usize = counts.values().sum();
    let c = |k| counts.get(&k).copied().unwrap_or(0);
    println!(
        "KX pages replayed: {total} inputs: {} match, {} nyi, {} error, {} different, {} crash \
         ({} listed page errors, {} listed known qhost differences; {reclassed} different \
         values classed with an earlier 'nyi or error input that changes what they read)",
        c(Class::Match),
        c(Class::Nyi),
        c(Class::Error),
        c(Class::Different),
        c(Class::Crash),
        page_errors.len(),
        known.len()
    );
    let stale: Vec<&String> = listed
        .keys()
        .filter(|k| !seen_listed.contains(*k))
        .collect();
    assert!(
        bad.is_empty(),
        "{} inputs answer differently from KX's pages (or crash):\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed but no longer different or a crash (take them out of page_errors.txt or \
         known_different.txt): {stale:?}"
    );
    assert!(
        c(Class::Match) >= floor,
        "matches dropped below the floor: {} < {floor}",
        c(Class::Match)
    );
}
