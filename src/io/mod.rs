//! Files and images: `image` arranges images into a grid (`makegrid`) and writes PNG files (`png`);
//! models and weights from Python: `safetensors`, `statedict` (torch.save files, read through
//! `pickle`), `pyapi` (the q functions). TorchScript modules and AOTInductor packages are module
//! kinds, in nn/foreign.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod image;
pub mod pickle;
pub mod pyapi;
pub mod safetensors;
pub mod statedict;
