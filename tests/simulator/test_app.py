"""The simulator window, driven with Textual's test pilot: a person clicks
cards, the OLED panel changes; a refused card shows the error."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text

from engine.cards import card
from hw_mocks.simulator.app import CardButton, SimApp, SimConfig, card_label
from hw_mocks.simulator.halfblock import frame_text


async def wait_for(pilot, predicate, limit: float = 20.0) -> None:
    waited = 0.0
    while not predicate():
        await pilot.pause(0.05)
        waited += 0.05
        if waited > limit:
            raise AssertionError("the simulator never got there")


def oled_text(app) -> str:
    return str(app.screen.query_one("#oled").render())


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


def run(coro):
    return asyncio.run(coro)


def test_a_person_plays_a_hand_with_the_mouse_and_sees_refusals():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", knowledge="scan", humans=(0,), pace=0.05,
                               seed=4), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
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
                    # the dealer shows his cards in the order received, until trumps
                    shown = len(sim._hand().flow.shown)
                    await click_card(pilot, app, hand[shown])
                    continue
                deal = sim._hand().flow.deal
                legal = set(deal.legal_cards(0))
                illegal = [c for c in hand if c not in legal]
                if illegal and not refused:
                    before_log = len(sim.log)
                    buzzes = sim.buzz_count
                    await click_card(pilot, app, illegal[0])
                    assert sim.hand_of(0) == hand  # nothing changed
                    errors = [line for line in sim.log[before_log:] if line.kind == "error"]
                    assert errors and "Seat 1" in errors[0].text
                    assert sim.buzz_count == buzzes + 1 and sim.buzzer == "error"
                    assert sim.seat_led(0) in ("blink", "fast_blink")
                    # the OLED panel shows the error screen the controller drew
                    assert oled_text(app) == frame_text(sim.frame)
                    refused += 1
                    continue
                before = frame_text(sim.frame)
                c = sorted(legal, key=lambda x: x.code)[0]
                await click_card(pilot, app, c)
                assert c not in sim.hand_of(0)
                assert frame_text(sim.frame) != before
                assert oled_text(app) == frame_text(sim.frame)
                played += 1
            assert played == 8 or sim.state == "match_result"
            assert refused == 1, "the hand never offered an illegal card to try"
    run(scenario())


def test_keys_play_cards_and_press_buttons():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", knowledge="scan", humans=(0,), pace=0.05,
                               seed=2), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
            sim = app.sim
            while True:
                await wait_for(pilot, sim.is_human_turn)
                await pilot.pause(0.1)
                if sim.step().kind == "play":
                    break
                # seat 1 deals: show the cards in the order received, by number key
                await pilot.press(str(len(sim._hand().flow.shown) + 1))
            app.screen.paused = True  # the bots wait: UNDO must take back our card
            deal = sim._hand().flow.deal
            hand = sim.hand_of(0)
            legal = list(deal.legal_cards(0))
            await pilot.press(str(hand.index(legal[0]) + 1))
            await pilot.pause(0.1)
            assert len(sim.hand_of(0)) == 7
            # UNDO asks to confirm; OK takes the card back into the hand
            await pilot.press("u")
            assert sim.state == "match_undo"
            await pilot.press("o")
            await pilot.pause(0.1)
            assert len(sim.hand_of(0)) == 8
            # the same with the buttons on the screen
            now = sim.hand_of(0)
            await pilot.press(str(now.index(legal[0]) + 1))
            await pilot.pause(0.1)
            assert len(sim.hand_of(0)) == 7
            await pilot.click("#btn-undo")
            assert sim.state == "match_undo"
            await pilot.click("#btn-ok")
            await pilot.pause(0.1)
            assert len(sim.hand_of(0)) == 8
    run(scenario())


def test_the_setup_screen_refuses_a_bad_option_and_starts_the_chosen_game():
    async def scenario():
        app = SimApp(SimConfig(), ask_setup=True)
        async with app.run_test(size=(200, 60)) as pilot:
            await pilot.pause(0.2)
            app.screen.query_one("#options").value = '{"no_such_option": 1}'
            await pilot.click("#start")
            await pilot.pause(0.1)
            assert "no_such_option" in str(app.screen.query_one("#problem").render())
            assert app.sim is None
            app.screen.query_one("#options").value = '{"match_length": 2}'
            app.screen.query_one("#knowledge").value = "dealt"
            app.screen.query_one("#language").value = "ro"
            await pilot.click("#start")
            await pilot.pause(0.3)
            assert app.sim is not None
            assert app.sim.settings.knowledge == "dealt"
            assert app.sim.settings.language == "ro"
            assert app.sim.settings.options == {"match_length": 2}
    run(scenario())


def test_a_demo_in_the_window_plays_by_itself():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", humans=(), pace=0.05, seed=3), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
            sim = app.sim
            await wait_for(pilot, lambda: sim.state == "match_over", limit=60)
            await pilot.pause(0.2)
            assert oled_text(app) == frame_text(sim.frame)
    run(scenario())


def test_pace_keys_change_the_pace_without_adding_timers():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", humans=(), pace=0.4, seed=3), ask_setup=False)
        async with app.run_test(size=(200, 60)) as pilot:
            screen = app.screen
            timers = [screen._timer]
            for key, pace in [("minus", 0.8), ("minus", 1.6), ("plus", 0.8)]:
                await pilot.press(key)
                assert screen.config.pace == pytest.approx(pace)
                timers.append(screen._timer)
            # every earlier move timer was stopped: one pace at a time
            assert len(set(map(id, timers))) == 4
            assert all(t._task is None for t in timers[:-1])
            assert timers[-1]._task is not None
    run(scenario())


def test_a_small_terminal_draws_the_oled_with_quadrant_cells():
    async def scenario():
        app = SimApp(SimConfig(game="filicau", humans=(), pace=0.05, seed=3), ask_setup=False)
        async with app.run_test(size=(110, 40)) as pilot:
            sim = app.sim
            await wait_for(pilot, lambda: sim.frame is not None and sim.state != "ready")
            await pilot.pause(0.2)
            app.screen.paused = True
            await pilot.pause(0.2)
            assert app.screen.cell == "quad"
            assert oled_text(app) == frame_text(sim.frame, "quad")
    run(scenario())


@pytest.mark.parametrize("code,text", [("Th", "10♥"), ("Oa", "O♣"), ("Qs", "Q♠")])
def test_card_labels(code, text):
    assert isinstance(card_label(card(code)), Text)
    assert card_label(card(code)).plain == text
