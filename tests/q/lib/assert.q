/ A small test harness for q scripts: valid kdb+ q, and what qhost runs.
/ Load with \l tests/q/lib/assert.q (scripts run from the repository root), then:
/   .t.eq[name;got;expected]   passes when got~expected (exact match, types included)
/   .t.ok[name;bool]           passes when bool is 1b
/   .t.throws[name;f;msg]      passes when f[] signals 'msg (msg as a string)
/   .t.catch f                 the error f[] signals, as a string ("" when none)
/   .t.done[]                  prints "file: N passed, M failed", exits 1 on any failure, else 0
/ A failure prints the file, the check's name, what was expected and what came.
.t.pass:0
.t.fail:0
.t.file:@[{string value x};`.z.f;{"?"}]
/ A value's one-line form for failure messages (never itself an error).
.t.show:{@[-3!;x;{"<cannot show>"}]}
.t.str:{$[10h=abs type x;x;string x]}
.t.report:{[name;exp;got]
  .t.fail+:1;
  -2 .t.file,": FAIL ",.t.str[name];
  -2 "  expected: ",.t.show exp;
  -2 "  got:      ",.t.show got;
  }
.t.eq:{[name;got;exp] $[got~exp;.t.pass+:1;.t.report[name;exp;got]];}
.t.ok:{[name;b] .t.eq[name;b;1b]}
.t.catch:{@[{x[];""};x;{x}]}
.t.throws:{[name;f;msg] .t.eq[name;.t.catch f;msg]}
.t.done:{[]
  -1 .t.file,": ",string[.t.pass]," passed, ",string[.t.fail]," failed";
  exit $[.t.fail>0;1;0];
  }
