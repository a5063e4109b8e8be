"""The minimax of the pure-Python `baghchal` package (PyPI, 1.0.1) behind our engine protocol
(protocol.md), so that the referee can play it: an opponent that is not our code.

    python tools/opponents/pypi_baghchal_engine.py
    referee -engine cmd=python3 args="tools/opponents/pypi_baghchal_engine.py" depth=3 ...

Needs `pip install baghchal==1.0.1 ./python` (the package, and ours for the rules of the game
the arbiter sends). The arbiter decides: the game is replayed under the rule options it sends
(`ForcedCapture`, `CapturesToWin`, `Repetition`), and only moves legal in that game are played.
The package's minimax (option `Depth`, 1-8, default 3; `go depth N` sets it for one search, at
most 8) chooses among its moves that are legal here, by its own root loop: where its rules
differ from the game's (a repetition we forbid, a forced capture), the moves not legal here are
left out and `info string` names them. Where it has no legal choice (it thinks the game over,
or its search finds every move losing) the rule is stated in `info string`. `go nodes N` bounds
its minimax calls (repeatable), `movetime` and the clocks bound its time; the deepest finished
depth gives the move. Bad input gets `info string error: ...`; logs go to stderr; string
hashing is pinned (PYTHONHASHSEED=0) so that the same game gives the same moves.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from typing import Any, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pypi_baghchal as pypi  # noqa: E402 (the shared translation module beside this file)

NAME = "pypi-baghchal 1.0.1 minimax (adapter)"
MOVE_RESERVE_MS = 30  # kept back from a time limit for answering
MAX_DEPTH = 8  # the deepest search asked for, by `Depth` or `go depth`
OPTIONS = {  # name: its declaration in the answer to `uci`
    "Depth": f"type spin default 3 min 1 max {MAX_DEPTH}",
    "ForcedCapture": "type check default false",
    "CapturesToWin": "type spin default 5 min 1 max 20",
    "Repetition": "type combo default forbid var forbid var draw",
}

log = logging.getLogger("pypi-baghchal")


class Output:
    """The only writer of stdout: whole lines, flushed one by one, under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def line(self, text: str) -> None:
        with self.lock:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        log.debug(">> %s", text)


def parse_option(name: str, value: str) -> Any:
    """The option's value, or ValueError saying what was expected."""
    lowered = value.strip().lower()
    if name in ("Depth", "CapturesToWin"):
        low, high = (1, MAX_DEPTH) if name == "Depth" else (1, 20)
        if not lowered.lstrip("-").isdigit() or not low <= int(lowered) <= high:
            raise ValueError(f'bad value "{value}" for option {name}: expected an integer {low}..{high}')
        return int(lowered)
    if name == "ForcedCapture":
        if lowered not in ("true", "false"):
            raise ValueError(f'bad value "{value}" for option {name}: expected true or false')
        return lowered == "true"
    if lowered not in ("forbid", "draw"):
        raise ValueError(f'bad value "{value}" for option {name}: expected forbid or draw')
    return lowered


class Limits:
    """What one `go` allows: a depth, a node budget, a deadline, or until `stop`."""

    def __init__(self, tokens: list[str], goats_to_move: bool) -> None:
        values: dict[str, int] = {}
        self.infinite = False
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token in ("infinite", "ponder"):
                self.infinite = True
                index += 1
                continue
            if token not in ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes"):
                raise ValueError(f'unexpected token "{token}" in go')
            if index + 1 >= len(tokens):
                raise ValueError(f'missing value after "{token}"')
            if token in values:
                raise ValueError(f'"{token}" given twice')
            text = tokens[index + 1]
            if not text.lstrip("-").isdigit():
                raise ValueError(f'bad {token} "{text}": expected an integer')
            values[token] = int(text)
            index += 2
        if values.get("depth", 1) < 1 or values.get("nodes", 1) < 1:
            raise ValueError("depth and nodes must be at least 1")
        self.depth = values.get("depth")
        self.nodes = values.get("nodes")
        budget_ms = values.get("movetime")
        clock = values.get("wtime" if goats_to_move else "btime")
        if clock is not None:
            increment = values.get("winc" if goats_to_move else "binc", 0)
            share = max(clock, 0) // min(values.get("movestogo", 30), 30) + increment // 2
            share = min(share, max(clock, 0) // 2)
            budget_ms = share if budget_ms is None else min(budget_ms, share)
        self.seconds = None if budget_ms is None else max(budget_ms - MOVE_RESERVE_MS, 1) / 1000


class Game:
    """The game the arbiter sent, replayed with our package under the rule options."""

    def __init__(self, bc: Any, rules: Any, tokens: list[str]) -> None:
        moves_at = tokens.index("moves") if "moves" in tokens else len(tokens)
        if tokens[:1] == ["startpos"] and moves_at == 1:
            start = None
        elif tokens[:1] == ["fen"] and moves_at > 1:
            start = " ".join(tokens[1:moves_at])
        else:
            raise ValueError(f"bad position command: expected startpos or fen <position string>, got {' '.join(tokens[:moves_at]) or 'nothing'}")
        self.board = bc.Board(start, rules)
        self.positions = [self.board.position()]
        for index, text in enumerate(tokens[moves_at + 1 :]):
            try:
                self.board.push_str(text)
            except ValueError as error:
                raise ValueError(f"moves index {index}: {error}") from None
            self.positions.append(self.board.position())


class Adapter:
    """The protocol loop: stdin is read here, each `go` searches on its own thread."""

    def __init__(self, bc: Any, engine_cls: Any, env: Any) -> None:
        self.bc, self.engine_cls, self.env = bc, engine_cls, env
        self.out = Output()
        self.options: dict[str, Any] = {"Depth": 3, "ForcedCapture": False, "CapturesToWin": 5, "Repetition": "forbid"}
        self.game: Optional[Game] = None
        self.game_error: Optional[str] = "no position yet"
        self.search: Optional[threading.Thread] = None
        self.stop_flag = threading.Event()
        self.release = threading.Event()  # lets the answer of go infinite/ponder out

    def rules(self) -> Any:
        return self.bc.Rules(
            forced_capture=self.options["ForcedCapture"],
            captures_to_win=self.options["CapturesToWin"],
            repetition=self.options["Repetition"],
        )

    def error(self, message: str) -> None:
        self.out.line(f"info string error: {message}")

    def run(self) -> None:
        for raw in sys.stdin:
            line = raw.strip()
            log.debug("<< %s", line)
            if not line:
                continue
            try:
                if not self.command(line.split()):
                    break
            except Exception as error:  # noqa: BLE001 (bad input never ends the loop)
                log.exception("command %r", line)
                self.error(f"{type(error).__name__}: {error}")
        self.finish_search()

    def command(self, tokens: list[str]) -> bool:
        """Handles one command; False ends the loop (`quit`)."""
        name, rest = tokens[0], tokens[1:]
        if name in ("uci", "ugi"):
            self.out.line(f"id name {NAME}")
            self.out.line("id author baghchal adapter for the PyPI baghchal package (Soyuj Jung Basnet)")
            for option, declaration in OPTIONS.items():
                self.out.line(f"option name {option} {declaration}")
            self.out.line(f"{name}ok")
        elif name == "isready":
            self.out.line("readyok")
        elif name == "setoption":
            self.set_option(rest)
        elif name in ("ucinewgame", "uginewgame"):
            self.finish_search()
            self.game, self.game_error = None, "no position yet"
        elif name == "position":
            self.finish_search()
            self.set_position(rest)
        elif name == "go":
            self.go(rest)
        elif name == "stop":
            self.finish_search()
        elif name == "ponderhit":
            self.release.set()
        elif name == "quit":
            return False
        elif name in ("debug", "register"):
            pass
        else:
            self.error(f'unknown command "{name}"')
        return True

    def set_option(self, tokens: list[str]) -> None:
        if self.searching():
            self.error("setoption while a search runs: refused")
            return
        if tokens[:1] != ["name"]:
            self.error("setoption: expected name <name> [value <value>]")
            return
        value_at = tokens.index("value") if "value" in tokens else len(tokens)
        wanted = " ".join(tokens[1:value_at])
        option = next((o for o in OPTIONS if o.lower() == wanted.lower()), None)
        if option is None:
            self.error(f'unknown option "{wanted}"')
            return
        try:
            self.options[option] = parse_option(option, " ".join(tokens[value_at + 1 :]))
        except ValueError as error:
            self.error(str(error))

    def set_position(self, tokens: list[str]) -> None:
        try:
            self.game, self.game_error = Game(self.bc, self.rules(), tokens), None
        except ValueError as error:
            self.game, self.game_error = None, str(error)
            self.error(str(error))

    def searching(self) -> bool:
        return self.search is not None and self.search.is_alive()

    def finish_search(self) -> None:
        """Stops a running search; its bestmove is printed before this returns."""
        if self.search is not None:
            self.stop_flag.set()
            self.release.set()
            self.search.join()
            self.search = None

    def go(self, tokens: list[str]) -> None:
        if self.searching():
            self.error("go while a search runs: refused")
            return
        if self.game is None:
            self.error(f"no position to search: {self.game_error}")
            self.out.line("bestmove 0000")
            return
        try:
            limits = Limits(tokens, self.game.board.turn == self.bc.Side.GOATS)
        except ValueError as error:
            self.error(str(error))
            return
        self.stop_flag.clear()
        self.release.clear()
        game, depth = self.game, self.options["Depth"]
        self.search = threading.Thread(target=self.answer, args=(game, limits, depth), daemon=True)
        self.search.start()

    def answer(self, game: Game, limits: Limits, depth: int) -> None:
        try:
            move = self.choose(game, limits, depth)
        except Exception as error:  # noqa: BLE001 (a bug here must not leave go unanswered)
            log.exception("search")
            self.error(f"search failed: {type(error).__name__}: {error}")
            legal = sorted(str(m) for m in game.board.legal_moves)
            move = legal[0] if legal else "0000"
        if limits.infinite:
            self.release.wait()
        self.out.line(f"bestmove {move}")

    def choose(self, game: Game, limits: Limits, max_depth: int) -> str:
        board = game.board
        legal = {str(m) for m in board.legal_moves}
        if not legal:
            outcome = board.outcome()
            self.out.line(f"info string game over: {outcome.termination if outcome else 'no legal move'}")
            return "0000"
        theirs = pypi.their_board(self.env, game.positions[-1], game.positions[:-1])
        ordered = pypi.root_order(theirs) if not theirs.is_game_over() else []
        allowed = {t for t in ordered if pypi.our_move_text(t) in legal}
        left_out = [t for t in ordered if t not in allowed]
        if left_out:
            reasons = "; ".join(f"{pypi.our_move_text(t)}: {self.why_illegal(board, t)}" for t in left_out)
            self.out.line(f"info string the package's moves not legal in this game, left out: {reasons}")
        fallback = sorted(allowed)[0] if allowed else None
        if not allowed:
            why = "it thinks the game over" if theirs.is_game_over() else "none of its moves is legal here"
            move = sorted(legal)[0]
            self.out.line(f"info string the package has no move here ({why}): playing our first legal move {move}")
            return move
        best = self.deepen(theirs, allowed, limits, max_depth)
        if best is None:
            self.out.line(f"info string the package's search finds every move losing: playing its first legal move {pypi.our_move_text(fallback)}")
            best = fallback
        return pypi.our_move_text(best)

    def why_illegal(self, board: Any, theirs: str) -> str:
        try:
            board.parse_move(pypi.our_move_text(theirs))
        except ValueError as error:
            return str(error)
        return "not legal"  # unreachable: every move left out failed to parse as legal

    def deepen(self, theirs: Any, allowed: set[str], limits: Limits, max_depth: int) -> Optional[str]:
        """Iterative deepening of the package's minimax up to the depth limit; the deepest
        finished depth decides. Depth 1 (one evaluation per move, milliseconds) always
        finishes, whatever the limits, so that there is a move."""
        engine = self.engine_cls(depth=1)
        nodes = 0
        start = time.monotonic()
        deadline = None if limits.seconds is None else start + limits.seconds

        def tick() -> None:
            nonlocal nodes
            nodes += 1
            if engine.depth == 1:
                return
            over_nodes = limits.nodes is not None and nodes > limits.nodes
            over_time = deadline is not None and time.monotonic() > deadline
            if self.stop_flag.is_set() or over_nodes or over_time:
                raise pypi.Aborted

        pypi.bounded(engine, tick)
        best: Optional[str] = None
        last_depth = min(limits.depth, MAX_DEPTH) if limits.depth else max_depth
        for depth in range(1, last_depth + 1):
            engine.depth = depth
            try:
                move, score = pypi.minimax_choice(engine, theirs, allowed)
            except pypi.Aborted:
                break
            best = move
            elapsed = int((time.monotonic() - start) * 1000)
            pv = f" pv {pypi.our_move_text(move)}" if move else ""
            mover = score if theirs.next_turn == "G" else -score
            # Its scores: 150 a trapped tiger, -120 a captured goat; a win is INF, no distance: no score then.
            score_text = f" score cp {int(mover)}" if abs(mover) < pypi.INF else ""
            self.out.line(f"info depth {depth} nodes {nodes} time {elapsed}{score_text}{pv}")
        return best


def main() -> None:
    pypi.repin_hash_seed()
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("LOG_LEVEL", "WARNING").upper(), format="pypi-baghchal: %(message)s")
    try:
        import baghchal_engine as bc

        engine_cls, env = pypi.load()
    except ImportError as error:
        print(f"pypi-baghchal: cannot import a package it needs ({error}): pip install baghchal==1.0.1 ./python", file=sys.stderr)
        sys.exit(2)
    Adapter(bc, engine_cls, env).run()


if __name__ == "__main__":
    main()
