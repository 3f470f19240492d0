//! Functional forms of the k api modules of kmodules.rst (knn.cpp's `onehot`, `zscore`,
//! `randomcrop`, `randomflip`), read with the module's own options and run by its forward:
//! `onehot x`, `onehot(x;classes)`, `onehot(x;classes;dtype)`, `zscore(x;mean;std)`,
//! `zscore(x;mean;std;inplace)`, `randomcrop(x;size)`, `randomcrop(x;size;pad;padmode;value)`,
//! `randomflip x`, `randomflip(x;p;dim)`; options may also be given by name last.
use super::ByLayer;
use crate::k::KResult;

super::by_layer! { ByLayer: onehot, zscore, randomcrop, randomflip }
