//! The k.h functions exported from the qhost executable, with q's semantics and ownership.
