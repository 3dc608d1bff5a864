"""The rules engine: pure Python, stdlib only, no I/O, no clock; randomness is passed in.

    >>> from engine import get_game, card
    >>> g = get_game("filicau")
    >>> g.trump_from_shown([card("Ol"), card("Ob"), card("9h")])
    ('h', 3)
"""

from engine.cards import Card, card, cards
from engine.deal import Deal, PlayOutcome, Revoke, Trick
from engine.errors import (
    BadRequest,
    EngineError,
    IllegalPlay,
    UnknownCard,
    UnknownGame,
    UnknownOption,
)
from engine.game import DealtHands, Game, MatchState
from engine.packs import PACKS, Pack
from engine.registry import game_ids, get_game

__all__ = [
    "PACKS",
    "BadRequest",
    "Card",
    "Deal",
    "DealtHands",
    "EngineError",
    "Game",
    "IllegalPlay",
    "MatchState",
    "Pack",
    "PlayOutcome",
    "Revoke",
    "Trick",
    "UnknownCard",
    "UnknownGame",
    "UnknownOption",
    "card",
    "cards",
    "game_ids",
    "get_game",
]
