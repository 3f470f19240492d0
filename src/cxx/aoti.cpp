// AOTInductor packages (.pt2 files made by torch._inductor.aoti_compile_and_package) through
// libtorch's AOTIModelPackageLoader: it unpacks the package into a temporary folder and dlopens
// the compiled model library inside it (no compiler is needed at load time: the package holds
// the .so built when Python compiled it). Each entry point catches every C++ exception and
// answers 0, or -1 with the message kept for ktorch_last_error.
#include <ATen/ATen.h>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include "attempt.h"

using torch::inductor::AOTIModelPackageLoader;

static char* copy(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (!p) throw std::runtime_error("out of memory");
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// A package's model library names libtorch.so as a dependency, which a Python process has loaded
// already but ktorch.so (linked to libtorch_cpu.so) has not: load it, from the folder of the
// libtorch_cpu.so this process uses, so that the dependency resolves to the same libtorch.
static void load_libtorch() {
  static bool done = false;
  if (done) return;
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&AOTIModelPackageLoader::load_metadata_from_package), &info) || !info.dli_fname)
    throw std::runtime_error("cannot find the folder of libtorch_cpu.so");
  std::string dir(info.dli_fname);
  dir = dir.substr(0, dir.find_last_of('/'));
  if (!dlopen((dir + "/libtorch.so").c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char* e = dlerror();
    throw std::runtime_error(std::string("cannot load libtorch.so beside libtorch_cpu.so: ") + (e ? e : "?"));
  }
  done = true;
}

extern "C" {
// Load the model `name` ("model" by default) of package `path`; device_index -1 for the package's
// own device. The package's device ("cpu", "cuda", ...) comes back in `dev` (malloc'd).
int ktorch_aoti_load(const char* path, const char* name, int device_index, void** r, char** dev) {
  return attempt([&] {
    load_libtorch();
    // the compiled model checks its inputs' sizes, strides and types only when asked: a call with
    // the wrong shape must be an error, not a read past a buffer
    setenv("AOTI_RUNTIME_CHECK_INPUTS", "1", 0);
    auto* l = new AOTIModelPackageLoader(path, name ? name : "model", false, 1, (c10::DeviceIndex)device_index);
    try {
      auto md = l->get_metadata();
      auto it = md.find("AOTI_DEVICE_KEY");
      *dev = copy(it == md.end() ? std::string("cpu") : it->second);
    } catch (...) {
      delete l;
      throw;
    }
    *r = l;
  });
}

void ktorch_aoti_free(void* l) {
  try {
    delete static_cast<AOTIModelPackageLoader*>(l);
  } catch (...) {
  }
}

// Run the model on n inputs; the outputs come back as a malloc'd array of new'd tensors.
int ktorch_aoti_run(void* l, at::Tensor** x, int n, at::Tensor*** r, int* nr) {
  return attempt([&] {
    std::vector<at::Tensor> in;
    for (int i = 0; i < n; i++) in.push_back(*x[i]);
    auto out = static_cast<AOTIModelPackageLoader*>(l)->run(in);
    auto** p = static_cast<at::Tensor**>(std::malloc(sizeof(at::Tensor*) * (out.size() ? out.size() : 1)));
    if (!p) throw std::runtime_error("out of memory");
    for (size_t i = 0; i < out.size(); i++) p[i] = new at::Tensor(out[i]);
    *r = p;
    *nr = (int)out.size();
  });
}

// The package's metadata as "key=value" lines (malloc'd).
int ktorch_aoti_metadata(void* l, char** r) {
  return attempt([&] {
    std::string s;
    for (const auto& kv : static_cast<AOTIModelPackageLoader*>(l)->get_metadata()) s += kv.first + "=" + kv.second + "\n";
    *r = copy(s);
  });
}
}
