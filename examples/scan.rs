//! `scan`: the line classifier and the metadata reader over a fixed set of rollouts, alone.
//!
//! Every file is read into memory first; then every line is classified, and every
//! `session_meta` line is read in full. What it prints (line counts by kind, metadata rows
//! read) is the same for every build that answers the same, so two builds can be compared by
//! their counts: run it under `valgrind --tool=callgrind` for repeatable instruction counts
//! (`classify_all` and `read_meta_all` are the two halves), or with `--repeat N` for the
//! fastest of N timed runs.
//!
//! `cargo run --release --example scan -- [--repeat N] [--list FILE] [PATH ...]`
//! (a PATH that is a folder stands for every `.jsonl` file under it; `--list` names one path a
//! line).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use codex_picker::rollout::classify::{classify_line, Kind};
use codex_picker::rollout::meta_line;

fn main() {
    let (paths, repeat) = parse_args();
    let files = rollouts(paths);
    let texts: Vec<Vec<u8>> = files
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    let lines = split_lines(&texts);
    let bytes: usize = lines.iter().map(|l| l.len()).sum();

    let mut counts = [0usize; 6];
    let mut meta = Vec::new();
    let classify = fastest(repeat, || (counts, meta) = classify_all(&lines));
    let mut read = 0;
    let meta_time = fastest(repeat, || read = read_meta_all(&meta));

    println!(
        "{} files, {} lines, {:.1} MB",
        files.len(),
        lines.len(),
        bytes as f64 / 1e6
    );
    let names = [
        "meta",
        "message",
        "thread name",
        "tool",
        "other",
        "malformed",
    ];
    for (name, n) in names.iter().zip(counts) {
        println!("  {name:<12} {n}");
    }
    println!("  meta read    {read} of {}", meta.len());
    println!(
        "fastest of {repeat}: classify {classify:.2?} ({:.2} GB/s), meta {meta_time:.2?}",
        bytes as f64 / classify.as_secs_f64() / 1e9
    );
}

/// The paths named (files, folders, `--list FILE`) and `--repeat N`.
fn parse_args() -> (Vec<PathBuf>, usize) {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut repeat = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repeat" => {
                repeat = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--repeat N");
            }
            "--list" => {
                let list = args.next().expect("--list FILE");
                let text = std::fs::read_to_string(&list).expect("the list");
                paths.extend(text.lines().filter(|l| !l.is_empty()).map(PathBuf::from));
            }
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    (paths, repeat)
}

/// Every `.jsonl` file named or below a folder named, each folder's in path order.
fn rollouts(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(&path)
                .into_iter()
                .filter_map(Result::ok)
                .map(walkdir::DirEntry::into_path)
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect();
            found.sort();
            files.append(&mut found);
        } else {
            files.push(path);
        }
    }
    files
}

/// The non-empty lines of every text, without their `\r`.
fn split_lines(texts: &[Vec<u8>]) -> Vec<&[u8]> {
    texts
        .iter()
        .flat_map(|t| {
            let mut from = 0;
            memchr::memchr_iter(b'\n', t)
                .chain([t.len()])
                .map(move |end| {
                    let line = &t[from..end];
                    from = end + 1;
                    line
                })
        })
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The shortest of `repeat` runs of `f`: on a busy machine the other runs measure the others.
fn fastest(repeat: usize, mut f: impl FnMut()) -> Duration {
    (0..repeat.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Every line's kind, counted, and the `session_meta` lines.
#[inline(never)]
fn classify_all<'a>(lines: &[&'a [u8]]) -> ([usize; 6], Vec<&'a [u8]>) {
    let mut counts = [0usize; 6];
    let mut meta = Vec::new();
    for &line in lines {
        let (kind, _) = classify_line(black_box(line));
        counts[match kind {
            Kind::Meta => 0,
            Kind::Message => 1,
            Kind::ThreadName => 2,
            Kind::Tool
            | Kind::Turn
            | Kind::ToolEvent
            | Kind::Patch
            | Kind::Usage
            | Kind::TurnContext => 3,
            Kind::Other => 4,
            Kind::Malformed => 5,
        }] += 1;
        if kind == Kind::Meta {
            meta.push(line);
        }
    }
    (counts, meta)
}

/// How many of the `session_meta` lines read.
#[inline(never)]
fn read_meta_all(lines: &[&[u8]]) -> usize {
    lines
        .iter()
        .filter(|&&line| black_box(meta_line::parse(black_box(line))).is_some())
        .count()
}
