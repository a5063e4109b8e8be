"""Generating tables from Python, with progress."""

from __future__ import annotations

import sys
import time
from os import PathLike
from typing import Any, Callable, Optional, Union

from baghchal_engine._native import Rules, _generate_tablebase

Progress = Callable[[str, int, int], Any]


class _StderrProgress:
    """`phase done/total percent` on one line of stderr, redrawn at most 10 times a second."""

    def __init__(self) -> None:
        self.phase = ""
        self.shown = 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if phase != self.phase and self.phase:
            sys.stderr.write("\n")
        elif phase == self.phase and done < total and now - self.shown < 0.1:
            return
        self.phase, self.shown = phase, now
        percent = 100 * done / total if total else 100.0
        sys.stderr.write(f"\r{phase:<22} {done}/{total} {percent:5.1f}%")
        if done >= total:
            sys.stderr.write("\n")
            self.phase = ""
        sys.stderr.flush()


def generate_tablebase(
    directory: Union[str, PathLike],
    rules: Optional[Rules] = None,
    placement: bool = False,
    max_in_hand: int = 20,
    threads: Optional[int] = None,
    progress: Union[Progress, bool, None] = True,
) -> None:
    """Generates the tables for `rules` (default `Rules()`; captures to win 1..5) into
    `directory`, as `baghchal tb gen` does: the movement phase, and with `placement` the
    placement layers up to `max_in_hand` goats in hand. Resumes: valid layers already written
    are kept, so an interrupted run loses at most the layer in progress. `progress`: `True`
    shows it on stderr, `False` or `None` shows nothing, a callable gets
    `(phase, done, total)` at most 10 times a second. The work runs without the GIL on
    `threads` threads (default: all cores); Ctrl-C is seen when it ends.
    """
    if progress is True:
        callback: Optional[Progress] = _StderrProgress()
    elif progress is False or progress is None:
        callback = None
    else:
        callback = progress
    _generate_tablebase(directory, rules, placement, max_in_hand, threads, callback)
