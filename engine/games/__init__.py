"""The games, one package each (`engine/games/<game>/`), and the registry
that finds them by id (`engine.registry`, re-exported here)."""

from engine.game import DealtHands, Game, MatchState
from engine.registry import GAMES, game_class, game_ids, get_game, register

__all__ = ["GAMES", "DealtHands", "Game", "MatchState", "game_class", "game_ids", "get_game",
           "register"]
