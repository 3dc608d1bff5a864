"""The help screen's text: a game's rules, from its page in docs/games/.

The page's opening sections (the rules as the table plays them) up to the
first section for developers or the options table; links become plain text.
A checkout has the pages in docs/games/; an installed cardtable has them in
`<prefix>/share/cardtable/docs/games/` (pyproject.toml's data-files).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: Sections that are not rules for players: the help stops at the first.
_STOP = re.compile(r"^##\s+(Options|Referee|The referee|From Python|Reasons)\b", re.I)
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def pages_folders() -> list[Path]:
    """Where the game pages may be, in the order tried."""
    checkout = Path(__file__).resolve().parents[2] / "docs" / "games"
    return [checkout, Path(sys.prefix) / "share" / "cardtable" / "docs" / "games"]


def page_path(game: str, folders: list[Path] | None = None) -> Path | None:
    for folder in folders if folders is not None else pages_folders():
        path = folder / f"{game}.md"
        if path.is_file():
            return path
    return None


def rules_markdown(game: str, folders: list[Path] | None = None) -> str:
    """The rules of `game` in Markdown (a short note when its page is missing)."""
    path = page_path(game, folders)
    if path is None:
        return (f"# {game}\n\nThe rules of this game are in docs/games/{game}.md of "
                f"cardtable's source, which this installation does not have.")
    return rules_section(path.read_text(encoding="utf-8"))


def rules_section(page: str) -> str:
    """The players' part of a game page (see the module docstring)."""
    out = []
    for line in page.splitlines():
        if _STOP.match(line):
            break
        out.append(_LINK.sub(r"\1", line))
    return "\n".join(out).strip() + "\n"
