//! A message's Markdown as the pane's lines, parsed with pulldown-cmark: headings, emphasis,
//! inline code, lists (nested, numbered, tasks), block quotes, links (text, then the address
//! dimmed: never a terminal hyperlink), tables ([`super::table`]), rules and fenced code. Code
//! blocks come out plain and are recorded as [`CodeBlock`]s, for the pane to highlight when they
//! first come on screen.
//!
//! Every text piece the parser hands out is neutralised again (`&#27;` is an escape character
//! once entities are decoded), so no control character from the message reaches the terminal.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use syntect::parsing::SyntaxReference;

use super::wrap::{wrap_hard, wrap_runs};
use super::{highlight, safe, Code, PaneLine, Part, Run};

/// A fenced or indented code block among the lines: where it is and what it holds, so that it
/// can be drawn again highlighted, with the same line count.
#[derive(Debug, Clone)]
pub struct CodeBlock {
    /// Its first line in the lines it was rendered into.
    pub first: usize,
    /// How many lines it takes.
    pub count: usize,
    pub grammar: Option<&'static SyntaxReference>,
    pub source: String,
    /// What comes before each code line (quote bars, list indent, the gutter).
    pub prefix: Vec<Run>,
    /// Cells of code on a line.
    pub width: usize,
}

impl CodeBlock {
    /// The block's lines, highlighted when its language is known.
    pub fn highlighted(&self) -> Vec<PaneLine> {
        match self.grammar {
            Some(g) => code_lines(
                &self.prefix,
                highlight::highlight(&self.source, g),
                self.width,
            ),
            None => self.plain(),
        }
    }

    fn plain(&self) -> Vec<PaneLine> {
        let lines = self
            .source
            .split('\n')
            .map(|l| vec![(l.to_owned(), Part::Code(Code::Plain))])
            .collect();
        code_lines(&self.prefix, lines, self.width)
    }
}

/// Source lines (as runs) cut to `width` and put behind `prefix`.
fn code_lines(prefix: &[Run], lines: Vec<Vec<Run>>, width: usize) -> Vec<PaneLine> {
    // A wrapped line goes on behind a dotted gutter.
    let mut rest = prefix.to_vec();
    if let Some((g, _)) = rest.last_mut() {
        *g = "┆ ".to_owned();
    }
    let mut out = Vec::new();
    for line in lines {
        for (i, piece) in wrap_hard(&line, width).into_iter().enumerate() {
            let mut spans = if i == 0 {
                prefix.to_vec()
            } else {
                rest.clone()
            };
            spans.extend(piece);
            out.push(PaneLine { spans });
        }
    }
    out
}

/// A message rendered: its lines and the code blocks among them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rendered {
    pub lines: Vec<PaneLine>,
    pub code: Vec<CodeBlock>,
}

/// A block that holds others: what it puts before each of their lines.
#[derive(Debug, Clone)]
enum Container {
    Quote,
    /// A list: the next item's number, `None` for bullets.
    List(Option<u64>),
    /// A list item: its marker, until its first line is out.
    Item {
        marker: String,
        shown: bool,
    },
}

struct Renderer {
    width: usize,
    base: Part,
    out: Rendered,
    containers: Vec<Container>,
    /// Inline runs of the block being read.
    inline: Vec<Run>,
    /// The inline parts open (strong, emphasis, link, ...), innermost last.
    marks: Vec<Part>,
    heading: Option<u8>,
    code: Option<(String, String)>,
    link: Vec<(String, usize)>,
    table: Option<super::table::Table>,
}

/// Render `text` (a message's Markdown) to `width` cells, its plain text in `base`.
pub(crate) fn render(text: &str, width: usize, base: Part) -> Rendered {
    let mut r = Renderer {
        width: width.max(8),
        base,
        out: Rendered::default(),
        containers: Vec::new(),
        inline: Vec::new(),
        marks: Vec::new(),
        heading: None,
        code: None,
        link: Vec::new(),
        table: None,
    };
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for event in Parser::new_ext(text, opts) {
        r.event(event);
    }
    r.flush();
    while r.out.lines.last().is_some_and(PaneLine::is_blank) {
        r.out.lines.pop();
    }
    r.out
}

impl Renderer {
    fn part(&self) -> Part {
        if let Some(level) = self.heading {
            return Part::Heading(level);
        }
        self.marks.last().copied().unwrap_or(self.base)
    }

    fn text(&mut self, text: &str, part: Part) {
        let text = safe(text);
        if let Some(t) = &mut self.table {
            t.text(&text, part);
            return;
        }
        if let Some((_, code)) = &mut self.code {
            code.push_str(&text);
            return;
        }
        match self.inline.last_mut() {
            Some((s, p)) if *p == part => s.push_str(&text),
            _ => self.inline.push((text.into_owned(), part)),
        }
    }

    fn event(&mut self, event: Event) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.text(&t, self.part()),
            Event::Code(t) => self.text(&t, Part::InlineCode),
            Event::Html(t) | Event::InlineHtml(t) => self.text(&t, self.part()),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t, Part::InlineCode),
            Event::FootnoteReference(t) => self.text(&format!("[^{t}]"), Part::LinkUrl),
            Event::SoftBreak => self.text(" ", self.part()),
            Event::HardBreak => self.text("\n", self.part()),
            Event::Rule => {
                self.block_gap();
                let w = self.width.saturating_sub(self.prefix_width()).max(1);
                let mut spans = self.prefix(false);
                spans.push(("─".repeat(w), Part::Rule));
                self.out.lines.push(PaneLine { spans });
            }
            Event::TaskListMarker(done) => {
                self.text(if done { "[x] " } else { "[ ] " }, Part::ListMarker);
            }
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph => self.block_gap(),
            Tag::Heading { level, .. } => {
                self.block_gap();
                self.heading = Some(heading_level(level));
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.block_gap();
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.block_gap();
                let info = match kind {
                    CodeBlockKind::Fenced(info) => safe(&info).into_owned(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((info, String::new()));
            }
            Tag::List(start) => {
                self.flush();
                if !self.in_item() {
                    self.block_gap();
                }
                self.containers.push(Container::List(start));
            }
            Tag::Item => {
                self.flush();
                let marker = self.next_marker();
                self.containers.push(Container::Item {
                    marker,
                    shown: false,
                });
            }
            Tag::Table(aligns) => {
                self.flush();
                self.block_gap();
                self.table = Some(super::table::Table::new(aligns_of(&aligns)));
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.row();
                }
            }
            Tag::TableCell => {
                if let Some(t) = &mut self.table {
                    t.cell();
                }
            }
            Tag::Emphasis => self.marks.push(Part::Emphasis),
            Tag::Strong => self.marks.push(Part::Strong),
            Tag::Strikethrough => self.marks.push(Part::Strike),
            Tag::Link { dest_url, .. } => {
                self.link
                    .push((safe(&dest_url).into_owned(), self.inline.len()));
                self.marks.push(Part::Link);
            }
            Tag::Image { dest_url, .. } => {
                self.text("[image: ", Part::LinkUrl);
                self.link
                    .push((safe(&dest_url).into_owned(), self.inline.len()));
                self.marks.push(Part::Link);
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush(),
            TagEnd::Heading(_) => {
                self.flush();
                self.heading = None;
            }
            TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item => {
                self.flush();
                self.containers.pop();
            }
            TagEnd::CodeBlock => self.code_block(),
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    let prefix_w = self.prefix_width();
                    for line in t.layout(self.width.saturating_sub(prefix_w).max(8)) {
                        let mut spans = self.prefix(false);
                        spans.extend(line);
                        self.out.lines.push(PaneLine { spans });
                    }
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.marks.pop();
            }
            TagEnd::Link => self.end_link(false),
            TagEnd::Image => self.end_link(true),
            _ => {}
        }
    }

    /// After a link's text: its address, dimmed, unless the text is the address.
    fn end_link(&mut self, image: bool) {
        self.marks.pop();
        let Some((url, from)) = self.link.pop() else {
            return;
        };
        if image {
            self.text("]", Part::LinkUrl);
        }
        let shown: String = self.inline[from.min(self.inline.len())..]
            .iter()
            .map(|(s, _)| s.as_str())
            .collect();
        if !url.is_empty() && shown.trim() != url && !url.starts_with('#') {
            self.text(&format!(" ({url})"), Part::LinkUrl);
        }
    }

    fn in_item(&self) -> bool {
        self.containers
            .iter()
            .any(|c| matches!(c, Container::Item { .. }))
    }

    /// The marker of the next item of the innermost list.
    fn next_marker(&mut self) -> String {
        let depth = self
            .containers
            .iter()
            .filter(|c| matches!(c, Container::List(_)))
            .count();
        match self.containers.last_mut() {
            Some(Container::List(Some(n))) => {
                let m = format!("{n}. ");
                *n += 1;
                m
            }
            _ => match depth {
                0 | 1 => "• ".to_owned(),
                2 => "◦ ".to_owned(),
                _ => "▪ ".to_owned(),
            },
        }
    }

    /// A blank line between two blocks (not at the top, not twice, not at an item's start).
    fn block_gap(&mut self) {
        self.flush();
        let fresh_item = matches!(
            self.containers.last(),
            Some(Container::Item { shown: false, .. })
        );
        if fresh_item || self.out.lines.is_empty() {
            return;
        }
        if !self.out.lines.last().is_some_and(PaneLine::is_blank) {
            let spans = self.prefix(false);
            let spans = spans
                .into_iter()
                .filter(|(_, p)| *p == Part::Quote)
                .collect();
            self.out.lines.push(PaneLine { spans });
        }
    }

    fn prefix_width(&self) -> usize {
        self.containers
            .iter()
            .map(|c| match c {
                Container::Quote => 2,
                Container::List(_) => 0,
                Container::Item { marker, .. } => crate::textwidth::width(marker),
            })
            .sum()
    }

    /// What goes before a line; `first` consumes the innermost item's marker.
    fn prefix(&mut self, first: bool) -> Vec<Run> {
        let mut spans = Vec::new();
        let last_item = self
            .containers
            .iter()
            .rposition(|c| matches!(c, Container::Item { .. }));
        for (i, c) in self.containers.iter_mut().enumerate() {
            match c {
                Container::Quote => spans.push(("▎ ".to_owned(), Part::Quote)),
                Container::List(_) => {}
                Container::Item { marker, shown } => {
                    if first && !*shown && Some(i) == last_item {
                        spans.push((marker.clone(), Part::ListMarker));
                        *shown = true;
                    } else {
                        spans.push((
                            " ".repeat(crate::textwidth::width(marker)),
                            Part::ListMarker,
                        ));
                    }
                }
            }
        }
        spans
    }

    /// The inline runs read so far as wrapped lines.
    fn flush(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let runs = std::mem::take(&mut self.inline);
        let avail = self.width.saturating_sub(self.prefix_width()).max(4);
        for (n, line) in wrap_runs(&runs, avail).into_iter().enumerate() {
            let mut spans = self.prefix(n == 0);
            spans.extend(line);
            self.out.lines.push(PaneLine { spans });
        }
    }

    fn code_block(&mut self) {
        let Some((info, mut source)) = self.code.take() else {
            return;
        };
        if source.ends_with('\n') {
            source.pop();
        }
        let grammar = highlight::grammar(&info);
        let lang = info.split_whitespace().next().unwrap_or("").to_owned();
        let mut prefix = self.prefix(true);
        if !lang.is_empty() {
            let mut spans = prefix.clone();
            spans.push((format!("╭ {lang}"), Part::CodeGutter));
            self.out.lines.push(PaneLine { spans });
            prefix = self.prefix(false);
        }
        prefix.push(("│ ".to_owned(), Part::CodeGutter));
        let width = self.width.saturating_sub(self.prefix_width() + 2).max(4);
        let block = CodeBlock {
            first: self.out.lines.len(),
            count: 0,
            grammar,
            source,
            prefix,
            width,
        };
        let lines = block.plain();
        let block = CodeBlock {
            count: lines.len(),
            ..block
        };
        self.out.lines.extend(lines);
        self.out.code.push(block);
    }
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

fn aligns_of(aligns: &[Alignment]) -> Vec<super::table::Align> {
    use super::table::Align;
    aligns
        .iter()
        .map(|a| match a {
            Alignment::Right => Align::Right,
            Alignment::Center => Align::Center,
            Alignment::Left | Alignment::None => Align::Left,
        })
        .collect()
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
