"""Every refusal and every screen prompt of Sueca and 20-card Filcău reads as a
sentence in English, Romanian and Hungarian, and every menu choice has a label."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine.games.filcau20  # noqa: F401  (registers its messages)
import engine.games.sueca  # noqa: F401
from engine import get_game
from engine.messages import LANGS
from engine.registry import all_messages
from tests.engine.test_filcau20_props import random_hand as filcau_hand
from tests.engine.test_sueca_props import random_hand as sueca_hand

known_reasons = all_messages().codes
render = all_messages().render

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "games"
EXTRAS = Path(__file__).resolve().parents[2] / "table" / "referee" / "extras"
SOURCES = [*(ENGINE / "sueca").glob("*.py"), *(ENGINE / "filcau20").glob("*.py"),
           EXTRAS / "sueca.py", EXTRAS / "filcau20.py"]
GENERIC = {"play", "show_trump"}          # the table's own prompts


def reasons_raised() -> set[str]:
    found = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:IllegalPlay|Refusal|refusal)\(\s*"([a-z0-9_]+)"', text))
        found |= set(re.findall(r'^\s*return "([a-z0-9_]+)"', text, flags=re.M))
        found |= set(re.findall(r'return "([a-z0-9_]+)", "', text))
        found |= set(re.findall(r'Step\("[a-z]+", [^,]+, "([a-z0-9_]+)"', text))
    return found - {"pass", "closed", "play", "show_trump"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_renders_in_every_language(lang):
    reasons = reasons_raised()
    assert {"fris_no_over", "rule8_farba", "no_revoke", "redeal_refused"} <= reasons
    for reason in reasons:
        assert reason in known_reasons(), reason
        text = render(reason, lang, seat=1, turn=2, accused=3, card="Oa", suit="h",
                      call="3:U", points=11, limit=10, family="german")
        assert "{" not in text and not text.startswith(reason), (reason, text)


@pytest.mark.parametrize("gid,driver,options,least", [
    ("sueca", sueca_hand, {"revoke_mode": "denounce_hand_120", "redeal_threshold": "brazil"}, 2),
    ("filcau20", filcau_hand, {"no_binding": "dealer_names"}, 8),
    ("filcau20", filcau_hand, {"fris_priority": "highest_over"}, 8),
])
def test_every_prompt_and_choice_of_random_hands_has_words(gid, driver, options, least,
                                                           monkeypatch):
    game = get_game(gid, options)
    cls = type(game.hand_flow(game.new_match(random.Random(0))))
    original = cls.pending
    prompts: dict[str, set[str]] = {}

    def spy(self):
        step = original(self)
        if step.kind != "done":
            prompts.setdefault(step.prompt, set()).update(c.partition(":")[0]
                                                          for c in step.choices)
        return step

    monkeypatch.setattr(cls, "pending", spy)
    for seed in range(30):
        rng = random.Random(seed)
        driver(game, game.new_match(rng), rng, seed % 2 == 0)
    assert len(prompts) >= least
    for prompt, words in prompts.items():
        if prompt not in GENERIC:
            assert prompt in known_reasons(), prompt
            for lang in LANGS:
                assert "{" not in render(prompt, lang, seat=2)
        for word in words:
            if len(word) == 1 or word.isdigit():
                continue
            assert f"{prompt}_{word}" in known_reasons(), (prompt, word)
