"""Every referee example in docs/ is exact: each `> request` line is replayed, in
file order, through one referee per file, and must get the `< answer` line that
follows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.referee import Referee

DOCS = Path(__file__).resolve().parents[2] / "docs"


def examples(path: Path) -> list[tuple[int, str, str | None]]:
    """(line number, request, expected answer or None) for every `>` line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("> {"):
            answer = None
            if i + 1 < len(lines) and lines[i + 1].startswith("< {"):
                answer = lines[i + 1][2:]
            out.append((i + 1, line[2:], answer))
    return out


DOC_FILES = sorted(p for p in DOCS.rglob("*.md") if examples(p))


def test_the_docs_have_referee_examples():
    assert DOCS / "referee.md" in DOC_FILES


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(DOCS)))
def test_doc_examples_are_exact(path):
    referee = Referee()
    for lineno, request, expected in examples(path):
        got = json.loads(referee.answer_line(request))
        if expected is None:
            assert "ok" in got, f"{path.name}:{lineno}"
            continue
        assert got == json.loads(expected), f"{path.name}:{lineno}: {request}"
