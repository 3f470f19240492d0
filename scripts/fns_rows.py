#!/usr/bin/env python3
"""Convert q functions declared the old way (a row in src/fns.rs's `table!` and one in
src/exports.rs's `exports!`, as before issue 36) into rows of the one table of src/fns.rs.

`scripts/fns_rows.py REV` reads src/fns.rs and src/exports.rs at REV (a branch that added q
functions the old way) and prints, in the order of that branch's exports.rs list, the row of
each q name that the working tree's src/fns.rs does not have yet:

    "name" [/ 2] [as "CName"] => path,

(`as` only where the C name differs from the q name). Paste them into `fns!` after
`// not in ktorch: ours`, where they stand in that list, then run
`cargo test --release -p ktorch --test exports`.
"""
import re
import subprocess
import sys

rev = sys.argv[1]


def show(path):
    return subprocess.run(["git", "show", f"{rev}:{path}"], check=True, capture_output=True,
                          text=True).stdout


paths = {m.group(1): (bool(m.group(2)), m.group(3))
         for m in re.finditer(r'^\s*"([^"]+)"\s*(/\s*2)?\s*=>\s*([\w:#]+),', show("src/fns.rs"), re.M)}
ours = set(re.findall(r'^\s*"([^"]+)"\s*(?:/\s*2\s*)?(?:as\s*"[^"]*"\s*)?=>', open("src/fns.rs").read(), re.M))
for m in re.finditer(r'^\s*"([^"]+)"\s*(/\s*2)?\s*as\s*"([^"]+)",', show("src/exports.rs"), re.M):
    q, c = m.group(1), m.group(3)
    if q in ours or q not in paths:
        continue
    two, path = paths[q]
    head = f'"{q}"' + (" / 2" if two else "")
    cname = f' as "{c}"' if c != q else ""
    print(f"    {head}{cname} => {path},")
