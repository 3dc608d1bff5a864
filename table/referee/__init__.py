"""`cardtable referee`: the rules engine on a pipe (see docs/referee.md)."""

from table.referee.session import Referee

__all__ = ["Referee"]
