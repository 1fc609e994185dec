//! Text made into the conversation pane's screen lines: the styled pieces a line is made of
//! ([`Part`]), wrapping to a width by display cells ([`wrap`]), Markdown ([`markdown`]), its
//! tables ([`table`]) and code highlighting ([`highlight`]). Pure: text in, lines out; the theme
//! turns each [`Part`] into a style. Every piece of rollout text is neutralised by `sanitize`
//! before it becomes a line (Markdown entities included), so no control character from a file
//! reaches the terminal.

pub(crate) mod highlight;
pub(crate) mod markdown;
pub(crate) mod table;
pub(crate) mod wrap;

/// A kind of token in highlighted code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    Plain,
    Keyword,
    String,
    Comment,
    Number,
    Constant,
    Function,
    Type,
    /// Lines a diff adds, removes, and its headers.
    Inserted,
    Deleted,
    DiffMeta,
}

/// What a piece of text is; the theme turns it into a style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    MetaKey,
    MetaValue,
    /// The header's warning (the session's folder is gone).
    Warning,
    Rule,
    UserHeader,
    AssistantHeader,
    CommentaryHeader,
    UserText,
    AssistantText,
    CommentaryText,
    /// A Markdown heading, by level (1 to 6).
    Heading(u8),
    Strong,
    Emphasis,
    Strike,
    InlineCode,
    /// A link's text, and its address (shown dimmed after it; never a terminal hyperlink).
    Link,
    LinkUrl,
    /// The bar in front of a block quote, a list's bullet or number.
    Quote,
    ListMarker,
    /// A code block's gutter and language label.
    CodeGutter,
    Code(Code),
    TableRule,
    TableHeader,
    /// A tool call's heading line (the command it ran, the tool's name).
    Tool,
    /// A tool call's arguments or output lines.
    ToolOutput,
    ToolOk,
    ToolFailed,
    /// A marker across the pane (a compaction, an interrupted turn, where a fork's own part
    /// begins), and a status that is neither a success nor a failure.
    Marker,
    /// Reasoning summaries.
    ReasoningHeader,
    ReasoningText,
    Elided,
    Notice,
    /// A content-search match inside a message.
    Hit,
    /// A match of the find-in-conversation query, and the one find is on.
    Found,
    FoundCurrent,
}

impl Part {
    /// Whether this is text of a message or tool call body (what search and find mark).
    pub fn is_body(self) -> bool {
        !matches!(
            self,
            Part::MetaKey
                | Part::Rule
                | Part::UserHeader
                | Part::AssistantHeader
                | Part::CommentaryHeader
                | Part::ReasoningHeader
                | Part::Marker
                | Part::Quote
                | Part::ListMarker
                | Part::CodeGutter
                | Part::TableRule
                | Part::Elided
                | Part::Notice
                | Part::Hit
                | Part::Found
                | Part::FoundCurrent
        )
    }
}

/// One piece of a line: its text and what it is.
pub type Run = (String, Part);

/// One screen line of the pane.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaneLine {
    pub spans: Vec<Run>,
}

impl PaneLine {
    pub fn one(text: impl Into<String>, part: Part) -> PaneLine {
        PaneLine {
            spans: vec![(text.into(), part)],
        }
    }

    pub fn text(&self) -> String {
        self.spans.iter().map(|(s, _)| s.as_str()).collect()
    }

    pub fn is_blank(&self) -> bool {
        self.spans.iter().all(|(s, _)| s.trim().is_empty())
    }
}

/// Text from a rollout made safe for the terminal (tabs expanded, controls made visible).
pub fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    if crate::sanitize::needs_neutralising(text) || text.contains('\t') {
        std::borrow::Cow::Owned(crate::sanitize::for_terminal(text))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}
