//! `VecGame`: n games stepped at once in Rust, without Python's lock, with numpy arrays out.

use crate::board::Rules;
use crate::encoding::{self, NUM_ACTIONS, NUM_PLANES, OBSERVATION_LEN};
use crate::shield::{released, value_error};
use baghchal::{Game, Move, MoveList, Outcome};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One game of the batch, with its legal moves kept (they are the mask and check actions).
struct Slot {
    game: Game,
    legal: MoveList,
}

impl Slot {
    fn new(rules: baghchal::Rules) -> Slot {
        let game = Game::startpos(rules);
        let legal = game.legal_moves();
        Slot { game, legal }
    }

    /// Back to the start position, keeping the history's memory (no allocation per game).
    fn restart(&mut self) {
        while self.game.undo().is_some() {}
        self.legal = self.game.legal_moves();
    }

    /// Plays a legal move; returns the outcome, if the game ended.
    fn play(&mut self, mv: Move) -> Option<Outcome> {
        self.game.play_unchecked(mv);
        self.legal = self.game.legal_moves();
        let captures = self.game.position().is_captures_reached(self.game.rules());
        // Game::outcome is None exactly when the captures are not reached and moves remain.
        if self.legal.is_empty() || captures {
            self.game.outcome()
        } else {
            None
        }
    }
}

/// What one step reports for every game.
struct StepOut {
    observations: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    dones: Vec<bool>,
}

/// n games of Bagh Chal stepped together (see docs/python.md, "VecGame").
#[pyclass(module = "baghchal_engine")]
pub struct VecGame {
    slots: Vec<Slot>,
    rules: baghchal::Rules,
    max_plies: usize,
    rng: StdRng,
    /// Of the last step, per game: the observation the finished game ended in.
    final_observations: Vec<f32>,
    truncated: Vec<bool>,
    /// 0 goats won, 1 tigers won, -1 draw or truncation, -2 not finished.
    winners: Vec<i8>,
    /// The side that moved (0 goats, 1 tigers).
    movers: Vec<i8>,
    finished_games: u64,
}

impl VecGame {
    fn run_step(&mut self, moves: &[Move], out: &mut StepOut) {
        let max_plies = self.max_plies;
        for (i, (slot, &mv)) in self.slots.iter_mut().zip(moves).enumerate() {
            let mover = slot.game.position().side_to_move();
            self.movers[i] = mover.index() as i8;
            let outcome = slot.play(mv);
            let truncated = outcome.is_none() && slot.game.ply() >= max_plies;
            let done = outcome.is_some() || truncated;
            let observation = &mut out.observations[i * OBSERVATION_LEN..(i + 1) * OBSERVATION_LEN];
            self.truncated[i] = truncated;
            self.winners[i] = -2;
            out.rewards[i] = 0.0;
            out.dones[i] = done;
            if done {
                encoding::write_observation(&slot.game, &slot.legal, observation);
                self.final_observations[i * OBSERVATION_LEN..(i + 1) * OBSERVATION_LEN]
                    .copy_from_slice(observation);
                let winner = outcome.and_then(|o| o.winner());
                self.winners[i] = winner.map_or(-1, |side| side.index() as i8);
                out.rewards[i] = match winner {
                    Some(side) if side == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                slot.restart();
                self.finished_games += 1;
            }
            encoding::write_observation(&slot.game, &slot.legal, observation);
            encoding::write_mask(
                &slot.legal,
                &mut out.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
            );
        }
    }

    fn observe(&self, observations: &mut [f32], masks: &mut [bool]) {
        for (i, slot) in self.slots.iter().enumerate() {
            encoding::write_observation(
                &slot.game,
                &slot.legal,
                &mut observations[i * OBSERVATION_LEN..(i + 1) * OBSERVATION_LEN],
            );
            encoding::write_mask(
                &slot.legal,
                &mut masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
            );
        }
    }

    fn observations_array<'py>(
        &self,
        py: Python<'py>,
        data: Vec<f32>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyArray1::from_vec(py, data)
            .reshape([self.slots.len(), NUM_PLANES, 5, 5])?
            .into_any())
    }

    fn masks_array<'py>(&self, py: Python<'py>, data: Vec<bool>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyArray1::from_vec(py, data)
            .reshape([self.slots.len(), NUM_ACTIONS])?
            .into_any())
    }

    /// The move of action `action` in game `i`, if it is legal there.
    fn legal_move(&self, i: usize, action: i64) -> Result<Move, String> {
        let mv = usize::try_from(action).ok().and_then(encoding::decode);
        match mv {
            Some(mv) if self.slots[i].legal.contains(&mv) => Ok(mv),
            Some(mv) => Err(format!(
                "game {i}: action {action} ({mv}) is not legal: {}",
                self.slots[i]
                    .game
                    .check_move(mv)
                    .err()
                    .map_or_else(|| "not in the legal moves".to_string(), |e| e.to_string())
            )),
            None => Err(format!(
                "game {i}: invalid action {action}: not a move of the {NUM_ACTIONS}-action encoding"
            )),
        }
    }
}

/// Any sequence of integers as a contiguous int64 array (`ValueError` for anything else).
fn as_actions<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    let kwargs = [("dtype", "int64")].into_py_dict(py)?;
    let array = py
        .import("numpy")?
        .call_method("ascontiguousarray", (actions,), Some(&kwargs))
        .map_err(|e| value_error(format!("invalid actions: {e}")))?;
    array
        .extract::<PyReadonlyArray1<'py, i64>>()
        .map_err(|_| value_error("invalid actions: expected one integer per game (a 1-d array)"))
}

type Arrays<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

#[pymethods]
impl VecGame {
    /// `n` games under `rules` (default `Rules()`), random choices seeded by `seed`; a game
    /// that reaches `max_plies` half-moves is cut (truncated).
    #[new]
    #[pyo3(signature = (n, rules=None, seed=0, max_plies=400))]
    fn new(n: i64, rules: Option<Rules>, seed: u64, max_plies: i64) -> PyResult<VecGame> {
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| (1..=1 << 20).contains(&n))
            .ok_or_else(|| {
                value_error(format!("invalid number of games {n}: expected 1..1048576"))
            })?;
        let max_plies = usize::try_from(max_plies)
            .ok()
            .filter(|&m| m >= 1)
            .ok_or_else(|| {
                value_error(format!(
                    "invalid max_plies {max_plies}: expected at least 1"
                ))
            })?;
        let rules = rules.map_or_else(baghchal::Rules::default, |r| r.inner);
        Ok(VecGame {
            slots: (0..n).map(|_| Slot::new(rules)).collect(),
            rules,
            max_plies,
            rng: StdRng::seed_from_u64(seed),
            final_observations: vec![0.0; n * OBSERVATION_LEN],
            truncated: vec![false; n],
            winners: vec![-2; n],
            movers: vec![0; n],
            finished_games: 0,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    #[getter]
    fn max_plies(&self) -> usize {
        self.max_plies
    }

    /// Games finished (ended or truncated) since creation.
    #[getter]
    fn finished_games(&self) -> u64 {
        self.finished_games
    }

    /// Restarts every game (optionally reseeding); returns (observations, masks).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Arrays<'py>> {
        if let Some(seed) = seed {
            self.rng = StdRng::seed_from_u64(seed);
        }
        let n = self.slots.len();
        let rules = self.rules;
        let (mut observations, mut masks) =
            (vec![0.0; n * OBSERVATION_LEN], vec![false; n * NUM_ACTIONS]);
        let this = &mut *self;
        released(py, || {
            this.slots
                .iter_mut()
                .for_each(|slot| *slot = Slot::new(rules));
            this.truncated.fill(false);
            this.winners.fill(-2);
            this.observe(&mut observations, &mut masks);
            Ok(())
        })?;
        Ok((
            self.observations_array(py, observations)?,
            self.masks_array(py, masks)?,
        ))
    }

    /// The current legal-action masks, shape (n, 425).
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut masks = vec![false; self.slots.len() * NUM_ACTIONS];
        for (i, slot) in self.slots.iter().enumerate() {
            encoding::write_mask(
                &slot.legal,
                &mut masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
            );
        }
        self.masks_array(py, masks)
    }

    /// The current observations, shape (n, 8, 5, 5).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut observations = vec![0.0; self.slots.len() * OBSERVATION_LEN];
        let mut masks = vec![false; self.slots.len() * NUM_ACTIONS];
        self.observe(&mut observations, &mut masks);
        self.observations_array(py, observations)
    }

    /// One uniformly random legal action per game, from the seeded generator (int64, (n,)).
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        let actions: Vec<i64> = self
            .slots
            .iter()
            .map(|slot| encoding::encode(slot.legal[rng.random_range(0..slot.legal.len())]) as i64)
            .collect();
        PyArray1::from_vec(py, actions)
    }

    /// Plays one action per game (each must be legal: `ValueError` naming the first that is
    /// not, and then no game moves). Returns (observations, masks, rewards, dones): a finished
    /// game is restarted at once, so its observation and mask are the new game's; its reward
    /// (+1 the mover won, -1 lost, 0 draw or cut) and `done` belong to the finished one, whose
    /// last observation is in `final_observations()`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let actions = as_actions(py, actions)?;
        let actions = actions.as_slice().map_err(value_error)?;
        let n = self.slots.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        let moves = actions
            .iter()
            .enumerate()
            .map(|(i, &action)| self.legal_move(i, action))
            .collect::<Result<Vec<Move>, String>>()
            .map_err(value_error)?;
        let mut out = StepOut {
            observations: vec![0.0; n * OBSERVATION_LEN],
            masks: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            dones: vec![false; n],
        };
        let this = &mut *self;
        let out_ref = &mut out;
        released(py, move || {
            this.run_step(&moves, out_ref);
            Ok(())
        })?;
        Ok((
            self.observations_array(py, out.observations)?,
            self.masks_array(py, out.masks)?,
            PyArray1::from_vec(py, out.rewards),
            PyArray1::from_vec(py, out.dones),
        ))
    }

    /// Plays `steps` rounds of uniformly random legal moves in every game, in Rust only (no
    /// observation is built), restarting finished games; returns the games finished. For
    /// benchmarks and fast self-play starts.
    fn step_random(&mut self, py: Python<'_>, steps: u64) -> PyResult<u64> {
        let this = &mut *self;
        released(py, move || {
            let before = this.finished_games;
            for _ in 0..steps {
                for slot in &mut this.slots {
                    let mv = slot.legal[this.rng.random_range(0..slot.legal.len())];
                    let done = slot.play(mv).is_some() || slot.game.ply() >= this.max_plies;
                    if done {
                        slot.restart();
                        this.finished_games += 1;
                    }
                }
            }
            Ok(this.finished_games - before)
        })
    }

    /// Of the last step: the observations finished games ended in (rows of games that did not
    /// finish hold stale data), shape (n, 8, 5, 5).
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.observations_array(py, self.final_observations.clone())
    }

    /// Of the last step: which games were cut at `max_plies` (not ended by the rules).
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, self.truncated.clone())
    }

    /// Of the last step: 0 goats won, 1 tigers won, -1 drawn or cut, -2 still going.
    fn winners<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_vec(py, self.winners.clone())
    }

    /// Of the last step: the side that moved in each game (0 goats, 1 tigers).
    fn movers<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_vec(py, self.movers.clone())
    }

    /// The current positions as arrays, for `Tablebase.probe_many`: tigers and goats as bit
    /// sets (uint32), side to move (0 goats, 1 tigers), goats in hand, goats captured (uint8).
    #[allow(clippy::type_complexity)]
    fn positions<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyArray1<u32>>,
        Bound<'py, PyArray1<u32>>,
        Bound<'py, PyArray1<u8>>,
        Bound<'py, PyArray1<u8>>,
        Bound<'py, PyArray1<u8>>,
    ) {
        let positions: Vec<_> = self.slots.iter().map(|s| *s.game.position()).collect();
        (
            PyArray1::from_vec(py, positions.iter().map(|p| p.tigers().0).collect()),
            PyArray1::from_vec(py, positions.iter().map(|p| p.goats().0).collect()),
            PyArray1::from_vec(
                py,
                positions
                    .iter()
                    .map(|p| p.side_to_move().index() as u8)
                    .collect(),
            ),
            PyArray1::from_vec(py, positions.iter().map(|p| p.goats_in_hand()).collect()),
            PyArray1::from_vec(py, positions.iter().map(|p| p.goats_captured()).collect()),
        )
    }

    /// The position string of game `i`.
    fn position(&self, i: i64) -> PyResult<String> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.slots.get(i))
            .map(|slot| slot.game.position().to_string())
            .ok_or_else(|| {
                value_error(format!(
                    "invalid game {i}: expected 0..{}",
                    self.slots.len() - 1
                ))
            })
    }
}
