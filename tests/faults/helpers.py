"""Shared helpers of the fault-injection tests: a table that played a
little, crash images of its state folder, damage done to files on disk."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from hw_mocks.rig import Rig
from table.settings import TableSettings

ADMIN = "AD000001"


def settings(**kw):
    base = dict(game="filicau", knowledge="open", admin_uids=(ADMIN,),
                options={"match_length": 3})
    base.update(kw)
    return TableSettings(**base)


def played_rig(state: Path, moves: int = 10, seed: int = 3) -> Rig:
    """A table that started a match and took `moves` bot moves (entries that
    are, at that point, only in the write-ahead log: the last fold was at
    the match's start)."""
    rig = Rig(settings(), state, seats=4, seed=seed, strict=False)
    rig.press("ok")
    bot = rig.bot(random.Random(seed))
    bot.new_hand(rig.session.match.hand.state, "open")
    for _ in range(moves):
        rig.do(bot.next_move())
    return rig


def crash_image(state: Path, dest: Path) -> Path:
    """Copy every file of a state folder as it is on disk now, with the
    table still running: what the disk holds if the power went now."""
    dest.mkdir(parents=True)
    for f in state.iterdir():
        shutil.copy2(f, dest / f.name)
    return dest


def fingerprint(state: Path) -> dict[str, str]:
    """Hashes of the data files (not SQLite's -shm, a scratch index)."""
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(state.iterdir()) if not f.name.endswith("-shm")}


def zero_page(path: Path, page: int, size: int = 4096) -> None:
    with open(path, "r+b") as f:
        f.seek(page * size)
        f.write(b"\0" * size)


def flip_bit(path: Path, offset: int, bit: int = 3) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([b ^ (1 << bit)]))


def cardtable(*args: str, stdin: bytes | None = None, timeout: float = 60) -> \
        subprocess.CompletedProcess[bytes]:
    """Run the real command line in a new interpreter."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "table.cli", *args], input=stdin,
                          capture_output=True, timeout=timeout, env=env,
                          cwd=Path(__file__).resolve().parents[2])
