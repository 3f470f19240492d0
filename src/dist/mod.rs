//! Data-parallel training over libtorch's c10d (docs/dist.md): one process per rank, each
//! loading ktorch, joined in a process group (Gloo for CPU tensors, NCCL for CUDA ones).
//!
//! Files: `group` (the process group: `distinit`,
//! `distend`, `distrank`, `distsize`, `barrier`), `collect` (collectives on tensors, vectors,
//! dictionaries and q data: `allreduce`, `broadcast`, `allgather`, `reducescatter`). A model
//! that trains in step with the other ranks (`distmodel`, its sharded `run`) is the model's:
//! model/dist.rs.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod collect;
pub mod group;
