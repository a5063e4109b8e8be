//! A testing tool, not an engine: speaks the protocol, plays random legal moves (the same move
//! for the same position and seed), and misbehaves on demand so that the referee's fault
//! handling can be tested.
//!
//! `mock-engine [--seed N] [--behaviour B] [--after N] [--delay-ms MS] [--score CP] [--tag T]
//! [--pid-file PATH] [--spawn-child PATH [--child-holds-output]]`
//! where B is one of: normal, crash (exit with status 1 at the go after N moves of a game),
//! segfault (die by SIGSEGV there), stall (never answer from that go on), no-readyok (never
//! answer isready once N moves of a game are played), late (sleep delay-ms before every
//! bestmove), illegal (answer an illegal move), malformed (answer "bestmove xyz!"), garbage
//! (print junk lines before every bestmove, still playing legal moves), extra-bestmove (after
//! every bestmove, a second, unsolicited one: another legal move of the same position),
//! no-uciok (never answer uci), exit-on-go (exit at the first go), ignore-quit (keep running
//! after quit and end of input).
//!
//! `--pid-file` appends the mock's process id to PATH at start. `--spawn-child` starts a child
//! that sleeps for ten minutes, in the mock's process group, and appends the child's id to PATH;
//! with `--child-holds-output` the child keeps the mock's stdout open. `--tag` is ignored (and
//! passed to the child): tests use it to find leftover processes.

use baghchal::{Game, Move, Position, Rules};
use clap::{Parser, ValueEnum};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Behaviour {
    Normal,
    Crash,
    Stall,
    Late,
    Illegal,
    Malformed,
    Garbage,
    NoUciok,
    ExitOnGo,
    IgnoreQuit,
    Segfault,
    NoReadyok,
    ExtraBestmove,
    /// The child started by `--spawn-child`: sleeps, says nothing.
    #[value(hide = true)]
    Child,
}

#[derive(Parser)]
#[command(
    name = "mock-engine",
    about = "Protocol test engine for the referee's tests (not a real engine)"
)]
struct Args {
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, value_enum, default_value_t = Behaviour::Normal)]
    behaviour: Behaviour,
    /// Moves played normally in each game before misbehaving (crash, stall, illegal, malformed).
    #[arg(long, default_value_t = 0)]
    after: u32,
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    /// Score reported in info lines, centi-goats.
    #[arg(long, default_value_t = 0)]
    score: i32,
    #[arg(long)]
    tag: Option<String>,
    /// Append this process's id to this file at start.
    #[arg(long)]
    pid_file: Option<String>,
    /// Start a sleeping child in this process group and append its id to this file.
    #[arg(long)]
    spawn_child: Option<String>,
    /// The child keeps this process's stdout open.
    #[arg(long)]
    child_holds_output: bool,
}

fn append_pid(path: &str, pid: u32) {
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| writeln!(file, "{pid}"));
    if let Err(error) = written {
        eprintln!("mock-engine: cannot write \"{path}\": {error}");
    }
}

/// Starts the sleeping child (same process group: the default for a child).
fn spawn_child(args: &Args, path: &str) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut command = std::process::Command::new(exe);
    command.arg("--behaviour=child");
    if let Some(tag) = &args.tag {
        command.arg(format!("--tag={tag}"));
    }
    command
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if !args.child_holds_output {
        command.stdout(std::process::Stdio::null());
    }
    match command.spawn() {
        Ok(child) => append_pid(path, child.id()),
        Err(error) => eprintln!("mock-engine: cannot start a child: {error}"),
    }
}

/// Dies by SIGSEGV (without a core file).
fn segfault() -> ! {
    #[cfg(unix)]
    {
        // SAFETY: resets the handler Rust installs for stack overflows, lowers the core file
        // limit, then raises the signal: this process ends here.
        unsafe {
            libc::signal(libc::SIGSEGV, libc::SIG_DFL);
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            libc::raise(libc::SIGSEGV);
        }
    }
    std::process::abort()
}

fn parse_position(tokens: &[&str], rules: Rules) -> Option<Game> {
    let moves_at = tokens
        .iter()
        .position(|&t| t == "moves")
        .unwrap_or(tokens.len());
    let start: Position = match tokens.get(1) {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => tokens[2..moves_at].join(" ").parse().ok()?,
        _ => return None,
    };
    let mut game = Game::new(start, rules);
    for text in tokens.get(moves_at + 1..).unwrap_or(&[]) {
        game.play(text.parse::<Move>().ok()?).ok()?;
    }
    Some(game)
}

fn main() {
    let args = Args::parse();
    let _ = &args.tag;
    if args.behaviour == Behaviour::Child {
        std::thread::sleep(Duration::from_secs(600));
        return;
    }
    if let Some(path) = &args.pid_file {
        append_pid(path, std::process::id());
    }
    if let Some(path) = &args.spawn_child {
        spawn_child(&args, path);
    }
    let out = std::io::stdout();
    let say = |line: &str| {
        let mut lock = out.lock();
        let _ = writeln!(lock, "{line}");
        let _ = lock.flush();
    };
    let mut rules = Rules::default();
    let mut game = Game::startpos(rules);
    let mut moves_played = 0u32;
    let misbehaving = |played: u32| played >= args.after;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("uci") if args.behaviour != Behaviour::NoUciok => {
                say("id name mock-engine");
                say("id author the baghchal tests");
                say("uciok");
            }
            Some("isready")
                if args.behaviour == Behaviour::NoReadyok && misbehaving(moves_played) => {}
            Some("isready") => say("readyok"),
            Some("ucinewgame") => moves_played = 0,
            Some("setoption") => {
                let value = tokens
                    .iter()
                    .position(|&t| t == "value")
                    .and_then(|i| tokens.get(i + 1));
                match (tokens.get(2).map(|n| n.to_ascii_lowercase()), value) {
                    (Some(name), Some(value)) if name == "forcedcapture" => {
                        rules.forced_capture = *value == "true"
                    }
                    (Some(name), Some(value)) if name == "capturestowin" => {
                        rules.captures_to_win = value.parse().unwrap_or(rules.captures_to_win)
                    }
                    (Some(name), Some(value)) if name == "repetition" => {
                        rules.repetition = value.parse().unwrap_or(rules.repetition)
                    }
                    _ => {}
                }
            }
            Some("position") => match parse_position(&tokens, rules) {
                Some(parsed) => game = parsed,
                None => say("info string error: bad position"),
            },
            Some("go") => {
                let misbehave = misbehaving(moves_played);
                match args.behaviour {
                    Behaviour::ExitOnGo => std::process::exit(1),
                    Behaviour::Crash if misbehave => std::process::exit(1),
                    Behaviour::Segfault if misbehave => segfault(),
                    Behaviour::Stall if misbehave => continue,
                    Behaviour::Late => std::thread::sleep(Duration::from_millis(args.delay_ms)),
                    Behaviour::Garbage => {
                        say("\u{1b}[31mgarbage \u{0} ~~~ bestmoves are overrated");
                        say("info depth banana score cp");
                        say("");
                    }
                    _ => {}
                }
                say(&format!("info depth 1 score cp {} nodes 1 pv", args.score));
                if args.behaviour == Behaviour::Malformed && misbehave {
                    say("bestmove xyz!");
                } else if args.behaviour == Behaviour::Illegal && misbehave {
                    // A place on an occupied point or a step to one: never legal.
                    let tiger = game.position().tigers().first().expect("four tigers");
                    say(&format!("bestmove {tiger}"));
                } else {
                    let mut rng = StdRng::seed_from_u64(args.seed ^ game.position().hash());
                    let moves = game.legal_moves();
                    let chosen = moves.choose(&mut rng).copied();
                    match chosen {
                        Some(mv) => say(&format!("bestmove {mv}")),
                        None => say("bestmove 0000"),
                    }
                    if args.behaviour == Behaviour::ExtraBestmove {
                        // Unsolicited: nobody asked for it, so it must never count as a move.
                        if let Some(other) = moves
                            .iter()
                            .find(|&&mv| Some(mv) != chosen)
                            .or(chosen.as_ref())
                        {
                            say(&format!("bestmove {other}"));
                        }
                    }
                }
                moves_played += 1;
            }
            Some("quit") if args.behaviour != Behaviour::IgnoreQuit => return,
            _ => {}
        }
    }
    if args.behaviour == Behaviour::IgnoreQuit {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}
