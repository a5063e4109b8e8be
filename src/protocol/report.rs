//! The debug and scripting commands' output: `d`, `eval`, `go perft`, `bench`.

use super::output::{info_string, Output};
use crate::bench::{run_bench_on, BenchSpec};
use crate::{divide, Game, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A perft or bench running on its own thread.
#[derive(Debug)]
pub struct Job {
    handle: JoinHandle<()>,
    done: Arc<AtomicBool>,
}

impl Job {
    fn spawn(work: impl FnOnce(&dyn Fn()) + Send + 'static) -> Job {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let handle = std::thread::spawn(move || work(&|| flag.store(true, Ordering::SeqCst)));
        Job { handle, done }
    }

    /// Whether the job is about to print (or has printed) its last line.
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst) || self.handle.is_finished()
    }

    /// Waits for the thread to end.
    pub fn join(self) {
        if self.handle.join().is_err() {
            log::error!("a perft or bench thread panicked");
        }
    }
}

/// `d`: diagram, position string, hash key, side, counts, rules, legal moves, outcome.
pub fn display(out: &dyn Output, game: &Game) {
    let position = game.position();
    for line in position.diagram().lines() {
        out.line(line);
    }
    out.line(&format!("Position: {position}"));
    out.line(&format!("Key: {:016x}", position.hash()));
    out.line(&format!("Side to move: {}", position.side_to_move()));
    out.line(&format!("Goats in hand: {}", position.goats_in_hand()));
    out.line(&format!("Goats captured: {}", position.goats_captured()));
    out.line(&format!("Rules: {}", game.rules()));
    out.line(&format!("Moves played: {}", game.ply()));
    let moves = game.legal_moves();
    let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
    out.line(format!("Legal moves ({}): {}", list.len(), list.join(" ")).trim_end());
    match game.outcome() {
        Some(outcome) => out.line(&format!("Outcome: {outcome}")),
        None => out.line("Outcome: none"),
    }
}

/// `eval`: one `eval <term> <cp>` line per term, the total last.
pub fn eval(out: &dyn Output, terms: &[(&'static str, i32)]) {
    for (name, value) in terms {
        out.line(&format!("eval {name} {value}"));
    }
}

/// `go perft N` on its own thread: `<move>: <count>` per root move, then `Nodes searched: N`.
pub fn spawn_perft(out: Arc<dyn Output>, mut game: Game, depth: u32) -> Job {
    Job::spawn(move |finishing| {
        let mut total = 0;
        for (mv, count) in divide(&mut game, depth) {
            out.line(&format!("{mv}: {count}"));
            total += count;
        }
        finishing();
        out.line(&format!("Nodes searched: {total}"));
    })
}

/// `bench ...` on its own thread over `games`: `<N> nodes` then `<N> nps`.
pub fn spawn_bench(out: Arc<dyn Output>, spec: BenchSpec, games: Vec<Game>) -> Job {
    Job::spawn(move |finishing| {
        let report = run_bench_on(&spec, &games);
        info_string(
            out.as_ref(),
            &format!(
                "bench: {} positions in {} ms",
                report.positions,
                report.elapsed.as_millis()
            ),
        );
        let [nodes, nps] = bench_lines(report.nodes, report.nps());
        out.line(&nodes);
        finishing();
        out.line(&nps);
    })
}

/// The two result lines of a bench, shared with `baghchal bench`.
pub fn bench_lines(nodes: u64, nps: u64) -> [String; 2] {
    [format!("{nodes} nodes"), format!("{nps} nps")]
}

/// `help`: the commands, one per line, and where the full reference is.
pub fn help(out: &dyn Output) {
    for line in HELP {
        out.line(line);
    }
}

const HELP: [&str; 12] = [
    "baghchal speaks a UCI-style protocol (UGI too); the full reference is protocol.md.",
    "uci | ugi                     identify, list the options, uciok | ugiok",
    "isready                       readyok",
    "setoption name <n> [value <v>] set an option (see the uci list)",
    "ucinewgame | uginewgame       a new game",
    "position startpos|fen <pos> [moves <m> ...]   the game to search",
    "go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes|mate <n>] [infinite] [ponder] [searchmoves <m> ...]",
    "go perft <depth>              count the legal move tree",
    "stop | ponderhit | quit       end or confirm a search; leave",
    "query gameover|p1turn|result  the game under our rules",
    "d | eval | flip               show the game; the evaluation; mirror the board top to bottom",
    "bench [hash] [threads] [limit] [default|current|<file>] [depth|nodes|movetime]",
];

/// `flip`: `position` mirrored top to bottom (rank 1 <-> rank 5), a symmetry of the board, so
/// its value and static evaluation are unchanged.
pub fn flipped(position: &Position) -> Position {
    let text = position.to_string();
    let (board, rest) = text.split_once(' ').expect("a position string has fields");
    let ranks: Vec<&str> = board.split('/').rev().collect();
    format!("{} {rest}", ranks.join("/"))
        .parse()
        .expect("a mirrored position is a position")
}
