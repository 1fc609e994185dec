//! `gen_store`: write a realistic synthetic Codex store (see `common/gen.rs`), and with
//! `--claude N` a Claude Code part of N sessions under `DIR/claude` (the folder to give the
//! picker as `--claude-home`; see `common/claude.rs`).
//!
//! `cargo run --release --example gen_store -- --sessions 10000 --out DIR [--claude N]
//! [--seed N] [--scale F]`

mod common;

use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut opts = common::gen::GenOptions::default();
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--sessions" => {
                opts.sessions = value().parse().unwrap_or_else(|_| usage("--sessions N"));
            }
            "--claude" => opts.claude = value().parse().unwrap_or_else(|_| usage("--claude N")),
            "--seed" => opts.seed = value().parse().unwrap_or_else(|_| usage("--seed N")),
            "--scale" => opts.scale = value().parse().unwrap_or_else(|_| usage("--scale F")),
            "--threads" => opts.threads = value().parse().unwrap_or_else(|_| usage("--threads N")),
            "--out" => out = Some(PathBuf::from(value())),
            _ => usage(&format!("unknown argument {arg}")),
        }
    }
    let out = out.unwrap_or_else(|| usage("--out DIR is required"));
    if out.join("sessions").exists() {
        usage(&format!("{} already holds a store", out.display()));
    }
    let started = Instant::now();
    match common::gen::generate(&out, &opts) {
        Ok(bytes) => println!(
            "wrote {} Codex and {} Claude Code sessions, {:.2} GB, to {} in {:.1} s",
            opts.sessions,
            opts.claude,
            bytes as f64 / 1e9,
            out.display(),
            started.elapsed().as_secs_f64()
        ),
        Err(e) => {
            eprintln!("gen_store: {e}");
            std::process::exit(1);
        }
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("gen_store: {msg}\nusage: gen_store --sessions N --out DIR [--claude N] [--seed N] [--scale F] [--threads N]");
    std::process::exit(2);
}
