#!/usr/bin/env python3
"""Extract the q sessions of KX's reference pages (github:KxSystems/docs, docs/ref and
docs/basics) into cases.txt, which tests/kxdocs.rs replays through qhost.

Usage: extract.py GIT_DIR [COMMIT] > qhost/tests/kxdocs/cases.txt
(GIT_DIR: a clone or bare copy of github.com/KxSystems/docs; COMMIT defaults to HEAD.)

Rules (stdlib only, deterministic):
- Every fenced code block of a docs/ref/*.md or docs/basics/*.md page that has a line starting
  `q)` is one q session, run from a fresh process. An input is the text after `q)`; what q printed
  is every following line up to the next `q)` line or the end of the block.
- Left out, each with its reason written as a `-` line (not replayed):
  random  a random draw (roll/deal/permute `n?x`, `rand`, `\\S`): q's values cannot be repeated;
  clock   `.z.` names other than `.z.s` (clocks, host, process, handlers), `\\t`, `\\ts`;
  os      files (`` `: `` handles), the shell and system commands other than \\d \\P \\c \\v \\f
          \\a \\b \\B \\e, `system`, `getenv`, `setenv`, `exit`, `read0`/`read1`, `hcount`, `hdel`,
          `save`/`load`/`rsave`/`rload`/`dsave`, dynamic load `2:`, memory (`.Q.w`, `.Q.gc`,
          `-11!`, `-20!`), `.Q` functions on databases, files or the command line;
  ipc     `hopen`, `hclose`, handles `neg h`, `.Q.hg`, `.Q.hp`, `.Q.addr`, `.Q.host`;
  debug   an input at the debugger's prompt `q))`; k: an input in k (`k)`, `\\`);
  multiline  an input whose brackets do not close on its line (q's console reads one line);
  elided  q's printed output is shortened on the page (a line `...`, `..` or `…`);
  memory  every input of a block that shows memory use (`.Q.w`, `.Q.gc`, `\\w`, `-20!`);
  hangs   the page says the input never returns;
  depends an input after one left out that set a .z handler, loaded files (\\l, load) or changed
          directory, or an input that names a variable set by an input left out before it in its block.
"""
import re
import subprocess
import sys

KEEP_SYS = {"d", "P", "c", "v", "f", "a", "b", "B", "e"}

RANDOM = [
    re.compile(r'(?:^|[^\w\s.")\]}`]|[a-zA-Z_]\s)\s*-?(?:\d+|0N|0W)[hij]?\s*\?(?!\?)'),
    re.compile(r'\brand\b'),
    re.compile(r'\bdeal\b'),
]
CLOCK = [re.compile(r'\.z\.(?!s\b)\w'), re.compile(r'^\\ts?\b')]
OS_WORDS = ["system", "getenv", "setenv", "exit", "read0", "read1", "hcount", "hdel", "save",
            "load", "rsave", "rload", "dsave"]
OS = [
    re.compile(r'`:'),
    re.compile(r'\b(?:%s)\b' % "|".join(OS_WORDS)),
    re.compile(r'\b2:'),
    re.compile(r'-(?:11|20|26|38)!'),
    re.compile(r'\.Q\.(?:w|gc|dpft|dpfts|dpt|dpts|hdpf|chk|par|pd|pn|pv|pf|pt|qp|l|lo|ld|M|gz|'
               r'opt|x|ts|bt|sbt|prf0|res|K|k|D|P|u|vp|fs|fsn|fps|fpn|dsftg|bv|cn|ind|MAP|'
               r'qt|V|view|Xf|en|ens|ens1|pl|pa|rmk)\b'),
]
IPC = [re.compile(r'\bhopen\b'), re.compile(r'\bhclose\b'), re.compile(r'\bneg\s+h\b'),
       re.compile(r'\.Q\.(?:hg|hp|addr|host|s2|Xf)\b'), re.compile(r'\.z\.w\b')]


MEMORY = re.compile(r'\.Q\.(?:w|gc)\b|^\\w\b|-20!')


def reason_left_out(inp):
    s = inp.strip()
    if s.startswith(")"):
        return "debug"
    if s.startswith("k)") or s == "\\":
        return "k"
    if s.startswith("\\"):
        cmd = s[1:].split(" ", 1)[0]
        if cmd in ("S",):
            return "random"
        if cmd in ("t", "ts"):
            return "clock"
        if cmd == "c" and s.strip() == "\\c":
            return "os"
        if cmd not in KEEP_SYS:
            return "os"
    code = strip_strings(s)
    for r in RANDOM:
        if r.search(code):
            return "random"
    for r in CLOCK:
        if r.search(s):
            return "clock"
    for r in IPC:
        if r.search(code):
            return "ipc"
    for r in OS:
        if r.search(code if r.pattern != '`:' else s):
            return "os"
    if not balanced(s):
        return "multiline"
    return None


def strip_strings(s):
    """The input with string literals blanked (a `?` or a name inside quotes is text)."""
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', s)


def strip_comment(s):
    """q's console drops ` /...` (a slash after blank space) outside strings."""
    out, i, q = [], 0, False
    while i < len(s):
        c = s[i]
        if q:
            out.append(c)
            if c == "\\" and i + 1 < len(s):
                out.append(s[i + 1])
                i += 1
            elif c == '"':
                q = False
        else:
            if c == '"':
                q = True
            elif c == "/" and i > 0 and s[i - 1] in " \t":
                break
            out.append(c)
        i += 1
    return "".join(out).rstrip()


def strip_annotation(line):
    """The page's note beside what q printed (`0n   / since 4.1`): q prints no comments, so
    two or more blanks then `/ ` end the line (outside strings)."""
    m = re.search(r'\s{2,}/', strip_strings(line))
    return line[:m.start()].rstrip() if m else line


def balanced(s):
    depth, q, i = 0, False, 0
    while i < len(s):
        c = s[i]
        if q:
            if c == "\\":
                i += 1
            elif c == '"':
                q = False
        elif c == '"':
            q = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth == 0 and not q


NAME = re.compile(r'([.a-zA-Z][\w.]*)\s*(?:\[[^\]]*\])?\s*(?:[-+*%,&|^#_!~<>=$?@.]?)::?(?!:)')


def assigned(inp):
    return {m.group(1) for m in NAME.finditer(strip_strings(inp))}


ALL = "*"  # a left-out input changed the session as a whole (a .z handler set, files loaded)


def mentions(inp, names):
    if ALL in names:
        return True
    code = strip_strings(inp)
    return any(re.search(r'(?<![\w.`])' + re.escape(n) + r'(?![\w])', code) for n in names)


def blocks(text):
    """Fenced code blocks: (line number of the first line, lines), indentation removed."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r'^(\s*)(```|~~~)', lines[i])
        if not m:
            i += 1
            continue
        ind, fence = len(m.group(1)), m.group(2)
        start, body = i + 2, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][ind:] if lines[i][:ind].strip() == "" else lines[i])
            i += 1
        i += 1
        yield start, body


def sessions(body, start):
    """(doc line, input, expected lines) of one block."""
    out, cur = [], None
    for k, line in enumerate(body):
        if line.startswith("q)"):
            cur = [start + k, line[2:], []]
            out.append(cur)
        elif cur is not None:
            cur[2].append(line.rstrip())
    for c in out:
        while c[2] and c[2][-1] == "":
            c[2].pop()
    return out


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    def git(*a):
        return subprocess.run(["git", "--git-dir", git_dir] + list(a), check=True,
                              capture_output=True, text=True).stdout
    commit = git("rev-parse", commit).strip()
    files = [f for f in git("ls-tree", "-r", "--name-only", commit, "docs/ref", "docs/basics").split("\n")
             if f.endswith(".md")]
    w = sys.stdout.write
    w("# KX's reference pages replayed by qhost/tests/kxdocs.rs; made by qhost/tests/kxdocs/extract.py\n")
    w("# source github.com/KxSystems/docs commit %s\n" % commit)
    w("# @ page:line starts a block (one q session); >line<TAB>input; =what q printed (one line each);\n")
    w("# -reason<TAB>line<TAB>input: left out (see extract.py)\n")
    counts = {}
    for f in sorted(files):
        text = git("show", "%s:%s" % (commit, f))
        for start, body in blocks(text):
            ses = sessions(body, start)
            if not ses:
                continue
            w("@ %s:%d\n" % (f, start))
            tainted = set()
            memory = any(MEMORY.search(raw) for _, raw, _ in ses)
            for ln, raw, exp in ses:
                inp = strip_comment(raw)
                if inp.strip() == "":
                    continue
                why = "memory" if memory else reason_left_out(inp)
                if why is None and "never returns" in raw[len(inp):]:
                    why = "hangs"
                if why is None and any(e.strip() in ("...", "..", "…") or "…" in e for e in exp):
                    why = "elided"
                if why is None and tainted and mentions(inp, tainted):
                    why = "depends"
                if why:
                    tainted |= assigned(inp)
                    if re.search(r'\.z\.\w+\s*:', inp) or re.match(r'\s*(\\l|\\cd|load\b)', inp):
                        tainted.add(ALL)
                    counts[why] = counts.get(why, 0) + 1
                    w("-%s\t%d\t%s\n" % (why, ln, inp))
                    continue
                counts["replayed"] = counts.get("replayed", 0) + 1
                w(">%d\t%s\n" % (ln, inp))
                for e in exp:
                    w("=%s\n" % strip_annotation(e))
    sys.stderr.write(" ".join("%s %d" % kv for kv in sorted(counts.items())) + "\n")


if __name__ == "__main__":
    main()
