"""Choosing the game, its options, how hands are known and the language with
MENU and OK: the choice is journaled, survives a power cut, and the next
match is played that way; UNDO leaves the setup without changing anything."""

from __future__ import annotations

from engine.games import game_class, game_ids
from hw_mocks.rig import Rig
from table.settings import TableSettings


def test_menu_chooses_the_next_match_and_the_table_remembers_it():
    rig = Rig(TableSettings(game="filicau", knowledge="open", language="en"), None, seats=6)
    other = game_ids()[1]                      # the game after Filicău in the menu
    rig.press("menu")
    assert rig.view.title == "Game" and rig.view.items[rig.view.cursor] == "Filicău"
    rig.press("menu")
    assert rig.view.items[rig.view.cursor] == game_class(other).title
    rig.press("ok")
    for _ in game_class(other).option_specs:   # keep every option's default
        rig.press("ok")
    assert rig.state == "setup_knowledge"
    assert rig.view.items[rig.view.cursor] == "open play"
    rig.press("menu")                          # open -> hands scanned
    rig.press("ok")
    rig.press("menu")                          # English -> Română
    assert rig.view.title == "Limba"           # the language screen already speaks it
    rig.press("ok")
    assert rig.state == "ready"
    assert rig.view.header.title == game_class(other).title
    assert rig.view.lines == ("Cărțile: cărți scanate",)
    assert [e.kind for e in rig.ctl.journal.entries()] == ["select"]
    rig = rig.restart()
    assert rig.view.lines == ("Cărțile: cărți scanate",)
    rig.press("ok")
    match = rig.session.match
    assert match.game.id == other and match.selection.knowledge == "scan"
    assert rig.state == "match_deal_scan"
    rig.close()


def test_undo_leaves_the_setup_unchanged():
    rig = Rig(TableSettings(game="filicau"), None, seats=4)
    rig.press("menu")
    rig.press("menu")
    rig.press("undo")
    assert rig.state == "ready" and rig.session.selection.game == "filicau"
    assert rig.ctl.journal.count() == 0
    rig.close()


def test_an_option_is_chosen_from_its_values():
    rig = Rig(TableSettings(game="filicau"), None, seats=4)
    rig.press("menu")
    rig.press("ok")                            # Filicău: its first option
    assert rig.view.title == "early stop when decided"
    assert rig.view.items == ("off", "on")
    rig.press("menu")
    rig.press("ok")
    assert rig.view.title == "match length"
    assert rig.view.items[rig.view.cursor] == "0"
    rig.press("menu")
    rig.press("menu")
    rig.press("ok")
    rig.press("ok")
    rig.press("ok")
    assert rig.session.selection.options == {"early_stop_when_decided": True, "match_length": 2}
    assert rig.view.lines[1] == "early stop when decided on, match length 2"
    rig.close()
