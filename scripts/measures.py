#!/usr/bin/env python3
"""The architecture measures of docs/architecture.md, counted the same way for any commit:
`scripts/measures.py [REV]` (default HEAD) reads src/**/*.rs (and docs/*.md for the q names'
headings) at REV through git (no checkout).

Boundary (issue 31):
- unsafe: lines outside src/k/ and src/cxx/ whose code (the text before a `//` comment) has the
  word `unsafe` (blocks, `unsafe impl`, `unsafe extern "C" fn`), in all and by domain (the
  top-level module), and those of them that are not `unsafe impl Send/Sync`;
- with SAFETY: those among them whose own line, or the comment, doc or attribute lines right
  above them, say `SAFETY` or `# Safety` (clippy::undocumented_unsafe_blocks asks the first of
  a block or `unsafe impl`, clippy::missing_safety_doc the second of an `unsafe fn`);
- r0/r1: lines outside src/k/ calling k.h's `r0` or `r1` by hand;
- k.h: lines outside src/k/ naming `native::` (k.h called directly);
- extern blocks: `extern "C" {` declarations outside src/cxx/;
- raw shim calls outside src/cxx/: lines calling a `ktorch_*` entry point, `Tensor::from_ptr`,
  or casting `as_ptr() as *mut`;
- the unsafe_code lint (issue 36): `#![forbid(unsafe_code)]` or `#![deny(unsafe_code)]` at each
  domain's root (tests/layers.rs's DOMAINS), and the `allow(unsafe_code)` lines outside src/k/
  and src/cxx/, with those of them that stand right above an `unsafe impl Send/Sync`.

Shape (issue 36):
- q name places: for every q name of the fns table, the places it is written as a declaration:
  a row of a table in src/fns.rs or src/exports.rs (a line starting with the name's string
  literal followed by `/ 2`, `=>`, `as` or `,`) and a `## ` heading of docs/ naming it (tests/docs.rs's rule); the total, and
  the most any one name has;
- argument readers outside the trait: call sites outside src/k/ of the argument frameworks and
  list readers (`Tail::`, `slots::parse`, `forms::split`, loss `args::parse`, `opargs::list`,
  `read::items`, `forms::items`, and since issue 36 part 3 the counted lists `opargs::items`
  and `tensor::args`), and function signatures outside src/k/ taking `K`, `&K` or `&[K]`;
- readers and parsers outside the trait (issue 36 part 3): those call sites, plus the hand
  K->value conversions outside src/k/ that the trait `k::from::FromQ` replaces: `read::` and
  `opargs::` value readers (`long`, `longs`, `flag`, `boolean`, `symbol`, `symbols`, `syms`,
  `float`, `floats`, `real`, `string`, `number`), in all and by domain;
- circles inside a domain: the strongly connected sets of a domain's second-level modules
  (src/nn/callback.rs, src/nn/layers/ ...; the domain's own mod.rs is one more) linked by their
  `crate::`/`super::` paths;
- class strings: lines testing `class_of(..) == Some("..")` (or `!=`, or `matches!` on it), and
  the class questions asked through the registry's `Class` enum instead (`Class::X` named
  outside src/registry.rs);
- error wording: string literals saying `expecting`, `expects`, `expected`.
"""
import re
import subprocess
import sys
from collections import defaultdict

rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"


def git(*a):
    return subprocess.run(["git", *a], check=True, capture_output=True, text=True).stdout


def code(line):
    """The line without its `//` comment (outside a string literal)."""
    in_str, i = False, 0
    while i < len(line):
        c = line[i]
        if c == "\\" and in_str:
            i += 1
        elif c == '"':
            in_str = not in_str
        elif c == "/" and not in_str and line[i + 1:i + 2] == "/":
            return line[:i]
        i += 1
    return line


tree = git("ls-tree", "-r", "--name-only", rev).split()
files = [f for f in tree if f.startswith("src/") and f.endswith(".rs")]
text = {f: git("show", f"{rev}:{f}") for f in files}


def domain(f):
    return f.split("/")[1].removesuffix(".rs")


# ---- boundary -------------------------------------------------------------------------------
unsafe = documented = r01 = khcalls = externs = 0
unsafe_by = defaultdict(int)
unsafe_not_sendsync = 0
raw_by = defaultdict(int)
raw_calls = from_ptr = as_mut = 0
for f in files:
    lines = text[f].split("\n")
    in_k, in_cxx = f.startswith("src/k/"), f.startswith("src/cxx/")
    for i, line in enumerate(lines):
        c = code(line)
        if not in_k:
            if re.search(r"\br[01]\(", c):
                r01 += 1
            if "native::" in c:
                khcalls += 1
        if not in_cxx:
            if re.search(r'\bextern\s+"C"\s*\{', c):
                externs += 1
            hit = False
            if re.search(r"\bktorch_\w+\s*\(", c) and not re.search(r"\bfn\s+ktorch_", c):
                raw_calls += 1
                hit = True
            if "Tensor::from_ptr" in c:
                from_ptr += 1
                hit = True
            if re.search(r"as_ptr\(\)\s+as\s+\*mut", c):
                as_mut += 1
                hit = True
            if hit:
                raw_by[domain(f)] += 1
        if in_k or in_cxx or not re.search(r"\bunsafe\b", c):
            continue
        unsafe += 1
        unsafe_by[domain(f)] += 1
        if not re.search(r"\bunsafe\s+impl\b.*\b(Send|Sync)\b", c):
            unsafe_not_sendsync += 1
        said = "SAFETY" in line.upper()
        j = i - 1
        while not said and j >= 0 and lines[j].strip().startswith(("//", "#[")):
            said = "SAFETY" in lines[j].upper()
            j -= 1
        documented += said


# the unsafe_code lint at each domain root (issue 36 part 1: deny, or forbid where no Send/Sync
# impl needs an exception), and `allow(unsafe_code)` outside the boundaries: each should stand
# right above an `unsafe impl Send/Sync`
DOMAINS = ["registry", "session", "device", "tensor", "dist", "math", "nn", "loss", "optim", "io",
           "model", "dispatch"]
lint = {}
for d in DOMAINS:
    root = f"src/{d}/mod.rs" if f"src/{d}/mod.rs" in text else f"src/{d}.rs"
    ls = [code(l).strip() for l in text.get(root, "").split("\n")]
    lint[d] = ("forbid" if "#![forbid(unsafe_code)]" in ls else
               "deny" if "#![deny(unsafe_code)]" in ls else "none")
allows = allows_sendsync = 0
for f in files:
    if f.startswith(("src/k/", "src/cxx/")):
        continue
    lines = text[f].split("\n")
    for i, line in enumerate(lines):
        if "allow(unsafe_code)" not in code(line):
            continue
        allows += 1
        nxt = next((code(l).strip() for l in lines[i + 1:]
                    if code(l).strip() and not code(l).strip().startswith("#[")), "")
        allows_sendsync += bool(re.match(r"unsafe\s+impl\b.*\b(Send|Sync)\b", nxt))


def by(d):
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


print(f"{rev}:")
print(f"  unsafe lines outside src/k and src/cxx: {unsafe} ({by(unsafe_by)}), "
      f"with a SAFETY comment: {documented}, not an `unsafe impl Send/Sync`: {unsafe_not_sendsync}")
print(f"  unsafe_code lint at the domain roots: forbid {sum(v == 'forbid' for v in lint.values())}, "
      f"deny {sum(v == 'deny' for v in lint.values())} "
      f"({' '.join(d for d in DOMAINS if lint[d] == 'deny') or 'none'}), without "
      f"{sum(v == 'none' for v in lint.values())} ({' '.join(d for d in DOMAINS if lint[d] == 'none') or 'none'}); "
      f"allow(unsafe_code) outside src/k and src/cxx: {allows}, right above a Send/Sync impl: {allows_sendsync}")
print(f"  manual r0/r1 outside src/k: {r01}; native:: (k.h) outside src/k: {khcalls}; "
      f"extern \"C\" blocks outside src/cxx: {externs}")
print(f"  outside src/cxx: raw ktorch_* calls {raw_calls}, Tensor::from_ptr {from_ptr}, "
      f"`as_ptr() as *mut` {as_mut} (lines by domain: {by(raw_by)})")

# ---- q names ---------------------------------------------------------------------------------
table = text.get("src/fns.rs", "")
qnames = set(re.findall(r'^\s*"([^"]+)"\s*(?:/\s*2\s*)?(?:=>|as\b)', table, re.M))
rows = re.findall(r'^\s*"[^"]+"\s*(?:/\s*2\s*)?(?:as\s*"[^"]*"\s*)?=>\s*([\w:#]+)', table, re.M)
qrows = sum(1 for r in rows if r.endswith("::q"))
places = defaultdict(int)
for f in ("src/fns.rs", "src/exports.rs"):
    for m in re.finditer(r'^\s*"([^"]+)"\s*(?:/\s*2\s*)?(?:=>|as\b|,)', text.get(f, ""), re.M):
        if m.group(1) in qnames:
            places[m.group(1)] += 1
for d in [f for f in tree if f.startswith("docs/") and f.endswith(".md")]:
    # tests/docs.rs's rule: a `## ` heading names every word of it (`## add, sub`)
    for m in re.finditer(r"^## (.*)$", git("show", f"{rev}:{d}"), re.M):
        for w in set(re.split(r"[,\s]+", m.group(1))):
            if w in qnames:
                places[w] += 1
total = sum(places.values())
most = max(places.values()) if places else 0
print(f"  q names {len(qnames)}: places written {total} ({total / max(len(qnames), 1):.2f} a name, "
      f"at most {most}: {' '.join(sorted(n for n in places if places[n] == most)[:5])} ..)")
# the same split in two: declarations in code (a row of the one table, or anything else that
# names the q name as a declaration) and the documentation's `## ` headings (the doc entry the
# docs test asks the declaration for; a prose heading that happens to contain the word counts too)
decl = defaultdict(int)
for f in ("src/fns.rs", "src/exports.rs"):
    for m in re.finditer(r'^\s*"([^"]+)"\s*(?:/\s*2\s*)?(?:=>|as\b|,)', text.get(f, ""), re.M):
        if m.group(1) in qnames:
            decl[m.group(1)] += 1
ctotal = sum(decl.values())
cmost = max(decl.values()) if decl else 0
print(f"  q name declarations in code: {ctotal} ({ctotal / max(len(qnames), 1):.2f} a name, at most {cmost}); "
      f"doc headings naming one: {total - ctotal}; names without a doc heading: "
      f"{sum(1 for n in qnames if places[n] == decl[n])}")

# ---- argument readers -----------------------------------------------------------------------
readers = {
    # name: (module, item); a call is `module::item` or, where a `use` brings `item` in from
    # `module`, `item(` (a `Tail` is made by `Tail::list`, so its uses are `Tail::` paths)
    "Tail::": ("Tail", None),
    "slots::parse": ("slots", "parse"),
    "forms::split": ("forms", "split"),
    "loss args::parse": ("args", "parse"),
    "opargs::list": ("opargs", "list"),
    "read::items": ("read", "items"),
    "forms::items": ("forms", "items"),
    # counted lists (issue 36 part 3 adds them: they are list readers as the others)
    "opargs::items": ("opargs", "items"),
    "tensor::args": ("tensor", "args"),
}
hand = ["long", "longs", "flag", "boolean", "symbol", "symbols", "syms", "float", "floats",
        "real", "string", "number"]
counts = defaultdict(int)
hand_counts = defaultdict(int)
all_by = defaultdict(int)
ksigs = 0
kind_sigs = 0
typed_fns = 0
for f in files:
    if f.startswith("src/k/"):
        continue
    body = "\n".join(code(l) for l in text[f].split("\n"))
    def uses(mod, item):
        if item is None:
            return len(re.findall(rf"\b{mod}::", body))
        n = len(re.findall(rf"\b{mod}::{item}\b", body))
        if re.search(rf"use [\w:]*\b{mod}::\{{[^}}]*\b{item}\b", body):
            n += len(re.findall(rf"(?<![\w:]){item}\s*\(", body))
        return n

    for name, (mod, item) in readers.items():
        if name == "loss args::parse" and not f.startswith("src/loss/"):
            continue
        n = uses(mod, item)
        if name == "tensor::args" and f.startswith("src/tensor/"):
            n += len(re.findall(r"\bsuper::args\(", body))
        counts[name] += n
        all_by[domain(f)] += n
    for mod in ("read", "opargs"):
        for item in hand:
            n = uses(mod, item)
            hand_counts[f"{mod}::{item}"] += n
            all_by[domain(f)] += n
    # the bodies of `impl FromQ for ..` (kind readers: the trait's own K) and of `qfn!` (typed q
    # functions: their one K is the generated wrapper's)
    def spans(pat):
        out = []
        for m in re.finditer(pat, body):
            i = body.index("{", m.end() - 1)
            depth, j = 0, i
            while j < len(body):
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append((m.start(), j))
        return out
    kinds = spans(r"\bimpl\s*(?:<[^>]*>)?\s*FromQ\s+for\b[^{]*\{")
    typed = spans(r"\bqfn!\s*\{")
    inside = lambda pos, sp: any(a <= pos <= b for a, b in sp)
    for m in re.finditer(r"\bfn\s+(?:r#)?\w+\s*(?:<[^>]*>)?\s*\(([^)]*)\)", body):
        if inside(m.start(), typed):
            typed_fns += 1
        if re.search(r":\s*(?:&\s*(?:'\w+\s+)?)?(?:\[\s*)?K\b", m.group(1)):
            ksigs += 1
            if inside(m.start(), kinds):
                kind_sigs += 1
print(f"  argument readers outside the trait (uses outside src/k): {sum(counts.values())} ({by(counts)}); "
      f"fn signatures taking K, &K or &[K] outside src/k: {ksigs}")
print(f"  typed q functions (issue 36, part 4: declared with qfn!, no K in their signature): "
      f"{typed_fns} written out (the table macros' rows apart: by_layer!, fourier!, blas2!, unary!, ..); "
      f"fns rows naming a typed function's wrapper (`::q`): {qrows} of {len(rows)}; "
      f"K-taking signatures outside src/k less the kind readers (`impl FromQ`: {kind_sigs}): "
      f"{ksigs - kind_sigs}")
print(f"  readers and parsers outside the trait: {sum(counts.values()) + sum(hand_counts.values())} "
      f"(the above, and hand K->value conversions {sum(hand_counts.values())}: "
      f"{by({k: v for k, v in hand_counts.items() if v})}); by domain: {by(all_by)}")

# ---- circles inside a domain ----------------------------------------------------------------
def modpath(f):
    p = f[len("src/"):-len(".rs")].split("/")
    if p[-1] == "mod":
        p = p[:-1]
    return p


def expand(rest):
    """The paths named by `rest` (text right after `crate::`/`super::`), to two segments."""
    m = re.match(r"\s*(\w+)\s*(::)?\s*(\{)?", rest)
    if not m:
        if rest.lstrip().startswith("{"):
            return [p for item in split_group(rest.lstrip()[1:]) for p in expand(item)]
        return []
    first = m.group(1)
    if m.group(2) and m.group(3):
        return [[first] + p for item in split_group(rest[m.end():]) for p in expand(item)] or [[first]]
    if m.group(2):
        sub = re.match(r"\s*(\w+)", rest[m.end():])
        return [[first, sub.group(1)]] if sub else [[first]]
    return [[first]]


def split_group(s):
    items, depth, cur = [], 0, ""
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                break
            depth -= 1
        if c == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += c
    items.append(cur)
    return [i for i in items if i.strip() and i.strip() != "self"]


edges = defaultdict(set)
nodes_of = defaultdict(set)
for f in files:
    mp = modpath(f)
    dom = mp[0]
    src_node = mp[1] if len(mp) > 1 else "mod"
    nodes_of[dom].add(src_node)
    body = "\n".join(code(l) for l in text[f].split("\n"))
    for m in re.finditer(r"(?<![\w$])(crate|super)::((?:super::)*)", body):
        if m.group(1) == "crate":
            base = []
        else:
            base = mp[:-1] if f.endswith("mod.rs") is False else mp[:-1]
            if f.endswith("/mod.rs"):
                base = mp[:-1]
            for _ in range(m.group(2).count("super::")):
                base = base[:-1]
        for p in expand(body[m.end():m.end() + 400]):
            full = base + p
            if len(full) >= 1 and full[0] == dom:
                to = full[1] if len(full) > 1 else "mod"
                # a path into the domain's mod.rs names an item there, or a child module
                if to != src_node:
                    edges[(dom, src_node)].add(to)
circles = []
for dom in sorted(nodes_of):
    ns = sorted(nodes_of[dom])
    # Tarjan
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[(dom, v)]:
            if w not in index:
                if w not in nodes_of[dom]:
                    continue
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in ns:
        if v not in index:
            strong(v)
    for c in sccs:
        circles.append(f"{dom}: {' <-> '.join(c)}")
print(f"  circles inside a domain: {len(circles)}" + "".join(f"\n    {c}" for c in circles))

# ---- class strings, error wording -----------------------------------------------------------
cls = model_cls = 0
words = defaultdict(int)
for f in files:
    for line in text[f].split("\n"):
        c = code(line)
        if re.search(r'class_of\([^)]*\)\s*[!=]=\s*Some\("', c) or re.search(
                r'matches!\(\s*\w*::?class_of\([^)]*\)\s*,\s*Some\("', c):
            cls += 1
            if '"model"' in c and f.startswith(("src/nn/", "src/loss/")):
                model_cls += 1
        for s in re.findall(r'"((?:[^"\\]|\\.)*)"', c):
            for w in ("expecting", "expects", "expected"):
                words[w] += len(re.findall(rf"\b{w}\b", s))
# class questions through the object trait's enum (issue 36 part 1): `Class::X` named outside
# src/registry.rs (comparisons, matches and patterns on a handle's class)
enum_cls = sum(len(re.findall(r"\bClass::[A-Z]\w*", "\n".join(code(l) for l in text[f].split("\n"))))
               for f in files if f != "src/registry.rs")
print(f"  class_of(..) == Some(\"..\") string tests: {cls}, of which for \"model\" in src/nn and src/loss: {model_cls}; "
      f"class questions through registry::Class outside the registry: {enum_cls}")
print(f"  error wording in string literals: " + ", ".join(f"{w} {words[w]}" for w in ("expecting", "expects", "expected")))
