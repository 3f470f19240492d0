//! AOTInductor packages (`.pt2`, made by `torch._inductor.aoti_compile_and_package`) for
//! inference, through libtorch's AOTIModelPackageLoader (src/cxx/aoti.cpp). The loader unpacks
//! the package into a temporary folder and loads the model library compiled into it when Python
//! made the package: no C++ compiler is needed at load time. A package runs on the device it was
//! compiled for (its metadata says which); inputs are moved there. No parameters are visible:
//! the weights are constants inside the compiled model, and it does not train.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use super::torchscript::cpath;
use crate::cxx::{ktorch_aoti_free, ktorch_aoti_load, ktorch_aoti_run};
use crate::nn::Out;

/// A loaded package.
pub struct Aoti {
    loader: *mut libc::c_void,
    device: Device,
}

// SAFETY: The loader's runner is libtorch's: its run may be called from several threads (it keeps a
// pool of one runner and waits for it), and nothing here changes after loading.
unsafe impl Send for Aoti {}
// SAFETY: as Send above.
unsafe impl Sync for Aoti {}

impl Drop for Aoti {
    fn drop(&mut self) {
        // SAFETY: the pointer was made by the shim for this owner alone and is freed once, on drop.
        unsafe { ktorch_aoti_free(self.loader) }
    }
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
        let mut l = std::ptr::null_mut();
        let mut dev = std::ptr::null_mut();
        // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
        let rc = unsafe { ktorch_aoti_load(p.as_ptr(), std::ptr::null(), -1, &mut l, &mut dev) };
        if rc != 0 {
            let e = crate::cxx::last_error().to_string();
            bail!(
                "{path}: cannot load AOTInductor package ({})",
                e.lines().next().unwrap_or("")
            );
        }
        let dev = crate::cxx::take_string(dev).unwrap_or_default();
        let device = match dev.as_str() {
            "cpu" | "" => Device::Cpu,
            d if d.starts_with("cuda") => Device::Cuda(crate::device::current_cuda()),
            d => {
                // SAFETY: `l` is the loader just made, not yet owned by an Aoti: freed once, here.
                unsafe { ktorch_aoti_free(l) };
                bail!("{path}: package compiled for device {d}, which ktorch does not run")
            }
        };
        Ok(Aoti { loader: l, device })
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
        let ptrs: Vec<*mut libc::c_void> =
            x.iter().map(|t| t.as_ptr() as *mut libc::c_void).collect();
        let mut r = std::ptr::null_mut();
        let mut nr = 0;
        // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are live objects borrowed for the call (tensors, or the shim object this value owns) and out-slots on this frame; it catches every C++ exception (attempt.h).
        let rc = unsafe {
            ktorch_aoti_run(
                self.loader,
                ptrs.as_ptr(),
                ptrs.len() as libc::c_int,
                &mut r,
                &mut nr,
            )
        };
        if rc != 0 {
            let e = crate::cxx::last_error().to_string();
            bail!(
                "aoti forward: {}",
                e.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed")
            );
        }
        // SAFETY: `r` is a malloc'd array of `nr` new'd tensors, now ours.
        let mut out: Vec<Tensor> = (0..nr as usize)
            // SAFETY: the pointer is an at::Tensor the shim allocated for us (its call succeeded); the Tensor owns it from here and frees it once.
            .map(|i| unsafe { Tensor::from_ptr(*r.add(i) as *mut _) })
            .collect();
        // SAFETY: the array itself was malloc'd by the shim for us; its tensors are taken above.
        unsafe { libc::free(r as *mut libc::c_void) };
        Ok(if out.len() == 1 {
            Out::Tensor(out.remove(0))
        } else {
            Out::Tensors(out)
        })
    }
}
