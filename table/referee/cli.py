"""The referee's read-answer loop on standard input and output."""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

from table.referee.session import Referee


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer every line of `stdin` on `stdout`, flushing after each. Exit status 0."""
    referee = Referee()
    for raw in stdin:
        line = raw.rstrip(b"\r\n")
        stdout.write(referee.answer_line(line) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    return serve(sys.stdin.buffer, sys.stdout)
