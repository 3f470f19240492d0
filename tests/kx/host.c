// ktorch.so hosted on KX's own k.h library (libe.so from PyPI's pykx, in its unlicensed mode:
// allocator, symbols, errors, serialisation; no q evaluation): scripts/kx-libe.sh.
// libe.so has no `dl` and no `dot`; the two stand-ins below give `fns` a (pointer;arity) pair per
// function and refuse a call back into q. `krr` is KX's, wrapped to note that an error was made.
// usage: host KTORCH.SO CALLS.HEX [WIRE.HEX]  -> prints, per call, `name ok HEX` or `name error TEXT` (as
// tests/kx/calls.q prints on qhost), then checks reference counts around every call and resident
// memory over a long loop.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "k.h"  /* KX's, from the pykx wheel */

typedef K (*F1)(K);
K dl(void* f, long long n) { return knk(2, kj((long long)(size_t)f), kj(n)); }
K dot(K f, K x) { (void)f; (void)x; return krr("dot: no q evaluation on libe"); }
static int erred;
static char errtext[4096];
K krr(const char* s) {
  static K (*real)(const char*);
  if (!real) real = (K(*)(const char*))dlsym(RTLD_NEXT, "krr");
  erred = 1;
  snprintf(errtext, sizeof errtext, "%s", s ? s : "");
  return real(s);
}

static long rss_kb(void) {
  FILE* f = fopen("/proc/self/statm", "r"); long a = 0, b = 0;
  if (f) { if (fscanf(f, "%ld %ld", &a, &b) != 2) b = 0; fclose(f); }
  return b * 4;
}

// a function of the `fns` dictionary by its q name (its value: the pair dl made)
static F1 lookup(K names, K fs, const char* q) {
  for (long long j = 0; j < names->n; j++)
    if (!strcmp(kS(names)[j], q)) return (F1)(size_t)kK(kK(fs)[j])[0]->j;
  return 0;
}

static void hex(K r) {
  K b = b9(3, r);
  for (long long i = 0; b && i < b->n; i++) printf("%02x", kG(b)[i]);
  if (b) r0(b);
}

// q IPC messages as qhost writes them (WIRE.HEX, one -8! a line): KX's d9 reads each and its b9
// writes it back; any byte that differs is a difference from kdb+'s wire form. Answers failures.
static int wire(const char* path) {
  FILE* f = fopen(path, "r");
  if (!f) { fprintf(stderr, "cannot read %s\n", path); return 1; }
  char line[65536]; int n = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    size_t len = strcspn(line, "\r\n"); line[len] = 0;
    if (!len) continue;
    K raw = ktn(KG, 0); unsigned int c;
    for (size_t i = 0; i + 1 < len; i += 2) { sscanf(line + i, "%2x", &c); unsigned char g = (unsigned char)c; ja(&raw, &g); }
    K x = d9(raw); r0(raw); n++;
    K b = x ? b9(3, x) : 0;
    char back[65536]; size_t k = 0;
    for (long long i = 0; b && i < b->n && k + 2 < sizeof back; i++) k += sprintf(back + k, "%02x", kG(b)[i]);
    back[k] = 0;
    if (!b || strcmp(back, line)) { fprintf(stderr, "wire: qhost wrote %s, KX's b9 of it %s\n", line, back); bad++; }
    if (b) r0(b);
    if (x) r0(x);
  }
  fclose(f);
  printf("wire: %d messages, read and rewritten by KX's library to the same bytes\n", n - bad);
  return bad;
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: host KTORCH.SO CALLS.HEX\n"); return 2; }
  khp("", -1);
  void* h = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 2; }
  F1 fns = (F1)dlsym(h, "fns");
  K d = fns(ktn(0, 0)), names = kK(d)[0], fs = kK(d)[1];
  FILE* f = fopen(argv[2], "rb");
  if (!f) { fprintf(stderr, "cannot read %s\n", argv[2]); return 2; }
  K raw = ktn(KG, 0); unsigned int c;
  while (fscanf(f, "%2x", &c) == 1) { unsigned char g = (unsigned char)c; ja(&raw, &g); }
  fclose(f);
  K calls = d9(raw); r0(raw);
  int bad = 0;
  #define FN(q) lookup(names, fs, q)
  for (long long i = 0; i < calls->n; i++) {
    // (name;argument), or a symbol vector `name`arg where the argument is a symbol
    K call = kK(calls)[i], arg;
    char* name;
    if (call->t == KS) name = kS(call)[0], arg = ks(kS(call)[1]);
    else name = kK(call)[0]->s, arg = r1(kK(call)[1]);
    F1 fn = FN(name);
    if (!fn) { printf("%s missing\n", name); r0(arg); bad++; continue; }
    // the argument's count: unchanged once the result (which may be the argument) is released
    int before = arg->r; erred = 0;
    K r = fn(arg);
    if (erred) printf("%s error %s\n", name, errtext);
    else {
      printf("%s ok ", name);
      if (r) { hex(r); r0(r); } else { K n = ka(101); n->g = 0; hex(n); r0(n); }
      printf("\n");
    }
    if (arg->r != before) { fprintf(stderr, "%s: argument's reference count %d before, %d after\n", name, before, arg->r); bad++; }
    r0(arg);
  }
  { K n = ka(101); n->g = 0; FN("free")(n); r0(n); }  // free[]: what the calls left
  // memory over a long loop: make, square, read back and free a tensor 200,000 times
  F1 tensor = FN("tensor"), mul = FN("mul"), fre = FN("free");
  long m0 = 0;
  for (int i = 0; i < 200000; i++) {
    if (i == 20000) m0 = rss_kb();
    K x = ktn(KF, 64); for (int j = 0; j < 64; j++) kF(x)[j] = j;
    K t = tensor(x); r0(x);
    K p = knk(2, r1(t), r1(t)); K y = mul(p); r0(p);
    erred = 0;
    K v = tensor(y);
    if (i == 0 && (erred || !v || v->t != KF || v->n != 64 || kF(v)[3] != 9)) {
      fprintf(stderr, "loop: tensor(mul(t;t)) is not the squares\n"); bad++; break;
    }
    r0(v);
    K fl = knk(2, t, y); fre(fl); r0(fl);
  }
  long m1 = rss_kb();
  K left = FN("obj")(ktn(0, 0));
  if (!left || kK(kK(left->k)[1])[0]->n) { fprintf(stderr, "objects left after the loop\n"); bad++; }
  if (left) r0(left);
  fprintf(stderr, "memory: %ld kB after 20,000 cycles, %ld kB after 200,000\n", m0, m1);
  if (m1 - m0 > 20000) { fprintf(stderr, "memory grew by %ld kB\n", m1 - m0); bad++; }
  r0(calls); r0(d);
  if (argc > 3) bad += wire(argv[3]);
  return bad ? 1 : 0;
}
