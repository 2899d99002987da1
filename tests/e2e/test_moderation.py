"""Moderation in the browser: an operator reviews a flagged player on /moderation (the
reaction times drawn against the human floor, the statistics beside the human bounds), marks
them by keyboard, and the leaderboard no longer lists them; a player reports another from the
after-match panel, and the report shows in the operator's queue.

The server has a database of its own, made beforehand: a claimed player "Bot3000" with rated
matches (on the leaderboard) and a timing flag from the detector's reading of a scripted
series, a rival, and the operator Olga (made one as ``zackzack moderation grant`` does).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from e2e.conftest import LiveServer
from e2e.kit import create_by_message, dealt, person, phase, start_two, us_state, wait_until
from store.kit import play
from zackzack import moderation
from zackzack.games import unter_spannung as us
from zackzack.moderation.fairplay import Reaction, assess
from zackzack.server.identity import new_token, token_hash
from zackzack.store import PlayerRecord, Store, database_url

pytestmark = pytest.mark.e2e

GAME = "unter-spannung"
BOT, FOE, OLGA = "p_bot3000", "p_foe", "p_olga"


@pytest.fixture(scope="module")
def moderated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    """The server and the operator's token."""
    db = tmp_path_factory.mktemp("moderation") / "zackzack.db"
    store = Store(database_url(str(db)))
    token = new_token(OLGA)
    try:
        for player_id, name, secret in ((BOT, "Bot3000", "h-bot"), (FOE, "Foe", "h-foe"),
                                        (OLGA, "Olga", token_hash(token))):
            store.add_player(PlayerRecord(player_id, name), secret)
            store.claim(player_id, name, name.lower(), "hash")
        for n in range(6):
            play(store, f"m{n}", GAME, [BOT, FOE], [1, 2])
        rng = random.Random(3)
        evidence = assess([Reaction(190 + rng.randrange(-3, 4), 2 + i % 4, 1 + i % 3, False)
                           for i in range(200)])
        assert evidence.flagged
        moderation._flag(store, BOT, GAME, "timing", evidence.score, evidence.to_json())
        moderation.grant(store, OLGA, "operator", actor="cli:test", reason="runs the server")
    finally:
        store.close()
    live = LiveServer(db)
    live.start()
    yield live, token
    live.stop()


@pytest.fixture
def on_server(browser: Any, moderated: tuple[LiveServer, str]) -> Iterator[Any]:
    """``on_server(locale=...)``: a fresh browser context on the moderated server."""
    contexts: list[Any] = []

    def make(locale: str = "de-DE", width: int = 1280, height: int = 800) -> Any:
        context = browser.new_context(base_url=moderated[0].url, locale=locale,
                                      viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda error: page.js_errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not page.js_errors, f"JavaScript errors: {page.js_errors}"
        context.close()


def operator(on_server: Any, token: str, locale: str = "en-GB") -> Any:
    """Olga's browser (her token as if she had signed in) on /moderation."""
    page = on_server(locale=locale)
    page.add_init_script(f"localStorage.setItem('zz.token', {json.dumps(token)});"
                         "localStorage.setItem('zz.name', 'Olga');")
    page.goto("/moderation")
    page.wait_for_selector(".moderation-queue")
    return page


def board(page: Any) -> list[str]:
    page.goto(f"/leaderboard/{GAME}")
    page.wait_for_selector(".board-table tbody tr, #board-empty")
    return list(page.locator(".board-table tbody th.who").all_inner_texts())


def test_an_operator_reviews_a_flag_and_marks_the_player_off_the_leaderboard(
        on_server: Any, moderated: tuple[LiveServer, str], shot: Any) -> None:
    stranger = on_server()
    stranger.goto("/moderation")
    stranger.wait_for_selector("#moderation-refused")
    assert "Betreiber" in stranger.inner_text("#moderation-refused")

    olga = operator(on_server, moderated[1])
    assert sorted(board(olga)) == ["Bot3000", "Foe"]
    olga.goto("/moderation")
    flag = olga.locator(f".flag[data-player={BOT}][data-source=timing]")
    flag.wait_for()
    assert flag.locator(".flag-name").inner_text() == "Bot3000"
    assert flag.locator(".reaction-plot .plot-bar").count() >= 1
    assert flag.locator(".reaction-plot .plot-floor").count() == 1
    assert "200 reactions" in flag.locator("figcaption").inner_text()
    assert flag.locator(".evidence-table tr.beyond").count() >= 1  # beyond a human bound
    shot(olga, "moderation_queue", full_page=True)

    mark = flag.locator("[data-act=mark]")
    mark.focus()
    olga.keyboard.press("Enter")  # no reason yet: refused in the page, nothing sent
    assert "reason" in flag.locator("[role=alert]").inner_text()
    assert olga.evaluate("document.activeElement.classList.contains('flag-reason')")
    olga.keyboard.type("scripted timing: 200 reactions at 190 ms")
    olga.keyboard.press("Tab")
    assert olga.evaluate("document.activeElement.dataset.act") == "mark"
    olga.keyboard.press("Enter")
    olga.wait_for_selector(f".flag.marked[data-player={BOT}]")
    assert "Bot3000" in olga.inner_text("#moderation-status")
    first = olga.locator(".audit-log tbody tr").first
    assert first.get_attribute("data-act") == "mark"
    assert "scripted timing" in first.inner_text() and f"player:{OLGA}" in first.inner_text()

    assert board(olga) == ["Foe"]


def short_deal() -> dict[str, Any]:
    """5±1 on the pile; Anna's 6±1 fits and wins at once, Ben holds two cards that never fit."""
    rest = [str(card) for card in us.Options(players=2).deck]
    for card in ("6±1", "9±1", "1±1", "2±1", "5±1"):
        rest.remove(card)
    return {"hands": [["6±1", "9±1"], ["1±1", "2±1"]], "draw_piles": [rest, []],
            "discard_pile": ["5±1"]}


def test_a_report_from_the_after_match_panel_joins_the_queue(
        on_server: Any, moderated: tuple[LiveServer, str], monkeypatch: pytest.MonkeyPatch,
        shot: Any) -> None:
    anna = person(on_server, "Anna")
    ben = person(on_server, "Ben")
    with dealt(monkeypatch, short_deal()):
        code = create_by_message(anna, {"type": "create", "game": GAME, "options": {},
                                        "seats": [{"kind": "open"}, {"kind": "open"}]})
    start_two(anna, ben, code)
    anna.wait_for_function("document.querySelectorAll('.board.us .hand .card').length === 2")
    state = wait_until(lambda: us_state(anna))
    anna.keyboard.press(next(c["key"] for c in state["hand"] if c["card"] == "6±1"))
    wait_until(lambda: phase(ben) == "over")
    anna_id = anna.evaluate("window.zackzack.net.player")

    report = ben.locator(f".round-end.over .report[data-player={anna_id}]")
    report.locator("summary").click()
    assert anna.locator(f".round-end.over .report[data-player={anna_id}]").count() == 0
    shot(ben, "moderation_report")
    report.locator("button[data-reason=offensive_name]").click()
    done = ben.locator(f".report-done[data-player={anna_id}]")
    done.wait_for()
    assert "Anna" in done.inner_text()

    olga = operator(on_server, moderated[1])
    flag = olga.locator(f".flag[data-player={anna_id}][data-source=reports]")
    flag.wait_for()
    assert "Offensive name: 1" in flag.inner_text()
