//! Files for the functions that read models and weights made in Python (`loadscript`,
//! `loadaoti`, `loadsafe`, `loadpt`; issue 23): written once per run into the folder the
//! children run in, and named by the generator's strings and symbols (`FILES`), so the fuzzed
//! calls read them. Valid files (tests/data/pymodels, also at that relative path, where the doc
//! examples the fuzzer replays look for them), their mutants (truncated, bytes flipped, a region
//! zeroed, junk appended), torch.save-shaped zip archives whose pickle is generated or mutated
//! (with correct checksums, so the unpickler itself is reached, not the zip reader's CRC check),
//! and safetensors files with generated headers.
use std::path::Path;

use crate::gen::Rng;

/// The corpus's file names (relative to the children's folder).
pub const FILES: &[&str] = &[
    "m0.pt",
    "m1.pt",
    "m2.pt",
    "m3.pt",
    "m4.pt",
    "m5.pt",
    "m6.pt",
    "m7.pt",
    "m8.pt",
    "m9.pt",
    "m10.pt",
    "m11.pt",
    "p0.pt",
    "p1.pt",
    "p2.pt",
    "p3.pt",
    "p4.pt",
    "p5.pt",
    "p6.pt",
    "p7.pt",
    "p8.pt",
    "p9.pt",
    "s0.safetensors",
    "s1.safetensors",
    "s2.safetensors",
    "s3.safetensors",
    "s4.safetensors",
    "s5.safetensors",
    "tests/data/pymodels/tiny.pt",
    "tests/data/pymodels/tiny_sd.pt",
    "tests/data/pymodels/tiny.safetensors",
];

const FIXTURES: &[&str] = &["tiny.pt", "tiny_sd.pt", "tiny.safetensors"];

fn crc32(b: &[u8]) -> u32 {
    let mut c = !0u32;
    for &x in b {
        c ^= x as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A zip archive of stored (uncompressed) records, as torch.save writes them.
fn zip(records: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let (mut out, mut central) = (vec![], vec![]);
    for (name, data) in records {
        let off = out.len() as u32;
        let crc = crc32(data);
        let mut h = vec![];
        h.extend(0x0403_4b50u32.to_le_bytes());
        h.extend([20u8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        h.extend(crc.to_le_bytes());
        h.extend((data.len() as u32).to_le_bytes());
        h.extend((data.len() as u32).to_le_bytes());
        h.extend((name.len() as u16).to_le_bytes());
        h.extend(0u16.to_le_bytes());
        h.extend(name.as_bytes());
        out.extend(&h);
        out.extend(data);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([20u8, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend(crc.to_le_bytes());
        central.extend((data.len() as u32).to_le_bytes());
        central.extend((data.len() as u32).to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0u8; 8]);
        central.extend(0u32.to_le_bytes());
        central.extend(off.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let (cd_off, cd_len) = (out.len() as u32, central.len() as u32);
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((records.len() as u16).to_le_bytes());
    out.extend((records.len() as u16).to_le_bytes());
    out.extend(cd_len.to_le_bytes());
    out.extend(cd_off.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

fn mutate(b: &[u8], r: &mut Rng) -> Vec<u8> {
    let mut v = b.to_vec();
    if v.is_empty() {
        return v;
    }
    match r.below(5) {
        0 => v.truncate(r.below(v.len() as u64) as usize),
        1 => {
            for _ in 0..1 + r.below(8) {
                let i = r.below(v.len() as u64) as usize;
                v[i] = r.next() as u8;
            }
        }
        2 => {
            let i = r.below(v.len() as u64) as usize;
            let n = (r.below(64) as usize).min(v.len() - i);
            v[i..i + n].fill(0);
        }
        3 => v.extend((0..r.below(256)).map(|_| r.next() as u8)),
        _ => {
            // a small integer somewhere set to an edge value (sizes, counts, offsets)
            let i = r.below(v.len().saturating_sub(8) as u64 + 1) as usize;
            let e = *r.pick(&[0u64, 1, 0x7fff_ffff, 0xffff_ffff, u64::MAX, 1 << 40]);
            let n = 8.min(v.len() - i);
            v[i..i + n].copy_from_slice(&e.to_le_bytes()[..n]);
        }
    }
    v
}

/// A pickle of state-dict-like opcodes with generated arguments.
fn pickle(r: &mut Rng) -> Vec<u8> {
    let mut p = vec![0x80, 2];
    for _ in 0..r.below(40) {
        match r.below(16) {
            0 => p.extend(b"ctorch._utils\n_rebuild_tensor_v2\n"),
            1 => p.extend(b"ccollections\nOrderedDict\n"),
            2 => p.extend(b"ctorch\nFloatStorage\n"),
            3 => p.extend(b"cos\nsystem\n"),
            4 => p.push(b'('),
            5 => p.push(*r.pick(&[b't', 0x85, 0x86, 0x87, b')', b'}', b']'])),
            6 => p.extend([b'X', 1, 0, 0, 0, b'0' + r.below(10) as u8]),
            7 => p.extend([b'K', r.next() as u8]),
            8 => {
                p.push(b'J');
                p.extend((r.next() as u32).to_le_bytes());
            }
            9 => p.push(*r.pick(b"RQbusae012")),
            10 => p.extend([b'q', r.below(4) as u8]),
            11 => p.extend([b'h', r.below(4) as u8]),
            12 => p.extend([0x8a, r.below(10) as u8, 0xff, 0xff]),
            13 => p.extend(b"X\x07\x00\x00\x00storage"),
            14 => p.push(*r.pick(&[0x88u8, 0x89, b'N', 0x94, 0x93])),
            _ => p.push(r.next() as u8),
        }
    }
    p.push(b'.');
    p
}

/// A safetensors file with a generated header over some data.
fn safetensors(r: &mut Rng) -> Vec<u8> {
    let dtype = *r.pick(&["F32", "F64", "I64", "BOOL", "F16", "BF16", "U8", "Q4", ""]);
    let shape = *r.pick(&[
        "[2,2]",
        "[]",
        "[0]",
        "[4294967296,4294967296]",
        "[-1]",
        "[3]",
        "[1,1,1,1,1,1,1,1]",
    ]);
    let (a, b) = *r.pick(&[
        (0u64, 16u64),
        (0, 0),
        (8, 4),
        (0, 1 << 40),
        (16, 32),
        (u64::MAX, 0),
    ]);
    let h = format!(
        r#"{{"w":{{"dtype":"{dtype}","shape":{shape},"data_offsets":[{a},{b}]}},"__metadata__":{{"format":"pt"}}}}"#
    );
    let mut v = (h.len() as u64).to_le_bytes().to_vec();
    v.extend(h.as_bytes());
    v.extend((0..r.below(40)).map(|_| r.next() as u8));
    v
}

/// Write the corpus into `dir` (the children's folder), the same for the same seed.
pub fn write(dir: &Path, seed: u64) -> std::io::Result<()> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/pymodels");
    let fixtures: Vec<Vec<u8>> = FIXTURES
        .iter()
        .map(|f| std::fs::read(src.join(f)).unwrap_or_default())
        .collect();
    std::fs::create_dir_all(dir.join("tests/data/pymodels"))?;
    for (f, b) in FIXTURES.iter().zip(&fixtures) {
        std::fs::write(dir.join("tests/data/pymodels").join(f), b)?;
    }
    let mut r = Rng::for_call(seed, "pymodels files", 0);
    for i in 0..12 {
        let base = &fixtures[i % fixtures.len()];
        std::fs::write(dir.join(format!("m{i}.pt")), mutate(base, &mut r))?;
    }
    // the real data.pkl of tiny_sd.pt, read back from its stored zip record
    let real = fixtures[1]
        .windows(8)
        .position(|w| w == b"data.pkl")
        .and_then(|i| {
            // the pickle starts at its protocol opcode, after the record's alignment padding
            let start = i
                + 8
                + fixtures[1][i + 8..]
                    .windows(2)
                    .position(|w| w == [0x80, 2])?;
            let end = fixtures[1][start..]
                .windows(2)
                .position(|w| w == b".P")
                .map_or(fixtures[1].len(), |e| start + e + 1);
            Some(fixtures[1][start..end].to_vec())
        });
    for i in 0..10 {
        let p = match (&real, i % 2) {
            (Some(pk), 0) => mutate(pk, &mut r),
            _ => pickle(&mut r),
        };
        let data = (0..r.below(64)).map(|_| r.next() as u8).collect();
        std::fs::write(
            dir.join(format!("p{i}.pt")),
            zip(&[
                ("p/data.pkl", p),
                ("p/byteorder", b"little".to_vec()),
                ("p/data/0", data),
            ]),
        )?;
    }
    for i in 0..6 {
        std::fs::write(dir.join(format!("s{i}.safetensors")), safetensors(&mut r))?;
    }
    Ok(())
}
