"""Steps with choices are explained where the players look: the OLED's
prompt line names the buttons and what each does."""

from __future__ import annotations

import pytest

from hw_mocks.rig import Rig
from table.screens.view import ChoiceView, TextView
from table.settings import TableSettings

HINTS = {
    "en": ("MENU next · OK choose", "MENU next · OK: Pass", "MENU next · OK: Deal the rest"),
    "ro": ("MENU următor · OK alege", "MENU alta · OK: Trec", "MENU alta · OK: Împarte restul"),
    "hu": ("MENU következő · OK választ", "MENU másik · OK: Passz",
           "MENU másik · OK: Oszd ki a többit"),
}


@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_a_step_that_takes_a_card_or_a_choice_names_both_buttons(language):
    rig = Rig(TableSettings(game="filcau20", knowledge="open", language=language), None,
              seats=4, seed_source=lambda: 1)
    rig.press("ok")
    choose, fris, fris_other = HINTS[language]
    assert isinstance(rig.view, ChoiceView) and rig.view.hint == choose    # cut or knock
    rig.press("ok")
    # the fris: put down an Over (a card on the reader), or one of two choices by button
    assert isinstance(rig.view, TextView) and rig.view.hint == fris
    rig.press("menu")
    assert rig.view.hint == fris_other
    rig.close()
