//! Claude Code's sessions: `<projects>/<project folder>/<session id>.jsonl`, read by the rules
//! written in the README ("How sessions are read").
