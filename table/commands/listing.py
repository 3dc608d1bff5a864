"""Lists for people: a header, then columns lined up (`cardtable history`,
`enroll --list`, `export --list`)."""

from __future__ import annotations

from collections.abc import Sequence


def columns(header: Sequence[str], rows: Sequence[Sequence[object]],
            right: Sequence[int] = ()) -> str:
    """The rows under the header, each column as wide as its widest cell
    (the columns in `right`, numbers, aligned right); a rule under the header."""
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

    def line(row: list[str]) -> str:
        out = [c.rjust(w) if i in right else c.ljust(w)
               for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        return "  ".join(out).rstrip()

    lines = [line(cells[0]), "  ".join("-" * w for w in widths)]
    lines += [line(r) for r in cells[1:]]
    return "\n".join(lines)
