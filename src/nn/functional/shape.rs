//! Functional forms of the k api modules of kmodules.rst (knn.cpp's `onehot`, `zscore`,
//! `randomcrop`, `randomflip`), read with the module's own options and run by its forward:
//! `onehot x`, `onehot(x;classes)`, `onehot(x;classes;dtype)`, `zscore(x;mean;std)`,
//! `zscore(x;mean;std;inplace)`, `randomcrop(x;size)`, `randomcrop(x;size;pad;padmode;value)`,
//! `randomflip x`, `randomflip(x;p;dim)`; options may also be given by name last.
use super::by_layer;
use crate::k::{KResult, K};

pub fn onehot(x: K) -> KResult {
    by_layer("onehot", x, false)
}

pub fn zscore(x: K) -> KResult {
    by_layer("zscore", x, false)
}

pub fn randomcrop(x: K) -> KResult {
    by_layer("randomcrop", x, false)
}

pub fn randomflip(x: K) -> KResult {
    by_layer("randomflip", x, false)
}
