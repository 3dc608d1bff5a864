"""After the hand: a perfect-information solver, the review of every card
played, hints and a bot on sampled deals. Pure like the rest of the engine:
stdlib only, no I/O, no clock; randomness and time budgets are passed in."""

from engine.analysis.position import (
    Analysis,
    Position,
    SolverCache,
    analyse,
    position_of,
    teams_of,
)
from engine.analysis.rules import SolverRules, solver_rules
from engine.analysis.solver import SearchLimit, Solver, Stats

__all__ = [
    "Analysis",
    "Position",
    "SearchLimit",
    "Solver",
    "SolverCache",
    "SolverRules",
    "Stats",
    "analyse",
    "position_of",
    "solver_rules",
    "teams_of",
]
