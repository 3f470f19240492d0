//! Image utilities, ktorch's `makegrid` and `png`:
//! - `makegrid(images;rows)`, `(images;rows;cols)`, `(images;rows;cols;padding)`,
//!   `(images;rows;cols;padding;pad value)`: n x c x h x w or n x h x w images (a tensor or q
//!   array) laid out as one c x H x W image, torchvision's `make_grid`; one-channel images become
//!   three-channel (gray as RGB). A tensor gives a tensor, q data gives q data.
//! - `png(file;image)`: write a c x h x w image (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA channels),
//!   values converted to bytes as torch does, to a PNG file; returns the file name.
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use tch::{Device, Kind, Tensor};

use crate::k::from::{self, FromQ, Number as Num, Sym};
use crate::k::{make, read, KResult, K};
use crate::tensor::opargs;
use crate::tensor::result;

const GRID_USAGE: &str = "(input array/tensor; rows; cols; padding; pad value), 2-5 args";

/// Defaults as ktorch: 2 pixels of padding, filled with 0.
const DEFAULT_PADDING: i64 = 2;

/// `makegrid`'s arguments by position (each optional one only after those before it):
/// `(images;rows;cols;padding;pad value)`, rows and columns positive longs or null (taken from
/// the image count), padding a non-negative long (default 2), pad value a number atom (0).
pub struct Grid {
    images: opargs::Input,
    rows: Option<i64>,
    cols: Option<i64>,
    padding: i64,
    fill: Num,
}

impl FromQ for Grid {
    const TYPE: &'static str = GRID_USAGE;
    /// Every value is a grid's arguments or an error (the counts, padding and pad value are
    /// checked before the images are read, as ktorch).
    fn read(x: K) -> anyhow::Result<Option<Grid>> {
        let v = from::items(&x, 2..=5, GRID_USAGE)?;
        let count = |i: usize, what: &str| -> anyhow::Result<Option<i64>> {
            match i64::of(v[i]) {
                Some(i64::MIN) => Ok(None),
                Some(n) if n > 0 => Ok(Some(n)),
                Some(n) => bail!("{what} must be positive, given {n}"),
                None => bail!("{what} must be a long, given {}", opargs::describe(v[i])),
            }
        };
        let rows = count(1, "rows")?;
        let cols = match v.len() {
            2 => None,
            _ => count(2, "columns")?,
        };
        let padding = match v.get(3) {
            None => DEFAULT_PADDING,
            Some(&p) => match i64::of(p) {
                Some(p) if p >= 0 => p,
                _ => bail!(
                    "padding must be a non-negative long, given {}",
                    opargs::describe(p)
                ),
            },
        };
        let fill = match v.get(4) {
            None => Num::Int(0),
            Some(&f) => Num::of(f).filter(|_| read::ktype(f) < 0).ok_or_else(|| {
                anyhow!("pad value must be a number, given {}", opargs::describe(f))
            })?,
        };
        Ok(Some(Grid {
            images: opargs::Input::from_q(v[0], "images")?,
            rows,
            cols,
            padding,
            fill,
        }))
    }
}

crate::qfn! {
    /// `makegrid(images;rows)` .. `makegrid(images;rows;cols;padding;pad value)` (the module's doc).
    pub fn makegrid(g: Grid) -> KResult {
        let _nograd = tch::no_grad_guard();
        let r = grid(&g.images.t, g.rows, g.cols, g.padding, g.fill)?;
        result(r, g.images.handle)
    }
}

/// The grid of `images` (n x h x w or n x c x h x w). With rows or columns null the other is
/// taken from the image count, as torchvision's `make_grid` (ktorch needs both).
fn grid(
    images: &Tensor,
    rows: Option<i64>,
    cols: Option<i64>,
    pad: i64,
    fill: Num,
) -> anyhow::Result<Tensor> {
    let d = images.dim();
    if d != 3 && d != 4 {
        bail!("expected 3 or 4-dimensional input, {d} dimension(s) given");
    }
    let mut t = if d == 3 {
        images.f_unsqueeze(1)?
    } else {
        images.shallow_clone()
    };
    if t.size()[1] == 1 {
        t = Tensor::f_cat(&[&t, &t, &t], 1)?; // gray shown as RGB, as torchvision
    }
    let [n, c, h, w] = t.size()[..] else {
        bail!("expected 4 dimensions after adding channels")
    };
    let per = |k: i64| ((n + k - 1) / k).max(1);
    let (rows, cols) = match (rows, cols) {
        (Some(r), Some(c)) => (r, c),
        (Some(r), None) => (r, per(r)),
        (None, Some(c)) => (per(c), c),
        (None, None) => bail!("both rows & columns cannot be null"),
    };
    let (ch, cw) = (h + pad, w + pad); // one cell: an image and the padding before it
    let g = Tensor::f_full(
        [c, rows * ch + pad, cols * cw + pad],
        fill,
        (t.kind(), t.device()),
    )?;
    // Images fill the grid row by row; images beyond rows x cols are left out, as in ktorch.
    for k in 0..n.min(rows * cols) {
        let (i, j) = (k / cols, k % cols);
        g.f_narrow(1, i * ch + pad, h)?
            .f_narrow(2, j * cw + pad, w)?
            .f_copy_(&t.f_select(0, k)?)?;
    }
    Ok(g)
}

/// `png`'s usage, in its errors.
const PNG_USAGE: &str = "(PNG file name; image array/tensor)";

/// `png`'s file: a symbol (answered as given, written without its leading colon).
pub struct PngName(&'static str);

impl FromQ for PngName {
    const TYPE: &'static str = "a symbol";
    fn read(x: K) -> anyhow::Result<Option<PngName>> {
        Ok(Sym::of(x).map(|Sym(s)| PngName(s)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected {PNG_USAGE}, file name a symbol, given {}",
            opargs::describe(x)
        )
    }
}

crate::qfn! {
    /// `png(file;image)`: the image written to the file (the module's doc); answers the file.
    pub fn png(file: PngName, image: opargs::Input) -> KResult as "(PNG file name; image array/tensor)" {
        write_png(file.0.strip_prefix(':').unwrap_or(file.0), &image.t)?;
        Ok(make::symbol(file.0))
    }
}

/// Write a c x h x w image to `path` (its directories made as needed, as q's `1:` does).
fn write_png(path: &str, image: &Tensor) -> anyhow::Result<()> {
    let size = image.size();
    let [c, h, w] = size[..] else {
        bail!(
            "expected 3-dimensional image, channels x height x width, given {}-dimensional input",
            size.len()
        )
    };
    let color = match c {
        1 => ::png::ColorType::Grayscale,
        2 => ::png::ColorType::GrayscaleAlpha,
        3 => ::png::ColorType::Rgb,
        4 => ::png::ColorType::Rgba,
        _ => bail!("expected 1-4 channels (gray, gray+alpha, RGB, RGBA), given {c}"),
    };
    let dim = |n: i64, what: &str| {
        u32::try_from(n)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| anyhow!("image {what} of {n} cannot be written"))
    };
    let (height, width) = (dim(h, "height")?, dim(w, "width")?);
    if path.is_empty() {
        bail!("empty file name");
    }
    // Bytes as ktorch: the tensor cast to uint8 (no scaling), pixels interleaved as h x w x c.
    let _nograd = tch::no_grad_guard();
    let pixels = image
        .f_to_device(Device::Cpu)?
        .f_to_kind(Kind::Uint8)?
        .f_permute([1, 2, 0])?
        .f_contiguous()?
        .f_flatten(0, -1)?;
    let bytes = Vec::<u8>::try_from(&pixels)?;
    if let Some(dir) = Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("unable to create directory {}", dir.display()))?;
    }
    let file = File::create(path).with_context(|| format!("unable to create {path}"))?;
    let mut encoder = ::png::Encoder::new(BufWriter::new(file), width, height);
    encoder.set_color(color);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("writing {path}"))?;
    writer
        .write_image_data(&bytes)
        .with_context(|| format!("writing {path}"))?;
    writer.finish().with_context(|| format!("writing {path}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decode a file written by `write_png`: its size, color type and pixel bytes.
    fn decode(path: &str) -> (u32, u32, ::png::ColorType, Vec<u8>) {
        let file = std::io::BufReader::new(File::open(path).expect("open"));
        let mut reader = ::png::Decoder::new(file).read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
        let info = reader.next_frame(&mut buf).expect("png frame");
        buf.truncate(info.buffer_size());
        (info.width, info.height, info.color_type, buf)
    }

    #[test]
    fn png_pixels_round_trip() {
        let dir = std::env::temp_dir().join(format!("ktorch-png-{}", std::process::id()));
        // RGB 3 x 2 x 4 image (channels first) of floats, truncated to bytes as torch does.
        let v: Vec<f32> = (0..24).map(|i| i as f32 * 10.5).collect();
        let rgb = Tensor::from_slice(&v).reshape([3, 2, 4]);
        let path = dir.join("sub/rgb.png");
        write_png(path.to_str().unwrap(), &rgb).expect("write rgb");
        let (w, h, color, bytes) = decode(path.to_str().unwrap());
        assert_eq!((w, h, color), (4, 2, ::png::ColorType::Rgb));
        // pixel (row r, col c) channel k is v[k*8 + r*4 + c], interleaved row-major.
        let expected: Vec<u8> = (0..2)
            .flat_map(|r| (0..4).flat_map(move |c| (0..3).map(move |k| (k * 8 + r * 4 + c) as f32)))
            .map(|i| (i * 10.5) as u8)
            .collect();
        assert_eq!(bytes, expected);

        // Gray 1 x 3 x 2 image of longs.
        let gray = Tensor::from_slice(&[0i64, 50, 100, 150, 200, 255]).reshape([1, 3, 2]);
        let path = dir.join("gray.png");
        write_png(path.to_str().unwrap(), &gray).expect("write gray");
        assert_eq!(
            decode(path.to_str().unwrap()),
            (
                2,
                3,
                ::png::ColorType::Grayscale,
                vec![0, 50, 100, 150, 200, 255]
            )
        );

        assert!(write_png(
            "/tmp/x.png",
            &Tensor::zeros([2, 2], (Kind::Float, Device::Cpu))
        )
        .is_err());
        assert!(write_png(
            "/tmp/x.png",
            &Tensor::zeros([5, 2, 2], (Kind::Float, Device::Cpu))
        )
        .is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
