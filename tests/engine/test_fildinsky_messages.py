"""Every refusal and screen prompt of Fildinsky reads as a sentence in English,
Romanian and Hungarian, and every menu choice of its hand flow has a label."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import get_game
from engine.games.fildinsky.flow import FildinskyFlow
from engine.messages import LANGS
from engine.registry import all_messages

known_reasons = all_messages().codes
render = all_messages().render

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "engine" / "games" / "fildinsky").glob("*.py"),
           ROOT / "table" / "referee" / "extras" / "fildinsky.py"]


def reasons_raised():
    found = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:IllegalPlay|Refusal|refusal)\(\s*"([a-z0-9_]+)"', text))
        found |= set(re.findall(r'reason="([a-z0-9_]+)"', text))
        found |= set(re.findall(r'Step\("[a-z]+", [^,]+, "([a-z0-9_]+)"', text))
        found |= set(re.findall(r'^[A-Z_]+ = "(meld_[a-z_]+|too_many_melds)"', text, re.M))
        found |= set(re.findall(r'"(must_[a-z]+)", letter', text))
    return found - {"play"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_and_prompt_renders_in_every_language(lang):
    reasons = reasons_raised()
    assert {"meld_cards_missing", "meld_needs_trick_card", "too_many_melds", "no_exchange",
            "not_in_stock", "match_over", "must_beat", "fildinsky_declare",
            "fildinsky_draw", "fildinsky_show_turn_up"} <= reasons
    for reason in reasons:
        assert reason in known_reasons(), reason
        text = render(reason, lang, seat=1, turn=0, card="Qs", suit="h", meld="bezique",
                      step="meld", family="french")
        assert "{" not in text and not text.startswith(reason), (reason, text)


def test_every_menu_choice_of_random_hands_has_a_label(monkeypatch):
    original = FildinskyFlow.pending
    seen: dict[str, set[str]] = {}

    def spy(self):
        step = original(self)
        if step.kind in ("choose", "card"):
            seen.setdefault(step.prompt, set()).update(step.choices)
        return step

    monkeypatch.setattr(FildinskyFlow, "pending", spy)
    for seed, trump_options in enumerate([{}, {"meld_needs_current_trick_card": False}] * 4):
        g = get_game("fildinsky", trump_options)
        rng = random.Random(seed)
        state = g.new_match(rng)
        dealt = g.deal(rng, state.dealer)
        f = g.hand_flow(state, dealt.hands)
        f.card(state.dealer, dealt.extra["turn_up"])
        while f.pending().kind != "done":
            step = f.pending()
            if step.kind == "play":
                f.card(step.seat, rng.choice(list(f.deal.legal_cards())))
            elif step.kind == "choose":
                f.choose(step.seat, rng.choice(step.choices))
            else:
                f.choose(step.seat, "unknown")
    assert {"fildinsky_declare", "fildinsky_draw"} <= set(seen)
    assert len(seen["fildinsky_declare"]) >= 5
    for prompt, words in seen.items():
        for word in words:
            for lang in LANGS:
                assert f"{prompt}_{word}" in known_reasons(), (prompt, word)
                assert "{" not in render(f"{prompt}_{word}", lang)
    # Every meld name has a label, whether or not random play reached it.
    for suit in "cdhs":
        from engine.games.fildinsky.melds import meld_kinds
        for k in meld_kinds(suit):
            assert f"fildinsky_declare_{k.name}" in known_reasons()
