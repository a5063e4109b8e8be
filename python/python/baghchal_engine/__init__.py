"""Bagh Chal (tigers and goats) for Python: the rules, the solved game and the engine.

See docs/python.md for the guide. Everything here is re-exported from the native module
(`baghchal_engine._native`) or written in Python on top of it (the protocol driver and the
environments).
"""

from baghchal_engine._native import (
    NUM_ACTIONS,
    NUM_PLANES,
    START_POSITION,
    Board,
    Engine,
    Move,
    Outcome,
    Rules,
    Side,
    Tablebase,
    Value,
    VecGame,
    __version__,
    action_permutation,
    square_permutation,
)
from baghchal_engine.tables import generate_tablebase
from baghchal_engine.protocol import (
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolEngine,
    popen_engine,
)


def env(**kwargs):  # type: ignore[no-untyped-def]
    """The PettingZoo AEC environment, wrapped as PettingZoo's classic games are."""
    from baghchal_engine.envs.aec import env as make

    return make(**kwargs)


def raw_env(**kwargs):  # type: ignore[no-untyped-def]
    """The PettingZoo AEC environment without wrappers."""
    from baghchal_engine.envs.aec import raw_env as make

    return make(**kwargs)


__all__ = [
    "NUM_ACTIONS",
    "NUM_PLANES",
    "START_POSITION",
    "Board",
    "Engine",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Move",
    "Outcome",
    "ProtocolEngine",
    "Rules",
    "Side",
    "Tablebase",
    "Value",
    "VecGame",
    "__version__",
    "action_permutation",
    "env",
    "generate_tablebase",
    "popen_engine",
    "raw_env",
    "square_permutation",
]
