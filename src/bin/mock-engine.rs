//! A testing tool, not an engine: speaks the protocol, plays random legal moves (the same move
//! for the same position and seed), and misbehaves on demand so that the referee's fault
//! handling can be tested.
//!
//! `mock-engine [--seed N] [--behaviour B] [--after N] [--delay-ms MS] [--score CP] [--tag T]
//! [--ponder] [--pid-file PATH] [--spawn-child PATH [--child-holds-output]]`
//! where B is one of: normal, crash (exit with status 1 at the go after N moves of a game),
//! segfault (die by SIGSEGV there), stall (never answer from that go on), no-readyok (never
//! answer isready once N moves of a game are played), late (sleep delay-ms before every
//! bestmove), illegal (answer an illegal move), malformed (answer "bestmove xyz!"), garbage
//! (print junk lines before every bestmove, still playing legal moves), extra-bestmove (after
//! every bestmove, a second, unsolicited one: another legal move of the same position),
//! no-uciok (never answer uci), exit-on-go (exit at the first go), ignore-quit (keep running
//! after quit and end of input).
//!
//! Faults for `referee check` (each breaks one rule of protocol.md): bad-option (a spin option
//! whose default is outside its range), early-bestmove (answers go infinite and go ponder at
//! once), slow-stop (sleeps delay-ms after stop before its bestmove), busy-readyok (no readyok
//! while a search is held), wrong-clock (thinks a tenth of the opponent's clock: goats read
//! btime), zero-bestmove (bestmove 0000 where moves exist), bad-info (wdl not summing to 1000),
//! bad-pv (a pv playing its first move twice), bad-ponder (a ponder move that is illegal),
//! ignore-rules (plays a move the board allows but the declared rule variant forbids, when
//! there is one), crash-on-bad-input (exits at an unknown command), wrong-query (answers every
//! query "response false").
//!
//! A normal mock declares the rule options (ForcedCapture, CapturesToWin, Repetition), speaks
//! UGI too (ugi/ugiok, uginewgame, query), and holds the answer of go infinite and go ponder
//! until stop or ponderhit.
//!
//! `--ponder` declares the Ponder option and names a ponder move, the reply the mock itself would
//! play (so a mock with the same seed plays it).
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
    BadOption,
    EarlyBestmove,
    SlowStop,
    BusyReadyok,
    WrongClock,
    ZeroBestmove,
    BadInfo,
    BadPv,
    BadPonder,
    IgnoreRules,
    CrashOnBadInput,
    WrongQuery,
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
    /// Declare the Ponder option and name a ponder move: the reply this mock would play.
    #[arg(long)]
    ponder: bool,
}

fn append_pid(path: &str, pid: u32) {
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        // One write of the whole line: mocks started together append to the same file, and
        // `writeln!` may write the number and the newline separately, interleaving them.
        .and_then(|mut file| file.write_all(format!("{pid}\n").as_bytes()));
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

/// The move a mock plays: a seeded random legal move; with ignore-rules, first a move the
/// board allows that the rules forbid.
fn choose(args: &Args, game: &Game) -> Option<Move> {
    if args.behaviour == Behaviour::IgnoreRules {
        let board = Rules {
            forced_capture: false,
            repetition: baghchal::Repetition::Draw,
            ..*game.rules()
        };
        let mut loose = game.clone();
        loose.set_rules(board);
        let forbidden = loose
            .legal_moves()
            .iter()
            .copied()
            .find(|&mv| game.check_move(mv).is_err());
        if forbidden.is_some() {
            return forbidden;
        }
    }
    let mut rng = StdRng::seed_from_u64(args.seed ^ game.position().hash());
    game.legal_moves().choose(&mut rng).copied()
}

/// The answer to `go`: info lines and the bestmove line (and an unsolicited one with
/// extra-bestmove).
fn answer(args: &Args, game: &Game, misbehave: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if args.behaviour == Behaviour::Garbage {
        lines.push("\u{1b}[31mgarbage \u{0} ~~~ bestmoves are overrated".to_string());
        lines.push("info depth banana score cp".to_string());
        lines.push(String::new());
    }
    let chosen = choose(args, game);
    let pv = match (args.behaviour, chosen) {
        (Behaviour::BadPv, Some(mv)) => format!(" pv {mv} {mv}"),
        (_, Some(mv)) => format!(" pv {mv}"),
        (_, None) => String::new(),
    };
    let wdl = if args.behaviour == Behaviour::BadInfo {
        " wdl 600 300 200"
    } else {
        ""
    };
    lines.push(format!(
        "info depth 1 score cp {}{wdl} nodes 1{pv}",
        args.score
    ));
    if args.behaviour == Behaviour::Malformed && misbehave {
        lines.push("bestmove xyz!".to_string());
    } else if args.behaviour == Behaviour::Illegal && misbehave {
        // A place on an occupied point or a step to one: never legal.
        let tiger = game.position().tigers().first().expect("four tigers");
        lines.push(format!("bestmove {tiger}"));
    } else if args.behaviour == Behaviour::ZeroBestmove {
        lines.push("bestmove 0000".to_string());
    } else {
        match chosen {
            Some(mv) if args.behaviour == Behaviour::BadPonder => {
                lines.push(format!("bestmove {mv} ponder {mv}"))
            }
            Some(mv) if args.ponder => {
                let mut after = game.clone();
                after.play_unchecked(mv);
                match choose(args, &after).filter(|_| after.outcome().is_none()) {
                    Some(reply) => lines.push(format!("bestmove {mv} ponder {reply}")),
                    None => lines.push(format!("bestmove {mv}")),
                }
            }
            Some(mv) => lines.push(format!("bestmove {mv}")),
            None => lines.push("bestmove 0000".to_string()),
        }
        if args.behaviour == Behaviour::ExtraBestmove {
            // Unsolicited: nobody asked for it, so it must never count as a move.
            let moves = game.legal_moves();
            if let Some(other) = moves
                .iter()
                .find(|&&mv| Some(mv) != chosen)
                .or(chosen.as_ref())
            {
                lines.push(format!("bestmove {other}"));
            }
        }
    }
    lines
}

/// The clock a wrong-clock mock reads: the opponent's (goats read btime, tigers wtime).
fn wrong_clock_ms(tokens: &[&str], game: &Game) -> u64 {
    let word = match game.position().side_to_move() {
        baghchal::Side::Goats => ["btime", "p2time"],
        baghchal::Side::Tigers => ["wtime", "p1time"],
    };
    tokens
        .iter()
        .position(|t| word.contains(t))
        .and_then(|i| tokens.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// `query gameover|p1turn|result` under the mock's rules.
fn query_answer(question: &str, game: &Game) -> &'static str {
    let outcome = game.outcome();
    match question {
        "gameover" if outcome.is_some() => "true",
        "gameover" => "false",
        "p1turn" if game.position().side_to_move() == baghchal::Side::Goats => "true",
        "p1turn" => "false",
        "result" => match outcome.map(|o| o.winner()) {
            None => "none",
            Some(None) => "draw",
            Some(Some(baghchal::Side::Goats)) => "p1win",
            Some(Some(baghchal::Side::Tigers)) => "p2win",
        },
        _ => "none",
    }
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
    // The answer of a held search (go infinite, go ponder), printed at stop or ponderhit.
    let mut held: Option<Vec<String>> = None;
    let misbehaving = |played: u32| played >= args.after;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some(word @ ("uci" | "ugi")) if args.behaviour != Behaviour::NoUciok => {
                say("id name mock-engine");
                say("id author the baghchal tests");
                if args.behaviour == Behaviour::BadOption {
                    say("option name Hash type spin default 0 min 1 max 64");
                }
                if args.ponder {
                    say("option name Ponder type check default false");
                }
                say("option name ForcedCapture type check default false");
                say("option name CapturesToWin type spin default 5 min 1 max 20");
                say("option name Repetition type combo default forbid var forbid var draw");
                say(if word == "uci" { "uciok" } else { "ugiok" });
            }
            Some("isready")
                if args.behaviour == Behaviour::NoReadyok && misbehaving(moves_played) => {}
            Some("isready") if args.behaviour == Behaviour::BusyReadyok && held.is_some() => {}
            Some("isready") => say("readyok"),
            Some("ucinewgame" | "uginewgame") => moves_played = 0,
            Some("query") => {
                let question = tokens.get(1).copied().unwrap_or("");
                if args.behaviour == Behaviour::WrongQuery {
                    say("response false");
                } else {
                    say(&format!("response {}", query_answer(question, &game)));
                }
            }
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
                game.set_rules(rules);
            }
            Some("position") => match parse_position(&tokens, rules) {
                Some(parsed) => game = parsed,
                None => say("info string error: bad position"),
            },
            Some("stop" | "ponderhit") => {
                if let Some(lines) = held.take() {
                    if tokens[0] == "stop" && args.behaviour == Behaviour::SlowStop {
                        std::thread::sleep(Duration::from_millis(args.delay_ms));
                    }
                    for line in lines {
                        say(&line);
                    }
                }
            }
            Some("go") => {
                let misbehave = misbehaving(moves_played);
                match args.behaviour {
                    Behaviour::ExitOnGo => std::process::exit(1),
                    Behaviour::Crash if misbehave => std::process::exit(1),
                    Behaviour::Segfault if misbehave => segfault(),
                    Behaviour::Stall if misbehave => continue,
                    Behaviour::Late => std::thread::sleep(Duration::from_millis(args.delay_ms)),
                    Behaviour::WrongClock => std::thread::sleep(Duration::from_millis(
                        wrong_clock_ms(&tokens, &game) / 10,
                    )),
                    _ => {}
                }
                let lines = answer(&args, &game, misbehave);
                moves_played += 1;
                let holds = tokens.iter().any(|t| *t == "infinite" || *t == "ponder");
                if holds && args.behaviour != Behaviour::EarlyBestmove {
                    held = Some(lines);
                    continue;
                }
                for line in lines {
                    say(&line);
                }
            }
            Some("quit") if args.behaviour == Behaviour::IgnoreQuit => {}
            Some("quit") => return,
            Some(_) if args.behaviour == Behaviour::CrashOnBadInput => {
                let known = ["debug", "register", "d", "eval"];
                if !known.contains(&tokens[0]) {
                    std::process::exit(2);
                }
            }
            _ => {}
        }
    }
    if args.behaviour == Behaviour::IgnoreQuit {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}
