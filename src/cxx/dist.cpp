// Process groups of libtorch's c10d for q (docs/dist.md): a rendezvous store (TCP or file), a
// Gloo backend (CPU tensors) or an NCCL one (CUDA tensors, when built with the CUDA and NCCL
// headers), and the collectives ktorch uses: allreduce, broadcast, allgather, reduce-scatter,
// barrier. Every entry point catches every C++ exception (attempt.h) and answers 0, or -1 with
// the message kept for ktorch_last_error. Every wait is bounded by the group's timeout, so a rank
// that never arrives or a peer that dies is an error, never a hang.
//
// The wheel ships c10d's headers but not gloo's: gloo_decl/ declares the few gloo names that
// ProcessGroupGloo.hpp mentions (see gloo_decl/gloo/README). Backends are made with room to spare
// (make_padded) so that a member this build's headers would not see cannot overrun the object.
#include "dist_group.h"

namespace {

// A new T in memory 4 KiB larger than this build's sizeof(T), owned by an intrusive_ptr (its
// delete frees it as usual: operator new's memory, the real destructor through the vtable).
template <typename T, typename... A>
c10::intrusive_ptr<T> make_padded(A&&... a) {
  void* mem = ::operator new(sizeof(T) + 4096);
  std::memset(mem, 0, sizeof(T) + 4096);
  T* p;
  try {
    p = new (mem) T(std::forward<A>(a)...);
  } catch (...) {
    ::operator delete(mem);
    throw;
  }
  return c10::intrusive_ptr<T>::unsafe_steal_from_new(p);
}

bool loopback(const std::string& h) { return h == "localhost" || h.rfind("127.", 0) == 0 || h == "::1"; }

void check_devices(Group* g, at::Tensor** ts, int n) {
  for (int i = 0; i < n; i++) {
    TORCH_CHECK(ts[i]->defined(), "undefined tensor");
    if (g->nccl) {
      TORCH_CHECK(ts[i]->is_cuda(), "the nccl backend needs CUDA tensors, given a tensor on ", ts[i]->device());
    } else {
      TORCH_CHECK(ts[i]->is_cpu(), "the gloo backend needs CPU tensors, given a tensor on ", ts[i]->device());
    }
    TORCH_CHECK(ts[i]->is_contiguous(), "collectives need contiguous tensors");
    TORCH_CHECK(!ts[i]->is_sparse(), "collectives need dense tensors");
  }
}

}  // namespace

extern "C" {
int ktorch_dist_has_nccl() {
#ifdef KTORCH_NCCL
  return 1;
#else
  return 0;
#endif
}

// A group of `size` ranks, this one `rank`: rendezvous through a TCP store at host:port (rank 0
// serves it) or, when `file` is not null, a file store at that path; backend Gloo (nccl 0) or
// NCCL. Every wait (rendezvous, collectives) gives up after timeout_ms.
int ktorch_dist_init(int nccl, const char* host, int port, const char* file, int rank, int size, long timeout_ms,
                     void** r) {
  return attempt([&] {
    *r = nullptr;
    auto timeout = std::chrono::milliseconds(timeout_ms);
    c10::intrusive_ptr<c10d::Store> store;
    std::string h = host ? host : "127.0.0.1";
    if (file) {
      store = c10::make_intrusive<c10d::FileStore>(std::string(file), size);
      store->setTimeout(timeout);
    } else {
      c10d::TCPStoreOptions o;
      o.port = static_cast<std::uint16_t>(port);
      o.isServer = rank == 0;
      o.numWorkers = size;
      o.waitWorkers = true;
      o.timeout = timeout;
      store = c10::make_intrusive<c10d::TCPStore>(h, o);
    }
    auto g = new Group{store, {}, timeout, nccl != 0};
    try {
      if (nccl) {
#ifdef KTORCH_NCCL
        // A blocking wait makes Work::wait block this thread and throw at the timeout, instead of
        // the watchdog ending the process (torch's default for NCCL).
        setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 0);
        auto o = make_padded<c10d::ProcessGroupNCCL::Options>(false);
        o->timeout = timeout;
        g->backend = make_padded<c10d::ProcessGroupNCCL>(c10::make_intrusive<c10d::PrefixStore>("nccl", store), rank,
                                                         size, o);
#else
        TORCH_CHECK(false, "nccl: this build of ktorch has no NCCL (needs libtorch with CUDA and the NCCL headers)");
#endif
      } else {
        auto o = make_padded<c10d::ProcessGroupGloo::Options>(timeout);
        // The device gloo's ranks talk over: GLOO_SOCKET_IFNAME's interface when set (as
        // torch.distributed), the rendezvous host when it is loopback (one host), else the
        // address this host's name resolves to.
        const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
        if (ifname && *ifname)
          o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
        else if (!file && loopback(h))
          o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(h));
        else
          o->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        g->backend = make_padded<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::PrefixStore>("gloo", store),
                                                         rank, size, o);
      }
    } catch (...) {
      delete g;
      throw;
    }
    {
      std::lock_guard<std::mutex> l(live_mu());
      live_groups()[g->id] = g;
    }
    *r = g;
  });
}

// End a group: NCCL's communicators shut down as torch.distributed.destroy_process_group does
// (shutdown: pending work finished, communicators destroyed), or aborted when a collective has
// failed (ncclCommAbort: peers may be gone, nothing waits on them). Gloo's backend has nothing
// to shut down (Backend's no-op): its pairs close as it is freed. The group is freed whatever
// the shutdown answers; its error, if any, is the answer.
int ktorch_dist_free(void* p) {
  auto g = static_cast<Group*>(p);
  {
    // no longer found for settling (that waits for a settle in progress to end)
    std::lock_guard<std::mutex> l(live_mu());
    live_groups().erase(g->id);
  }
  int rc = attempt([&] {
    if (!g->backend) return;
    if (g->failed) {
      g->backend->abort();
    } else {
      try {
        g->backend->shutdown();
      } catch (...) {
        g->backend->abort();
        throw;
      }
    }
  });
  std::string kept = last_error;
  int rc2 = attempt([&] { delete g; });
  if (rc != 0) last_error = kept;
  return rc != 0 ? rc : rc2;
}

// Whether a collective of the group has failed (a dead or stalled peer).
int ktorch_dist_failed(void* p) { return static_cast<Group*>(p)->failed ? 1 : 0; }

// Reduce each of n tensors in place across the ranks (op: 0 sum, 1 avg, 2 prod, 3 min, 4 max):
// every collective is started, then every one waited for.
int ktorch_dist_allreduce(void* p, at::Tensor** ts, int n, int op) {
  return attempt([&] {
    auto g = static_cast<Group*>(p);
    check_devices(g, ts, n);
    std::vector<c10::intrusive_ptr<c10d::Work>> ws;
    std::vector<bool> avg;
    for (int i = 0; i < n; i++) {
      int o = op;
      avg.push_back(sum_for_avg(g, o, ts[i]));
      std::vector<at::Tensor> v{*ts[i]};
      c10d::AllreduceOptions opts;
      opts.reduceOp = reduce_op(o);
      opts.timeout = g->timeout;
      ws.push_back(g->backend->allreduce(v, opts));
    }
    for (int i = 0; i < n; i++) {
      finish(g, ws[i]);
      if (avg[i]) ts[i]->div_(g->backend->getSize());
    }
  });
}

// Each of n tensors in place from rank `root`.
int ktorch_dist_broadcast(void* p, at::Tensor** ts, int n, int root) {
  return attempt([&] {
    auto g = static_cast<Group*>(p);
    check_devices(g, ts, n);
    TORCH_CHECK(root >= 0 && root < g->backend->getSize(), "root rank ", root, " out of range for ", g->backend->getSize(), " ranks");
    std::vector<c10::intrusive_ptr<c10d::Work>> ws;
    for (int i = 0; i < n; i++) {
      std::vector<at::Tensor> v{*ts[i]};
      c10d::BroadcastOptions opts;
      opts.rootRank = root;
      opts.timeout = g->timeout;
      ws.push_back(g->backend->broadcast(v, opts));
    }
    for (auto& w : ws) finish(g, w);
  });
}

// Every rank's x stacked along a new first dimension, in rank order: a new tensor in *r.
int ktorch_dist_allgather(void* p, at::Tensor* x, at::Tensor** r) {
  return attempt([&] {
    auto g = static_cast<Group*>(p);
    *r = nullptr;
    check_devices(g, &x, 1);
    std::vector<at::Tensor> in{*x};
    std::vector<std::vector<at::Tensor>> out(1);
    for (int i = 0; i < g->backend->getSize(); i++) out[0].push_back(at::empty_like(*x));
    c10d::AllgatherOptions opts;
    opts.timeout = g->timeout;
    finish(g, g->backend->allgather(out, in, opts));
    *r = new at::Tensor(at::stack(out[0], 0));
  });
}

// x split along its first dimension into one block per rank; every rank gets its block reduced
// across the ranks: a new tensor in *r.
int ktorch_dist_reducescatter(void* p, at::Tensor* x, int op, at::Tensor** r) {
  return attempt([&] {
    auto g = static_cast<Group*>(p);
    *r = nullptr;
    check_devices(g, &x, 1);
    auto n = g->backend->getSize();
    TORCH_CHECK(x->dim() > 0 && x->size(0) % n == 0, "the first dimension (",
                x->dim() ? x->size(0) : 0, ") must be a multiple of the number of ranks (", n, ")");
    bool avg = sum_for_avg(g, op, x);
    std::vector<std::vector<at::Tensor>> in(1);
    for (auto& c : x->chunk(n, 0)) in[0].push_back(c.contiguous());
    std::vector<at::Tensor> out{at::empty_like(in[0][0])};
    c10d::ReduceScatterOptions opts;
    opts.reduceOp = reduce_op(op);
    opts.timeout = g->timeout;
    finish(g, g->backend->reduce_scatter(out, in, opts));
    if (avg) out[0].div_(n);
    *r = new at::Tensor(out[0]);
  });
}

int ktorch_dist_barrier(void* p) {
  return attempt([&] {
    auto g = static_cast<Group*>(p);
    c10d::BarrierOptions opts;
    opts.timeout = g->timeout;
    finish(g, g->backend->barrier(opts));
  });
}
}
