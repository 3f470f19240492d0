// What tch does not wrap for activation and normalization layers: the scalar options of elu,
// celu, leaky_relu, hardshrink, softshrink, hardtanh, softplus and rrelu (tch's generated
// functions drop every scalar that has a default), and libtorch's local response norm and
// cross-map LRN, which are C++ API functions rather than ATen operators. Errors as in
// linalg.cpp: 0, or -1 with the message kept for ktorch_last_error. New tensors come back in `r`.
#include <ATen/ATen.h>
#include <torch/nn/functional/normalization.h>
#include <torch/nn/modules/normalization.h>

#include "attempt.h"

extern "C" {
// op: 0 elu(alpha a), 1 celu(alpha a), 2 leaky_relu(slope a), 3 hardshrink(lambda a),
// 4 softshrink(lambda a), 5 hardtanh(min a, max b), 6 softplus(beta a, threshold b),
// 7 rrelu(lower a, upper b, training). In place where asked (ops 0, 1, 2, 5, 7).
int ktorch_act(int op, at::Tensor* x, double a, double b, int training, int inplace, at::Tensor** r) {
  return attempt([&] {
    at::Tensor& t = *x;
    bool in = inplace != 0;
    at::Tensor y;
    switch (op) {
      case 0: y = in ? at::elu_(t, a) : at::elu(t, a); break;
      case 1: y = in ? at::celu_(t, a) : at::celu(t, a); break;
      case 2: y = in ? at::leaky_relu_(t, a) : at::leaky_relu(t, a); break;
      case 3: y = at::hardshrink(t, a); break;
      case 4: y = at::softshrink(t, a); break;
      case 5: y = in ? at::hardtanh_(t, a, b) : at::hardtanh(t, a, b); break;
      case 6: y = at::softplus(t, a, b); break;
      default: y = in ? at::rrelu_(t, a, b, training != 0) : at::rrelu(t, a, b, training != 0); break;
    }
    *r = new at::Tensor(y);
  });
}

// cross 0: local_response_norm(x, size, alpha, beta, k); 1: CrossMapLRN2d (k an integer).
int ktorch_lrn(int cross, at::Tensor* x, long size, double alpha, double beta, double k, at::Tensor** r) {
  return attempt([&] {
    at::Tensor y;
    if (cross) {
      // the module's forward: libtorch exports it, not the autograd function it calls
      torch::nn::CrossMapLRN2dImpl m(torch::nn::CrossMapLRN2dOptions(size).alpha(alpha).beta(beta).k((int64_t)k));
      y = m.forward(*x);
    } else {
      y = torch::nn::functional::detail::local_response_norm(*x, size, alpha, beta, k);
    }
    *r = new at::Tensor(y);
  });
}
}
