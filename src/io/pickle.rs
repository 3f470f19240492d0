//! A restricted unpickler for the `data.pkl` of a `torch.save`d file: it builds values (None,
//! numbers, strings, tuples, lists, dictionaries) and tensors, and nothing else. Python's own
//! unpickler imports and calls whatever the pickle names (a file can run any code); this one
//! knows only the names a state dict uses: `collections.OrderedDict`, torch's tensor rebuild
//! functions `torch._utils._rebuild_tensor_v2` and `_rebuild_parameter`, and torch's storage
//! types. Any other name, and the opcodes that call or build objects by other means (INST, OBJ,
//! NEWOBJ, EXT*), are refused before anything is made.
use anyhow::{anyhow, bail, Result};
use tch::Kind;

/// A value of the pickle.
#[derive(Clone, Debug)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Dict(Vec<(Value, Value)>),
    /// One of the allowed names.
    Global(Global),
    /// A storage named by a persistent id: its element type, its record key, its element count.
    Storage {
        kind: Kind,
        key: String,
        numel: i64,
    },
    /// A tensor to make from a storage: offset, sizes and strides in elements.
    Tensor {
        kind: Kind,
        key: String,
        numel: i64,
        offset: i64,
        size: Vec<i64>,
        stride: Vec<i64>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Global {
    OrderedDict,
    RebuildTensor,
    RebuildParameter,
    Storage(Kind),
}

/// The element type of torch's storage class `name`.
fn storage_kind(name: &str) -> Option<Kind> {
    Some(match name {
        "FloatStorage" => Kind::Float,
        "DoubleStorage" => Kind::Double,
        "HalfStorage" => Kind::Half,
        "BFloat16Storage" => Kind::BFloat16,
        "LongStorage" => Kind::Int64,
        "IntStorage" => Kind::Int,
        "ShortStorage" => Kind::Int16,
        "CharStorage" => Kind::Int8,
        "ByteStorage" => Kind::Uint8,
        "BoolStorage" => Kind::Bool,
        "ComplexFloatStorage" => Kind::ComplexFloat,
        "ComplexDoubleStorage" => Kind::ComplexDouble,
        _ => return None,
    })
}

fn global(module: &str, name: &str) -> Result<Global> {
    Ok(match (module, name) {
        ("collections", "OrderedDict") => Global::OrderedDict,
        ("torch._utils", "_rebuild_tensor_v2") => Global::RebuildTensor,
        ("torch._utils", "_rebuild_parameter") => Global::RebuildParameter,
        ("torch", s) if storage_kind(s).is_some() => Global::Storage(storage_kind(s).unwrap()),
        _ => bail!("pickle refers to {module}.{name}, which could run code: only the tensors of a state dict are read (refused)"),
    })
}

/// The most values a pickle may make, counting the copies that memo reads make: a small file
/// of repeated reads of the same list would otherwise grow without bound.
const BUDGET: usize = 50_000_000;

struct Machine<'a> {
    b: &'a [u8],
    i: usize,
    stack: Vec<Value>,
    marks: Vec<usize>,
    memo: std::collections::HashMap<u32, Value>,
    made: usize,
}

fn size(v: &Value) -> usize {
    match v {
        Value::Tuple(x) | Value::List(x) => 1 + x.iter().map(size).sum::<usize>(),
        Value::Dict(x) => 1 + x.iter().map(|(k, v)| size(k) + size(v)).sum::<usize>(),
        Value::Str(s) => 1 + s.len() / 64,
        Value::Bytes(s) => 1 + s.len() / 64,
        _ => 1,
    }
}

impl<'a> Machine<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.i.checked_add(n).is_none_or(|e| e > self.b.len()) {
            bail!("pickle is truncated");
        }
        let s = &self.b[self.i..self.i + n];
        self.i += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn line(&mut self) -> Result<&'a str> {
        let rest = &self.b[self.i..];
        let n = rest
            .iter()
            .position(|&c| c == b'\n')
            .ok_or_else(|| anyhow!("pickle is truncated"))?;
        self.i += n + 1;
        std::str::from_utf8(&rest[..n]).map_err(|_| anyhow!("pickle has a name that is not text"))
    }
    fn text(&mut self, n: usize) -> Result<Value> {
        let s = self.take(n)?;
        Ok(Value::Str(String::from_utf8(s.to_vec()).map_err(|_| {
            anyhow!("pickle has a string that is not UTF-8")
        })?))
    }
    fn pop(&mut self) -> Result<Value> {
        if self.marks.last().is_some_and(|&m| m >= self.stack.len()) {
            bail!("pickle is malformed (stack underflow at a mark)");
        }
        self.stack
            .pop()
            .ok_or_else(|| anyhow!("pickle is malformed (stack underflow)"))
    }
    fn top(&mut self) -> Result<&mut Value> {
        self.stack
            .last_mut()
            .ok_or_else(|| anyhow!("pickle is malformed (stack underflow)"))
    }
    fn pop_mark(&mut self) -> Result<Vec<Value>> {
        let m = self
            .marks
            .pop()
            .ok_or_else(|| anyhow!("pickle is malformed (no mark)"))?;
        if m > self.stack.len() {
            bail!("pickle is malformed (mark beyond the stack)");
        }
        Ok(self.stack.split_off(m))
    }
    fn push(&mut self, v: Value) -> Result<()> {
        self.made += 1;
        if self.made > BUDGET || self.stack.len() > 10_000_000 {
            bail!("pickle is too large or too deep");
        }
        self.stack.push(v);
        Ok(())
    }
    fn get(&mut self, k: u32) -> Result<()> {
        let v = self
            .memo
            .get(&k)
            .ok_or_else(|| anyhow!("pickle is malformed (memo {k} read before it is written)"))?
            .clone();
        self.made += size(&v);
        self.push(v)
    }
    fn put(&mut self, k: u32) -> Result<()> {
        let v = self
            .stack
            .last()
            .ok_or_else(|| anyhow!("pickle is malformed (stack underflow)"))?
            .clone();
        self.made += size(&v);
        if self.made > BUDGET {
            bail!("pickle is too large or too deep");
        }
        self.memo.insert(k, v);
        Ok(())
    }
    fn set_items(&mut self, items: Vec<Value>) -> Result<()> {
        if !items.len().is_multiple_of(2) {
            bail!("pickle is malformed (odd count of dictionary items)");
        }
        let d = match self.top()? {
            Value::Dict(d) => d,
            _ => bail!(
                "pickle is malformed (dictionary items for something that is not a dictionary)"
            ),
        };
        let mut it = items.into_iter();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            // a key set again replaces its value, as in Python
            match d.iter_mut().find(|(x, _)| same_key(x, &k)) {
                Some(slot) => slot.1 = v,
                None => d.push((k, v)),
            }
        }
        Ok(())
    }
    fn append(&mut self, items: Vec<Value>) -> Result<()> {
        match self.top()? {
            Value::List(l) => l.extend(items),
            _ => bail!("pickle is malformed (list items for something that is not a list)"),
        }
        Ok(())
    }
}

fn same_key(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => false,
    }
}

fn int(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Int(j) => Ok(*j),
        Value::Bool(b) => Ok(*b as i64),
        _ => bail!("tensor {what} is not an integer"),
    }
}

fn ints(v: &Value, what: &str) -> Result<Vec<i64>> {
    match v {
        Value::Tuple(x) | Value::List(x) => x.iter().map(|v| int(v, what)).collect(),
        _ => bail!("tensor {what} is not a tuple of integers"),
    }
}

/// Apply an allowed name to its arguments (REDUCE).
fn call(f: Global, args: Value) -> Result<Value> {
    let Value::Tuple(a) = args else {
        bail!("pickle is malformed (arguments are not a tuple)")
    };
    match f {
        Global::OrderedDict => {
            if !a.is_empty() {
                bail!("pickle makes an OrderedDict from arguments (only empty ones are read)");
            }
            Ok(Value::Dict(vec![]))
        }
        Global::RebuildTensor => {
            if a.len() < 4 {
                bail!(
                    "pickle is malformed (_rebuild_tensor_v2 with {} arguments)",
                    a.len()
                );
            }
            let Value::Storage { kind, key, numel } = &a[0] else {
                bail!("pickle is malformed (tensor without a storage)")
            };
            let (offset, size, stride) = (
                int(&a[1], "offset")?,
                ints(&a[2], "size")?,
                ints(&a[3], "stride")?,
            );
            if size.len() != stride.len() {
                bail!(
                    "tensor has {} sizes and {} strides",
                    size.len(),
                    stride.len()
                );
            }
            if offset < 0 || size.iter().any(|&s| s < 0) || stride.iter().any(|&s| s < 0) {
                bail!("tensor has a negative offset, size or stride");
            }
            // the last element a view reaches must be inside its storage
            if size.iter().all(|&s| s > 0) {
                let mut last = offset as i128;
                for (s, t) in size.iter().zip(&stride) {
                    last += (*s as i128 - 1) * *t as i128;
                }
                if last >= *numel as i128 {
                    bail!("tensor reaches element {last} of a storage of {numel}");
                }
            }
            Ok(Value::Tensor {
                kind: *kind,
                key: key.clone(),
                numel: *numel,
                offset,
                size,
                stride,
            })
        }
        Global::RebuildParameter => match a.into_iter().next() {
            Some(t @ Value::Tensor { .. }) => Ok(t),
            _ => bail!("pickle is malformed (_rebuild_parameter without a tensor)"),
        },
        Global::Storage(_) => {
            bail!("pickle calls a storage type (only persistent ids name storages)")
        }
    }
}

/// A persistent id: `('storage', storage type, key, location, element count)`.
fn persistent(pid: Value) -> Result<Value> {
    let Value::Tuple(p) = pid else {
        bail!("pickle has a persistent id that is not a tuple")
    };
    match &p[..] {
        [Value::Str(tag), Value::Global(Global::Storage(kind)), Value::Str(key), _, n]
            if tag == "storage" =>
        {
            let numel = int(n, "storage size")?;
            if numel < 0 {
                bail!("storage has a negative size");
            }
            Ok(Value::Storage {
                kind: *kind,
                key: key.clone(),
                numel,
            })
        }
        _ => bail!("pickle has a persistent id other than a tensor storage"),
    }
}

/// Run the pickle: the value it makes.
pub fn load(b: &[u8]) -> Result<Value> {
    let mut m = Machine {
        b,
        i: 0,
        stack: vec![],
        marks: vec![],
        memo: Default::default(),
        made: 0,
    };
    loop {
        let op = m.u8()?;
        match op {
            0x80 => {
                let v = m.u8()?;
                if v > 5 {
                    bail!("pickle protocol {v} is not known");
                }
            }
            0x95 => {
                m.u64()?;
            }
            b'.' => {
                let v = m.pop()?;
                return Ok(v);
            }
            b'(' => m.marks.push(m.stack.len()),
            b'}' => m.push(Value::Dict(vec![]))?,
            b']' => m.push(Value::List(vec![]))?,
            b')' => m.push(Value::Tuple(vec![]))?,
            b't' => {
                let v = m.pop_mark()?;
                m.push(Value::Tuple(v))?
            }
            0x85..=0x87 => {
                let n = (op - 0x84) as usize;
                let mut v = vec![];
                for _ in 0..n {
                    v.push(m.pop()?);
                }
                v.reverse();
                m.push(Value::Tuple(v))?
            }
            b'l' => {
                let v = m.pop_mark()?;
                m.push(Value::List(v))?
            }
            b'd' => {
                let v = m.pop_mark()?;
                m.push(Value::Dict(vec![]))?;
                m.set_items(v)?
            }
            b'a' => {
                let v = m.pop()?;
                m.append(vec![v])?
            }
            b'e' => {
                let v = m.pop_mark()?;
                m.append(v)?
            }
            b's' => {
                let v = m.pop()?;
                let k = m.pop()?;
                m.set_items(vec![k, v])?
            }
            b'u' => {
                let v = m.pop_mark()?;
                m.set_items(v)?
            }
            b'X' => {
                let n = m.u32()? as usize;
                let v = m.text(n)?;
                m.push(v)?
            }
            0x8c => {
                let n = m.u8()? as usize;
                let v = m.text(n)?;
                m.push(v)?
            }
            0x8d => {
                let n = m.u64()?;
                let n = usize::try_from(n).map_err(|_| anyhow!("pickle is truncated"))?;
                let v = m.text(n)?;
                m.push(v)?
            }
            b'C' => {
                let n = m.u8()? as usize;
                let v = m.take(n)?.to_vec();
                m.push(Value::Bytes(v))?
            }
            b'B' => {
                let n = m.u32()? as usize;
                let v = m.take(n)?.to_vec();
                m.push(Value::Bytes(v))?
            }
            b'J' => {
                let v = m.u32()? as i32 as i64;
                m.push(Value::Int(v))?
            }
            b'K' => {
                let v = m.u8()? as i64;
                m.push(Value::Int(v))?
            }
            b'M' => {
                let v = m.u16()? as i64;
                m.push(Value::Int(v))?
            }
            0x8a => {
                let n = m.u8()? as usize;
                if n > 8 {
                    bail!("pickle has an integer of {n} bytes (more than 64 bits)");
                }
                let s = m.take(n)?;
                let mut buf = if s.last().is_some_and(|&c| c & 0x80 != 0) { [0xffu8; 8] } else { [0u8; 8] };
                buf[..n].copy_from_slice(s);
                m.push(Value::Int(i64::from_le_bytes(buf)))?
            }
            b'G' => {
                let v = f64::from_be_bytes(m.take(8)?.try_into().unwrap());
                m.push(Value::Float(v))?
            }
            b'N' => m.push(Value::None)?,
            0x88 => m.push(Value::Bool(true))?,
            0x89 => m.push(Value::Bool(false))?,
            b'q' => {
                let k = m.u8()? as u32;
                m.put(k)?
            }
            b'r' => {
                let k = m.u32()?;
                m.put(k)?
            }
            0x94 => {
                let k = m.memo.len() as u32;
                m.put(k)?
            }
            b'h' => {
                let k = m.u8()? as u32;
                m.get(k)?
            }
            b'j' => {
                let k = m.u32()?;
                m.get(k)?
            }
            b'c' => {
                let module = m.line()?;
                let name = m.line()?;
                let g = global(module, name)?;
                m.push(Value::Global(g))?
            }
            0x93 => {
                let name = m.pop()?;
                let module = m.pop()?;
                let (Value::Str(module), Value::Str(name)) = (module, name) else {
                    bail!("pickle is malformed (STACK_GLOBAL of values that are not strings)")
                };
                let g = global(&module, &name)?;
                m.push(Value::Global(g))?
            }
            b'R' => {
                let args = m.pop()?;
                let f = m.pop()?;
                let Value::Global(g) = f else { bail!("pickle calls something that is not an allowed function (refused)") };
                let v = call(g, args)?;
                m.push(v)?
            }
            b'Q' => {
                let pid = m.pop()?;
                let v = persistent(pid)?;
                m.push(v)?
            }
            b'b' => {
                // an OrderedDict's state (state_dict's `_metadata`): not a tensor, left out
                let _state = m.pop()?;
                match m.top()? {
                    Value::Dict(_) => {}
                    _ => bail!("pickle sets the state of an object other than a dictionary (refused)"),
                }
            }
            b'0' => {
                m.pop()?;
            }
            b'1' => {
                m.pop_mark()?;
            }
            b'2' => {
                let v = m.top()?.clone();
                m.push(v)?
            }
            b'i' | b'o' | 0x81 | 0x92 | 0x82..=0x84 => {
                bail!("pickle builds objects of arbitrary classes (opcode 0x{op:02x}), which could run code (refused)")
            }
            _ => bail!("pickle opcode 0x{op:02x} at byte {} is not read (a state dict of tensors does not use it)", m.i - 1),
        }
    }
}
