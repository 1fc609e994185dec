//! Code shared by the examples (and the integration tests): the synthetic store generator
//! (`gen`: plans, sizes, expectations; `shapes`: the line shapes of each codex version).

pub mod gen;
pub mod shapes;
