"""The docs name every game and every option with its default."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.games import game_class, game_ids

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _shown(value: object) -> str:
    return json.dumps(value)


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_is_listed_with_its_page(gid):
    index = (DOCS / "games.md").read_text(encoding="utf-8")
    assert f"`{gid}`" in index
    assert (DOCS / "games" / f"{gid}.md").exists()


@pytest.mark.parametrize("gid", game_ids())
def test_every_option_is_documented_with_its_default(gid):
    page = (DOCS / "games" / f"{gid}.md").read_text(encoding="utf-8")
    for spec in game_class(gid).option_specs:
        rows = [line for line in page.splitlines()
                if re.match(rf"\|\s*`{re.escape(spec.name)}`\s*\|", line)]
        assert rows, f"{gid}: option {spec.name} is not in the options table"
        cells = [c.strip() for c in rows[0].strip("|").split("|")]
        assert cells[2] == f"`{_shown(spec.default)}`", (
            f"{gid}: option {spec.name}: default shown as {cells[2]}, "
            f"expected `{_shown(spec.default)}`")
