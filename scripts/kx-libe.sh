#!/usr/bin/env bash
# ktorch.so on KX's own implementation of k.h beside qhost (issue 35): PyPI's pykx wheel (pinned
# below, not installed: its libe.so only) hosts ktorch.so through tests/kx/host.c; every call of
# tests/kx/calls.q runs on both hosts and the results must be the same bytes (-8! / b9), with each
# argument's reference count unchanged by the call and resident memory flat over a long loop; and
# q IPC messages as qhost writes them read and rewritten by libe.so's d9/b9 to the same bytes; and
# KX's C client (libe.so's khpu, k) served by a qhost process (tests/kx/client.c, server.q).
# usage: scripts/kx-libe.sh [target/release]   (after make build; downloads the wheel once)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rel=${1:-$root/target/release}
pykx=4.2.0
venv=$("$root/scripts/torch-venv.sh")
torchlib=$("$venv/bin/python" -c 'import torch,os;print(os.path.join(os.path.dirname(torch.__file__),"lib"))')
cache=${KTORCH_CACHE:-$HOME/.cache/ktorch}/pykx-$pykx
if [[ ! -f $cache/libe.so || ! -f $cache/k.h ]]; then
    mkdir -p "$cache"
    "$venv/bin/python" -m pip download --quiet --no-deps "pykx==$pykx" -d "$cache/wheel"
    "$venv/bin/python" -m zipfile -e "$cache"/wheel/pykx-*.whl "$cache/x"
    cp "$cache/x/pykx/lib/l64/libe.so" "$cache/x/pykx/include/k.h" "$cache/"
    rm -rf "$cache/x" "$cache/wheel"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O1 -w -I"$cache" "$root/tests/kx/host.c" -o "$out/host" -rdynamic -L"$cache" -Wl,-rpath,"$cache" -l:libe.so -ldl
"$rel/qhost" "$root/tests/kx/calls.q" "$out"
LD_LIBRARY_PATH=$torchlib "$out/host" "$rel/ktorch.so" "$out/calls.hex" "$out/wire.hex" > "$out/libe.txt"
grep '^wire: ' "$out/libe.txt" || { echo "kx-libe: the wire check did not run" >&2; exit 1; }
sed -i '/^wire: /d' "$out/libe.txt"
# KX's C client against a qhost server
gcc -O1 -w -I"$cache" "$root/tests/kx/client.c" -o "$out/client" -L"$cache" -Wl,-rpath,"$cache" -l:libe.so
coproc server { exec "$rel/qhost" "$root/tests/kx/server.q"; }
spid=$server_PID
read -r port <&"${server[0]}"
timeout 30 "$out/client" "$port" || { kill "$spid" 2>/dev/null; exit 1; }
# the server ends by itself when the client closes (its .z.pc)
for _ in $(seq 100); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$spid" 2>/dev/null; then kill "$spid"; echo "kx-libe: the qhost server did not end" >&2; exit 1; fi
n=$(wc -l < "$out/qhost.txt")
if ! diff "$out/qhost.txt" "$out/libe.txt" > "$out/diff.txt"; then
    echo "kx-libe: results differ between qhost and libe.so:" >&2; cat "$out/diff.txt" >&2; exit 1
fi
ok=$(grep -c " ok " "$out/qhost.txt" || true)
echo "kx-libe: $n calls ($ok values, $((n-ok)) errors), the same bytes on qhost and on KX's libe.so (pykx $pykx); reference counts balanced; memory flat"
