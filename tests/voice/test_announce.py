"""What the table says during a hand: the trump, each card, refusals with
their rule, the tricks, the score; in the players' language."""

from __future__ import annotations

import random

import pytest

from engine.messages import LANGS
from hw_mocks.rig import Rig
from hw_mocks.voice import RecordingSpeaker
from table.settings import TableSettings
from table.voice.announce import attach
from table.voice.words import card_words, glyphs, suit_words


def hand_with_voice(lang: str, *, voice_lang: str | None = None, cards: bool = True,
                    refuse_once: bool = False, seed: int = 1
                    ) -> tuple[RecordingSpeaker, Rig, list[str]]:
    rig = Rig(TableSettings(game="filicau", knowledge="scan", language=lang))  # type: ignore[arg-type]
    speaker = RecordingSpeaker()
    attach(rig.ctl, speaker, language=voice_lang, cards=cards)
    rig.press("ok")
    bot = rig.bot(random.Random(seed))
    rig.learn_hands(bot)
    refused: list[str] = []

    def maybe_refuse(_move: object) -> None:
        if refused or not refuse_once:
            return
        hand = rig.session.hand()
        step = hand.step()
        deal = hand.flow.deal
        if step is None or step.kind != "play" or deal is None:
            return
        legal = set(deal.legal_cards(step.seat))
        wrong = [(c, uid) for c, uid in bot.holding[step.seat] if c not in legal]
        if wrong:
            c, uid = wrong[0]
            refused.append(c.code)
            rig.player.tap(step.seat, uid)

    rig.play_hand(bot, learn=False, after_move=maybe_refuse)
    return speaker, rig, refused


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_hand_is_said_in_the_tables_language(lang):
    speaker, rig, _ = hand_with_voice(lang)
    try:
        hand = rig.session.hand()
        deal = hand.flow.deal
        played = speaker.texts("played")
        assert len(played) == 32
        # every card of every trick, as words, in the order played
        first = deal.tricks[0]
        assert card_words(first.cards[0].code, "german", lang) in played[0]
        (trump,) = speaker.texts("trump")
        assert suit_words(hand.flow.trump, "german", lang) in trump
        assert speaker.heard[[u.kind for u in speaker.heard].index("trump")].urgent
        assert len(speaker.texts("trick")) == 8
        (result,) = speaker.texts("hand")
        for points in deal.team_points():
            assert str(points) in result
        assert rig.state == "match_result"
        for u in speaker.heard:
            assert u.lang == lang and not glyphs(u.text), u
    finally:
        rig.close()


def test_english_words_of_a_hand():
    speaker, rig, _ = hand_with_voice("en")
    try:
        texts = speaker.texts()
        assert texts[0] == "No match is running: press OK to start one."
        assert texts[2] == "Each player taps their cards on their own reader"
        assert any(t.startswith("Trumps are ") for t in texts)
        assert texts[-1] == "Press OK for the next hand."
        assert texts[-3].startswith("Hand 1 is over. Seats 1 and 3: ")
        tricks = speaker.texts("trick")
        assert all(t.endswith((" points.", " 1 point.")) for t in tricks)
    finally:
        rig.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_card_is_said_at_once_with_its_rule(lang):
    speaker, rig, refused = hand_with_voice(lang, refuse_once=True)
    try:
        assert refused, "the deal gave no chance to play a wrong card"
        (said,) = [u for u in speaker.heard if u.kind == "refused"]
        assert said.urgent and said.lang == lang
        notice = next(n for n in rig.ctl.notices if n.kind == "refused")
        assert notice.data["reason"] in ("must_follow", "must_trump", "must_beat")
        # the rule in words: the suit to follow or the trump, never a sign
        if notice.data["reason"] != "must_beat":
            suit = notice.data["params"]["suit"]
            assert suit_words(suit, "german", lang) in said.text
        assert not glyphs(said.text)
    finally:
        rig.close()


def test_the_voice_may_speak_another_language_than_the_screen():
    speaker, rig, _ = hand_with_voice("en", voice_lang="hu")
    try:
        assert all(u.lang == "hu" for u in speaker.heard)
        assert any(t.startswith("Az adu ") for t in speaker.texts("trump"))
        assert rig.ctl.view is not None
    finally:
        rig.close()


def test_without_cards_only_the_trump_tricks_and_score_are_said():
    speaker, rig, _ = hand_with_voice("en", cards=False)
    try:
        kinds = {u.kind for u in speaker.heard}
        assert "played" not in kinds and "trick" in kinds and "trump" in kinds
        assert not any(t.endswith("to play") for t in speaker.texts())
    finally:
        rig.close()


def test_a_sentence_that_cannot_be_made_never_stops_the_table(caplog):
    rig = Rig(TableSettings(game="filicau", knowledge="scan"))
    speaker = RecordingSpeaker()
    hook = attach(rig.ctl, speaker)
    try:
        from table.controller.model import Notice

        hook.on_notice(Notice("refused", "?", {"reason": "no_such_code", "params": {}}))
        assert "voice: nothing said" in caplog.text
        rig.press("ok")
        assert rig.state.startswith("match")
    finally:
        rig.close()


def test_a_reader_that_stops_answering_is_said():
    rig = Rig(TableSettings(game="filicau", knowledge="scan", language="ro"))
    speaker = RecordingSpeaker()
    attach(rig.ctl, speaker)
    try:
        rig.press("ok")
        rig.player.offline(2, "cable")
        said = [u for u in speaker.heard if u.kind == "reader"]
        assert [u.text for u in said] == ["Cititorul locului 3 nu răspunde."]
        assert said[0].urgent
    finally:
        rig.close()
