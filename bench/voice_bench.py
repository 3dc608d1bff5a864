"""Benchmark of the table's voice (not part of the test suite).

    python bench/voice_bench.py [--hands 3] [--device null | --folder DIR]

Measures, on this machine, the time from an event reaching the controller
(a card tapped on a reader of the fake table, the controller handling it on
this thread with its journal on disk) to the first audio sample of what the
table says about it being written to the sound output: `aplay -D <device>`
(default `null`, ALSA's device that plays nothing, so the whole chain runs
without a sound card) or WAV files in a folder. Target: under 300 ms.

* a refused card (the rule said at once, cutting what was being said);
* a card accepted ("Seat 2: Ace of hearts"), with the voice idle before it.

Baseline measured in the same run, in turns with the measures (so under the
same load): espeak-ng started alone for each refusal's sentence, from the
start of the process to its first audio sample (what the voice cannot go
below without keeping a synthesiser running). The
report gives each figure and its ratio to the baseline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hw_mocks.rig import Rig  # noqa: E402
from table.drivers.voice import WAV_HEADER, open_speaker  # noqa: E402
from table.settings import TableSettings  # noqa: E402
from table.voice import Utterance  # noqa: E402
from table.voice.announce import attach  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class Probe:
    """When the first sample of each utterance reached the output."""

    def __init__(self) -> None:
        self.first: list[tuple[Utterance, float]] = []
        self.lock = threading.Lock()
        self.arrived = threading.Event()

    def __call__(self, u: Utterance, _said: float, first: float) -> None:
        with self.lock:
            self.first.append((u, first))
        self.arrived.set()

    def after(self, t0: float, timeout: float = 10.0) -> tuple[Utterance, float] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for u, t in self.first:
                    if t >= t0:
                        return u, t
            self.arrived.wait(0.01)
            self.arrived.clear()
        return None


def baseline(texts: list[str], lang: str) -> list[float]:
    """espeak-ng alone: process start to its first audio sample."""
    out = []
    for text in texts:
        t0 = time.monotonic()
        proc = subprocess.Popen(["espeak-ng", "-v", lang, "-s", "160", "--stdout", text],
                                stdout=subprocess.PIPE, bufsize=0)
        assert proc.stdout is not None
        got = 0
        while got <= WAV_HEADER:
            chunk = proc.stdout.read(4096)
            if not chunk:
                break
            got += len(chunk)
        out.append(time.monotonic() - t0)
        proc.kill()
        proc.wait()
    return out


def run(hands: int, device: str, folder: Path | None, lang: str) -> dict[str, list[float]]:
    probe = Probe()
    speaker = open_speaker(device, folder=folder, on_sound=probe)
    rig = Rig(TableSettings(game="filicau", knowledge="scan", language=lang),  # type: ignore[arg-type]
              strict=True)
    attach(rig.ctl, speaker)
    refused: list[float] = []
    accepted: list[float] = []
    base: list[float] = []
    try:
        rig.press("ok")
        rng = random.Random(7)
        for _ in range(hands):
            bot = rig.bot(rng)
            rig.learn_hands(bot)
            while True:
                hand = rig.session.hand()
                step = hand.step()
                deal = hand.flow.deal if hand.flow is not None else None
                if step is not None and step.kind == "play" and deal is not None:
                    legal = set(deal.legal_cards(step.seat))
                    wrong = [(c, u) for c, u in bot.holding[step.seat] if c not in legal]
                    if wrong:
                        speaker.wait()
                        t0 = time.monotonic()
                        rig.player.tap(step.seat, wrong[0][1])
                        got = probe.after(t0)
                        if got is not None:
                            refused.append(got[1] - t0)
                            # the baseline, in turns with the measures (same load)
                            speaker.wait()
                            base.extend(baseline([got[0].text], lang))
                move = bot.next_move()
                if move is None:
                    break
                speaker.wait()
                t0 = time.monotonic()
                rig.do(move)
                if move.kind == "tap" and step is not None and step.kind == "play":
                    got = probe.after(t0)
                    if got is not None:
                        accepted.append(got[1] - t0)
            speaker.wait()
            rig.next_hand()
            if rig.state != "match_hand_show" and not rig.state.startswith("match_deal"):
                rig.press("ok")
    finally:
        speaker.close()
        rig.close()
    return {"refused": refused, "accepted": accepted,
            "baseline": base or baseline(["Seat 2 must follow suit: hearts."], lang)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--device", default="null", help="ALSA device for aplay (default null)")
    ap.add_argument("--folder", type=Path, help="write WAV files here instead of aplay")
    ap.add_argument("--lang", default="en", choices=("en", "ro", "hu"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder
        if folder is None and args.device == "files":
            folder = Path(tmp)
        res = run(args.hands, args.device, folder, args.lang)
    base = statistics.median(res["baseline"])
    output = f"WAV files in {folder}" if folder else f"aplay -D {args.device}"
    print(f"output: {output}; {args.hands} Filicău hands, language {args.lang}")
    print()
    print("| event -> first audio sample | n | p50 | p95 | max | p50 / baseline |")
    print("|---|---|---|---|---|---|")
    for name, label in (("refused", "a card refused (urgent, the rule said)"),
                        ("accepted", "a card accepted (the card said)"),
                        ("baseline", "baseline: espeak-ng alone, start -> first sample")):
        v = res[name]
        if not v:
            print(f"| {label} | 0 | - | - | - | - |")
            continue
        print(f"| {label} | {len(v)} | {statistics.median(v) * 1000:.0f} ms | "
              f"{percentile(v, 95) * 1000:.0f} ms | {max(v) * 1000:.0f} ms | "
              f"{statistics.median(v) / base:.2f} |")


if __name__ == "__main__":
    main()
