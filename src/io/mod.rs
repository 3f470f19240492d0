//! Files and images: `image` arranges images into a grid (`makegrid`) and writes PNG files (`png`);
//! models and weights from Python: `torchscript`, `aoti` (AOTInductor packages), `foreign` (either
//! inside a module), `safetensors`, `statedict` (torch.save files, read through `pickle`), `pyapi`
//! (the q functions).
pub mod image;
pub mod aoti;
pub mod foreign;
pub mod torchscript;
pub mod pickle;
pub mod pyapi;
pub mod safetensors;
pub mod statedict;
