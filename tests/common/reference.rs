//! A deliberately simple reference implementation of the Bagh Chal rules, for cross-checking the
//! fast bitboard code. Plain arrays, geometry computed from coordinates, repetition over a plain
//! `Vec` history. It uses nothing of the crate under test.

/// What stands on a point.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Cell {
    Empty,
    Goat,
    Tiger,
}

/// A move: indices are `rank * 5 + file`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RefMove {
    Place(usize),
    Step(usize, usize),
    Jump(usize, usize, usize),
}

/// The point name (`a1`..`e5`) of an index.
pub fn point_name(index: usize) -> String {
    let file = (b'a' + (index % 5) as u8) as char;
    let rank = (b'1' + (index / 5) as u8) as char;
    format!("{file}{rank}")
}

impl RefMove {
    /// Move text: `c3`, `e1d2`, `e1c3`.
    pub fn text(self) -> String {
        match self {
            RefMove::Place(to) => point_name(to),
            RefMove::Step(from, to) | RefMove::Jump(from, _, to) => {
                format!("{}{}", point_name(from), point_name(to))
            }
        }
    }

    pub fn is_capture(self) -> bool {
        matches!(self, RefMove::Jump(..))
    }
}

/// The rules, spelled out again.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RefRules {
    pub forced_capture: bool,
    pub captures_to_win: u8,
    /// `true`: a repeated position draws. `false`: recreating a position is forbidden once all
    /// goats are placed.
    pub repetition_draws: bool,
}

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RefOutcome {
    CapturesReached,
    TigersBlocked,
    GoatsBlocked,
    Repetition,
}

/// The point one step from `index` in direction (df, dr), if a line goes there.
/// Orthogonal lines join all neighbours; diagonals only run through points with file + rank even.
pub fn neighbour(index: usize, df: i32, dr: i32) -> Option<usize> {
    let (file, rank) = ((index % 5) as i32, (index / 5) as i32);
    let (f, r) = (file + df, rank + dr);
    if !(0..5).contains(&f) || !(0..5).contains(&r) {
        return None;
    }
    let diagonal = df != 0 && dr != 0;
    if diagonal && (file + rank) % 2 != 0 {
        return None;
    }
    Some((r * 5 + f) as usize)
}

/// All eight directions.
pub const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A position: cells, side to move, goats in hand and captured.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct RefPosition {
    pub cells: [Cell; 25],
    pub goats_to_move: bool,
    pub in_hand: u8,
    pub captured: u8,
}

impl RefPosition {
    /// Parses `T3T/5/5/5/T3T g 20 0` (no validation beyond the shape; tests only feed good text).
    pub fn parse(text: &str) -> RefPosition {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut cells = [Cell::Empty; 25];
        for (row, rank_text) in fields[0].split('/').enumerate() {
            let rank = 4 - row;
            let mut file = 0;
            for c in rank_text.chars() {
                match c {
                    'T' => {
                        cells[rank * 5 + file] = Cell::Tiger;
                        file += 1;
                    }
                    'G' => {
                        cells[rank * 5 + file] = Cell::Goat;
                        file += 1;
                    }
                    _ => file += c.to_digit(10).expect("digit") as usize,
                }
            }
            assert_eq!(file, 5, "bad rank in {text}");
        }
        RefPosition {
            cells,
            goats_to_move: fields[1] == "g",
            in_hand: fields[2].parse().expect("in hand"),
            captured: fields[3].parse().expect("captured"),
        }
    }

    /// The position string.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for rank in (0..5).rev() {
            let mut empty = 0;
            for file in 0..5 {
                match self.cells[rank * 5 + file] {
                    Cell::Empty => empty += 1,
                    piece => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if piece == Cell::Tiger { 'T' } else { 'G' });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.goats_to_move { "g" } else { "t" };
        format!("{out} {side} {} {}", self.in_hand, self.captured)
    }

    pub fn count(&self, cell: Cell) -> usize {
        self.cells.iter().filter(|&&c| c == cell).count()
    }

    /// The whole game state: board, side to move, goats in hand and captured. Both repetition
    /// rules compare this.
    pub fn same_state(&self, other: &RefPosition) -> bool {
        self.cells == other.cells
            && self.goats_to_move == other.goats_to_move
            && self.in_hand == other.in_hand
            && self.captured == other.captured
    }

    /// Legal moves ignoring repetition.
    pub fn moves(&self, rules: &RefRules) -> Vec<RefMove> {
        let mut moves = Vec::new();
        if self.captured >= rules.captures_to_win {
            return moves;
        }
        if self.goats_to_move {
            for from in 0..25 {
                if self.in_hand > 0 {
                    if self.cells[from] == Cell::Empty {
                        moves.push(RefMove::Place(from));
                    }
                } else if self.cells[from] == Cell::Goat {
                    for (df, dr) in DIRS {
                        if let Some(to) = neighbour(from, df, dr) {
                            if self.cells[to] == Cell::Empty {
                                moves.push(RefMove::Step(from, to));
                            }
                        }
                    }
                }
            }
            return moves;
        }
        let mut jumps = Vec::new();
        for from in 0..25 {
            if self.cells[from] != Cell::Tiger {
                continue;
            }
            for (df, dr) in DIRS {
                let Some(next) = neighbour(from, df, dr) else {
                    continue;
                };
                if self.cells[next] == Cell::Empty {
                    moves.push(RefMove::Step(from, next));
                } else if self.cells[next] == Cell::Goat {
                    if let Some(land) = neighbour(next, df, dr) {
                        if self.cells[land] == Cell::Empty {
                            jumps.push(RefMove::Jump(from, next, land));
                        }
                    }
                }
            }
        }
        if rules.forced_capture && !jumps.is_empty() {
            return jumps;
        }
        moves.extend(jumps);
        moves
    }

    /// The position after `mv` (assumed legal).
    pub fn play(&self, mv: RefMove) -> RefPosition {
        let mut next = *self;
        match mv {
            RefMove::Place(to) => {
                next.cells[to] = Cell::Goat;
                next.in_hand -= 1;
            }
            RefMove::Step(from, to) => {
                next.cells[to] = next.cells[from];
                next.cells[from] = Cell::Empty;
            }
            RefMove::Jump(from, over, to) => {
                next.cells[to] = Cell::Tiger;
                next.cells[over] = Cell::Empty;
                next.cells[from] = Cell::Empty;
                next.captured += 1;
            }
        }
        next.goats_to_move = !next.goats_to_move;
        next
    }
}

/// A game: rules and every position so far (the start first).
#[derive(Clone, Debug)]
pub struct RefGame {
    pub rules: RefRules,
    pub history: Vec<RefPosition>,
}

impl RefGame {
    pub fn new(start: RefPosition, rules: RefRules) -> RefGame {
        RefGame {
            rules,
            history: vec![start],
        }
    }

    pub fn current(&self) -> &RefPosition {
        self.history.last().expect("non-empty history")
    }

    /// Whether the current state occurred earlier in the game.
    pub fn is_repeated(&self) -> bool {
        let (current, earlier) = self.history.split_last().expect("non-empty history");
        earlier.iter().any(|p| p.same_state(current))
    }

    /// Whether `mv` is forbidden by the forbid rule: all goats placed, and it recreates a state
    /// that occurred in the game.
    pub fn is_forbidden(&self, mv: RefMove) -> bool {
        if self.rules.repetition_draws || self.current().in_hand > 0 {
            return false;
        }
        let next = self.current().play(mv);
        self.history.iter().any(|p| p.same_state(&next))
    }

    /// Legal moves with the repetition rules, and how many the forbid rule removed.
    pub fn moves_and_forbidden(&self) -> (Vec<RefMove>, usize) {
        let current = self.current();
        if current.captured >= self.rules.captures_to_win {
            return (Vec::new(), 0);
        }
        if self.rules.repetition_draws && self.is_repeated() {
            return (Vec::new(), 0);
        }
        let all = current.moves(&self.rules);
        let total = all.len();
        let legal: Vec<RefMove> = all
            .into_iter()
            .filter(|&mv| !self.is_forbidden(mv))
            .collect();
        let forbidden = total - legal.len();
        (legal, forbidden)
    }

    pub fn moves(&self) -> Vec<RefMove> {
        self.moves_and_forbidden().0
    }

    pub fn outcome(&self) -> Option<RefOutcome> {
        let current = self.current();
        if current.captured >= self.rules.captures_to_win {
            Some(RefOutcome::CapturesReached)
        } else if self.rules.repetition_draws && self.is_repeated() {
            Some(RefOutcome::Repetition)
        } else if self.moves().is_empty() {
            Some(if current.goats_to_move {
                RefOutcome::GoatsBlocked
            } else {
                RefOutcome::TigersBlocked
            })
        } else {
            None
        }
    }

    pub fn play(&mut self, mv: RefMove) {
        let next = self.current().play(mv);
        self.history.push(next);
    }

    pub fn undo(&mut self) {
        assert!(self.history.len() > 1, "nothing to undo");
        self.history.pop();
    }

    /// Plays a move given as text, which must be one of the legal moves.
    pub fn play_text(&mut self, text: &str) {
        let mv = self
            .moves()
            .into_iter()
            .find(|mv| mv.text() == text)
            .unwrap_or_else(|| {
                panic!(
                    "reference: {text} is not legal in {}",
                    self.current().text()
                )
            });
        self.play(mv);
    }
}

/// What a perft tree contains, counted at nodes with depth left (not at the leaves).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct TreeStats {
    pub leaves: u64,
    pub placements: u64,
    pub steps: u64,
    pub captures: u64,
    /// Moves removed by the forbid rule.
    pub forbidden: u64,
    /// Finished positions inside the tree, by kind.
    pub capture_wins: u64,
    pub blocked: u64,
    pub draws: u64,
}

/// Perft by plain recursion, with statistics of what the tree contains.
pub fn perft_stats(game: &mut RefGame, depth: u32, stats: &mut TreeStats) {
    if depth == 0 {
        stats.leaves += 1;
        return;
    }
    let (moves, forbidden) = game.moves_and_forbidden();
    stats.forbidden += forbidden as u64;
    if moves.is_empty() {
        match game.outcome() {
            Some(RefOutcome::CapturesReached) => stats.capture_wins += 1,
            Some(RefOutcome::Repetition) => stats.draws += 1,
            _ => stats.blocked += 1,
        }
        return;
    }
    for mv in moves {
        match mv {
            RefMove::Place(_) => stats.placements += 1,
            RefMove::Step(..) => stats.steps += 1,
            RefMove::Jump(..) => stats.captures += 1,
        }
        game.play(mv);
        perft_stats(game, depth - 1, stats);
        game.undo();
    }
}

/// Perft: the number of move sequences of length `depth`.
pub fn perft(game: &mut RefGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        game.play(mv);
        total += perft(game, depth - 1);
        game.undo();
    }
    total
}
