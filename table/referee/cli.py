"""The referee's read-answer loop on standard input and output.

Every line gets exactly one answer line, whatever it holds: bytes that are
not UTF-8 and JSON that is not a request are answered by the referee itself
(`bad_request`); code points that cannot be written as UTF-8 (a lone
surrogate such as "\\ud800" decoded from a JSON escape and echoed in an
answer) are written as U+FFFD, so every answer is valid UTF-8 JSON; and an
unforeseen error answering one line is still one `bad_request` answer. When
the reader of standard output goes away (`cardtable referee | head -1`),
the loop ends quietly (`table.cli` catches the `BrokenPipeError`).
"""

from __future__ import annotations

import logging
import re
import sys
from typing import BinaryIO, TextIO

from table.referee.session import Referee, bad_request

log = logging.getLogger("cardtable.referee")

#: Surrogate code points: in a Python str they can only be unpaired.
_SURROGATES = re.compile("[\ud800-\udfff]")


def writable(text: str) -> str:
    """`text` with every code point UTF-8 cannot encode replaced by U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


def answer(referee: Referee, line: bytes) -> str:
    """The answer line (without its newline) to one input line."""
    try:
        text = referee.answer_line(line)
    except Exception as exc:  # the contract: every line gets an answer
        log.error("referee: no answer for a line (%s: %s)", type(exc).__name__, exc)
        import json

        text = json.dumps(bad_request(f"the request could not be answered "
                                      f"({type(exc).__name__})"),
                          ensure_ascii=False, separators=(", ", ": "))
    return writable(text)


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer every line of `stdin` on `stdout`, flushing after each. Exit status 0."""
    referee = Referee()
    for raw in stdin:
        line = raw.rstrip(b"\r\n")
        stdout.write(answer(referee, line) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(encoding="utf-8", errors="strict")
    return serve(sys.stdin.buffer, out)
