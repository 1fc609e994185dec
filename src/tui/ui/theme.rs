//! Every style the picker draws with, in three themes: colours for a dark background, the same
//! styles with each colour swapped for one readable on a light background ([`Palette::Light`]),
//! and no colour (`--theme none`, or `NO_COLOR` whatever the theme). The no-colour theme still
//! tells things apart with bold, reverse, dim, italic and underline.

use ratatui::style::{Color, Modifier, Style};

use crate::config::ThemeName;
use crate::tui::render::{Code, Part};

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub color: bool,
    palette: Palette,
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
    /// The theme `name`, in this environment: no colour when `NO_COLOR` is set to anything
    /// non-empty, whatever the name.
    pub fn from_env(name: ThemeName) -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme::named(if no_color { ThemeName::None } else { name })
    }

    /// The theme `name`.
    pub fn named(name: ThemeName) -> Theme {
        match name {
            ThemeName::Dark => Theme::new(true),
            ThemeName::Light => Theme::new(true).on(Palette::Light),
            ThemeName::None => Theme::new(false),
        }
    }

    /// The dark-background theme (`color`), or the no-colour one.
    pub fn new(color: bool) -> Theme {
        let plain = Style::default();
        let bold = plain.add_modifier(Modifier::BOLD);
        let dim = plain.add_modifier(Modifier::DIM);
        let fg = |c: Color| if color { plain.fg(c) } else { plain };
        Theme {
            color,
            palette: Palette::Dark,
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

    /// These styles with the colours of `palette`.
    fn on(self, palette: Palette) -> Theme {
        let p = |style: Style| palette.paint(style);
        Theme {
            palette,
            prompt: p(self.prompt),
            query: p(self.query),
            placeholder: p(self.placeholder),
            mode: p(self.mode),
            age: p(self.age),
            title: p(self.title),
            project: p(self.project),
            branch: p(self.branch),
            kind: p(self.kind),
            matched: p(self.matched),
            selected: p(self.selected),
            marker: p(self.marker),
            rule: p(self.rule),
            status: p(self.status),
            flash: p(self.flash),
            footer: p(self.footer),
            empty: p(self.empty),
            help_key: p(self.help_key),
            help_text: p(self.help_text),
            help_border: p(self.help_border),
            ..self
        }
    }

    /// The style of a piece of the conversation pane.
    pub fn part(&self, part: Part) -> Style {
        self.palette.paint(self.part_on_dark(part))
    }

    fn part_on_dark(&self, part: Part) -> Style {
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

/// The colours a theme's styles are drawn in: as written (chosen for a dark background), or each
/// swapped for one of the 256-colour palette readable on a light one. Foregrounds get dark
/// shades; backgrounds (the selected row, search hits) light ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Palette {
    Dark,
    Light,
}

impl Palette {
    fn paint(self, style: Style) -> Style {
        if self == Palette::Dark {
            return style;
        }
        Style {
            fg: style.fg.map(light_fg),
            bg: style.bg.map(light_bg),
            ..style
        }
    }
}

/// A text colour for a light background in place of the dark theme's `c`.
fn light_fg(c: Color) -> Color {
    match c {
        Color::Cyan => Color::Indexed(30),
        Color::LightCyan => Color::Indexed(24),
        Color::Blue | Color::LightBlue => Color::Indexed(25),
        Color::Magenta | Color::LightMagenta => Color::Indexed(90),
        Color::Yellow => Color::Indexed(94),
        Color::LightYellow => Color::Indexed(130),
        Color::Green | Color::LightGreen => Color::Indexed(28),
        Color::Red => Color::Indexed(160),
        Color::LightRed => Color::Indexed(124),
        Color::DarkGray => Color::Indexed(243),
        Color::Gray | Color::White => Color::Indexed(238),
        other => other,
    }
}

/// A background for a light terminal in place of the dark theme's `c`.
fn light_bg(c: Color) -> Color {
    match c {
        Color::Indexed(237) => Color::Indexed(253),
        Color::Yellow => Color::Indexed(220),
        Color::LightYellow => Color::Indexed(229),
        other => other,
    }
}
