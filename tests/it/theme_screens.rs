//! The light theme, read as a person on a light terminal would: on a white background with
//! black default text, every character the picker draws (the list, matches, the selected row,
//! the conversation with headings, tables, highlighted code and tool calls, the help) keeps a
//! contrast of at least 3:1 with what is behind it, with the colours of xterm's palette. The
//! dark theme on the same terminal does not, which is why the light one exists.

use codex_picker::config::ThemeName;
use codex_picker::tui::action::Action;
use codex_picker::tui::app::App;
use codex_picker::tui::ui::{self, Theme};
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

use super::screens::{all, app, demo, settle, type_text};

/// A light terminal: white background, black text.
const PAPER: (u8, u8, u8) = (255, 255, 255);
const INK: (u8, u8, u8) = (0, 0, 0);

/// The least contrast allowed (WCAG's for large or bold text; the dimmed parts are meant to
/// recede and are not counted).
const LEAST: f64 = 3.0;

/// A colour as xterm shows it; `None` for the terminal's own default.
fn rgb(c: Color) -> Option<(u8, u8, u8)> {
    const BASE: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let indexed = |n: u8| -> (u8, u8, u8) {
        match n {
            0..=15 => BASE[usize::from(n)],
            16..=231 => {
                let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
                let n = n - 16;
                (level(n / 36), level(n / 6 % 6), level(n % 6))
            }
            _ => {
                let g = 8 + 10 * (n - 232);
                (g, g, g)
            }
        }
    };
    Some(match c {
        Color::Reset => return None,
        Color::Black => BASE[0],
        Color::Red => BASE[1],
        Color::Green => BASE[2],
        Color::Yellow => BASE[3],
        Color::Blue => BASE[4],
        Color::Magenta => BASE[5],
        Color::Cyan => BASE[6],
        Color::Gray => BASE[7],
        Color::DarkGray => BASE[8],
        Color::LightRed => BASE[9],
        Color::LightGreen => BASE[10],
        Color::LightYellow => BASE[11],
        Color::LightBlue => BASE[12],
        Color::LightMagenta => BASE[13],
        Color::LightCyan => BASE[14],
        Color::White => BASE[15],
        Color::Indexed(n) => indexed(n),
        Color::Rgb(r, g, b) => (r, g, b),
    })
}

fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Every drawn character whose contrast with its background is below [`LEAST`] on a light
/// terminal: (the character, its row's text, the contrast).
fn hard_to_read(term: &Terminal<TestBackend>) -> Vec<(String, String, f64)> {
    let buf = term.backend().buffer();
    let mut found = Vec::new();
    for y in 0..buf.area.height {
        let row: String = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect();
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            if cell.symbol().trim().is_empty() || cell.modifier.contains(Modifier::DIM) {
                continue;
            }
            let mut fg = rgb(cell.fg).unwrap_or(INK);
            let mut bg = rgb(cell.bg).unwrap_or(PAPER);
            if cell.modifier.contains(Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            let c = contrast(fg, bg);
            if c < LEAST {
                found.push((cell.symbol().to_owned(), row.trim_end().to_owned(), c));
            }
        }
    }
    found
}

/// The screens a person goes through: the list with matches and the selected row, the
/// conversation read from its top to its end with tool calls shown, and the help.
fn screens(theme: &Theme) -> Vec<Terminal<TestBackend>> {
    let draw = |app: &App| {
        let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
        term.draw(|f| ui::draw(f, app, theme)).unwrap();
        term
    };
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 40);
    let mut shown = vec![draw(&app)];
    type_text(&mut app, &mut demo, "checkout rounding");
    shown.push(draw(&app));
    app.update(Action::ToggleTools);
    app.update(Action::FocusConversation);
    settle(&mut app, &mut demo);
    loop {
        shown.push(draw(&app));
        let before = app.pane().scroll();
        app.update(Action::Scroll(30));
        if app.pane().scroll() == before {
            break;
        }
    }
    app.update(Action::ToggleHelp);
    shown.push(draw(&app));
    shown
}

#[test]
fn the_light_theme_is_readable_on_a_light_terminal() {
    let theme = Theme::named(ThemeName::Light);
    assert!(theme.color, "the light theme has colours");
    let screens = screens(&theme);
    let coloured = screens
        .iter()
        .flat_map(|t| t.backend().buffer().content.iter())
        .filter(|c| c.fg != Color::Reset || c.bg != Color::Reset)
        .count();
    assert!(coloured > 500, "the screens are drawn in colour");
    for term in &screens {
        let bad = hard_to_read(term);
        assert!(
            bad.is_empty(),
            "hard to read on a light background: {:?}",
            &bad[..bad.len().min(8)]
        );
    }
}

#[test]
fn the_dark_theme_is_not_readable_on_a_light_terminal() {
    let bad: Vec<_> = screens(&Theme::named(ThemeName::Dark))
        .iter()
        .flat_map(hard_to_read)
        .collect();
    assert!(
        bad.iter()
            .any(|(_, row, _)| row.contains("checkout rounding")),
        "the dark theme's matches on the selected row: {bad:?}"
    );
}

#[test]
fn the_none_theme_draws_no_colour() {
    for term in screens(&Theme::named(ThemeName::None)) {
        let buf = term.backend().buffer();
        assert!(
            buf.content
                .iter()
                .all(|c| c.fg == Color::Reset && c.bg == Color::Reset),
            "a colour without colours"
        );
    }
}

/// The picker in tmux on the demo store with `theme = "light"` in its config file and `env`
/// before it; the screen with its escape sequences once the list is drawn.
fn styled_screen(env: &str) -> String {
    use crate::tmux::{demo_store, shell_quote, start, Tmux};
    let Some(tmux) = Tmux::start() else {
        return String::new();
    };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let config = dir.path().join("config/codex-picker/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "theme = \"light\"\n").unwrap();
    let cmd = format!(
        "env -u NO_COLOR {env} XDG_CONFIG_HOME={dir}/config XDG_CACHE_HOME={dir}/cache {bin} --all --codex-home {home}; sleep 30",
        dir = shell_quote(dir.path()),
        bin = shell_quote(std::path::Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
        home = shell_quote(&home),
    );
    start(&tmux, &cmd);
    tmux.wait_for("Draft the 2.4 release notes");
    let out = tmux.run(&["capture-pane", "-e", "-p", "-t", "t"]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn theme_light_in_the_config_file_draws_the_light_colours_and_no_color_still_wins() {
    let screen = styled_screen("");
    if screen.is_empty() {
        return;
    }
    let selected = screen
        .lines()
        .find(|l| l.contains('▶'))
        .expect("a selected row");
    assert!(
        selected.contains("48;5;253"),
        "the selected row on a light grey: {selected:?}"
    );
    assert!(
        !screen.contains("48;5;237"),
        "no dark selected row on a light terminal"
    );

    let screen = styled_screen("NO_COLOR=1");
    assert!(screen.contains("Draft the 2.4 release notes"));
    assert!(
        screen.contains("\x1b[0;1;7m"),
        "the selected row in reverse video"
    );
    let colours: Vec<&str> = sgr_params(&screen)
        .filter(|p| matches!(p.parse::<u8>(), Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)))
        .collect();
    assert!(colours.is_empty(), "NO_COLOR, yet colours {colours:?}");
}

/// The parameters of every SGR sequence (`ESC [ … m`) in `screen`.
fn sgr_params(screen: &str) -> impl Iterator<Item = &str> {
    screen
        .split('\x1b')
        .filter_map(|seq| seq.strip_prefix('['))
        .filter_map(|seq| seq.split_once('m').map(|(params, _)| params))
        .flat_map(|params| params.split(';'))
}
