//! State dicts saved with `torch.save` (PyTorch's zip format: `<name>/data.pkl`, the pickle, and
//! `<name>/data/<key>`, each storage's bytes) read into named tensors, without Python and
//! without running anything the file names: the pickle goes through the restricted unpickler of
//! `pickle`, which knows only tensors, storages and plain values.
use std::collections::HashMap;
use std::io::Read;

use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

use super::pickle::{self, Value};

/// The tensors of a state dict file, by name, in the file's order. Nested dictionaries (a
/// checkpoint holding a state dict) give dotted names, as `load_state_dict` prefixes do.
pub fn read(path: &str) -> Result<Vec<(String, Tensor)>> {
    read_inner(path).map_err(|e| anyhow!("{path}: {e}"))
}

fn read_inner(path: &str) -> Result<Vec<(String, Tensor)>> {
    let f = std::fs::File::open(path)?;
    if f.metadata()?.is_dir() {
        bail!("is a directory, not a torch.save file");
    }
    let mut z = zip::ZipArchive::new(f).map_err(|e| {
        anyhow!("not a torch.save file (not a zip archive: {e}; the legacy format of torch.save(..., _use_new_zipfile_serialization=False) is not read)")
    })?;
    let names: Vec<String> = z.file_names().map(String::from).collect();
    let pkl = names
        .iter()
        .find(|n| n.ends_with("/data.pkl") && n.matches('/').count() == 1)
        .cloned()
        .ok_or_else(|| anyhow!("not a torch.save file (no data.pkl in the archive)"))?;
    let prefix = &pkl[..pkl.len() - "data.pkl".len()];
    if names
        .iter()
        .any(|n| n.starts_with(&format!("{prefix}code/")))
    {
        bail!("is a TorchScript module, not a state dict: use loadscript");
    }
    if let Ok(mut bo) = z.by_name(&format!("{prefix}byteorder")) {
        let mut s = String::new();
        bo.read_to_string(&mut s)
            .map_err(|e| anyhow!("byteorder record: {e}"))?;
        if s.trim() != "little" {
            bail!(
                "storages are {} endian (only little endian is read)",
                s.trim()
            );
        }
    }
    let bytes = record(&mut z, &pkl, 1 << 30)?;
    let v = pickle::load(&bytes)?;
    let mut flat = vec![];
    flatten(String::new(), v, &mut flat)?;
    let mut storages: HashMap<String, Tensor> = HashMap::new();
    let mut out = vec![];
    for (name, t) in flat {
        let Value::Tensor {
            kind,
            key,
            numel,
            offset,
            size,
            stride,
        } = t
        else {
            unreachable!()
        };
        let s = match storages.get(&key) {
            Some(s) => {
                if s.kind() != kind || s.numel() as i64 != numel {
                    bail!("storage {key} is read as two different types or sizes");
                }
                s.shallow_clone()
            }
            None => {
                let s = storage(&mut z, prefix, &key, kind, numel)?;
                storages.insert(key.clone(), s.shallow_clone());
                s
            }
        };
        let t = s.f_as_strided(size.as_slice(), stride.as_slice(), offset)?;
        out.push((name, t));
    }
    Ok(out)
}

/// A record's bytes, refusing one larger than `limit` (its size as the archive states it).
fn record(z: &mut zip::ZipArchive<std::fs::File>, name: &str, limit: u64) -> Result<Vec<u8>> {
    let mut r = z.by_name(name).map_err(|e| anyhow!("record {name}: {e}"))?;
    if r.size() > limit {
        bail!("record {name} is {} bytes (more than {limit})", r.size());
    }
    let mut b = Vec::with_capacity(r.size() as usize);
    r.read_to_end(&mut b)
        .map_err(|e| anyhow!("record {name}: {e} (file truncated or damaged?)"))?;
    Ok(b)
}

/// Storage `key` of `numel` elements of `kind`: a 1-dimensional tensor holding its bytes.
fn storage(
    z: &mut zip::ZipArchive<std::fs::File>,
    prefix: &str,
    key: &str,
    kind: Kind,
    numel: i64,
) -> Result<Tensor> {
    let name = format!("{prefix}data/{key}");
    let esize = kind.elt_size_in_bytes() as i64;
    let want = numel
        .checked_mul(esize)
        .ok_or_else(|| anyhow!("storage {key} is too large"))?;
    let b = record(z, &name, want as u64)?;
    if (b.len() as i64) < want {
        bail!(
            "storage {key} has {} bytes where {numel} elements need {want}",
            b.len()
        );
    }
    Ok(Tensor::f_from_data_size(
        &b[..want as usize],
        &[numel],
        kind,
    )?)
}

/// Every tensor of a (nested) dictionary with its dotted name.
fn flatten(prefix: String, v: Value, out: &mut Vec<(String, Value)>) -> Result<()> {
    match v {
        Value::Dict(items) => {
            for (k, v) in items {
                let k = match k {
                    Value::Str(s) => s,
                    Value::Int(j) => j.to_string(),
                    other => bail!("dictionary key {other:?} is not a string"),
                };
                let name = if prefix.is_empty() {
                    k
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(name, v, out)?;
            }
            Ok(())
        }
        t @ Value::Tensor { .. } => {
            out.push((prefix, t));
            Ok(())
        }
        other if prefix.is_empty() => bail!(
            "holds {}, not a dictionary of tensors (a state dict)",
            what(&other)
        ),
        other => bail!(
            "`{prefix} is {}, not a tensor (only dictionaries of tensors are read)",
            what(&other)
        ),
    }
}

fn what(v: &Value) -> &'static str {
    match v {
        Value::None => "None",
        Value::Bool(_) => "a bool",
        Value::Int(_) => "an int",
        Value::Float(_) => "a float",
        Value::Str(_) => "a string",
        Value::Bytes(_) => "bytes",
        Value::Tuple(_) => "a tuple",
        Value::List(_) => "a list",
        Value::Dict(_) => "a dictionary",
        Value::Global(_) => "a class",
        Value::Storage { .. } => "a storage",
        Value::Tensor { .. } => "a tensor",
    }
}
