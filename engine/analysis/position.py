"""A position of trick play with every card visible, and what it is worth.

    >>> from engine import get_game, cards
    >>> g = get_game("filicau")
    >>> p = Position(g, "h", (tuple(cards("Ah Th")), tuple(cards("7h 8h")),
    ...                       tuple(cards("Oa 9h")), tuple(cards("Ol Uh"))),
    ...              (), leader=0, teams=(0, 1, 0, 1))
    >>> a = analyse(p)
    >>> a.points, sorted((c.code, v) for c, v in a.values.items())
    ((1, 1), [('Ah', 1), ('Th', 1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import BadRequest, Card, Deal, Game
from engine.analysis.rules import SolverRules, solver_rules
from engine.analysis.solver import Solver


def game_of(deal: Deal) -> Game:
    """The deal's game as the solver needs it: a whole `Game` (a `Deal` only
    promises the rules it plays by)."""
    game = deal.game
    if not isinstance(game, Game):
        raise BadRequest(f"the solver needs a registered game, not {type(game).__name__}")
    return game


@dataclass(frozen=True)
class Position:
    """The cards each seat still holds, the trick so far (leader first), the
    seat that led it, each seat's team (0 or 1) and the points each team has
    already taken. `family` overrides the game's legal family (Fildinsky's
    end game)."""

    game: Game
    trump: str | None
    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]
    leader: int
    teams: tuple[int, ...]
    won: tuple[int, int] = (0, 0)
    family: str | None = None
    #: (seat, cards in hand): that seat, leading with that many cards, may not
    #: lead a trump while it holds another card (20-card Filcău's rule 8:
    #: a "three" binder who won trick 1 leads a non-trump to trick 2).
    no_trump_lead: tuple[int, int] | None = None

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


@dataclass(frozen=True)
class Analysis:
    """What a position is worth with every card visible.

    * `seat`: the seat to play; `team`: its team.
    * `points`: each team's points at the end of the hand under best play
      (those already taken included).
    * `values`: for every legal card of `seat`, the points `team` ends the
      hand with if it plays that card and everybody then plays best.
    """

    seat: int
    team: int
    points: tuple[int, int]
    values: dict[Card, int] = field(default_factory=dict)

    @property
    def best(self) -> int:
        return self.points[self.team]

    def loss(self, c: Card) -> int:
        """Points `c` gives away against the best card (0 for a best card)."""
        return self.best - self.values[c]

    def best_cards(self) -> list[Card]:
        return [c for c, v in self.values.items() if v == self.best]


class SolverCache:
    """Solvers by (game, trump, family, teams), so a transposition table
    serves every question about the same deal."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._solvers: dict[tuple[int, str | None, str | None, tuple[int, ...],
                                  tuple[int, int] | None], Solver] = {}

    def nodes(self) -> int:
        """The search nodes its solvers have visited."""
        return sum(s.stats.nodes for s in self._solvers.values())

    def get(self, rules: SolverRules, teams: tuple[int, ...],
            no_trump_lead: tuple[int, int] | None = None) -> Solver:
        k = (id(rules), rules.trump, rules.family, teams, no_trump_lead)
        s = self._solvers.get(k)
        if s is None or s.rules is not rules:
            if len(self._solvers) >= self.limit:
                self._solvers.clear()
            s = self._solvers[k] = Solver(rules, teams, no_trump_lead)
        return s


def load(position: Position, cache: SolverCache | None = None) -> tuple[Solver, SolverRules]:
    """A solver set at `position`."""
    rules = solver_rules(position.game, position.trump, position.family)
    solver = (cache or SolverCache()).get(rules, position.teams, position.no_trump_lead)
    taken = 0
    hands = []
    for h in position.hands:
        m = rules.mask_of(h, taken)
        taken |= m
        hands.append(m)
    trick = []
    for c in position.trick:
        m = rules.mask_of([c], taken)
        taken |= m
        trick.append(m.bit_length() - 1)
    solver.load(hands, trick, position.leader)
    return solver, rules


def analyse(position: Position, values: bool = True, cache: SolverCache | None = None,
            limit: int = 0) -> Analysis:
    """The best each team can force from `position`, and (with `values`) what
    every legal card of the seat to play is worth. With a `limit`, a search
    that visits more nodes than that raises `SearchLimit`."""
    solver, rules = load(position, cache)
    solver.stats.limit = solver.stats.nodes + limit if limit else 0
    seat = position.turn
    team = position.teams[seat]
    rem = solver.rem
    won0, won1 = position.won

    def final(v0: int) -> tuple[int, int]:
        return won0 + v0, won1 + rem - v0

    out: dict[Card, int] = {}
    if values:
        per_bit = solver.card_values()
        for b, v0 in per_bit.items():
            out[rules.card(b)] = final(v0)[team]
        best0 = max(per_bit.values()) if team == 0 else min(per_bit.values())
    else:
        best0 = solver.value()
    return Analysis(seat, team, final(best0), out)


# ----- from a live deal ---------------------------------------------------------------


def teams_of(deal: Deal) -> tuple[int, ...]:
    """Every seat's team as the cards decide it (all cards visible): fixed
    partnerships, or five-player Filkó's secret partner (whose holder the
    deal knows with the hands known)."""
    seen = getattr(deal, "teams_seen_by", None)
    if seen is None:
        return tuple(deal.game.team_of(s) for s in range(deal.n))
    for viewer in (None, *range(deal.n)):
        teams = seen(viewer)
        if all(t is not None for t in teams):
            return tuple(int(t) for t in teams)
    raise BadRequest("the teams of this hand are not known from its cards")


def position_of(deal: Deal) -> Position:
    """The position of a deal whose hands are known."""
    if deal.hands is None:
        raise BadRequest("the solver needs every hand: this deal does not know them")
    if getattr(deal, "stage", "play") != "play" or deal.finished:
        raise BadRequest("the deal is not waiting for a card")
    family = None
    context = deal.context()
    if context:
        if context.get("stock_empty") is False:
            raise BadRequest("the solver plays the end game only: the stock is not empty")
        family = game_of(deal).legal_family_for(**context)
    pack = deal.pack
    hands = tuple(tuple(pack.cards_of(h)) for h in deal.hands)
    trick = tuple(deal.current_trick)
    teams = teams_of(deal)
    won = [0, 0]
    for seat, p in enumerate(deal.points):
        won[teams[seat]] += p
    return Position(game_of(deal), deal.trump, hands, trick, deal.leader, teams,
                    (won[0], won[1]), family, no_trump_lead_of(deal))


def no_trump_lead_of(deal: Deal) -> tuple[int, int] | None:
    """20-card Filcău's rule 8 as the solver's lead restriction: the "three"
    binder (`deal.rule8`), leading trick 2, may not lead a trump."""
    seat = getattr(deal, "rule8", None)
    if not isinstance(seat, int):
        return None
    return seat, deal.game.tricks_per_hand - 1


def hands_after(position: Position, seat: int, c: Card) -> Position:
    """The position after `seat` (to play) plays `c` (no check; see `Deal.play`)."""
    hands = list(position.hands)
    h = list(hands[seat])
    h.remove(c)
    hands[seat] = tuple(h)
    return Position(position.game, position.trump, tuple(hands), (*position.trick, c),
                    position.leader, position.teams, position.won, position.family,
                    position.no_trump_lead)


def legal_now(position: Position) -> list[Card]:
    """The legal cards of the seat to play (the game's legal family)."""
    solver, rules = load(position)
    return rules.cards_of(solver.legal())


def check_teams(teams: Sequence[int], players: int) -> None:
    if len(teams) != players or any(t not in (0, 1) for t in teams):
        raise BadRequest(f"teams must give team 0 or 1 for each of the {players} seats")
