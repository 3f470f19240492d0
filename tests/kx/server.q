/ The server KX's C client talks to (tests/kx/client.c, scripts/kx-libe.sh): any free port,
/ printed first; it ends when the client closes its connection.
\p 0W
-1 string system"p";
add:{x+y}
.z.pc:{exit 0}
