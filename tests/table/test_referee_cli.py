"""`cardtable referee` as a process: one answer a line, flushed, exit 0; and the
README's quick-start example."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "referee" / "filicau_hand.jsonl"


def run_referee(data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "table.cli", "referee"], input=data,
                          capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_every_line_gets_exactly_one_answer_even_garbage():
    data = b"\n".join([
        b'{"op": "trump", "game": "filicau", "shown": ["9h"]}',
        b"",
        b"\xff\xfe garbage",
        b'{"op": "trick", "game": "filicau", "trump": "h", "cards": ["Ah", "Ob"]}',
        b'{"op": "play", "seat": 0, "card": "Ah"}',
    ]) + b"\n"
    proc = run_referee(data)
    assert proc.returncode == 0
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(answers) == 5
    assert [a["ok"] for a in answers] == [True, False, False, True, False]
    assert answers[3]["winner"] == 1
    assert answers[4]["reason"] == "no_hand"


def test_answers_are_flushed_line_by_line():
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "referee"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin and proc.stdout
    try:
        proc.stdin.write(b'{"op": "trump", "game": "filicau", "shown": ["Ol", "7b"]}\n')
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        assert first == {"ok": True, "trump": "b", "used": 2}
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_the_readme_quick_start_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "cardtable referee < examples/referee/filicau_hand.jsonl" in readme
    requests = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
    proc = run_referee(EXAMPLE.read_bytes())
    assert proc.returncode == 0
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(answers) == len(requests)
    # the spec's four questions come first, with the spec's answers
    assert answers[0]["legal"] == ["Oh", "Ob"]
    assert answers[1] == {"ok": True, "winner": 2, "points": 2}
    assert answers[2] == {"ok": True, "trump": "h", "used": 3}
    assert answers[3] == {"ok": True, "state": {"status": "masters:1", "dealer": 2}}
    # one play is refused, in Romanian; every other play is accepted
    refused = [(q, a) for q, a in zip(requests, answers, strict=True) if not a["ok"]]
    assert len(refused) == 1
    assert refused[0][0]["lang"] == "ro" and re.search(r"Locul \d", refused[0][1]["message"])
    plays = [a for q, a in zip(requests, answers, strict=True) if q["op"] == "play" and a["ok"]]
    assert len(plays) == 32
    assert sum(1 for a in plays if "trick" in a) == 8
    hand = plays[-1]["hand"]
    trick_points = [a["trick"]["points"] for a in plays if "trick" in a]
    assert sum(hand["points"]) == 8 == sum(trick_points)
    p0, p1 = hand["points"]
    expected = ("even" if 8 in (p0, p1) else "masters:0" if p0 >= 6
                else "masters:1" if p1 >= 6 else "even")
    assert hand["state"]["status"] == expected
