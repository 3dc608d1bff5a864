"""Hostile input and closed pipes. `cardtable referee` answers every line,
whatever bytes or code points it holds, with one line of valid UTF-8 JSON;
every command ends quietly (no traceback) when the reader of its output
goes away (`| head -1`)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.referee.cli import serve
from tests.faults.helpers import played_rig

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "referee" / "filicau_hand.jsonl").read_bytes()

HOSTILE = [
    b'{"op": "\\ud800"}',                                    # a lone surrogate, echoed
    b'{"op": "legal", "game": "\\udfff"}',
    b'{"op": "new_hand", "game": "filicau", "lang": "\\ud800", "trump": "\\udc00"}',
    b'{"op": "new_hand", "game": "filicau", "options": {"\\ud83d": 1}}',
    b'{"op": "play", "card": "K\\ud800"}',
    b'{"\\ud800": "\\ud800"}',
    b'\xff\xfe\xfd',                                        # not UTF-8
    b'{"op": "\xc0\xaf"}',                                  # an overlong encoding
    b'{"op": "\xed\xa0\x80"}',                              # a surrogate encoded in UTF-8
    b'\xef\xbb\xbf{"op": "version"}',                       # a byte-order mark
    b'{"op": "ver\x00sion"}',
    b'',
    b'   ',
    b'[' * 100_000,
    b'{"a":' * 50_000,
    b'{"op": "new_hand", "game": "filicau", "state": {"dealer": 1e999}}',
    b'{"op": "new_hand", "game": "filicau", "state": {"dealer": NaN}}',
    b'{"op": "new_hand", "game": "filicau", "state": {"dealer": -1}}',
    b'{"op": "' + b'x' * 1_000_000 + b'"}',
    b'"just a string"',
    b'null',
    b'{"op": "play", "seat": 99999999999999999999999, "card": "Kb"}',
]


def check_answers(out: bytes, lines: int) -> list[dict]:
    text = out.decode("utf-8")                  # strict: every answer is valid UTF-8
    answers = text.split("\n")
    assert answers[-1] == ""
    assert len(answers) - 1 == lines
    parsed = [json.loads(a) for a in answers[:-1]]
    assert all(isinstance(p, dict) and isinstance(p.get("ok"), bool) for p in parsed)
    return parsed


def test_the_real_referee_answers_every_hostile_line():
    stdin = b"\n".join(HOSTILE) + b"\n" + EXAMPLE
    proc = subprocess.run([sys.executable, "-m", "table.cli", "referee"], input=stdin,
                          capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr[-2000:]
    answers = check_answers(proc.stdout, len(HOSTILE) + EXAMPLE.count(b"\n"))
    assert all(a["ok"] is False for a in answers[:len(HOSTILE)] if "reason" in a)
    # the lone surrogate is written as U+FFFD in the echo, not as bytes UTF-8 forbids
    assert "\ufffd" in answers[0]["message"]
    # and after all that, the example hand is refereed exactly as on its own
    alone = subprocess.run([sys.executable, "-m", "table.cli", "referee"], input=EXAMPLE,
                           capture_output=True, timeout=120, cwd=ROOT)
    assert answers[len(HOSTILE):] == check_answers(alone.stdout, EXAMPLE.count(b"\n"))


#: any code point, lone surrogates included
CHARS = st.one_of(st.characters(), st.characters(categories=["Cs"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(
    st.binary(max_size=200).filter(lambda b: b"\n" not in b and b"\r" not in b),
    st.lists(CHARS, max_size=60).map("".join).map(
        lambda t: json.dumps({"op": t}, ensure_ascii=True).encode("ascii")),
    st.lists(CHARS, max_size=60).map("".join).map(
        lambda t: json.dumps({"op": "legal", "game": t, "card": t, t: t},
                             ensure_ascii=True).encode("ascii")),
    st.lists(CHARS, max_size=60).map("".join).map(
        lambda t: json.dumps({"op": "new_hand", "game": "filicau", "lang": t},
                             ensure_ascii=False).encode("utf-8", "surrogatepass")
        .replace(b"\n", b" ").replace(b"\r", b" ")),
), max_size=8))
def test_any_line_gets_one_answer_of_valid_utf8_json(lines):
    out = io.StringIO()
    serve(io.BytesIO(b"".join(line + b"\n" for line in lines)), out)
    check_answers(out.getvalue().encode("utf-8"), len(lines))


# ----- closed pipes -------------------------------------------------------------------------

def run_into_a_closed_pipe(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Run a command whose standard output's reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "table.cli", *args], input=stdin,
                              stdout=write_end, stderr=subprocess.PIPE, timeout=120,
                              cwd=ROOT)
    finally:
        os.close(write_end)
    return proc


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    folder = tmp_path_factory.mktemp("state")
    rig = played_rig(folder, moves=12)
    rig.close()
    return folder


@pytest.mark.parametrize("args", [
    ("referee",),
    ("export", "--state", "{state}"),
    ("export", "--state", "{state}", "--list"),
    ("config", "check", str(ROOT / "examples" / "config.toml")),
    ("config", "show", str(ROOT / "examples" / "config.toml")),
    ("journal", "check", "--state", "{state}"),
    ("enroll", "--state", "{state}", "--list"),
    ("run", "--hardware", "mock", "--state", "{state}"),
    ("--help",),
    ("export", "--help"),
])
def test_every_command_ends_quietly_on_a_closed_pipe(args, state):
    words = [a.replace("{state}", str(state)) for a in args]
    proc = run_into_a_closed_pipe(*words, stdin=EXAMPLE)
    err = proc.stderr.decode()
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception" not in err, err
    assert proc.returncode == 0, (proc.returncode, err)
