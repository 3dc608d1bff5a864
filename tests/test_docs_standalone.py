"""The docs stand alone: every link stays in the repository (and points at a
file and heading that exist) or goes to a public web page; each game's page
carries its rules, its options and the choices made where the sources are
silent, with the sources named; every numbered open question a page cites is
answered on a page a reader has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import game_ids

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted([*DOCS.rglob("*.md"), ROOT / "README.md"])
LINK = re.compile(r"\]\(([^)\s]+)\)|<(https?://[^>\s]+)>")
QUESTION = re.compile(r"\b(FC-A\d+|FD-A\d+|SU-A\d+|FK-\d+|FI-\d+)\b")


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_or_goes_to_a_public_page(page):
    text = page.read_text(encoding="utf-8")
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if target.startswith(("http://", "https://")):
            continue
        assert not target.startswith(("/", "file:")), (page.name, target)
        path, _, frag = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.relative_to(ROOT)}: {target} does not exist"
        assert ROOT in dest.parents or dest == ROOT, (page.name, target)
        assert "shared" not in dest.relative_to(ROOT).parts, (page.name, target)
        if frag and dest.suffix == ".md":
            assert frag in anchors(dest), f"{page.relative_to(ROOT)}: no heading #{frag}"


@pytest.mark.parametrize("gid", game_ids())
def test_each_games_page_names_its_choices_and_its_sources(gid):
    text = (DOCS / "games" / f"{gid}.md").read_text(encoding="utf-8")
    assert "\n## Where the sources are silent\n" in text
    sources = text.split("\n## Sources\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"<https://[^>]+>", sources), gid
    # the people's numbering, and the protocol's
    assert "seat 1" in text.lower() or "seats 1" in text.lower(), gid


def test_every_open_question_a_page_cites_is_answered_in_the_docs():
    answered: set[str] = set()
    cited: dict[str, set[str]] = {}
    for page in (DOCS / "games").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        silent = text.split("\n## Where the sources are silent\n", 1)[1].split("\n## ", 1)[0]
        answered |= {m.group(1) for line in silent.splitlines()
                     if line.startswith("| ") for m in [QUESTION.match(line[2:])] if m}
        answered |= {f"FK-{n}" for a, b in re.findall(r"FK-(\d+) … FK-(\d+) \|", silent)
                     for n in range(int(a), int(b) + 1)}
        cited[page.name] = set(QUESTION.findall(text))
    missing = {name: sorted(c - answered) for name, c in cited.items() if c - answered}
    assert not missing, missing
    assert {"FI-1", "FK-15", "FC-A28", "FD-A16", "SU-A9"} <= answered


def test_the_referee_page_carries_the_card_codes_and_the_seats():
    text = (DOCS / "referee.md").read_text(encoding="utf-8")
    section = text.split("\n## Card codes and seats\n", 1)[1].split("\n## ", 1)[0]
    for needle in ("`a` acorns, `l` leaves, `h` hearts, `b` bells",
                   "`c` clubs, `d` diamonds, `h` hearts, `s` spades",
                   "`german30_kelebia`", "`french64double`", "**`0 … n-1` in the order of play**",
                   "\"Seat 1\""):
        assert needle in section, needle
    from engine.packs import PACKS

    for name in PACKS:
        assert f"`{name}`" in section, name
