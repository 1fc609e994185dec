//! Every style the picker draws with, in a colour theme and a no-colour theme (`NO_COLOR`).
//! The no-colour theme still tells things apart with bold, reverse, dim, italic and underline.

use ratatui::style::{Color, Modifier, Style};

use crate::tui::render::{Code, Part};

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub color: bool,
    pub prompt: Style,
    pub query: Style,
    pub placeholder: Style,
    pub mode: Style,
    pub age: Style,
    pub title: Style,
    pub project: Style,
    pub branch: Style,
    pub kind: Style,
    pub matched: Style,
    pub selected: Style,
    pub marker: Style,
    pub rule: Style,
    pub status: Style,
    pub flash: Style,
    pub footer: Style,
    pub empty: Style,
    pub help_key: Style,
    pub help_text: Style,
    pub help_border: Style,
}

impl Theme {
    /// The theme for this environment: no colour when `NO_COLOR` is set to anything non-empty.
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme::new(!no_color)
    }

    pub fn new(color: bool) -> Theme {
        let plain = Style::default();
        let bold = plain.add_modifier(Modifier::BOLD);
        let dim = plain.add_modifier(Modifier::DIM);
        let fg = |c: Color| if color { plain.fg(c) } else { plain };
        Theme {
            color,
            prompt: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            query: bold,
            placeholder: dim,
            mode: dim,
            age: fg(Color::DarkGray),
            title: plain,
            project: fg(Color::Blue),
            branch: fg(Color::Magenta),
            kind: fg(Color::Yellow).add_modifier(Modifier::ITALIC),
            matched: if color {
                plain.fg(Color::LightYellow).add_modifier(Modifier::BOLD)
            } else {
                bold.add_modifier(Modifier::UNDERLINED)
            },
            selected: if color {
                plain.bg(Color::Indexed(237)).add_modifier(Modifier::BOLD)
            } else {
                plain.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            },
            marker: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            rule: fg(Color::DarkGray),
            status: dim,
            flash: fg(Color::Green).add_modifier(Modifier::BOLD),
            footer: fg(Color::DarkGray),
            empty: dim.add_modifier(Modifier::ITALIC),
            help_key: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            help_text: plain,
            help_border: fg(Color::Cyan),
        }
    }

    /// The style of a piece of the conversation pane.
    pub fn part(&self, part: Part) -> Style {
        let plain = Style::default();
        let fg = |c: Color| if self.color { plain.fg(c) } else { plain };
        let m = |m: Modifier| plain.add_modifier(m);
        match part {
            Part::MetaKey | Part::Rule | Part::TableRule => fg(Color::DarkGray),
            Part::MetaValue | Part::UserText | Part::AssistantText => plain,
            Part::Warning => fg(Color::Red).add_modifier(Modifier::BOLD),
            Part::UserHeader => fg(Color::Green).add_modifier(Modifier::BOLD | Modifier::REVERSED),
            Part::AssistantHeader => fg(Color::Cyan).add_modifier(Modifier::BOLD),
            Part::CommentaryHeader => {
                fg(Color::Cyan).add_modifier(Modifier::DIM | Modifier::ITALIC)
            }
            Part::CommentaryText => m(Modifier::DIM | Modifier::ITALIC),
            // The top heading stands out from the second: reversed, as the user's header is.
            Part::Heading(1) => fg(Color::Magenta)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED | Modifier::REVERSED),
            Part::Heading(2) => {
                fg(Color::Magenta).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            }
            Part::Heading(_) => fg(Color::Magenta).add_modifier(Modifier::BOLD),
            Part::Strong | Part::TableHeader => m(Modifier::BOLD),
            Part::Emphasis => m(Modifier::ITALIC),
            Part::Strike => m(Modifier::CROSSED_OUT),
            Part::InlineCode => {
                if self.color {
                    plain.fg(Color::LightCyan)
                } else {
                    m(Modifier::BOLD)
                }
            }
            Part::Link => fg(Color::Blue).add_modifier(Modifier::UNDERLINED),
            Part::LinkUrl | Part::CodeGutter => fg(Color::DarkGray).add_modifier(Modifier::DIM),
            Part::Quote | Part::ListMarker => fg(Color::Cyan),
            Part::Code(code) => self.code(code),
            Part::Tool => fg(Color::Yellow),
            Part::ToolOutput => m(Modifier::DIM),
            Part::ToolOk => fg(Color::Green),
            Part::ToolFailed => fg(Color::Red).add_modifier(Modifier::BOLD),
            Part::ReasoningHeader => fg(Color::Magenta).add_modifier(Modifier::ITALIC),
            Part::Marker => fg(Color::Yellow).add_modifier(Modifier::BOLD),
            Part::ReasoningText => m(Modifier::ITALIC | Modifier::DIM),
            Part::Elided | Part::Notice => m(Modifier::ITALIC | Modifier::DIM),
            Part::Hit | Part::FoundCurrent => {
                if self.color {
                    plain
                        .fg(Color::Black)
                        .bg(Color::Yellow)
                        .add_modifier(Modifier::BOLD)
                } else {
                    m(Modifier::REVERSED | Modifier::BOLD | Modifier::UNDERLINED)
                }
            }
            Part::Found => {
                if self.color {
                    plain.fg(Color::Black).bg(Color::LightYellow)
                } else {
                    m(Modifier::UNDERLINED)
                }
            }
        }
    }

    /// Code tokens: colours, and without colour only comments stand apart (dim).
    fn code(&self, code: Code) -> Style {
        let plain = Style::default();
        if !self.color {
            return match code {
                Code::Comment => plain.add_modifier(Modifier::DIM),
                Code::Keyword => plain.add_modifier(Modifier::BOLD),
                _ => plain,
            };
        }
        match code {
            Code::Plain => plain,
            Code::Keyword => plain.fg(Color::Magenta),
            Code::String => plain.fg(Color::Green),
            Code::Comment => plain.fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            Code::Number | Code::Constant => plain.fg(Color::LightRed),
            Code::Function => plain.fg(Color::Blue),
            Code::Type => plain.fg(Color::Yellow),
            Code::Inserted => plain.fg(Color::Green),
            Code::Deleted => plain.fg(Color::Red),
            Code::DiffMeta => plain.fg(Color::Cyan),
        }
    }
}
