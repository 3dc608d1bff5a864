"""Cards the table must refuse, for the benches that time refusals.

`refusal_for(bot)` looks at the bot's next step (before `bot.next_move()`,
which applies the move to the bot's own flow) and picks a card a player
could wrongly put down now: a card of the seat's own hand the rules do not
allow (not following suit, not trumping), else a card of the next seat's
hand on the next seat's reader (out of turn). The table knows the hands
(`scan` or `dealt`), so both are refused as soon as they are read.
"""

from __future__ import annotations

from typing import Any

from hw_mocks.bot import Bot, Move


def refusal_for(bot: Bot, rng: Any) -> Move | None:
    """A wrong card for the step the bot is about to play (None: not a play step)."""
    flow = bot.shadow
    if flow is None:
        return None
    step = flow.pending()
    deal = flow.deal
    if step.kind != "play" or step.seat is None or deal is None:
        return None
    seat = step.seat
    legal = set(deal.legal_cards(seat))
    wrong = [h for h in bot.holding[seat] if h[0] not in legal]
    if wrong:
        c, uid = rng.choice(wrong)
        return Move("tap", seat, uid, c, seat)
    other = (seat + 1) % bot.game.players
    if not bot.holding[other]:
        return None
    c, uid = rng.choice(bot.holding[other])
    return Move("tap", other, uid, c, other)
