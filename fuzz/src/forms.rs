//! Arguments of the forms a typed q function declares (`qfn!`, taken from the source by
//! build.rs): each parameter's kind and the words its `FromQ` impl gives for it (`TYPE`: "a long
//! seed", "(event;event)", "() or `cuda:n", "backend, (backend;timeout), .."). One parameter: an
//! argument of one of its kind's forms; several: a list of one per parameter. A form is read
//! from the words: `()` the empty list, `::` the generic null, a backtick word that symbol, `one
//! of `a`b` one of them, `(a;b)` a list of a value for each word, and a word a value of what it
//! names (a class's handle, a long for a rank or an index, a boolean for a flag, ..); a word the
//! table below does not know is any generated value. So a typed function's calls get past the
//! reading of its arguments more often than random values do, and still meet the wrong ones.
use qhost::kapi::*;

use crate::gen::Gen;

include!(concat!(env!("OUT_DIR"), "/forms.rs"));

/// The parameters (kind, its TYPE's words) function `name` declares, if it is a typed q function.
pub fn declared(name: &str) -> Option<&'static [(&'static str, &'static str)]> {
    FORMS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
}

/// Arguments for a function declaring `params`: the one argument of its kind, or the list of
/// one value of each kind (no parameter: a value it ignores).
pub fn args(g: &mut Gen, params: &[(&str, &str)]) -> KObj {
    match params {
        [] => g.value(1),
        [(k, t)] => of_kind(g, k, t),
        ps => KObj::list(ps.iter().map(|(k, t)| of_kind(g, k, t)).collect()),
    }
}

/// A value of kind `k` whose TYPE says `words` (q's own kinds by their Rust type when no
/// TYPE was found).
fn of_kind(g: &mut Gen, k: &str, words: &str) -> KObj {
    if !words.is_empty() {
        let alts = alternatives(words);
        let pick = g.rng.below(alts.len() as u64) as usize;
        return form(g, alts[pick]);
    }
    match k.trim_start_matches("Option<").trim_end_matches('>') {
        "bool" => g.atom(KB),
        "i64" | "Integer" | "Whole" => g.atom(KJ),
        "f64" | "Double" | "Number" => g.atom(KF),
        "f32" => g.atom(KE),
        "Vec<i64" | "Sizes" | "Wholes" => g.sizes(),
        "Sym" | "&str" | "&'static str" => g.symbol(),
        "String" => g.string(),
        _ => g.value(2),
    }
}

/// The forms of a TYPE's words: after a `label:`, split at top-level commas and `or`s.
fn alternatives(words: &str) -> Vec<&str> {
    let w = words.split_once(": ").map_or(words, |(_, r)| r);
    let (mut out, mut depth, mut from) = (vec![], 0i32, 0);
    let b = w.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&w[from..i]);
                from = i + 1;
            }
            b' ' if depth == 0 && w[i..].starts_with(" or ") => {
                out.push(&w[from..i]);
                from = i + 4;
                i += 3;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&w[from..]);
    let out: Vec<&str> = out
        .into_iter()
        .map(|a| a.trim().trim_start_matches("or ").trim())
        .filter(|a| !a.is_empty())
        .collect();
    if out.is_empty() {
        vec![w]
    } else {
        out
    }
}

/// A value of one form.
fn form(g: &mut Gen, f: &str) -> KObj {
    match f {
        "()" => return KObj::list(vec![]),
        "::" => return KObj::identity(),
        _ => {}
    }
    if let Some(items) = f.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        return KObj::list(items.split(';').map(|w| word(g, w)).collect());
    }
    if let Some(syms) = f.strip_prefix("one of ") {
        let all: Vec<&str> = syms.split('`').filter(|s| !s.is_empty()).collect();
        if !all.is_empty() {
            return KObj::sym(g.rng.pick::<&str>(&all));
        }
    }
    if let Some(s) = f.strip_prefix('`') {
        let s = s.split_whitespace().next().unwrap_or("");
        // `cuda:n: a device's index in place of n
        let n = *g.rng.pick(&["0", "1", "99"]);
        return KObj::sym(&s.replace(":n", &format!(":{n}")));
    }
    word(g, f)
}

/// A value of what a word (or a phrase's last word) names.
fn word(g: &mut Gen, w: &str) -> KObj {
    let w = w.trim();
    let last = w.split_whitespace().last().unwrap_or("");
    // a live object of the class where the fixtures make one (stream, event: with CUDA)
    let class = |g: &mut Gen, c: &str| match crate::fixtures::classes().iter().find(|x| **x == c) {
        Some(c) => {
            let v = g.rng.next();
            g.fx.live(c, v)
        }
        None => g.handle(),
    };
    match last {
        "tensor" | "vector" | "dictionary" | "module" | "model" | "optimizer" | "loss"
        | "event" | "stream" | "graph" => class(g, last),
        "handle" => g.handle(),
        // the docs' name of an input (`avgpool2d(x;size)`): a live tensor, else q data
        "x" | "y" | "input" | "inputs" => {
            if g.rng.chance(60) {
                class(g, "tensor")
            } else {
                g.value(2)
            }
        }
        // any class (the dispatch layer's kinds): a live object of a class the fixtures make
        "object" => {
            let cs = crate::fixtures::classes();
            let c = *g.rng.pick(cs);
            class(g, c)
        }
        "seed" | "rank" | "size" | "index" | "priority" | "long" | "count" => g.atom(KJ),
        "timeout" => {
            if g.rng.chance(50) {
                g.atom(KF)
            } else {
                g.atom(KJ)
            }
        }
        "flag" | "boolean" => g.atom(KB),
        "backend" => KObj::sym(g.rng.pick::<&str>(&["gloo", "nccl", "mpi", ""])),
        "device" => KObj::sym(
            g.rng
                .pick::<&str>(&["cpu", "cuda", "cuda:0", "cuda:9", "mps"]),
        ),
        // rendezvous that fail in the parse: a well-formed one waits for the other ranks (a
        // non-master rank's TCP store retries past distinit's 60 s: more than the fuzzer's 90 s
        // limit, a hang that is no fault of the call)
        "rendezvous" => KObj::string(g.rng.pick::<&str>(&[
            "",
            "file",
            "127.0.0.1",
            "127.0.0.1:99999",
            "tcp://:x",
        ])),
        "level" | "route" | "command" | "name" => g.symbol(),
        "value" | "data" => g.value(2),
        _ => g.value(2),
    }
}

#[cfg(test)]
mod tests {
    use super::alternatives;

    #[test]
    fn alternatives_of_the_declared_words() {
        assert_eq!(alternatives("() or `cuda:n"), ["()", "`cuda:n"]);
        assert_eq!(
            alternatives("a CUDA device: (), `cuda, `cuda:n or an index"),
            ["()", "`cuda", "`cuda:n", "an index"]
        );
        assert_eq!(
            alternatives("backend, (backend;timeout), (backend;rendezvous;rank;size) or (a;b)"),
            [
                "backend",
                "(backend;timeout)",
                "(backend;rendezvous;rank;size)",
                "(a;b)"
            ]
        );
        assert_eq!(
            alternatives("(), ::, or one of `all`ktorch"),
            ["()", "::", "one of `all`ktorch"]
        );
        assert_eq!(alternatives("a long seed"), ["a long seed"]);
    }
}
