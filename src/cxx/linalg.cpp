// What tch does not wrap for linear algebra: the beta/alpha multipliers of addbmm, addmm, addmv,
// addr and baddbmm (with and without an output tensor), and the optional driver names of svd,
// svdvals and lstsq (tch passes a string where libtorch wants "no driver"). Each entry point
// takes tch's C_tensor pointers (at::Tensor*), catches every C++ exception and answers 0, or -1
// with the message kept for ktorch_last_error. New tensors come back through `r` (new'd, owned
// by the caller as tch tensors).
#include <ATen/ATen.h>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attempt.h"

// A q number as a Scalar: a float (f!=0) or an integer.
static at::Scalar scalar(int f, double d, long j) { return f ? at::Scalar(d) : at::Scalar((int64_t)j); }

static c10::optional<c10::string_view> driver(const char* s) {
  return s ? c10::optional<c10::string_view>(c10::string_view(s)) : c10::nullopt;
}

extern "C" {
// mode: 0 addbmm, 1 addmm, 2 addmv, 3 addr, 4 baddbmm; beta*x + alpha*f(y,z), into out when
// out is not null (then *r is left null).
int ktorch_addmm(int mode, at::Tensor* out, at::Tensor* x, at::Tensor* y, at::Tensor* z, int bf, double bd, long bj,
                 int af, double ad, long aj, at::Tensor** r) {
  return attempt([&] {
    auto b = scalar(bf, bd, bj), a = scalar(af, ad, aj);
    if (out) {
      switch (mode) {
        case 0: at::addbmm_out(*out, *x, *y, *z, b, a); break;
        case 1: at::addmm_out(*out, *x, *y, *z, b, a); break;
        case 2: at::addmv_out(*out, *x, *y, *z, b, a); break;
        case 3: at::addr_out(*out, *x, *y, *z, b, a); break;
        default: at::baddbmm_out(*out, *x, *y, *z, b, a); break;
      }
      *r = nullptr;
    } else {
      at::Tensor t;
      switch (mode) {
        case 0: t = at::addbmm(*x, *y, *z, b, a); break;
        case 1: t = at::addmm(*x, *y, *z, b, a); break;
        case 2: t = at::addmv(*x, *y, *z, b, a); break;
        case 3: t = at::addr(*x, *y, *z, b, a); break;
        default: t = at::baddbmm(*x, *y, *z, b, a); break;
      }
      *r = new at::Tensor(t);
    }
  });
}

// linalg_svd(a, full, driver): U, S, Vh into r[0..2]; driver may be null.
int ktorch_svd(at::Tensor* a, int full, const char* d, at::Tensor** r) {
  return attempt([&] {
    auto t = at::linalg_svd(*a, full != 0, driver(d));
    r[0] = new at::Tensor(std::get<0>(t));
    r[1] = new at::Tensor(std::get<1>(t));
    r[2] = new at::Tensor(std::get<2>(t));
  });
}

// linalg_svdvals(a, driver), into out when not null.
int ktorch_svdvals(at::Tensor* out, at::Tensor* a, const char* d, at::Tensor** r) {
  return attempt([&] {
    if (out) {
      at::linalg_svdvals_out(*out, *a, driver(d));
      *r = nullptr;
    } else {
      *r = new at::Tensor(at::linalg_svdvals(*a, driver(d)));
    }
  });
}

// linalg_lstsq(a, b, rcond, driver): solution, residuals, rank, singular values into r[0..3].
int ktorch_lstsq(at::Tensor* a, at::Tensor* b, int has_rcond, double rcond, const char* d, at::Tensor** r) {
  return attempt([&] {
    auto t = at::linalg_lstsq(*a, *b, has_rcond ? c10::optional<double>(rcond) : c10::nullopt, driver(d));
    r[0] = new at::Tensor(std::get<0>(t));
    r[1] = new at::Tensor(std::get<1>(t));
    r[2] = new at::Tensor(std::get<2>(t));
    r[3] = new at::Tensor(std::get<3>(t));
  });
}
}
