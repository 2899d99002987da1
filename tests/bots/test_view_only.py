"""A bot sees only its view: scramble every card it may not see before each of its decisions,
and it plays exactly the same game, action for action, millisecond for millisecond."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from zackzack.bots import Bot
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import Phase, Table
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import plain


def hidden_us(state: us.State, seat: int) -> list[list[Any]]:
    """The piles (or parts) whose cards ``seat`` may not see, in Unter Spannung."""
    others = [hand for s, hand in enumerate(state.hands) if s != seat]
    return [*others, *state.draw_piles, state.discard_pile[:-1]]


def hidden_sl(state: sl.State, seat: int) -> list[list[Any]]:
    """Face-down layout cards, the reserves and the discard piles under their tops."""
    under = [place[:-1] for places in state.layouts for place in places]
    return [*under, *state.reserves, *(pile[:-1] for pile in state.discard_piles)]


def scramble(state: Any, seat: int, rng: random.Random) -> Callable[[], None]:
    """Shuffle every hidden card of ``state`` among the hidden places; returns the undo."""
    if isinstance(state, us.State):
        zones: list[list[Any]] = [*(h for s, h in enumerate(state.hands) if s != seat),
                                  *state.draw_piles, state.discard_pile]
        sizes = [len(z) for z in zones[:-1]] + [len(state.discard_pile) - 1]
    else:
        zones = [*(place for places in state.layouts for place in places), *state.reserves,
                 *state.discard_piles]
        places = 2 * sl.PLACES
        sizes = [max(0, len(z) - 1) for z in zones[:places]] + \
            [len(z) for z in zones[places:places + 2]] + \
            [max(0, len(z) - 1) for z in zones[places + 2:]]
    saved = [list(zone) for zone in zones]
    cards = [card for zone, size in zip(zones, sizes, strict=True) for card in zone[:size]]
    rng.shuffle(cards)
    for zone, size in zip(zones, sizes, strict=True):
        zone[:size], cards = cards[:size], cards[size:]

    def undo() -> None:
        for zone, original in zip(zones, saved, strict=True):
            zone[:] = original

    return undo


def play(rules: Any, options: Any, seed: int, names: list[str]) -> list[tuple[int, int, Any]]:
    """Every action the bots sent in a whole match: time, seat, action."""
    clock = VirtualClock()
    table = Table(rules, options, clock=clock, seed=seed)
    rng = random.Random(seed)
    for seat, name in enumerate(names):
        Bot(table, seat, name, rng)
    table.start()
    clock.run(until=6 * 3600, stop=lambda: table.phase is Phase.OVER)
    assert table.match.result is not None
    return [(e.t, e.seat, plain(e.action)) for e in table.log]


@pytest.mark.parametrize(("rules", "options", "names"), [
    (us, us.Options(players=4, tournament=True), ["pro", "normal:random", "beginner", "machine"]),
    (sl, sl.Options(), ["pro", "normal:random"]),
    (sl, sl.Options(pile_size=(4, 3), one_hand_seats=(True, False)), ["normal", "beginner"]),
    (us, us.Options(players=3, tournament=True), ["normal:learned", "pro:learned", "normal"]),
    (sl, sl.Options(), ["pro:learned", "normal"]),
])
def test_scrambled_hidden_cards_change_nothing(monkeypatch: pytest.MonkeyPatch, rules: Any,
                                               options: Any, names: list[str]) -> None:
    plain = play(rules, options, 21, names)
    meddler = random.Random(99)
    calls = [0]
    for name in ("_decide", "_start"):
        original = getattr(Bot, name)

        def wrapped(bot: Bot, original: Callable[[Bot], None] = original) -> None:
            undo = scramble(bot.table.state, bot.seat, meddler)
            calls[0] += 1
            try:
                original(bot)
            finally:
                undo()

        monkeypatch.setattr(Bot, name, wrapped)
    assert play(rules, options, 21, names) == plain
    assert calls[0] > 100


def test_scrambling_changes_what_a_seat_may_not_see_and_nothing_else() -> None:
    state = us.deal(us.Options(players=3), random.Random(4))
    before_view, before_cards = us.view(state, 1), us.cards(state)
    hidden_before = [list(zone) for zone in hidden_us(state, 1)]
    undo = scramble(state, 1, random.Random(5))
    assert us.view(state, 1) == before_view and us.cards(state) == before_cards
    assert [list(zone) for zone in hidden_us(state, 1)] != hidden_before
    undo()
    assert [list(zone) for zone in hidden_us(state, 1)] == hidden_before
    table_state = sl.deal(sl.Options(), random.Random(4))
    before_sl = sl.view(table_state, 0)
    hidden_sl_before = [list(zone) for zone in hidden_sl(table_state, 0)]
    undo = scramble(table_state, 0, random.Random(5))
    assert sl.view(table_state, 0) == before_sl
    assert [list(zone) for zone in hidden_sl(table_state, 0)] != hidden_sl_before
