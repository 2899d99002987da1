"""The near player feels no wait: one's own card shows on the pile at once, pending.

The server holds a person's action for the farthest seat's lag credit (``race.Arbiter``), so
that the earliest press wins; the page shows the card on the pile the moment it is pressed
(a dashed outline and a "…" badge, its label says "not confirmed yet"), takes it out of the
hand, and lets the table's answer confirm it (no second fly-in) or send it back.

The delay is injected: the e2e server runs in this process, so the test gives the table's
bot seat a reach of 100 ms (``Arbiter.set_reach``), and every action of the person waits
that long. The bot itself never acts (its ``start_bots`` is a no-op), so the deal decides
what fits. The page measures press → card shown and press → answer (``js/timing.js``,
``window.zackzack.timing``).
"""

from __future__ import annotations

import concurrent.futures
import statistics
import time
from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import (
    create_by_message,
    dealt,
    frozen,
    person,
    phase,
    sl_fits,
    sl_state,
    us_fits,
    us_state,
    wait_for_js,
    wait_until,
)
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.server import room as room_module

pytestmark = pytest.mark.e2e

HOLD_MS = 250
"""How long the arbiter holds the person's actions: the bot seat's reach (the most it
credits a seat)."""
PLAYS = 12

# Every pending card put into the page and every one taken out, as the page saw it at once
# (a MutationObserver runs before the next frame): what marked it, and on its removal whether
# the pile's top card shows it without a second fly-in.
WATCH = """() => {
  window.pendingLog = [];
  const describe = (el) => {
    const holder = el.parentElement;
    const style = getComputedStyle(el);
    const gone = document.querySelector('.card.sent.pending');
    return {
      card: el.dataset.card, outline: style.outlineStyle,
      badge: el.querySelector('.pending-badge')?.textContent ?? null,
      label: holder?.closest('[aria-label]')?.getAttribute('aria-label') ?? '',
      ghost: gone ? gone.dataset.card : null,
      ghostHidden: gone
        ? getComputedStyle(gone.querySelector('svg')).visibility === 'hidden' : null,
    };
  };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const el of record.addedNodes) {
        if (el.classList?.contains('pending-card')) window.pendingLog.push({added: describe(el)});
      }
      for (const el of record.removedNodes) {
        if (!el.classList?.contains('pending-card')) continue;
        const top = record.target.querySelector(
          ':scope > .card.top, :scope > .card:not(.pending-card):not(.under)');
        // A fly-in is a script's animation (dom.js flyFrom); the pile's growing shadow is a
        // CSS transition, as for every card.
        window.pendingLog.push({removed: el.dataset.card, top: top?.dataset.card ?? null,
          flying: top
            ? top.getAnimations().filter(a => !(a instanceof CSSTransition)).length : null});
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def on_loop(room: Any, work: Callable[[], Any]) -> Any:
    """Run ``work`` on the server's event loop (the room's clock) and return its result."""
    done: concurrent.futures.Future[Any] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as error:  # handed to the test thread
            done.set_exception(error)

    room.clock.call_soon_threadsafe(run)
    return done.result(5)


@pytest.fixture()
def idle_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots sit at tables made meanwhile but never act: only the person's presses change the
    piles."""
    monkeypatch.setattr(room_module.Room, "start_bots", lambda self: None)


def table_with_a_bot(new_page: Any, server: Any, game: str) -> tuple[Any, Any]:
    """Anna at a table with one bot, started and playing; the room, its bot seat's reach set
    to ``HOLD_MS``."""
    anna = person(new_page, "Anna")
    anna.evaluate(WATCH)
    code = create_by_message(anna, {
        "type": "create", "game": game, "options": {},
        "seats": [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]})
    anna.locator("#start:not([disabled])").click()
    wait_until(lambda: phase(anna) == "playing", timeout=10)
    room = server.app.state.server.lobby.rooms[code]
    on_loop(room, lambda: room.arbiter.set_reach(1, HOLD_MS))
    assert on_loop(room, lambda: room.arbiter.reach) >= HOLD_MS
    return anna, room


def timings(page: Any) -> list[dict[str, Any]]:
    plays: list[dict[str, Any]] = page.evaluate(
        "() => window.zackzack.timing.plays.map(p => ({...p}))")
    return plays


def answered(page: Any, n: int) -> list[dict[str, Any]]:
    """Wait until the page has ``n`` presses answered (and shown); return them all."""
    def ready() -> list[dict[str, Any]] | None:
        plays = timings(page)
        if len(plays) >= n and all(p["decided_ms"] is not None and p["shown_ms"] is not None
                                   for p in plays[:n]):
            return plays
        return None
    result: list[dict[str, Any]] = wait_until(ready, timeout=20)
    return result


def pending_log(page: Any) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = page.evaluate("() => window.pendingLog")
    return log


def assert_fast_and_held(plays: list[dict[str, Any]]) -> tuple[float, float]:
    """Every own card shows before its answer, which the table holds ``HOLD_MS`` (the hold is
    real). How fast it shows is printed, not asserted: a busy machine is slower."""
    shown = statistics.median(p["shown_ms"] for p in plays)
    decided = statistics.median(p["decided_ms"] for p in plays)
    print(f"\n{len(plays)} plays: press → shown p50 {shown:.1f} ms "
          f"(max {max(p['shown_ms'] for p in plays):.1f}), press → answer p50 {decided:.1f} ms "
          f"(min {min(p['decided_ms'] for p in plays):.1f}, "
          f"max {max(p['decided_ms'] for p in plays):.1f})")
    assert decided >= HOLD_MS - 10, f"the table did not hold the actions: p50 {decided:.1f} ms"
    # Shown well before the answer, play by play (slack from what was measured).
    assert sum(p["shown_ms"] < p["decided_ms"] for p in plays) >= len(plays) - 1
    return shown, decided


def assert_marked_and_confirmed(log: list[dict[str, Any]], cards: list[str], lang: str) -> None:
    """Each pending card was marked (dashed, "…", in its holder's label), its own card gone
    from where it was, and was taken over by the table's top card with no animation."""
    added = [entry["added"] for entry in log if "added" in entry]
    removed = [entry for entry in log if "removed" in entry]
    assert [a["card"] for a in added] == cards, added
    words = "noch nicht bestätigt" if lang == "de" else "not confirmed yet"
    for entry in added:
        assert entry["outline"] == "dashed", entry
        assert entry["badge"] == "…", entry
        assert words in entry["label"], entry
        assert entry["ghost"] == entry["card"] and entry["ghostHidden"], entry
    assert [r["removed"] for r in removed] == cards
    for entry in removed:
        assert entry["top"] == entry["removed"], f"the pile does not show the card: {entry}"
        assert entry["flying"] == 0, f"the confirmed card flew in again: {entry}"


# Unter Spannung --------------------------------------------------------------------------------

CHAIN = ["6±1", "7±1", "8±1", "9±1", "10±1", "1±1", "2±1", "3±1", "4±1", "5±1", "6±1", "7±1"]
"""Anna's chain from 5±1: each card fits the one before (±1), round past 10."""


def us_deal() -> dict[str, Any]:
    """5±1 on the pile; Anna holds the chain, 3±3 (never fits 7±1: a wrong card) and 8±2
    (fits 7±1, but not the bot's 6±3, which allows 3 or 9)."""
    rest = [str(card) for card in us.Options(players=2).deck]

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    start = take("5±1")
    anna = take(*CHAIN, "3±3", "8±2")
    bot = take("6±3", "1±2", "2±3", "3±2")
    half = len(rest) // 2
    return {"hands": [anna, bot], "draw_piles": [rest[:half], rest[half:]],
            "discard_pile": start}


def us_key(page: Any, card: str) -> str:
    state = us_state(page)
    assert state is not None
    return str(next(c["key"] for c in state["hand"] if c["card"] == card and not c["sent"]))


def test_unter_spannung_the_own_card_shows_at_once_and_waits_for_the_table(
        new_page: Any, server: Any, shot: Any, monkeypatch: pytest.MonkeyPatch,
        idle_bots: None) -> None:
    with dealt(monkeypatch, us_deal()):
        anna, room = table_with_a_bot(new_page, server, "unter-spannung")
    wait_for_js(anna, "document.querySelector('.board.us .pile .card.top')?.dataset.card"
                      " === '5±1' && document.querySelectorAll('.board.us .hand .card')"
                      ".length === 14")
    time.sleep(0.3)
    anna.evaluate("() => window.zackzack.timing.reset()")

    for i, card in enumerate(CHAIN):
        top = (us_state(anna) or {})["top"]
        assert us_fits(card, top), (card, top)
        anna.keyboard.press(us_key(anna, card))
        if i == 0:  # the first: seen while it waits
            wait_for_js(anna, "document.querySelector('.board.us .pile .pending-card') !== null",
                        timeout=2)
            shot(anna, "pending_us", settle=False)
        plays = answered(anna, i + 1)
        assert plays[i]["ok"], plays[i]
        wait_until(lambda card=card: (us_state(anna) or {}).get("top") == card, timeout=10)
    plays = answered(anna, PLAYS)
    assert all(p["ok"] for p in plays)
    assert_fast_and_held(plays)
    assert_marked_and_confirmed(pending_log(anna), CHAIN, "de")
    assert anna.locator(".board.us .pending-card").count() == 0
    assert anna.locator(".board.us .hand .card.pending").count() == 0

    # A wrong card shows pending too, and comes back to the hand when the table says no.
    anna.keyboard.press(us_key(anna, "3±3"))
    anna.wait_for_selector(".tag.wrong", timeout=15000)
    wait_until(lambda: any(c["card"] == "3±3" and not c["sent"]
                           for c in (us_state(anna) or {"hand": []})["hand"]), timeout=10)
    assert (us_state(anna) or {})["top"] == "7±1"
    assert frozen(anna)
    assert timings(anna)[-1]["code"] == "does_not_fit"
    assert anna.locator(".board.us .pending-card").count() == 0
    assert anna.locator(".board.us .hand .card.pending").count() == 0
    wait_until(lambda: not frozen(anna), timeout=5)

    # Too late: the bot's 6±3, pressed before Anna's 8±2, is decided first while hers waits.
    # Its action reaches the arbiter 50 ms after her press with 250 ms of credit (and every
    # action of hers now waits 250 ms), so whichever arrives first, the bot's press is older.
    def bot_plays() -> None:
        room.arbiter.submit(1, us.Play(us.Card.parse("6±3")), 250, lambda outcome: None)

    on_loop(room, lambda: room.arbiter.set_reach(1, 250))
    key = us_key(anna, "8±2")
    room.clock.call_soon_threadsafe(lambda: room.clock.call_later(0.05, bot_plays))
    anna.keyboard.press(key)
    note = anna.wait_for_selector(".tag.late", timeout=15000).inner_text()
    assert "Zu spät" in note, note
    assert "schneller" in note, note
    wait_until(lambda: any(c["card"] == "8±2" and not c["sent"]
                           for c in (us_state(anna) or {"hand": []})["hand"]), timeout=10)
    assert (us_state(anna) or {})["top"] == "6±3"
    assert timings(anna)[-1]["code"] == "too_late"
    assert not frozen(anna)
    assert anna.locator(".board.us .pending-card").count() == 0
    # The refused cards were shown pending, and taken back without becoming the top.
    log = pending_log(anna)
    assert [e["added"]["card"] for e in log if "added" in e][-2:] == ["3±3", "8±2"]
    assert [e["removed"] for e in log if "removed" in e][-2:] == ["3±3", "8±2"]
    assert phase(anna) == "playing"


# Schnelllauf -------------------------------------------------------------------------------

def sl_deal() -> dict[str, Any]:
    """Pile 0 shows 2h, pile 1 Kc. Anna's places show 3d, 4d, 5d, 6d and an empty fifth;
    under the 3d lie 7d 8d 9d 10d Jd (7d comes up first), under the 6d a Ks: so 3d … Jd, one
    a press, each fits pile 0 only (pile 1 takes Q or A), and the Ks fits neither at the end.
    The bot's Qh always fits pile 1, so no stalemate flips the piles (the bot never acts)."""
    rest = [str(card) for card in sl.deck(3)] * 2

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    piles = [take("2h"), take("Kc")]
    anna = [take("Jd", "10d", "9d", "8d", "7d", "3d"), take("4d"), take("5d"), take("Ks", "6d"), []]
    bot = [take("Qh"), take("5s"), take("6c"), take("6s"), take("7c")]
    half = len(rest) // 2
    return {"layouts": [anna, bot], "reserves": [rest[:half], rest[half:]],
            "discard_piles": piles}


def test_schnelllauf_the_own_card_shows_at_once_on_its_pile_and_in_an_empty_place(
        new_page: Any, server: Any, shot: Any, monkeypatch: pytest.MonkeyPatch,
        idle_bots: None) -> None:
    with dealt(monkeypatch, sl_deal()):
        anna, _ = table_with_a_bot(new_page, server, "schnelllauf")
    wait_for_js(anna, "document.querySelector(\".board.sl .pile-zone[data-pile='0'] .card.top\")"
                      "?.dataset.card === '2h'")
    time.sleep(0.3)
    anna.evaluate("() => window.zackzack.timing.reset()")

    # A move into the empty place (M asks for the first empty one, 1 names the card): pending
    # there at once; the card under comes up when the table takes it.
    anna.keyboard.press("m")
    anna.keyboard.press("1")
    plays = answered(anna, 1)
    assert plays[0]["ok"] and plays[0]["action"] == "move", plays[0]
    wait_until(lambda: [p["card"] for p in (sl_state(anna) or {"mine": []})["mine"]]
               == ["7d", "4d", "5d", "6d", "3d"], timeout=10)

    # Then the cards onto pile 0, each by the key of its place: 3d (now in place 5), 4d, 5d,
    # 6d, then 7d … Jd as each comes up in place 1.
    order = [("5", "3d"), ("2", "4d"), ("3", "5d"), ("4", "6d"), ("1", "7d"), ("1", "8d"),
             ("1", "9d"), ("1", "10d"), ("1", "Jd")]
    cards: list[str] = []
    for key, card in order:
        state = sl_state(anna) or {}
        assert state["mine"][int(key) - 1]["card"] == card, (key, card, state["mine"])
        tops, stands = state["tops"], state["stands"]
        assert [sl_fits(card, tops[p], stands[p]) for p in (0, 1)] == [True, False], (card, tops)
        anna.keyboard.press(key)
        if not cards:
            wait_for_js(anna, "document.querySelector(\".board.sl .pile-zone[data-pile='0']"
                              " .pending-card\") !== null", timeout=2)
            shot(anna, "pending_sl", settle=False)
        cards.append(card)
        plays = answered(anna, 1 + len(cards))
        assert plays[-1]["ok"], plays[-1]
        wait_until(lambda card=card: (sl_state(anna) or {"tops": []})["tops"][0] == card,
                   timeout=3)
    plays = answered(anna, 1 + len(cards))
    assert_fast_and_held(plays)
    log = pending_log(anna)
    assert_marked_and_confirmed(log, ["3d", *cards], "de")  # the moved 3d first

    # A wrong card (asked for the pile: it fits neither) goes back to its place.
    state = sl_state(anna) or {}
    place = next(i for i, p in enumerate(state["mine"]) if p["card"]
                 and not any(sl_fits(p["card"], state["tops"][q], state["stands"][q])
                             for q in (0, 1)))
    wrong = state["mine"][place]["card"]
    anna.keyboard.press(str(place + 1))
    anna.keyboard.press("w")
    anna.wait_for_selector(".tag.wrong", timeout=15000)
    assert timings(anna)[-1]["code"] == "does_not_fit"
    wait_until(lambda: (sl_state(anna) or {"mine": [{}] * 5})["mine"][place]["card"] == wrong
               and anna.locator(".board.sl .card.pending, .board.sl .pending-card").count() == 0,
               timeout=3)
    assert frozen(anna)
    assert phase(anna) == "playing"
