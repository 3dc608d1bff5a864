"""The hub rebuilds matches with the engine and the table's replay only:
nothing in table/club imports the fakes, the drivers or the controller's
machine."""

from __future__ import annotations

import ast
from pathlib import Path

CLUB = Path(__file__).resolve().parents[2] / "table" / "club"
ALLOWED_TABLE = {"table.club", "table.journal", "table.ports", "table.controller.session"}


def imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_club_package_imports_only_the_engine_and_the_replay():
    assert sorted(CLUB.glob("*.py"))
    for path in CLUB.glob("*.py"):
        for name in imports(path):
            assert not name.startswith("hw_mocks"), f"{path.name} imports {name}"
            if name.startswith("table."):
                assert any(name == a or name.startswith(a + ".") for a in ALLOWED_TABLE), \
                    f"{path.name} imports {name}"
