// The process group shared by the c10d shim files (dist.cpp: groups and collectives;
// dist_reducer.cpp: gradient buckets reduced during the backward pass), and the helpers both use.
#pragma once
#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef KTORCH_NCCL
#define USE_C10D_NCCL 1
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "attempt.h"

// A group: the store (kept alive for the backend), the backend, the timeout of every wait, and
// whether a collective has failed (the group is then unusable: distend aborts it rather than
// shutting it down, which would wait on peers that are gone).
struct Group {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::Backend> backend;
  std::chrono::milliseconds timeout;
  bool nccl;
  std::atomic<bool> failed{false};
  // this group among all made in the process: a reducer's collectives left to the GPU belong to
  // the group that issued them, not to a later group at the same address
  uint64_t id = next_id();
  static uint64_t next_id() {
    static std::atomic<uint64_t> n{0};
    return ++n;
  }
};

// The live groups by id: made by ktorch_dist_init, removed by ktorch_dist_free before it ends
// one. A reducer's collectives left to the GPU are settled before a host read with the group
// that issued them, if it is still live (ktorch_dist_settle_pending).
inline std::mutex& live_mu() {
  static std::mutex m;
  return m;
}
inline std::map<uint64_t, Group*>& live_groups() {
  static std::map<uint64_t, Group*> m;
  return m;
}

inline c10d::ReduceOp reduce_op(int op) {
  switch (op) {
    case 0: return c10d::ReduceOp(c10d::ReduceOp::SUM);
    case 1: return c10d::ReduceOp(c10d::ReduceOp::AVG);
    case 2: return c10d::ReduceOp(c10d::ReduceOp::PRODUCT);
    case 3: return c10d::ReduceOp(c10d::ReduceOp::MIN);
    default: return c10d::ReduceOp(c10d::ReduceOp::MAX);
  }
}

// Wait for a collective within the group's timeout; its error (a dead peer) is thrown here, and
// marks the group failed.
inline void finish(Group* g, const c10::intrusive_ptr<c10d::Work>& w) {
  try {
    if (!w->wait(g->timeout)) TORCH_CHECK(false, "collective timed out after ", g->timeout.count(), "ms");
  } catch (...) {
    g->failed = true;
    throw;
  }
}

// Gloo has no average: sum, then divide (floating types only, as torch.distributed's ReduceOp.AVG).
inline bool sum_for_avg(Group* g, int& op, const at::Tensor* t) {
  if (op != 1) return false;
  TORCH_CHECK(at::isFloatingType(t->scalar_type()) || at::isComplexType(t->scalar_type()),
              "avg needs a floating tensor, given ", t->scalar_type());
  if (g->nccl) return false;
  op = 0;
  return true;
}
