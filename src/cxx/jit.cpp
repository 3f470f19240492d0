// What tch's CModule does not give for a TorchScript module held as a ktorch module: its buffers,
// setting its training flag from a shared reference, and an independent deep copy. Each entry
// point takes the torch::jit::Module* that tch's CModule holds (tch new's one per load), catches
// every C++ exception and answers 0, or -1 with the message kept for ktorch_last_error.
#include <torch/script.h>
#include <cstdlib>
#include <cstring>

#include "attempt.h"

extern "C" {
// Every buffer (recursively, with PyTorch's dotted names), handed to `f` one at a time as a new'd
// tensor owned by the caller.
int ktorch_jit_buffers(torch::jit::Module* m, void* data, void (*f)(void*, const char*, at::Tensor*)) {
  return attempt([&] {
    for (const auto& b : m->named_buffers(true)) f(data, b.name.c_str(), new at::Tensor(b.value));
  });
}

// Every parameter (recursively, dotted names), as ktorch_jit_buffers.
int ktorch_jit_parameters(torch::jit::Module* m, void* data, void (*f)(void*, const char*, at::Tensor*)) {
  return attempt([&] {
    for (const auto& p : m->named_parameters(true)) f(data, p.name.c_str(), new at::Tensor(p.value));
  });
}

// The training flag of the module and every submodule (PyTorch's train(flag)).
int ktorch_jit_train(torch::jit::Module* m, int on) {
  return attempt([&] { m->train(on != 0); });
}

// An independent copy: every tensor attribute copied. The copy is made without gradient
// recording (a clone of a leaf that requires gradients would otherwise be a non-leaf), then each
// parameter gets back its gradient requirement.
int ktorch_jit_clone(torch::jit::Module* m, torch::jit::Module** r) {
  return attempt([&] {
    torch::jit::Module c;
    {
      torch::NoGradGuard g;
      c = m->deepcopy();
    }
    auto src = m->named_parameters(true);
    auto dst = c.named_parameters(true);
    auto s = src.begin();
    for (auto d = dst.begin(); d != dst.end() && s != src.end(); ++d, ++s) {
      at::Tensor t = (*d).value;
      t.detach_();
      t.requires_grad_((*s).value.requires_grad());
    }
    *r = new torch::jit::Module(c);
  });
}

// The module's code as TorchScript prints it (its forward), for `str`.
int ktorch_jit_code(torch::jit::Module* m, char** r) {
  return attempt([&] {
    std::string s = m->dump_to_str(true, false, false);
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (!p) throw std::runtime_error("out of memory");
    std::memcpy(p, s.c_str(), s.size() + 1);
    *r = p;
  });
}
}
