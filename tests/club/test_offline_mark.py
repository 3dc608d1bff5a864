"""The table's small offline mark (⊘ in the top right corner) while the
club cannot be reached: a golden image of the OLED, and the mark gone again
when the club is back (the frame is then the same as a table without a club).

Regenerate after a deliberate change with

    CARDTABLE_GOLDEN=update python -m pytest tests/club/test_offline_mark.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from PIL import Image, ImageChops

from hw_mocks.rig import Rig
from table.settings import TableSettings

GOLDEN = Path(__file__).parent / "golden"


def test_the_offline_mark_on_the_play_screen(tmp_path):
    rig = Rig(TableSettings(game="filicau", knowledge="open"), seed=2)
    try:
        rig.press("ok")
        bot = rig.bot(random.Random(3))
        bot.new_hand(rig.session.match.hand.state, "open")
        for _ in range(6):
            rig.do(bot.next_move())
        plain = rig.display.image.copy()
        rig.ctl.model.club_offline = True
        rig.ctl.post_refresh()
        rig.ctl.pump()
        marked = rig.display.image.copy()
        rig.ctl.model.club_offline = False
        rig.ctl.post_refresh()
        rig.ctl.pump()
        assert ImageChops.difference(rig.display.image.convert("L"),
                                     plain.convert("L")).getbbox() is None
    finally:
        rig.close()
    box = ImageChops.difference(marked.convert("L"), plain.convert("L")).getbbox()
    assert box is not None and box[1] < 12, "the mark is on the top line, nowhere else"
    path = GOLDEN / "offline_play_en.png"
    if os.environ.get("CARDTABLE_GOLDEN") == "update":
        GOLDEN.mkdir(exist_ok=True)
        marked.save(path)
        return
    want = Image.open(path)
    if ImageChops.difference(want.convert("L"), marked.convert("L")).getbbox() is not None:
        marked.save(tmp_path / path.name)
        raise AssertionError(f"{path.name} differs; the frame is in {tmp_path}")
