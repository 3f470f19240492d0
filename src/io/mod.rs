//! Files and images: `image` arranges images into a grid (`makegrid`) and writes PNG files (`png`).
pub mod image;
