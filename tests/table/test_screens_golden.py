"""Golden images: every screen of the table, in every language, as the fake
OLED (luma's dummy device) shows it, compared pixel for pixel with the PNGs
in tests/table/golden/.

The images are never rewritten silently. After a deliberate change of the
screens, regenerate them with

    CARDTABLE_GOLDEN=update python -m pytest tests/table/test_screens_golden.py

look at every changed PNG (git diff shows which), and commit them. Without the
variable a missing or different image fails the test, and the frame the table
drew is saved next to the test's temporary folder for comparison.
"""

from __future__ import annotations

import os
import random
import warnings
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import tests.table.test_controller_machine  # noqa: F401  (registers the test game)
from engine import get_game
from hw_mocks.rig import Rig
from table.ports import DEALER
from table.settings import TableSettings
from tests.table.test_controller_filicau import HANDS, PLAYS

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CARDTABLE_GOLDEN") == "update"
ADMIN = "AD000001"
SMALL_SET = ("ready", "scan", "play", "trick", "error", "result", "choose", "enroll",
             "ready_players")


def rig_for(language, size, knowledge="scan", game="filicau", **options):
    seed = next(s for s in range(1000)
                if get_game("filicau").new_match(random.Random(s)).dealer == 3)
    settings = TableSettings(game=game, knowledge=knowledge, language=language,
                             screen=size, options=options, admin_uids=(ADMIN,))
    return Rig(settings, None, seats=4, seed_source=lambda: seed)


def frames_of_a_session(language, size):
    """Walk through every screen the way players and the admin would."""
    shots: dict[str, Image.Image] = {}

    def shot(name, rig):
        shots[name] = rig.display.image.copy()

    rig = rig_for(language, size)
    shot("ready", rig)
    rig.press("menu")
    shot("setup_game", rig)
    rig.press("ok")
    shot("setup_options", rig)
    rig.press("ok")
    rig.press("ok")
    shot("setup_knowledge", rig)
    rig.press("ok")
    shot("setup_language", rig)
    rig.press("undo")
    rig.tap(0, "Oa")
    shot("notice", rig)
    rig.press("ok")
    rig.player.tap(0, "0BADC0DE")
    shot("error_unknown", rig)
    rig.press("ok")
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand[: 8 if seat < 2 else 3]:
            rig.tap(seat, code)
    shot("scan", rig)
    for seat, hand in enumerate(HANDS):
        for code in hand[8 if seat < 2 else 3:]:
            rig.tap(seat, code)
    shot("show", rig)
    rig.tap(DEALER, "9b")
    rig.tap(0, "Kb")
    shot("play", rig)
    rig.tap(1, "8a")
    shot("error", rig)
    rig.press("ok")
    for seat, code in PLAYS[1:4]:
        rig.tap(seat, code)
    shot("trick", rig)
    rig.press("undo")
    shot("undo", rig)
    rig.press("undo")
    rig.hold("undo")
    shot("abort", rig)
    rig.press("undo")
    rig.press("menu")
    shot("info", rig)
    rig.press("ok")
    rig.player.offline(2, "cable")
    shot("offline", rig)
    rig.player.back(2)
    rig.player.tap(0, ADMIN)
    shot("admin_menu", rig)
    rig.press("ok")
    shot("enroll", rig)
    rig.player.tap(1, "04AB000000000001")
    shot("enroll_next", rig)
    rig.press("undo")
    rig.press("menu")
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("reset")):
        rig.press("menu")
    rig.press("ok")
    shot("admin_reset", rig)
    rig.press("undo")
    rig.player.tap(0, ADMIN)
    for seat, code in PLAYS[4:]:
        rig.tap(seat, code)
    shot("result", rig)
    rig.press("menu")
    shot("end", rig)
    rig.close()

    rig = rig_for(language, size, match_length=1)
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand:
            rig.tap(seat, code)
    rig.tap(DEALER, "9b")
    for seat, code in PLAYS:
        rig.tap(seat, code)
    rig.press("ok")
    shot("over", rig)
    rig.close()

    # MENU in the second hand: the match so far, with the first hand's points
    rig = rig_for(language, size)
    rig.press("ok")
    for seat, hand in enumerate(HANDS):
        for code in hand:
            rig.tap(seat, code)
    rig.tap(DEALER, "9b")
    for seat, code in PLAYS:
        rig.tap(seat, code)
    rig.press("ok")
    rig.press("menu")
    shot("info_hands", rig)
    rig.close()

    rig = rig_for(language, size, knowledge="dealt")
    rig.press("ok")
    for i in range(6):
        rig.tap(DEALER, HANDS[i % 4][i // 4])
    shot("dealt", rig)
    rig.close()

    rig = rig_for(language, size, knowledge="open")
    rig.press("ok")
    rig.tap(DEALER, "9b")
    for seat, code in [(0, "Kb"), (1, "8a"), (2, "Oa"), (3, "9b"), (2, "8h"), (3, "Ah"),
                       (0, "Th"), (1, "Ab")]:
        rig.tap(seat, code)
    shot("revoke", rig)
    rig.close()

    rig = rig_for(language, size)
    rig.player.tap(0, ADMIN)
    kinds = [i.kind for i in rig.ctl.model.admin_items()]
    for _ in range(kinds.index("badges")):
        rig.press("menu")
    rig.press("ok")
    rig.player.tap(1, "B0000001")
    rig.player.tap(2, "B0000002")
    shot("badges", rig)
    rig.player.tap(0, ADMIN)
    rig.player.tap(1, "B0000001")
    shot("member_sits", rig)
    rig.player.tap(3, "B0000002")
    rig.player.pause(10)
    shot("ready_players", rig)
    rig.close()

    rig = rig_for(language, size, knowledge="open", game="test_steps")
    rig.press("ok")
    rig.press("menu")
    shot("choose", rig)
    rig.press("ok")
    shot("card", rig)
    rig.close()
    return shots


def lit(image):
    """The image as lit (255) and dark (0) pixels, whatever values it stores."""
    return image.convert("L").point(lambda p: 255 if p else 0)


def same(a, b):
    return a.size == b.size and ImageChops.difference(lit(a), lit(b)).getbbox() is None


SESSIONS = [(lang, (128, 64)) for lang in ("en", "ro", "hu")] + \
    [(lang, size) for size in ((128, 32), (128, 128)) for lang in ("en", "ro", "hu")]


@pytest.mark.parametrize("language, size", SESSIONS)
def test_every_screen_matches_its_golden_image(language, size, tmp_path):
    shots = frames_of_a_session(language, size)
    if size != (128, 64):
        shots = {k: v for k, v in shots.items() if k in SMALL_SET}
    suffix = "" if size == (128, 64) else f"_{size[0]}x{size[1]}"
    problems = []
    for name, image in sorted(shots.items()):
        path = GOLDEN / f"{name}_{language}{suffix}.png"
        assert image.mode == "1" and image.size == size
        if UPDATE:
            GOLDEN.mkdir(exist_ok=True)
            if not path.exists() or not same(Image.open(path), image):
                image.save(path)
                warnings.warn(f"golden image written: {path.name}", stacklevel=1)
            continue
        if not path.exists():
            problems.append(f"{path.name} is missing")
        elif not same(Image.open(path), image):
            problems.append(f"{path.name} differs")
        else:
            continue
        image.save(tmp_path / path.name)
    assert not problems, (
        f"{'; '.join(problems)}. The table's frames are in {tmp_path}. If the change is "
        "meant, run CARDTABLE_GOLDEN=update python -m pytest "
        "tests/table/test_screens_golden.py and commit the images.")


def test_the_screens_of_one_session_are_all_different():
    shots = frames_of_a_session("en", (128, 64))
    seen = {}
    for name, image in shots.items():
        key = image.tobytes()
        assert key not in seen, f"{name} looks exactly like {seen.get(key)}"
        seen[key] = name
