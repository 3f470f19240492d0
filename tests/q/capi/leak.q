/ The leak check's own test: testext's leak[] drops one K object on the floor, so qhost run
/ with QHOST_LEAKCHECK=1 must report it and exit non-zero (run by qhost/tests/capi.rs; not a tests/q/*.q script, since it fails the check on purpose).
\l tests/q/lib/assert.q
leak:`testext 2:(`leak;1)
.t.eq[`leak;leak[];1b]
.t.done[]
