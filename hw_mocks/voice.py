"""A speaker that keeps what it is told to say (tests, the simulator's log).

It implements `table.voice.Speaker` as a real one does from the caller's
side: utterances in order, an urgent one dropping those not yet said. Here
nothing is ever "being said", so an urgent one drops nothing already kept;
`heard` is everything in order, as a listener at the table hears it.
"""

from __future__ import annotations

from collections.abc import Callable

from table.voice import Utterance


class RecordingSpeaker:
    def __init__(self) -> None:
        self.heard: list[Utterance] = []
        self.listeners: list[Callable[[Utterance], None]] = []
        self.closed = False

    def say(self, utterance: Utterance) -> None:
        if self.closed:
            raise RuntimeError("the speaker was closed")
        if not utterance.text.strip():
            return
        self.heard.append(utterance)
        for listener in list(self.listeners):
            listener(utterance)

    def close(self) -> None:
        self.closed = True

    def texts(self, kind: str | None = None) -> list[str]:
        return [u.text for u in self.heard if kind is None or u.kind == kind]
