//! Device facts and the CUDA caching allocator from q: `cudainfo` (name, capability, memory,
//! multiprocessors of each device), `cudamemory` (bytes held by tensors, reserved by libtorch's
//! cache, their peaks, and the device's free and total memory), `emptycache` (give cached
//! blocks back to the device, as torch.cuda.empty_cache) and `resetpeak` (start peaks afresh).
use anyhow::Result;

use super::{cuda_count, shim, CudaDevice};
use crate::k::from::FromQ;
use crate::k::{make, read, KResult, K};

const INFO: &[&str] = &[
    "device",
    "name",
    "capability",
    "memory",
    "processors",
    "threads",
    "warp",
    "l2cache",
];

/// One device's facts as q values in INFO's order.
fn info_row(d: usize) -> Result<Vec<K>> {
    let (name, v) = shim::props(d)?;
    Ok(vec![
        make::symbol(&format!("cuda:{d}")),
        make::string(&name),
        make::float(v[1] as f64 + v[2] as f64 / 10.0),
        make::long(v[0]),
        make::long(v[3]),
        make::long(v[4]),
        make::long(v[5]),
        make::long(v[6]),
    ])
}

/// `cudainfo`'s argument: `()` every device, or one device.
pub enum Which {
    All,
    One(CudaDevice),
}

impl FromQ for Which {
    const TYPE: &'static str = CudaDevice::TYPE;
    fn read(x: K) -> Result<Option<Which>> {
        if read::is_nil(x) {
            return Ok(Some(Which::All));
        }
        Ok(CudaDevice::read(x)?.map(Which::One))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        CudaDevice::wrong(x, arg)
    }
}

crate::qfn! {
    /// `cudainfo()`: a table, a row per device; `cudainfo device`: a dictionary for one device.
    pub fn cudainfo(which: Which) -> KResult {
        let d = match which {
            Which::One(d) => d.0,
            Which::All => {
                super::need_cuda()?;
                let rows = (0..cuda_count())
                    .map(info_row)
                    .collect::<Result<Vec<_>>>()?;
                // rows to columns, each value moved once
                let mut cols: Vec<Vec<K>> = vec![Vec::new(); INFO.len()];
                for r in rows {
                    for (c, k) in r.into_iter().enumerate() {
                        cols[c].push(k);
                    }
                }
                let cols = cols.into_iter().map(make::uniform).collect();
                return Ok(make::table(INFO, cols));
            }
        };
        Ok(make::dict(INFO, info_row(d)?))
    }

    /// `cudamemory()` for the current device, `cudamemory device` for another: a dictionary of
    /// bytes.
    pub fn cudamemory(device: CudaDevice) -> KResult {
        let v = shim::memory(device.0)?;
        Ok(make::dict(
            &[
                "allocated",
                "reserved",
                "maxallocated",
                "maxreserved",
                "free",
                "total",
            ],
            v.iter().map(|b| make::long(*b)).collect(),
        ))
    }

    /// `emptycache[]`: cached, unused device memory back to the driver. Without CUDA nothing is
    /// cached, so it does nothing.
    pub fn emptycache() -> Result<()> {
        if cuda_count() > 0 {
            shim::empty_cache()?;
            crate::klog!(
                crate::session::log::Level::Debug,
                "emptycache: cached CUDA memory given back"
            );
        }
        Ok(())
    }

    /// `resetpeak()` / `resetpeak device`: peaks of `cudamemory` restart from the current
    /// values.
    pub fn resetpeak(device: CudaDevice) -> Result<()> {
        shim::reset_peak(device.0)
    }
}
