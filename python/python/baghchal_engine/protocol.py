"""A driver for any engine that speaks the baghchal protocol (protocol.md) over pipes.

Every read has a deadline; an engine that crashes, stalls or answers something that is not a
legal reply raises an `EngineError` subclass saying which, and the process is ended.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time as _time
from typing import Any, Dict, List, Optional, Sequence, Union

from baghchal_engine._native import Board, Move, Rules


class EngineError(Exception):
    """The engine misbehaved: the base of the errors below."""


class EngineTerminatedError(EngineError):
    """The engine process exited (or closed its output) while an answer was due."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time."""


class EngineProtocolError(EngineError):
    """The engine answered something that is not a valid reply (a malformed or illegal move)."""




class ProtocolEngine:
    """An engine process driven over the protocol. Use `popen_engine` to start one."""

    def __init__(
        self,
        command: Union[str, Sequence[str]],
        timeout: float = 10.0,
        stderr: Any = subprocess.DEVNULL,
    ) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if timeout <= 0:
            raise ValueError(f"invalid timeout {timeout}: expected seconds > 0")
        self.timeout = timeout
        self.name: Optional[str] = None
        self.options: Dict[str, str] = {}
        self._rules: Optional[Rules] = None
        self._multipv = 1
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as error:
            raise EngineTerminatedError(f"cannot start {args!r}: {error}") from error
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._reader = threading.Thread(target=self._read_output, daemon=True)
        self._reader.start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    # -- plumbing ----------------------------------------------------------------------------

    def _read_output(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _send(self, line: str) -> None:
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError) as error:
            self._fail(EngineTerminatedError(f"the engine exited: cannot send {line!r} ({error})"))

    def _fail(self, error: EngineError) -> None:
        self.close()
        raise error

    def _read(self, deadline: float, waiting_for: str) -> str:
        remaining = deadline - _time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            self._fail(EngineTimeoutError(f"no {waiting_for} from the engine in time"))
            raise AssertionError("unreachable")
        if line is None:
            self._lines.put(None)
            status = self._process.wait(timeout=5)
            self._fail(EngineTerminatedError(f"the engine exited (status {status}) while {waiting_for} was due"))
        return line  # type: ignore[return-value]

    def _deadline(self, extra: float = 0.0) -> float:
        return _time.monotonic() + self.timeout + extra

    def _handshake(self) -> None:
        self._send("uci")
        deadline = self._deadline()
        while True:
            line = self._read(deadline, "uciok")
            if line == "uciok":
                break
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
            elif line.startswith("option name "):
                rest = line[len("option name ") :]
                name = rest.split(" type ")[0]
                default = rest.split(" default ")[1].split(" min ")[0].split(" var ")[0] if " default " in rest else ""
                self.options[name] = default
        self._ping()

    def _ping(self) -> List[str]:
        """Sends isready, returns the error messages seen before readyok."""
        self._send("isready")
        deadline = self._deadline()
        errors: List[str] = []
        while True:
            line = self._read(deadline, "readyok")
            if line == "readyok":
                return errors
            if line.startswith("info string error: "):
                errors.append(line[len("info string error: ") :])

    # -- commands ----------------------------------------------------------------------------

    def configure(self, options: Dict[str, Any]) -> None:
        """Sets options by name; `ValueError` with the engine's message when it refuses one."""
        for name, value in options.items():
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self._send(f"setoption name {name} value {text}")
            errors = self._ping()
            if errors:
                raise ValueError(errors[0])
            if name.lower() == "multipv":
                self._multipv = int(value)

    def _set_board(self, board: Board) -> None:
        rules = board.rules
        if rules != self._rules:
            self.configure(
                {
                    "ForcedCapture": rules.forced_capture,
                    "CapturesToWin": rules.captures_to_win,
                    "Repetition": rules.repetition,
                }
            )
            self._rules = rules
        moves = " ".join(str(m) for m in board.move_stack)
        self._send(f"position fen {board.start_position}" + (f" moves {moves}" if moves else ""))

    @staticmethod
    def _limits(depth: Optional[int], nodes: Optional[int], time: Optional[float], mate: Optional[int]) -> str:
        tokens = []
        for keyword, value in (("depth", depth), ("nodes", nodes), ("mate", mate)):
            if value is not None:
                tokens.append(f"{keyword} {int(value)}")
        if time is not None:
            tokens.append(f"movetime {round(time * 1000)}")
        return " ".join(tokens)

    def _go(self, board: Board, limits: str, time: Optional[float]) -> tuple:
        self._set_board(board)
        self._send(("go " + limits).strip())
        deadline = self._deadline(time or 0.0)
        infos: Dict[int, Dict[str, Any]] = {}
        while True:
            line = self._read(deadline, "bestmove")
            if line.startswith("info string error: "):
                raise ValueError(line[len("info string error: ") :])
            if line.startswith("info ") and " pv " in line:
                info = _parse_info(line)
                infos[info.get("multipv", 1)] = info
            elif line.startswith("bestmove"):
                return line, infos

    def play(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        mate: Optional[int] = None,
    ) -> Optional[Move]:
        """The engine's move on `board` (`None` when it answers `bestmove 0000`)."""
        line, _ = self._go(board, self._limits(depth, nodes, time, mate), time)
        words = line.split()
        if len(words) < 2:
            self._fail(EngineProtocolError(f"malformed answer {line!r}"))
        if words[1] == "0000":
            return None
        try:
            return board.parse_move(words[1])
        except ValueError as error:
            self._fail(EngineProtocolError(f"the engine answered {words[1]!r}, not a legal move: {error}"))
            raise AssertionError("unreachable")

    def analyse(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
        mate: Optional[int] = None,
        multipv: int = 1,
    ) -> List[Dict[str, Any]]:
        """The last info of each line, best first (keys as `Engine.analyse`, without `wdl`
        unless the engine sends it)."""
        if multipv != self._multipv:
            self.configure({"MultiPV": multipv})
        _, infos = self._go(board, self._limits(depth, nodes, time, mate), time)
        return [infos[k] for k in sorted(infos)]

    def perft(self, board: Board, depth: int) -> Dict[str, int]:
        """`go perft`: the count below each legal move (and the total as `"total"`)."""
        self._set_board(board)
        self._send(f"go perft {int(depth)}")
        deadline = self._deadline(600.0)
        counts: Dict[str, int] = {}
        while True:
            line = self._read(deadline, "perft counts")
            if line.startswith("info string error: "):
                raise ValueError(line[len("info string error: ") :])
            if line.startswith("Nodes searched:"):
                counts["total"] = _integer(line.split(":")[1], line)
                return counts
            if ":" in line and not line.startswith("info"):
                move, count = line.split(":", 1)
                counts[move.strip()] = _integer(count, line)

    def display(self, board: Board) -> Dict[str, str]:
        """The `d` report of the game as a dict (`Position`, `Legal moves (n)`, `Outcome`...)."""
        self._set_board(board)
        self._send("d")
        deadline = self._deadline()
        fields: Dict[str, str] = {}
        while True:
            line = self._read(deadline, "the d report")
            if ": " in line:
                key, value = line.split(": ", 1)
                fields[key] = value
            if line.startswith("Outcome:"):
                return fields

    def legal_moves(self, board: Board) -> List[str]:
        """The legal moves the engine lists for the game (from `d`)."""
        fields = self.display(board)
        for key, value in fields.items():
            if key.startswith("Legal moves ("):
                return value.split()
        if any(key.startswith("Legal moves") for key in fields):
            return []
        self._fail(EngineProtocolError("the d report has no legal moves line"))
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Sends quit and waits briefly; kills the process if it does not exit."""
        process = self._process
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass

    quit = close

    def __enter__(self) -> "ProtocolEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _integer(text: str, line: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise EngineProtocolError(f"malformed count in {line!r}") from None


def _parse_info(line: str) -> Dict[str, Any]:
    words = line.split()
    info: Dict[str, Any] = {}
    i = 1
    while i < len(words):
        word = words[i]
        if word == "pv":
            info["pv"] = [Move(text) for text in words[i + 1 :]]
            break
        if word == "score" and i + 2 < len(words):
            kind, value = words[i + 1], int(words[i + 2])
            info["score"] = f"{kind} {value}"
            info["cp"] = value if kind == "cp" else None
            info["mate"] = value if kind == "mate" else None
            i += 3
            continue
        if word == "wdl" and i + 3 < len(words):
            info["wdl"] = tuple(int(w) for w in words[i + 1 : i + 4])
            i += 4
            continue
        if word in ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits", "time") and i + 1 < len(words):
            info[word] = int(words[i + 1])
            i += 2
            continue
        i += 1
    if "time" in info:
        info["time"] = info["time"] / 1000.0
    return info


def popen_engine(
    command: Union[str, Sequence[str]], timeout: float = 10.0, stderr: Any = subprocess.DEVNULL
) -> ProtocolEngine:
    """Starts an engine (`"baghchal"`, `["./target/release/baghchal"]`...) and completes the
    `uci` handshake; every later read waits at most `timeout` seconds (plus the search time).
    """
    return ProtocolEngine(command, timeout=timeout, stderr=stderr)
