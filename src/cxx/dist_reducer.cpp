// Gradient buckets reduced during the backward pass, as DistributedDataParallel's Reducer does
// (torch/csrc/distributed/c10d/reducer.cpp): the parameters are put in buckets (reverse order,
// the order in which the backward pass tends to reach them; one dtype and device a bucket, up to
// a byte size), a hook after each parameter's gradient accumulator marks it ready, and when
// every gradient of a bucket is ready the bucket is flattened and its all-reduce (average) is
// started at once, while the backward pass goes on. Buckets start in their order on every rank
// (a ready bucket waits for the ones before it), so the ranks issue their collectives alike.
// After the backward pass, `finish` waits for every bucket and writes the averages back into the
// gradients. With NCCL that wait is the GPU's, not the host's: the current stream waits for the
// collective's end (WorkNCCL::synchronizeStream) and the averages are written back on it, so the
// host goes on to the optimizer step and the next batch while the GPU still reduces (with the
// host waiting here, as `Work::wait` does under TORCH_NCCL_BLOCKING_WAIT, the GPU drained at the
// end of every backward pass: 4 ms of a 100 ms fp32 step on an H200, more than the all-reduce).
// Those collectives are then `settle`d on the host, with the group's timeout (a dead peer is a
// q error there, as before): by the next `finish`, once the next step's forward and backward
// passes are queued behind them, or before the model reads a value back (`settle`).
//
// DDP's tuning options: the first bucket (the last parameters, whose gradients come first) may
// have a smaller cap than the others (first_bucket_bytes_cap), so the first all-reduce starts
// early; with `views` (gradient_as_bucket_view) each bucket is one flat tensor kept from step to
// step and each gradient is made a view of it as soon as it is ready (copied once when the
// autograd engine made it anew, not at all when it accumulated into the view), so a bucket is
// all-reduced in place, with no gathering copy and no copy back; with `compress` (bf16_compress_
// hook, fp16_compress_hook) a bucket travels as bfloat16 or half, divided by the number of ranks
// before the sum across them, and is cast back into the gradients. The hooks do nothing unless the reducer is armed (`prepare` .. `finish`): a backward
// pass outside a synchronising step leaves the gradients alone.
//
// Every entry point catches every C++ exception (attempt.h); an exception in a hook (a failed
// collective) ends the backward pass with that error.
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "dist_group.h"

namespace {

struct Reducer;

// The reducers whose last finish left collectives to the GPU, settled before any host read of
// a CUDA value (ktorch_dist_settle_pending: `tensor` of a gradient between steps, `sync`), so
// that a dead peer is an error there at the timeout, not a read that waits without end on a
// stream that waits on the peer. Lock order: pending_mu, then a reducer's mu, then live_mu.
std::mutex pending_mu;
std::set<Reducer*> pending_reducers;
std::atomic<size_t> pending_count{0};

// Called by the autograd engine after parameter i's gradient has been accumulated.
struct ReadyHook : torch::autograd::FunctionPostHook {
  Reducer* r;
  size_t i;
  ReadyHook(Reducer* r, size_t i) : r(r), i(i) {}
  torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                            const torch::autograd::variable_list& inputs) override;
};

struct Reducer {
  std::vector<at::Tensor> params;
  // each parameter's gradient accumulator (kept alive, as DDP does) and its hook's key
  std::vector<std::shared_ptr<torch::autograd::Node>> accs;
  std::vector<uintptr_t> keys;
  std::vector<std::vector<size_t>> buckets;  // parameter indices, in flattening order
  std::vector<size_t> bucket_of;
  long cap, first_cap;
  bool views;
  int compress;  // 0 none, 1 bfloat16, 2 half
  std::vector<at::Tensor> buffers;       // with views: each bucket's flat gradients, kept
  std::vector<at::Tensor> bucket_views;  // with views: each parameter's place in its bucket

  // one backward pass
  std::mutex mu;
  Group* g = nullptr;  // armed when set
  std::vector<size_t> pending;
  std::vector<bool> ready, seen;
  size_t next = 0;
  std::vector<at::Tensor> flats;
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  std::vector<bool> avg;

  // the collectives the last finish left to the GPU, and the group (id) that issued them
  std::vector<c10::intrusive_ptr<c10d::Work>> outstanding;
  uint64_t outstanding_group = 0;

  Reducer(at::Tensor** ts, int n, long cap, long first_cap, bool views, int compress)
      : cap(cap), first_cap(first_cap), views(views), compress(compress) {
    build(ts, n);
  }
  ~Reducer() {
    {
      std::lock_guard<std::mutex> l(pending_mu);
      if (pending_reducers.erase(this)) pending_count = pending_reducers.size();
    }
    unhook();
  }

  void build(at::Tensor** ts, int n) {
    unhook();
    params.clear();
    buckets.clear();
    for (int i = 0; i < n; i++) {
      TORCH_CHECK(ts[i]->defined() && ts[i]->requires_grad() && ts[i]->is_leaf(),
                  "parameter ", i, " is not a leaf tensor that requires a gradient");
      params.push_back(*ts[i]);
    }
    bucket_of.assign(n, 0);
    long bytes = 0;
    for (int i = n - 1; i >= 0; i--) {
      auto& p = params[i];
      long b = p.numel() * p.element_size();
      bool fits = !buckets.empty() && params[buckets.back()[0]].scalar_type() == p.scalar_type() &&
                  params[buckets.back()[0]].device() == p.device() &&
                  bytes + b <= (buckets.size() == 1 ? first_cap : cap);
      if (fits) {
        bytes += b;
        buckets.back().push_back(i);
      } else {
        bytes = b;
        buckets.push_back({static_cast<size_t>(i)});
      }
      bucket_of[i] = buckets.size() - 1;
    }
    buffers.clear();
    bucket_views.assign(n, at::Tensor());
    if (views) {
      at::NoGradGuard ng;
      for (auto& bk : buckets) {
        int64_t len = 0;
        for (auto i : bk) len += params[i].numel();
        auto& p0 = params[bk[0]];
        auto buf = at::zeros({len}, at::TensorOptions().dtype(p0.scalar_type()).device(p0.device()));
        int64_t off = 0;
        for (auto i : bk) {
          bucket_views[i] = buf.narrow(0, off, params[i].numel()).view(params[i].sizes());
          off += params[i].numel();
        }
        buffers.push_back(buf);
      }
    }
    for (int i = 0; i < n; i++) {
      auto acc = torch::autograd::impl::grad_accumulator(params[i]);
      TORCH_CHECK(acc, "parameter ", i, " has no gradient accumulator");
      keys.push_back(acc->add_post_hook(std::make_unique<ReadyHook>(this, i)));
      accs.push_back(std::move(acc));
    }
  }

  void unhook() {
    for (size_t i = 0; i < accs.size(); i++) accs[i]->del_post_hook(keys[i]);
    accs.clear();
    keys.clear();
  }

  bool same(at::Tensor** ts, int n) const {
    if (static_cast<size_t>(n) != params.size()) return false;
    for (int i = 0; i < n; i++)
      if (ts[i]->unsafeGetTensorImpl() != params[i].unsafeGetTensorImpl()) return false;
    return true;
  }

  void arm(Group* grp) {
    std::lock_guard<std::mutex> l(mu);
    g = grp;
    pending.clear();
    for (auto& b : buckets) pending.push_back(b.size());
    ready.assign(buckets.size(), false);
    seen.assign(params.size(), false);
    next = 0;
    flats.assign(buckets.size(), at::Tensor());
    works.assign(buckets.size(), {});
    avg.assign(buckets.size(), false);
  }

  void disarm() {
    std::lock_guard<std::mutex> l(mu);
    g = nullptr;
    flats.clear();
    works.clear();
  }

  // under mu, with views: parameter i's gradient made its view of the bucket (copied there when
  // the autograd engine made a new tensor rather than accumulating into the view)
  void to_view(size_t i) {
    at::NoGradGuard ng;
    auto& gr = params[i].mutable_grad();
    TORCH_CHECK(gr.defined(), "parameter ", i, " has no gradient after its accumulator ran");
    auto& v = bucket_views[i];
    if (gr.unsafeGetTensorImpl() == v.unsafeGetTensorImpl()) return;
    v.copy_(gr);
    gr = v;
  }

  // under mu: start bucket b's average across the ranks
  void launch(size_t b) {
    at::NoGradGuard ng;
    if (views) {
      flats[b] = buffers[b];
    } else {
      std::vector<at::Tensor> gs;
      for (auto i : buckets[b]) {
        auto gr = params[i].grad();
        TORCH_CHECK(gr.defined(), "parameter ", i, " has no gradient after its accumulator ran");
        gs.push_back(gr.reshape({-1}));
      }
      flats[b] = gs.size() == 1 ? gs[0].clone() : at::cat(gs, 0);
    }
    int op = 1;
    if (compress) {
      flats[b] = flats[b].to(compress == 1 ? at::kBFloat16 : at::kHalf).div_(g->backend->getSize());
      op = 0;
      avg[b] = false;
    } else {
      avg[b] = sum_for_avg(g, op, &flats[b]);
    }
    std::vector<at::Tensor> v{flats[b]};
    c10d::AllreduceOptions o;
    o.reduceOp = reduce_op(op);
    o.timeout = g->timeout;
    try {
      works[b] = g->backend->allreduce(v, o);
    } catch (...) {
      g->failed = true;
      throw;
    }
  }

  void mark(size_t i) {
    std::lock_guard<std::mutex> l(mu);
    if (!g || seen[i]) return;
    seen[i] = true;
    if (views) to_view(i);
    auto b = bucket_of[i];
    if (--pending[b] == 0) ready[b] = true;
    while (next < buckets.size() && ready[next]) launch(next++);
  }

  // After the backward pass: every bucket started (else a parameter got no gradient), each
  // waited for and its averages written back into the gradients.
  void finish() {
    std::lock_guard<std::mutex> l(mu);
    TORCH_CHECK(g, "gradient reducer not armed");
    for (size_t i = 0; i < params.size(); i++)
      TORCH_CHECK(seen[i], "parameter ", i,
                  " has no gradient after backward: every rank must use every parameter (as DDP without "
                  "find_unused_parameters)");
    at::NoGradGuard ng;
    // the last step's collectives, now that this step's passes are queued behind them
    settle_locked(g);
    for (size_t b = 0; b < buckets.size(); b++) {
      if (on_stream(works[b]))
        outstanding.push_back(works[b]);
      else
        ::finish(g, works[b]);
      if (avg[b]) flats[b].div_(g->backend->getSize());
      if (views) {
        // the gradients are views of the buffer: written when it is (a compressed copy cast back)
        if (flats[b].unsafeGetTensorImpl() != buffers[b].unsafeGetTensorImpl()) buffers[b].copy_(flats[b]);
        continue;
      }
      long off = 0;
      for (auto i : buckets[b]) {
        auto gr = params[i].grad();
        auto n = gr.numel();
        gr.copy_(flats[b].narrow(0, off, n).view(gr.sizes()));
        off += n;
      }
    }
    if (!outstanding.empty()) outstanding_group = g->id;
  }

  // NCCL's collective: the current stream made to wait for its end (true), the host not; other
  // backends' (Gloo's, on the CPU) are waited for on the host (false).
  static bool on_stream(const c10::intrusive_ptr<c10d::Work>& w) {
#ifdef KTORCH_NCCL
    if (auto n = dynamic_cast<c10d::ProcessGroupNCCL::WorkNCCL*>(w.get())) {
      n->synchronizeStream();
      return true;
    }
#endif
    return false;
  }

  // under mu: the collectives left to the GPU, waited for on the host within the timeout of
  // group `grp` when it issued them; dropped when it did not (that group has ended: its end
  // finished or aborted them).
  void settle_locked(Group* grp) {
    std::vector<c10::intrusive_ptr<c10d::Work>> ws;
    ws.swap(outstanding);
    if (ws.empty() || !grp || grp->id != outstanding_group) return;
    auto end = std::chrono::steady_clock::now() + grp->timeout;
    for (auto& w : ws) {
      while (!w->isCompleted()) {
        if (std::chrono::steady_clock::now() > end) {
          grp->failed = true;
          TORCH_CHECK(false, "collective timed out after ", grp->timeout.count(), "ms");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
      ::finish(grp, w);  // completed: at once, or its error (the group is then failed)
    }
  }

  void settle(Group* grp) {
    std::lock_guard<std::mutex> l(mu);
    settle_locked(grp);
  }

  // under pending_mu, after a finish: listed for settling before a host read when its
  // collectives were left to the GPU
  void note_pending() {
    std::lock_guard<std::mutex> l(mu);
    if (!outstanding.empty()) pending_reducers.insert(this);
  }

  // under pending_mu: settled with the group that issued its collectives when that group is
  // still live, else they are dropped (its end finished or aborted them)
  void settle_live() {
    std::lock_guard<std::mutex> l(mu);
    std::lock_guard<std::mutex> lg(live_mu());
    auto it = live_groups().find(outstanding_group);
    settle_locked(it == live_groups().end() ? nullptr : it->second);
  }
};

torch::autograd::variable_list ReadyHook::operator()(const torch::autograd::variable_list& outputs,
                                                     const torch::autograd::variable_list&) {
  r->mark(i);
  return outputs;
}

}  // namespace

extern "C" {
// A reducer of n parameters (leaf tensors that require gradients), buckets up to cap bytes, the
// first up to first_cap; views 1: gradients as views of the buckets; compress 1 bfloat16, 2 half:
// the type buckets travel in (0: their own).
int ktorch_reducer_new(at::Tensor** ts, int n, long cap, long first_cap, int views, int compress, void** r) {
  return attempt([&] {
    *r = nullptr;
    *r = new Reducer(ts, n, cap, first_cap, views != 0, compress);
  });
}

int ktorch_reducer_free(void* r) {
  return attempt([&] { delete static_cast<Reducer*>(r); });
}

// Before a backward pass: the parameters now (re-bucketed and re-hooked when they are no longer
// the reducer's, e.g. the module was moved), then armed with the group.
int ktorch_reducer_prepare(void* p, void* g, at::Tensor** ts, int n) {
  return attempt([&] {
    auto r = static_cast<Reducer*>(p);
    r->disarm();
    if (!r->same(ts, n)) r->build(ts, n);
    r->arm(static_cast<Group*>(g));
  });
}

// The collectives the last finish left to the GPU, waited for on the host (within the timeout of
// g, the group now: dropped when another group issued them), before a value is read back.
int ktorch_reducer_settle(void* p, void* g) {
  return attempt([&] { static_cast<Reducer*>(p)->settle(static_cast<Group*>(g)); });
}

// After the backward pass: wait for every bucket and write the averages back; disarmed after,
// whatever happens. ok 0 (the backward pass failed): only disarm.
int ktorch_reducer_finish(void* p, int ok) {
  auto r = static_cast<Reducer*>(p);
  int rc = ok ? attempt([&] { r->finish(); }) : 0;
  std::string kept = last_error;
  attempt([&] { r->disarm(); });
  if (rc == 0)
    rc = attempt([&] {
      std::lock_guard<std::mutex> l(pending_mu);
      r->note_pending();
      pending_count = pending_reducers.size();
    });
  else
    last_error = kept;
  return rc;
}

// Before a host read of a CUDA value: every reducer's collectives left to the GPU waited for
// within their group's timeout (the first error, a dead peer, is the answer; the group is then
// failed). Nothing to do, the usual case, costs one atomic read.
int ktorch_dist_settle_pending() {
  if (pending_count.load(std::memory_order_relaxed) == 0) return 0;
  return attempt([&] {
    std::lock_guard<std::mutex> l(pending_mu);
    while (!pending_reducers.empty()) {
      Reducer* r = *pending_reducers.begin();
      pending_reducers.erase(pending_reducers.begin());
      pending_count = pending_reducers.size();
      r->settle_live();
    }
  });
}
}
