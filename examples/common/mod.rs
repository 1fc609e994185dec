//! Code shared by the examples (and the integration tests): the synthetic store generator.

pub mod gen;
