/* The variadic part of k.h, which stable Rust cannot define: knk, k and their va_list forms
 * vaknk, vak. Each gathers its K arguments into an array and hands it to Rust
 * (qhost_knk / qhost_k in exports.rs), which owns all semantics. */
#include <stdarg.h>
#include <stdlib.h>

typedef struct k0 *K;
typedef char *S;

/* Defined in src/kapi/exports.rs. */
extern K qhost_knk(int n, K *items);
extern K qhost_k(int h, const char *s, K *args, int n);

/* q's k() takes at most 8 arguments after the text (then a (K)0 terminator). */
#define KMAXARGS 8

K vaknk(int n, va_list ap) {
    K small[16];
    K *items = n > 16 ? malloc(sizeof(K) * (size_t)n) : small;
    if (!items) return qhost_knk(-1, 0); /* out of memory: Rust aborts with a message */
    for (int i = 0; i < n; i++) items[i] = va_arg(ap, K);
    K r = qhost_knk(n, items);
    if (items != small) free(items);
    return r;
}

K knk(int n, ...) {
    va_list ap;
    va_start(ap, n);
    K r = vaknk(n, ap);
    va_end(ap);
    return r;
}

/* Reads arguments until the (K)0 terminator; more than KMAXARGS is q's 'rank, passed on as
 * n = KMAXARGS + 1 so that Rust releases the ones read and answers the error. */
K vak(int h, const char *s, va_list ap) {
    K args[KMAXARGS + 1];
    int n = 0;
    K x;
    while ((x = va_arg(ap, K)) != 0) {
        if (n == KMAXARGS + 1) break;
        args[n++] = x;
    }
    return qhost_k(h, s, args, n);
}

K k(int h, const S s, ...) {
    va_list ap;
    va_start(ap, s);
    K r = vak(h, s, ap);
    va_end(ap);
    return r;
}
