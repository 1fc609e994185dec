//! Code shared by the examples (and the integration tests): the synthetic store generator
//! (`gen`: plans, sizes, expectations; `shapes`: the line shapes of each codex version;
//! `work`: what a session did: token counts, patches, plans, compactions, images), and its
//! Claude Code part (`claude`: plans, sessions, expectations; `claude_shapes`: the rows Claude
//! Code writes; `claude_work`: its tool calls, renames, compactions and subagents).

pub mod claude;
pub mod claude_shapes;
pub mod claude_work;
pub mod gen;
pub mod shapes;
pub mod work;
