// KX's own C client (libe.so's khpu and k, from the pykx wheel) against a qhost server
// (tests/kx/server.q): the handshake, sync and async messages, an error answered, a function
// called with arguments, the user the server sees, a table back. scripts/kx-libe.sh runs it.
// usage: client PORT   -> prints one line; exits 1 on any difference from what kdb+ answers
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "k.h"  /* KX's, from the pykx wheel */

static int bad;
static void want(int ok, const char* what) {
  if (!ok) { fprintf(stderr, "client: %s\n", what); bad++; }
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: client PORT\n"); return 2; }
  int h = khpu("localhost", atoi(argv[1]), "kx:pw");
  if (h <= 0) { fprintf(stderr, "client: khpu failed (%d)\n", h); return 1; }
  K r = k(h, "2+2", (K)0);
  want(r && r->t == -KJ && r->j == 4, "2+2 is not 4");
  if (r) r0(r);
  r = k(-h, "a:10", (K)0);  // async: no answer
  r = k(h, "a", (K)0);
  want(r && r->t == -KJ && r->j == 10, "async a:10 was not run before the sync a");
  if (r) r0(r);
  r = k(h, "1+`a", (K)0);
  want(r && r->t == -128 && !strcmp(r->s, "type"), "1+`a is not the error 'type");
  if (r) r0(r);
  r = k(h, "add", kj(2), kj(3), (K)0);
  want(r && r->t == -KJ && r->j == 5, "add[2;3] is not 5");
  if (r) r0(r);
  r = k(h, "(.z.u;.z.w>0)", (K)0);
  want(r && r->t == 0 && r->n == 2 && !strcmp(kK(r)[0]->s, "kx") && kK(r)[1]->g == 1,
       ".z.u is not the user sent, or .z.w not a handle");
  if (r) r0(r);
  r = k(h, "([]a:1 2;b:`x`y)", (K)0);
  want(r && r->t == XT, "a table did not come back as a table");
  if (r) {
    K d = r->k, names = kK(d)[0], cols = kK(d)[1];
    want(names->n == 2 && !strcmp(kS(names)[1], "b") && kK(cols)[0]->t == KJ &&
         kJ(kK(cols)[0])[1] == 2 && !strcmp(kS(kK(cols)[1])[0], "x"), "the table's contents");
    r0(r);
  }
  kclose(h);
  if (!bad) printf("kx client: 6 requests to a qhost server over q IPC, answered as kdb+ answers\n");
  return bad ? 1 : 0;
}
