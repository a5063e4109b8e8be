//! A proof search at a drawn root under `Repetition forbid` (docs/forbid.md, "A proof search at
//! the root").
//!
//! Under forbid a table draw is no result: the side that first runs out of fresh positions
//! loses, and in the last layers the squeeze is often a few dozen leaves deep, out of the
//! alpha-beta search's sight but within a proof-number search's. So, with the `ForbidProof`
//! option (off by default: it was not shown to gain), before the search each
//! drawing root move of a movement-phase root is searched by the tablebase's prover
//! ([`Prover`], df-pn over the game's history since the last capture), the open moves again
//! with twice the expansions each round, within a share of the move's budget: a move proven to
//! win is played, moves proven to lose are left out while another remains, and a root whose
//! moves all lose is reported lost. Node-limited searches give the prover a share of their
//! nodes (deterministic); clocked ones a share of their time.

use std::time::Duration;

use crate::search::report::{SearchObserver, SearchResult};
use crate::search::time::TimePlan;
use crate::tablebase::forbid::prove::{ProveOptions, Prover, SEARCH_STACK};
use crate::tablebase::forbid::ForbidValue;
use crate::{Move, Repetition};

use super::super::thread::SearchContext;
use super::forbid::{not_proven_lost, proven_loss, proven_win};

/// The prover gets the search's nodes (or its planned time) divided by this.
const PROOF_SHARE: u64 = 4;
/// Expansions in all when the search has neither a node limit nor a clock (a `go depth`,
/// `go infinite` or pondering: `stop` ends it sooner).
const UNLIMITED_EXPANSIONS: u64 = 200_000;
/// Expansions each open move gets in the first round (doubled every round).
const FIRST_ROUND: u64 = 256;
/// Transposition entries of the root's prover (in 2^21 slots of 49 bytes: 103 MB; its cheapest
/// half goes when full).
const TABLE_ENTRIES: u64 = 1 << 20;

/// What the proof search made of a drawn root.
#[derive(Debug)]
pub enum RootProof {
    /// A move proven to win: played and reported (`cp 20000`: the proof has no distance).
    Won(SearchResult),
    /// Search among these moves: those not proven to lose (all of them when the root is lost,
    /// which is reported, or when nothing was proven).
    Keep(Vec<Move>),
}

/// What a root's proof search may spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProofBudget {
    /// Expansions in all (over every round and move).
    pub expansions: u64,
    /// Time since `go` after which it stops.
    pub time: Option<Duration>,
}

impl ProofBudget {
    /// The share of a search's limits the proof search takes: a quarter of its nodes, or of
    /// the time planned for the move; none without the `ForbidProof` option.
    pub fn of(context: &SearchContext<'_>) -> ProofBudget {
        let limits = context.limits;
        if !context.options.forbid_proof {
            return ProofBudget {
                expansions: 0,
                time: None,
            };
        }
        let side = context.game.position().side_to_move().index();
        let plan = TimePlan::new(limits, side, context.options.move_overhead);
        let share = u32::try_from(PROOF_SHARE).unwrap_or(u32::MAX);
        let time = plan.soft.or(plan.hard).map(|time| time / share);
        let expansions = limits
            .nodes
            .map_or(UNLIMITED_EXPANSIONS, |nodes| nodes / PROOF_SHARE);
        ProofBudget { expansions, time }
    }
}

/// The proof search at a drawn root: `keeping` are the moves that keep the table draw (and that
/// the forbid files, when present, did not prove lost). Runs only under `Repetition forbid`, in
/// the movement phase, with two moves or more to choose from; otherwise keeps them all.
pub fn prove_root(
    context: &SearchContext<'_>,
    keeping: Vec<Move>,
    budget: ProofBudget,
    observer: &mut dyn SearchObserver,
) -> RootProof {
    let game = context.game;
    let Some(tables) = context.tablebase.tables() else {
        return RootProof::Keep(keeping);
    };
    let movement = !game.position().is_placement_phase();
    if game.rules().repetition != Repetition::Forbid
        || !movement
        || keeping.len() < 2
        || budget.expansions == 0
    {
        return RootProof::Keep(keeping);
    }
    let files = context.tablebase.forbid().map(|forbid| forbid.files());
    let options = ProveOptions {
        max_nodes: FIRST_ROUND,
        table_entries: TABLE_ENTRIES,
        use_stored: true,
    };
    let control = context.control;
    let started = control.elapsed();
    let out_of_time =
        move || control.is_stopped() || budget.time.is_some_and(|t| control.elapsed() >= t);
    // The prover recurses up to its depth limit: its own thread with room for that.
    let (values, spent) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || {
                let prover = Prover::new(tables, files, options).with_stop(&out_of_time);
                values_of(prover, context, &keeping, budget.expansions, &out_of_time)
            })
            .ok()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    });
    log::debug!(
        "forbid proof at the root: {spent} expansions in {:?}, {} of {} moves settled",
        control.elapsed().saturating_sub(started),
        values.iter().filter(|(_, v)| v.is_proven()).count(),
        values.len()
    );
    let how = " by a proof search";
    if let Some(&(mv, _)) = values.iter().find(|(_, v)| *v == ForbidValue::Win) {
        return RootProof::Won(proven_win(context, mv, spent, how, observer));
    }
    let open = not_proven_lost(&keeping, &values);
    if open.is_empty() {
        proven_loss(context, how, observer);
        return RootProof::Keep(keeping);
    }
    RootProof::Keep(open)
}

/// The proven values of `moves` for the mover (unknown where not settled) and the expansions
/// spent: every open move searched in rounds of [`FIRST_ROUND`] expansions, doubled each
/// round, until one wins, at most one is left open, `expansions` are spent or time is out.
fn values_of(
    mut prover: Prover<'_>,
    context: &SearchContext<'_>,
    moves: &[Move],
    expansions: u64,
    out_of_time: &dyn Fn() -> bool,
) -> (Vec<(Move, ForbidValue)>, u64) {
    let game = context.game;
    let mut values: Vec<(Move, ForbidValue)> =
        moves.iter().map(|&mv| (mv, ForbidValue::Unknown)).collect();
    let mut child_game = game.positions().to_vec();
    let mut spent = 0u64;
    let mut allowance = FIRST_ROUND;
    loop {
        let spent_before = spent;
        for (mv, value) in values.iter_mut() {
            if *value != ForbidValue::Unknown {
                continue;
            }
            if spent >= expansions || out_of_time() {
                return (values, spent);
            }
            prover.set_max_nodes(allowance.min(expansions - spent));
            child_game.push(game.position().played(*mv));
            let result = prover.prove(&child_game, &|_, _, _| {});
            child_game.pop();
            spent += result.nodes;
            *value = result.value.negate();
            if *value == ForbidValue::Win {
                return (values, spent);
            }
        }
        let open = values
            .iter()
            .filter(|(_, v)| *v == ForbidValue::Unknown)
            .count();
        // Nothing left to choose between, or nothing more to learn.
        if open < 2 || spent == spent_before {
            return (values, spent);
        }
        allowance = allowance.saturating_mul(2);
    }
}
