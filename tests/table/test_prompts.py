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


HELP = {
    "en": ("Cut: 3 cards, then fris", "Knock: 5 cards at once", "Pass: no fris",
           "Deal: 2 more cards each"),
    "ro": ("Tai: 3 cărți, apoi fris", "Bați: 5 cărți deodată", "Treci: fără fris",
           "Împarte: încă 2 cărți"),
    "hu": ("Emel: 3 lap, majd fris", "Kopog: 5 lap egyszerre", "Passz: nincs fris",
           "Oszd: még 2 lap"),
}


@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_the_screen_says_what_the_highlighted_choice_does(language):
    rig = Rig(TableSettings(game="filcau20", knowledge="open", language=language), None,
              seats=4, seed_source=lambda: 1)
    rig.press("ok")
    cut, knock, fris_pass, fris_deal = HELP[language]
    assert rig.view.help == cut
    rig.press("menu")                               # the cursor moves to Knock
    assert rig.view.help == knock
    rig.press("menu")
    rig.press("ok")                                 # cut: three cards, then the fris
    assert fris_pass in rig.view.lines
    rig.press("menu")
    assert fris_deal in rig.view.lines
    rig.close()


def test_every_choices_help_fits_one_line_of_the_small_screen():
    from engine.messages import LANGS
    from engine.registry import all_messages
    from table.screens.render import Canvas

    canvas = Canvas((128, 64))
    helps = [code for code in all_messages() if code.endswith(".help")]
    assert len(helps) >= 10
    for code in helps:
        label = code[: -len(".help")]
        assert label in all_messages(), f"{code} explains no choice"
        for lang in LANGS:
            text = all_messages().render(code, lang)
            assert canvas.text_width(text) <= 126, (code, lang, text)
