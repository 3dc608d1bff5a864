"""The simulator window, driven with Textual's test pilot as a person uses
it: keys and mouse; the OLED panel shows the controller's frames; refusals
are readable with the legal cards marked; UNDO takes back your own card;
the setup screen, the rules, the hands so far and the hint."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text

from engine.cards import card
from engine.games import game_class
from hw_mocks.simulator.app import CardButton, SimApp, SimConfig
from hw_mocks.simulator.halfblock import frame_text
from hw_mocks.simulator.pace import Pace
from hw_mocks.simulator.suits import card_label, legend


class Wall:
    """A wall clock the test moves (the window's time)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def wait_for(pilot, predicate, limit: float = 30.0) -> None:
    waited = 0.0
    while not predicate():
        await pilot.pause(0.05)
        waited += 0.05
        if waited > limit:
            raise AssertionError("the simulator never got there")


def oled_text(app) -> str:
    return str(app.screen.query_one("#oled").render())


def shown(app, wid: str) -> str:
    return str(app.screen.query_one(wid).render())


async def click_card(pilot, app, c) -> None:
    """Click the button of card `c` in the person's hand."""
    for _ in range(40):
        buttons = [b for b in app.screen.query(CardButton) if b.card == c and b.is_attached]
        if buttons:
            await pilot.click(f"#{buttons[-1].id}")
            await pilot.pause(0.1)
            return
        await pilot.pause(0.05)
    raise AssertionError(f"no button for {c}")


async def to_my_play(pilot, app) -> None:
    """Wait for the person's turn to play a card, showing the dealer's cards
    (in the order received) with number keys on the way."""
    sim = app.sim
    while True:
        await wait_for(pilot, sim.is_human_turn)
        await pilot.pause(0.1)
        if sim.step().kind == "play":
            return
        await pilot.press(str(len(sim._hand().flow.shown) + 1))


def fast(**kw) -> SimConfig:
    kw.setdefault("game", "filicau")
    kw.setdefault("knowledge", "scan")
    kw.setdefault("humans", (0,))
    return SimConfig(pace=Pace.fast(), **kw)


def run(coro):
    return asyncio.run(coro)


def test_a_person_plays_with_the_mouse_and_a_refusal_teaches():
    async def scenario():
        app = SimApp(fast(seed=4), ask_setup=False)
        async with app.run_test(size=(180, 60)) as pilot:
            sim = app.sim
            refused = played = 0
            while played < 8:
                await wait_for(pilot, lambda: sim.is_human_turn()
                               or sim.state == "match_result")
                if sim.state == "match_result":
                    break
                await pilot.pause(0.1)  # let the window catch up with the table
                hand = sim.hand_of(0)
                if sim.step().kind == "show":
                    assert "order you received" in shown(app, "#prompt")
                    await click_card(pilot, app, hand[len(sim._hand().flow.shown)])
                    continue
                legal = set(sim._hand().flow.deal.legal_cards(0))
                illegal = [c for c in hand if c not in legal]
                if illegal and not refused:
                    buzzes = sim.buzz_count
                    await click_card(pilot, app, illegal[0])
                    assert sim.hand_of(0) == hand  # nothing changed
                    assert sim.buzz_count == buzzes + 1 and sim.seat_led(0) in (
                        "blink", "fast_blink")
                    assert oled_text(app) == frame_text(sim.frame)
                    # the whole refusal, readable, and the legal cards marked
                    await pilot.pause(0.1)
                    line = shown(app, "#refusal").replace("\n", " ")
                    text = sim.refusal.text
                    assert len(text) > 22 and " ".join(text.split()) in " ".join(line.split())
                    # the log keeps it whole too, wrapped at its width
                    log = app.screen.query_one("#log")
                    logged = " ".join(" ".join(strip.text.split()) for strip in log.lines)
                    assert " ".join(text.split()) in logged
                    assert max(len(strip.text.rstrip()) for strip in log.lines) <= \
                        log.scrollable_content_region.width
                    buttons = list(app.screen.query(CardButton))
                    assert {b.card for b in buttons if b.has_class("legal")} == legal
                    assert {b.card for b in buttons if b.has_class("not-legal")} == \
                        set(illegal)
                    refused += 1
                    continue
                before = frame_text(sim.frame)
                c = sorted(legal, key=lambda x: x.code)[0]
                await click_card(pilot, app, c)
                assert c not in sim.hand_of(0)
                assert frame_text(sim.frame) != before
                assert oled_text(app) == frame_text(sim.frame)
                assert not any(b.has_class("legal") for b in app.screen.query(CardButton))
                played += 1
            assert refused == 1, "the hand never offered an illegal card to try"
    run(scenario())


def test_undo_takes_back_my_card_after_the_bots_played_and_they_wait():
    async def scenario():
        wall = Wall()
        app = SimApp(SimConfig(game="filicau", knowledge="scan", humans=(0,), seed=2),
                     ask_setup=False, wall=wall)
        async with app.run_test(size=(160, 60)) as pilot:
            sim = app.sim

            async def let_time_pass(seconds: float) -> None:
                steps = int(round(seconds / 0.25))
                for _ in range(steps):
                    wall.now += 0.25
                    await pilot.pause(0.12)

            while not (sim.is_human_turn() and sim.step().kind == "play"):
                if sim.is_human_turn():
                    await pilot.press(str(len(sim._hand().flow.shown) + 1))
                await let_time_pass(0.5)
            hand = sim.hand_of(0)
            mine = sim.legal_now(0)[0]
            await pilot.press(str(hand.index(mine) + 1))
            n = len(sim._hand().actions)
            # a human pace: no bot card within half a second, one after about a second
            await let_time_pass(0.5)
            assert len(sim._hand().actions) == n
            await let_time_pass(2.0)
            assert len(sim._hand().actions) > n
            # UNDO takes back to before my card; the table asks, OK confirms
            await pilot.press("u")
            assert sim.state == "match_undo" and len(sim._hand().actions) == n
            assert "OK (o) = take it back" in shown(app, "#prompt")
            await pilot.click("#btn-ok")
            await pilot.pause(0.1)
            assert mine in sim.hand_of(0) and len(sim._hand().actions) == n - 1
            await let_time_pass(5.0)   # the bots never replay over it: it is my turn
            assert len(sim._hand().actions) == n - 1 and sim.is_human_turn()
            # the UNDO button on the screen does the same
            await pilot.press(str(sim.hand_of(0).index(mine) + 1))
            await pilot.click("#btn-undo")
            assert sim.state == "match_undo"
            await pilot.press("o")
            assert mine in sim.hand_of(0)
            # and a second UNDO at the table's question keeps the card
            await pilot.press(str(sim.hand_of(0).index(mine) + 1))
            await pilot.press("u")
            assert sim.state == "match_undo"
            await pilot.press("u")
            assert sim.state.startswith("match_hand") and mine not in sim.hand_of(0)
    run(scenario())


def test_the_setup_screen_has_a_picker_for_each_option_and_seat():
    async def scenario():
        app = SimApp(SimConfig(seed=5), ask_setup=True)
        async with app.run_test(size=(160, 60)) as pilot:
            await pilot.pause(0.3)
            assert app.title == "cardtable"
            screen = app.screen
            text = " ".join(str(w.render()) for w in screen.query("#options Label"))
            for spec in game_class("filicau").option_specs:
                assert spec.name in text and spec.doc.split()[0] in text
                assert screen.query_one(f"#opt-{spec.name}")
            assert "(default false)" in text or "(default no)" in text
            assert not screen.query("TextArea") and "JSON" not in text
            # another game, picked with the mouse and the keys: its own options and seats
            from engine.games import game_ids

            await pilot.click("#game")
            await pilot.pause(0.2)
            for _ in range(game_ids().index("sueca") - game_ids().index("filicau")):
                await pilot.press("down")
            await pilot.press("enter")
            await pilot.pause(0.4)
            assert screen.query_one("#game").value == "sueca"
            text = " ".join(str(w.render()) for w in screen.query("#options Label"))
            for spec in game_class("sueca").option_specs:
                assert spec.name in text
            assert screen.query_one("#opt-target").value == "4"
            # a bad number is refused clearly, nothing starts
            screen.query_one("#opt-target").value = "0"
            await pilot.click("#start")
            await pilot.pause(0.2)
            assert "target" in shown(app, "#problem") and app.sim is None
            screen.query_one("#opt-target").focus()   # as with TAB
            await pilot.pause(0.1)
            await pilot.press("end", "backspace", "backspace", "2")
            assert screen.query_one("#opt-target").value == "2"
            direction = game_class("sueca").option_specs[0]
            assert direction.name == "direction"
            screen.query_one("#opt-direction").value = 1
            screen.query_one("#knowledge").value = "dealt"
            screen.query_one("#language").value = "ro"
            screen.query_one("#all-bots").value = "random"
            await pilot.pause(0.1)
            screen.query_one("#seat-2").value = "easy"
            screen.query_one("#seat-0").value = "random"
            screen.query_one("#seat-1").value = "you"
            assert screen.query_one("#seed").value == "5"
            screen.query_one("#seed").focus()
            await pilot.pause(0.1)
            await pilot.press("end", "1")   # seed 51
            await pilot.click("#start")
            await pilot.pause(0.3)
            sim = app.sim
            assert sim is not None and sim.settings.game == "sueca"
            assert sim.settings.options["target"] == 2
            assert sim.settings.options["direction"] == "anticlockwise"
            assert sim.settings.knowledge == "dealt" and sim.settings.language == "ro"
            assert sim.humans == {1} and sim.bots == {0: "random", 2: "easy", 3: "random"}
            assert "cardtable" in app.screen.title
            assert sim.seed == 51 and "seed 51" in shown(app, "#status")
    run(scenario())


def test_the_setup_screen_deals_new_cards_unless_given_a_seed():
    async def scenario():
        app = SimApp(SimConfig(), ask_setup=True)
        async with app.run_test(size=(160, 60)) as pilot:
            await pilot.pause(0.3)
            assert app.screen.query_one("#seed").value == ""
            await pilot.click("#start")
            await pilot.pause(0.3)
            assert app.sim is not None and f"seed {app.sim.seed}" in shown(app, "#status")
    run(scenario())


def test_each_run_deals_a_new_hand_and_shows_its_seed():
    async def one(seed):
        app = SimApp(fast(seed=seed, humans=()), ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            await wait_for(pilot, lambda: app.sim.dealt is not None)
            app.screen.paused = True
            await pilot.pause(0.1)
            return app.sim.seed, app.sim.dealt.hands, shown(app, "#status")

    async def scenario():
        a = await one(None)
        b = await one(None)
        assert a[0] != b[0] and a[1] != b[1]
        assert f"seed {a[0]}" in a[2]
        again = await one(a[0])   # --seed repeats the deal
        assert again[1] == a[1]
    run(scenario())


def test_the_rules_and_the_hands_so_far_are_a_key_away():
    async def scenario():
        app = SimApp(fast(humans=(), options={"match_length": 2}, seed=3), ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause(0.3)
            help_text = app.screen.query_one("#help").source
            assert "Trumps" in help_text and "Points" in help_text
            assert "| option |" not in help_text and "match_length" in help_text
            await pilot.press("escape")
            await wait_for(pilot, lambda: len(app.sim.hands_played) >= 1, limit=60)
            await pilot.press("s")
            await pilot.pause(0.3)
            table = app.screen.query_one("#hands")
            assert table.row_count == len(app.sim.hands_played) >= 1
            row = table.get_row_at(0)
            assert row[0] == "1" and int(row[1]) + int(row[2]) == 8
            assert [str(c.label) for c in table.columns.values()][1:3] == ["1+3", "2+4"]
            await pilot.press("escape")
    run(scenario())


async def to_a_choice_of_cards(pilot, app) -> None:
    """The person's turn to play with more than one legal card."""
    while True:
        await to_my_play(pilot, app)
        legal = app.sim.legal_now(0)
        if len(legal) > 1:
            return
        await click_card(pilot, app, legal[0])


def test_the_hint_key_marks_a_legal_card():
    async def scenario():
        app = SimApp(fast(seed=2), ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            await to_a_choice_of_cards(pilot, app)
            app.screen.paused = True
            await pilot.press("h")
            await wait_for(pilot, lambda: app.screen.advice is not None, limit=60)
            await pilot.pause(0.1)
            advice = app.screen.advice
            assert advice.card in app.sim.legal_now(0) and advice.samples >= 1
            assert "Hint:" in shown(app, "#hint")
            hinted = [b.card for b in app.screen.query(CardButton) if b.has_class("hinted")]
            assert hinted == [advice.card]
            assert len(advice.averages) == len(app.sim.legal_now(0))
            # a card played: the hint is gone
            await click_card(pilot, app, advice.card)
            await pilot.pause(0.1)
            assert app.screen.advice is None and "Hint" not in shown(app, "#hint")
    run(scenario())


def test_the_window_stays_live_while_the_hint_thinks(monkeypatch):
    import threading

    import hw_mocks.simulator.app as app_module

    release = threading.Event()
    threads = []

    def slow_advise(*args, **kw):
        threads.append(threading.current_thread())
        release.wait(30)
        return None

    monkeypatch.setattr(app_module, "advise", slow_advise)

    async def scenario():
        app = SimApp(fast(seed=2), ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            await to_my_play(pilot, app)
            await pilot.press("h")
            await wait_for(pilot, lambda: bool(threads))
            assert "Thinking" in shown(app, "#hint")
            await pilot.press("space")   # the window answers keys meanwhile
            assert app.screen.paused and "PAUSED" in shown(app, "#status")
            assert threads[0] is not threading.main_thread()
            release.set()
            await wait_for(pilot, lambda: "No hint here" in shown(app, "#hint"))
    run(scenario())


def test_the_prompt_line_names_the_buttons_at_a_choice():
    async def scenario():
        app = SimApp(fast(game="filcau20", humans=(0, 1, 2, 3), knowledge="open", seed=3),
                     ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            await wait_for(pilot, lambda: app.sim.step() is not None
                           and app.sim.step().kind == "choose")
            await pilot.pause(0.2)
            line = shown(app, "#prompt")
            assert "MENU (m) = next choice" in line and "OK (o) = take “Cut”" in line
            await pilot.press("m")
            await pilot.pause(0.1)
            assert "OK (o) = take “Knock”" in shown(app, "#prompt")
    run(scenario())


def test_a_demo_in_the_window_plays_by_itself():
    async def scenario():
        app = SimApp(fast(humans=(), knowledge="open", seed=3), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
            sim = app.sim
            await wait_for(pilot, lambda: sim.state == "match_over", limit=90)
            await pilot.pause(0.2)
            assert oled_text(app) == frame_text(sim.frame)
    run(scenario())


def test_pace_keys_change_the_bots_pace():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", humans=(), seed=3), ask_setup=False)
        async with app.run_test(size=(160, 60)) as pilot:
            assert app.sim.pace == Pace.human()
            await pilot.press("minus")
            assert app.sim.pace == Pace(2.0, 5.0)
            await pilot.press("plus")
            await pilot.press("plus")
            assert app.sim.pace == Pace(0.5, 1.25)
    run(scenario())


def test_a_small_terminal_draws_the_oled_with_quadrant_cells():
    async def scenario():
        app = SimApp(fast(humans=(), seed=3), ask_setup=False)
        async with app.run_test(size=(110, 40)) as pilot:
            sim = app.sim
            await wait_for(pilot, lambda: sim.frame is not None and sim.state != "ready")
            await pilot.pause(0.2)
            app.screen.paused = True
            await pilot.pause(0.2)
            assert app.screen.cell == "quad"
            assert oled_text(app) == frame_text(sim.frame, "quad")
    run(scenario())


@pytest.mark.parametrize("code,family,text,colour", [
    ("Th", "german", "10h", "red1"), ("Oa", "german", "Oa", "tan"),
    ("Ul", "german", "Ul", "green3"), ("9b", "german", "9b", "yellow1"),
    ("Qs", "french", "Q♠", "grey85"), ("Th", "french", "10♥", "red1"),
])
def test_card_labels(code, family, text, colour):
    label = card_label(card(code), family)
    assert isinstance(label, Text) and label.plain == text
    assert colour in str(label.spans[-1].style)


def test_the_legend_names_each_suit_in_the_tables_language():
    text = legend(("a", "l", "h", "b"), "german", "ro").plain
    for part in ("a acorns (ghindă, Eichel)", "l leaves (verde, Laub)",
                 "h hearts (roșu, Herz)", "b bells (dubă, Schellen)"):
        assert part in text
    assert "♣ clubs (treff)" in legend(("c", "d", "h", "s"), "french", "hu").plain
