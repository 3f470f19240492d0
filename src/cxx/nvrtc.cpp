// NVRTC and the CUDA driver API without linking either (see nvrtc.h): libnvrtc.so.13 is opened
// with dlopen (already loaded by libtorch's caffe2_nvrtc if PyTorch used it, else found beside
// the CUDA runtime that libtorch_cuda loaded, which the wheel keeps in nvidia/cu13/lib), and the
// four driver functions come from the runtime's cudaGetDriverEntryPointByVersion, so ktorch.so
// names neither library and loads on machines without them (the error comes at first use).
#ifdef KTORCH_CUDA
#include "nvrtc.h"

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace ktorch_nvrtc {
namespace {

struct Nvrtc {
  decltype(&::nvrtcCreateProgram) create = nullptr;
  decltype(&::nvrtcCompileProgram) compile = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy = nullptr;
  decltype(&::nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&::nvrtcGetProgramLog) log = nullptr;
  decltype(&::nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&::nvrtcGetCUBIN) cubin = nullptr;
  decltype(&::nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&::nvrtcGetPTX) ptx = nullptr;
  decltype(&::nvrtcGetErrorString) error = nullptr;
};

struct Driver {
  decltype(&::cuModuleLoadData) load = nullptr;
  decltype(&::cuModuleGetFunction) function = nullptr;
  decltype(&::cuLaunchKernel) launch = nullptr;
  decltype(&::cuGetErrorString) error = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy = nullptr;
  decltype(&::cuCtxGetCurrent) current = nullptr;
};

// The folder of the shared library that holds symbol `p`, with its final '/' ("" if unknown).
std::string folder_of(void* p) {
  Dl_info info;
  if (!dladdr(p, &info) || !info.dli_fname) return "";
  std::string f(info.dli_fname);
  auto slash = f.rfind('/');
  return slash == std::string::npos ? "" : f.substr(0, slash + 1);
}

// libnvrtc: by its soname first (found if loaded already or on the search path), else from the
// folder of the CUDA runtime this process uses. libnvrtc opens its builtins library by soname
// when it compiles, and the wheel's libnvrtc has no RUNPATH to find it: so the builtins of the
// same version are opened here first from libnvrtc's own folder, and found loaded then.
void* open_nvrtc() {
  void* h = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    auto dir = folder_of(reinterpret_cast<void*>(&cudaGetDriverEntryPointByVersion));
    if (!dir.empty()) h = dlopen((dir + "libnvrtc.so.13").c_str(), RTLD_NOW | RTLD_GLOBAL);
  }
  if (!h) return nullptr;
  auto version = reinterpret_cast<decltype(&::nvrtcVersion)>(dlsym(h, "nvrtcVersion"));
  int major = 0, minor = 0;
  if (version && version(&major, &minor) == NVRTC_SUCCESS) {
    auto name = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
    if (!dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) {
      auto dir = folder_of(dlsym(h, "nvrtcVersion"));
      if (!dir.empty()) dlopen((dir + name).c_str(), RTLD_NOW | RTLD_GLOBAL);
    }
  }
  return h;
}

template <typename T>
void sym(void* h, const char* name, T& out) {
  out = reinterpret_cast<T>(dlsym(h, name));
  if (!out) throw std::runtime_error(std::string("NVRTC: libnvrtc.so.13 lacks ") + name);
}

const Nvrtc& nvrtc() {
  static std::once_flag once;
  static Nvrtc n;
  static std::string failed;
  std::call_once(once, [] {
    void* h = open_nvrtc();
    if (!h) {
      const char* why = dlerror();
      failed = std::string("NVRTC not found (libnvrtc.so.13 of the torch wheel's nvidia/cu13/lib)") +
               (why ? std::string(": ") + why : std::string());
      return;
    }
    try {
      sym(h, "nvrtcCreateProgram", n.create);
      sym(h, "nvrtcCompileProgram", n.compile);
      sym(h, "nvrtcDestroyProgram", n.destroy);
      sym(h, "nvrtcGetProgramLogSize", n.log_size);
      sym(h, "nvrtcGetProgramLog", n.log);
      sym(h, "nvrtcGetCUBINSize", n.cubin_size);
      sym(h, "nvrtcGetCUBIN", n.cubin);
      sym(h, "nvrtcGetPTXSize", n.ptx_size);
      sym(h, "nvrtcGetPTX", n.ptx);
      sym(h, "nvrtcGetErrorString", n.error);
    } catch (const std::exception& e) {
      failed = e.what();
    }
  });
  if (!failed.empty()) throw std::runtime_error(failed);
  return n;
}

template <typename T>
void entry(const char* name, T& out) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  // the 12.0 ABI of these four functions (unchanged since)
  auto e = cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !f) {
    cudaGetLastError();
    throw std::runtime_error(std::string("CUDA driver: entry point ") + name + " not found (" +
                             cudaGetErrorString(e) + ")");
  }
  out = reinterpret_cast<T>(f);
}

const Driver& driver() {
  static std::once_flag once;
  static Driver d;
  static std::string failed;
  std::call_once(once, [] {
    try {
      entry("cuModuleLoadData", d.load);
      entry("cuModuleGetFunction", d.function);
      entry("cuLaunchKernel", d.launch);
      entry("cuGetErrorString", d.error);
      entry("cuOccupancyMaxActiveBlocksPerMultiprocessor", d.occupancy);
      entry("cuCtxGetCurrent", d.current);
    } catch (const std::exception& e) {
      failed = e.what();
    }
  });
  if (!failed.empty()) throw std::runtime_error(failed);
  return d;
}

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  driver().error(r, &s);
  throw std::runtime_error(std::string(what) + ": " + (s ? s : "CUDA driver error " + std::to_string(r)));
}

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string(what) + ": " + nvrtc().error(r));
}

// The program's log (compile errors and warnings).
std::string program_log(nvrtcProgram p) {
  size_t n = 0;
  if (nvrtc().log_size(p, &n) != NVRTC_SUCCESS || n <= 1) return "";
  std::string s(n, '\0');
  nvrtc().log(p, &s[0]);
  s.resize(n - 1);
  return s;
}

// The binary image of `source` for sm_<arch>: a cubin; if this NVRTC does not know the device's
// architecture (a newer GPU), PTX of the newest virtual architecture it takes, which the driver
// compiles at load.
std::string image(const std::string& source, int arch) {
  const auto& n = nvrtc();
  auto build = [&](const std::string& arch_opt, bool cubin, std::string& out) -> nvrtcResult {
    nvrtcProgram p;
    check(n.create(&p, source.c_str(), "ktorch_fused.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
    std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(&p, [](nvrtcProgram* q) { nvrtc().destroy(q); });
    const char* opts[] = {arch_opt.c_str(), "--std=c++17", "-default-device"};
    auto r = n.compile(p, 3, opts);
    if (r == NVRTC_ERROR_INVALID_OPTION) return r;
    if (r != NVRTC_SUCCESS)
      throw std::runtime_error(std::string("NVRTC: compile failed (") + n.error(r) + "): " + program_log(p));
    size_t size = 0;
    check(cubin ? n.cubin_size(p, &size) : n.ptx_size(p, &size), "NVRTC: image size");
    out.assign(size, '\0');
    check(cubin ? n.cubin(p, &out[0]) : n.ptx(p, &out[0]), "NVRTC: image");
    return r;
  };
  std::string out;
  if (build("--gpu-architecture=sm_" + std::to_string(arch), true, out) == NVRTC_SUCCESS) return out;
  if (build("--gpu-architecture=compute_" + std::to_string(arch), false, out) == NVRTC_SUCCESS) return out;
  if (build("--gpu-architecture=compute_90", false, out) == NVRTC_SUCCESS) return out;
  throw std::runtime_error("NVRTC: no architecture option accepted for sm_" + std::to_string(arch));
}

std::mutex mu;
std::map<std::pair<int, std::string>, Module>& cache() {
  static auto* m = new std::map<std::pair<int, std::string>, Module>();  // never freed: modules live on
  return *m;
}

}  // namespace

const Module& compiled(int device, const std::string& key, const std::string& source,
                       const std::vector<std::string>& names) {
  std::lock_guard<std::mutex> l(mu);
  auto it = cache().find({device, key});
  if (it != cache().end()) return it->second;
  const auto& d = driver();
  auto* p = at::cuda::getDeviceProperties(device);
  auto img = image(source, p->major * 10 + p->minor);
  c10::cuda::CUDAGuard g(static_cast<c10::DeviceIndex>(device));
  // the runtime's primary context of the device, current for this thread after the guard
  cudaFree(nullptr);
  CUmodule m;
  check(d.load(&m, img.data()), "cuModuleLoadData");
  Module out;
  for (const auto& n : names) {
    CUfunction f;
    check(d.function(&f, m, n.c_str()), ("cuModuleGetFunction " + n).c_str());
    out.functions.push_back(reinterpret_cast<void*>(f));
  }
  return cache().emplace(std::make_pair(device, key), std::move(out)).first->second;
}

void launch(void* f, unsigned grid, unsigned block, void** args) {
  auto s = at::cuda::getCurrentCUDAStream();
  // A thread that has made no runtime call yet (autograd's device thread, whose device guard
  // skips cudaSetDevice when the device number is already the current one) has no current
  // context for the driver API: cudaSetDevice binds the device's primary context (CUDA 12+).
  CUcontext c = nullptr;
  if (driver().current(&c) != CUDA_SUCCESS || !c) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaSetDevice(dev) != cudaSuccess) {
      cudaGetLastError();
      throw std::runtime_error("cuLaunchKernel: no CUDA context for this thread");
    }
  }
  check(driver().launch(reinterpret_cast<CUfunction>(f), grid, 1, 1, block, 1, 1, 0,
                        reinterpret_cast<CUstream>(s.stream()), args, nullptr),
        "cuLaunchKernel");
}

int resident_blocks(void* f, int block) {
  int n = 0;
  check(driver().occupancy(&n, reinterpret_cast<CUfunction>(f), block, 0),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return n;
}

int multiprocessors(int device) {
  return at::cuda::getDeviceProperties(device)->multiProcessorCount;
}

}  // namespace ktorch_nvrtc
#endif
