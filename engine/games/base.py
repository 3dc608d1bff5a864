"""Kept for code written against the old layout: the base classes now live in
the engine's core (`engine.game`, `engine.match`)."""

from engine.game import DealtHands, Game, MatchState, check_points, check_seat

__all__ = ["DealtHands", "Game", "MatchState", "check_points", "check_seat"]
