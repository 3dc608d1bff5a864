"""One package per game: the registry finds every game in its own package
under engine/games/, the engine's core imports no game, and each game's page
points to files that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.registry import GAMES, game_class, game_ids

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def package_of(gid: str) -> Path:
    parts = game_class(gid).__module__.split(".")
    assert parts[:2] == ["engine", "games"], gid
    return ENGINE / "games" / parts[2]


def imports_of(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_lives_in_its_own_package(gid):
    package = package_of(gid)
    assert (package / "__init__.py").exists()
    assert GAMES[gid].startswith(f"engine.games.{package.name}.")


def test_the_core_imports_no_game():
    core = [p for p in ENGINE.glob("*.py")]
    assert len(core) > 10
    for path in core:
        games = {m for m in imports_of(path) if m.startswith("engine.games")}
        assert not games, (path.name, games)


@pytest.mark.parametrize("gid", game_ids())
def test_each_games_page_points_to_files_that_exist(gid):
    page = (ROOT / "docs" / "games" / f"{gid}.md").read_text(encoding="utf-8")
    package = package_of(gid)
    rel = package.relative_to(ROOT).as_posix()
    assert f"../../{rel}/" in page or f"../../{rel}/game.py" in page, gid
    intro = page.split("\n## ", 1)[0]
    named = set(re.findall(r"`(?:engine/games/[a-z0-9_]+/)?([a-z_0-9]+\.py)`", intro))
    assert named, gid
    for name in named:
        assert (package / name).exists(), (gid, name)
    assert "shared/" not in page and "RULES.md" not in page
