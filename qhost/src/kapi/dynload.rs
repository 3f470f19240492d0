//! `2:`: load a shared library and look up a function, as q does.
