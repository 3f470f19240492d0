#!/usr/bin/env python3
"""The architecture measures of docs/architecture.md, counted the same way for any commit:
`scripts/measures.py [REV]` (default HEAD) reads src/**/*.rs at REV through git (no checkout).

- unsafe: lines outside src/k/ and src/cxx/ whose code (the text before a `//` comment) has the
  word `unsafe` (blocks, `unsafe impl`, `unsafe extern "C" fn`);
- with SAFETY: those among them whose own line, or the comment, doc or attribute lines right
  above them, say `SAFETY` or `# Safety` (clippy::undocumented_unsafe_blocks asks the first of
  a block or `unsafe impl`, clippy::missing_safety_doc the second of an `unsafe fn`);
- r0/r1: lines outside src/k/ calling k.h's `r0` or `r1` by hand;
- k.h: lines outside src/k/ naming `native::` (k.h called directly);
- extern blocks: `extern "C" {` declarations outside src/cxx/.
"""
import re
import subprocess
import sys

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


files = [f for f in git("ls-tree", "-r", "--name-only", rev, "src").split() if f.endswith(".rs")]
unsafe = documented = r01 = khcalls = externs = 0
for f in files:
    lines = git("show", f"{rev}:{f}").split("\n")
    in_k, in_cxx = f.startswith("src/k/"), f.startswith("src/cxx/")
    for i, line in enumerate(lines):
        c = code(line)
        if not in_k:
            if re.search(r"\br[01]\(", c):
                r01 += 1
            if "native::" in c:
                khcalls += 1
        if not in_cxx and re.search(r'\bextern\s+"C"\s*\{', c):
            externs += 1
        if in_k or in_cxx or not re.search(r"\bunsafe\b", c):
            continue
        unsafe += 1
        said = "SAFETY" in line.upper()
        j = i - 1
        while not said and j >= 0 and lines[j].strip().startswith(("//", "#[")):
            said = "SAFETY" in lines[j].upper()
            j -= 1
        documented += said
print(f"{rev}: unsafe lines outside src/k and src/cxx: {unsafe}, with a SAFETY comment: {documented}; "
      f"manual r0/r1 outside src/k: {r01}; native:: (k.h) outside src/k: {khcalls}; "
      f"extern \"C\" blocks outside src/cxx: {externs}")
