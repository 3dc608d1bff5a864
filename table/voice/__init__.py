"""The table's voice: what is said aloud, in the players' language.

`table.voice.words` turns a message code and its parameters (the same codes
and parameters the screen renders, from the same catalogues) into a sentence
meant for the ear: cards and suits as words ("Ace of hearts", "as de roșu",
"piros ász"), never a sign or a card code. `table.voice.announce` decides
what the table says after each event (the trump, a refused card with its
rule, each card played, the trick's winner, the score after a hand, whose
turn it is). Both are pure: the sound itself is made by a `Speaker`
(`table.drivers.voice` runs espeak-ng and aplay; tests record the texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Utterance:
    """One announcement: `text` in `lang`; `urgent` ones (a refusal, a new
    hand's trump) cut what is being said and drop what waits."""

    text: str
    lang: str
    urgent: bool = False
    kind: str = ""


@runtime_checkable
class Speaker(Protocol):
    """Says utterances, one after the other, without blocking the caller."""

    def say(self, utterance: Utterance) -> None: ...

    def close(self) -> None: ...
