//! Code shared by the examples (and the integration tests): the synthetic store generator
//! (`gen`: plans, sizes, expectations; `shapes`: the line shapes of each codex version;
//! `work`: what a session did: token counts, patches, plans, compactions, images).

pub mod gen;
pub mod shapes;
pub mod work;
