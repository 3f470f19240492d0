//! AOTInductor packages (`.pt2`, made by `torch._inductor.aoti_compile_and_package`) for
//! inference, through libtorch's AOTIModelPackageLoader (src/cxx/aoti.cpp). The loader unpacks
//! the package into a temporary folder and loads the model library compiled into it when Python
//! made the package: no C++ compiler is needed at load time. A package runs on the device it was
//! compiled for (its metadata says which); inputs are moved there. No parameters are visible:
//! the weights are constants inside the compiled model, and it does not train.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use super::torchscript::cpath;
use crate::cxx::aoti::AotiLoader;
use crate::nn::Out;

/// A loaded package.
pub struct Aoti {
    loader: AotiLoader,
    device: Device,
}

impl Aoti {
    pub fn load(path: &str) -> Result<Aoti> {
        let meta = std::fs::metadata(path).map_err(|e| anyhow!("{path}: {e}"))?;
        if meta.is_dir() {
            bail!("{path}: is a directory, not an AOTInductor package");
        }
        // a package is a zip archive: anything else is refused before libtorch unpacks it
        let mut head = [0u8; 4];
        use std::io::Read;
        let n = std::fs::File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| anyhow!("{path}: {e}"))?;
        if n < 4 || &head != b"PK\x03\x04" {
            bail!("{path}: not an AOTInductor package (not a zip archive)");
        }
        let p = cpath(path)?;
        let (loader, dev) = AotiLoader::load(&p).map_err(|e| {
            let e = e.to_string();
            anyhow!(
                "{path}: cannot load AOTInductor package ({})",
                e.lines().next().unwrap_or("")
            )
        })?;
        let device = match dev.as_str() {
            "cpu" | "" => Device::Cpu,
            d if d.starts_with("cuda") => Device::Cuda(crate::device::current_cuda()),
            // the loader just made is freed here, on drop
            d => bail!("{path}: package compiled for device {d}, which ktorch does not run"),
        };
        Ok(Aoti { loader, device })
    }

    pub fn device(&self) -> Device {
        self.device
    }

    /// Run on the inputs (moved to the package's device): its outputs, one or several.
    pub fn forward(&self, x: &[Tensor]) -> Result<Out> {
        let x = x
            .iter()
            .map(|t| {
                if t.device() == self.device {
                    Ok(t.shallow_clone())
                } else {
                    t.f_to_device(self.device)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = self.loader.run(&x).map_err(|e| {
            let e = e.to_string();
            anyhow!(
                "aoti forward: {}",
                e.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed")
            )
        })?;
        Ok(if out.len() == 1 {
            Out::Tensor(out.remove(0))
        } else {
            Out::Tensors(out)
        })
    }
}
