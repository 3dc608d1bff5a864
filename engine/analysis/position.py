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
from engine.analysis.extras import Extras, ExtrasSearch, search_extras
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
    #: The trick under way follows rules of its own (20-card Filcău's fris
    #: trick): for each seat, the cards it may play to it, as the game's deal
    #: answers (`Filcau20Deal.fris_legal`). Who wins it and what it is worth
    #: are the game's usual answers. None: the usual rules.
    first_trick: tuple[tuple[Card, ...], ...] | None = None
    #: Tricks score more than their card points (Fildinsky's end game: the
    #: deece, the last-trick bonus, melds): the game's scoring and where the
    #: hand stands (`engine.analysis.extras`). Each player then plays for
    #: the margin, his points minus the other's.
    extras: Extras | None = None

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
        self._extras: dict[tuple[int, str | None, str | None, tuple[int, ...], object],
                           ExtrasSearch] = {}

    def nodes(self) -> int:
        """The search nodes its solvers have visited."""
        return sum(s.stats.nodes for s in self._solvers.values()) + \
            sum(s.nodes for s in self._extras.values())

    def extras_search(self, position: Position) -> ExtrasSearch:
        """The search of a position with extras (`Position.extras`)."""
        assert position.extras is not None
        game = position.game
        k = (id(game), position.trump, position.family, position.teams, position.extras[0])
        s = self._extras.get(k)
        if s is None or s.rules.game is not game:
            if len(self._extras) >= self.limit:
                self._extras.clear()
            s = self._extras[k] = ExtrasSearch(game, position.trump, position.family,
                                               position.teams, position.extras[0],
                                               game.tricks_per_hand)
        return s

    def get(self, rules: SolverRules, teams: tuple[int, ...],
            no_trump_lead: tuple[int, int] | None = None) -> Solver:
        k = (id(rules), rules.trump, rules.family, teams, no_trump_lead)
        s = self._solvers.get(k)
        if s is None or s.rules is not rules:
            if len(self._solvers) >= self.limit:
                self._solvers.clear()
            s = self._solvers[k] = Solver(rules, teams, no_trump_lead)
        return s


def hand_masks(position: Position, rules: SolverRules) -> tuple[list[int], int]:
    """Each seat's hand as the solver's bit mask (twin cards given to the
    seats in turn), and the mask of every card they hold."""
    taken = 0
    hands = []
    for h in position.hands:
        m = rules.mask_of(h, taken)
        taken |= m
        hands.append(m)
    return hands, taken


def load(position: Position, cache: SolverCache | None = None) -> tuple[Solver, SolverRules]:
    """A solver set at `position`."""
    rules = solver_rules(position.game, position.trump, position.family)
    solver = (cache or SolverCache()).get(rules, position.teams, position.no_trump_lead)
    hands, taken = hand_masks(position, rules)
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
    if position.first_trick is not None:
        return _analyse_own_trick(position, values, cache or SolverCache(), limit)
    if position.extras is not None:
        return _analyse_extras(position, values, limit, cache)
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


def _analyse_own_trick(position: Position, values: bool, cache: SolverCache, limit: int
                       ) -> Analysis:
    """`analyse` in a trick with rules of its own (`Position.first_trick`):
    every way of finishing it, each seat choosing what is best for its team;
    from the trick's end on, the solver."""
    n = len(position.hands)

    def best(pos: Position) -> tuple[int, int]:
        if len(pos.trick) == n:
            after = after_trick(pos)
            if not any(after.hands):
                return after.won
            return analyse(after, values=False, cache=cache, limit=limit).points
        seat = pos.turn
        team = pos.teams[seat]
        out: tuple[int, int] | None = None
        for c in own_legal(pos):
            got = best(hands_after(pos, seat, c))
            if out is None or got[team] > out[team]:
                out = got
        if out is None:
            raise BadRequest(f"seat {seat} has no card it may play to this trick")
        return out

    seat = position.turn
    team = position.teams[seat]
    found: dict[Card, int] = {}
    points: tuple[int, int] | None = None
    for c in own_legal(position):
        got = best(hands_after(position, seat, c))
        found[c] = got[team]
        if points is None or got[team] > points[team]:
            points = got
    if points is None:
        raise BadRequest(f"seat {seat} has no card it may play to this trick")
    return Analysis(seat, team, points, found if values else {})


def _analyse_extras(position: Position, values: bool, limit: int,
                    cache: SolverCache | None) -> Analysis:
    """`analyse` when tricks score extra points (`Position.extras`). Each
    side plays for the margin; `points` are those of a best line, and a
    card's value is its team's points on the best line less what the card
    costs in margin: `loss` is the margin a card gives away."""
    assert position.extras is not None
    seat, best, lines = search_extras(position.game, position.trump, position.family,
                                      position.teams, position.extras, position.hands,
                                      position.trick, position.leader, limit,
                                      cache.extras_search(position) if cache else None)
    team = position.teams[seat]
    won0, won1 = position.won
    points = (won0 + best[1], won1 + best[2])
    sign = 1 if team == 0 else -1
    out = {c: points[team] - (best[0] - line[0]) * sign for c, line in lines.items()}
    return Analysis(seat, team, points, out if values else {})


def own_legal(position: Position) -> list[Card]:
    """The cards the seat to play may play to a trick with rules of its own."""
    assert position.first_trick is not None
    seat = position.turn
    held = position.hands[seat]
    return [c for c in position.first_trick[seat] if c in held]


def after_trick(position: Position) -> Position:
    """The position once its complete trick is gathered: the game's winner
    leads next and its team takes the game's points for the trick."""
    game = position.game
    trick = list(position.trick)
    winner = (position.leader + game.trick_winner(trick, position.trump)) % len(position.hands)
    pts = game.trick_points(trick, position.trump)
    won = list(position.won)
    won[position.teams[winner]] += pts
    return Position(game, position.trump, position.hands, (), winner, position.teams,
                    (won[0], won[1]), position.family, position.no_trump_lead)


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
                    (won[0], won[1]), family, no_trump_lead_of(deal), first_trick_of(deal),
                    extras_of(deal))


def extras_of(deal: Deal) -> Extras | None:
    """Fildinsky's end game: what its tricks score beyond brisques, and
    where the hand stands (the deal's own `endgame_scoring`)."""
    scoring = getattr(deal, "endgame_scoring", None)
    if scoring is None:
        return None
    rules, state = scoring()
    return rules, state


def first_trick_of(deal: Deal) -> tuple[tuple[Card, ...], ...] | None:
    """20-card Filcău's fris trick while it is under way, hands known: the
    cards each seat may play to it (the game's own `fris_legal`)."""
    if not getattr(deal, "in_fris_trick", False) or deal.hands is None:
        return None
    legal = deal.fris_legal  # type: ignore[attr-defined]  # a Filcau20Deal (in_fris_trick)
    pack = deal.pack
    return tuple(tuple(pack.cards_of(legal(s, h))) for s, h in enumerate(deal.hands))


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
                    position.no_trump_lead, position.first_trick, position.extras)


def legal_now(position: Position) -> list[Card]:
    """The legal cards of the seat to play (the game's legal family, or the
    trick's own rules)."""
    if position.first_trick is not None:
        return own_legal(position)
    solver, rules = load(position)
    return rules.cards_of(solver.legal())


def check_teams(teams: Sequence[int], players: int) -> None:
    if len(teams) != players or any(t not in (0, 1) for t in teams):
        raise BadRequest(f"teams must give team 0 or 1 for each of the {players} seats")
