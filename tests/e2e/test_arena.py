"""An arena in the browser, played through (issue 34): Anna opens a one-minute casual Unter
Spannung arena of two seats from the lobby's form and joins it by its key; three bots play it as
websocket clients (one quick, two slow); Ben watches its page from the lobby's list. Anna is
paired, plays her table by keys, goes back to the arena (A), pauses, is asked before she
withdraws; Ben's standings change while he looks; at the end both pages show the podium and
every match, linked. Its own server: the rest between a game and the next pairing is short.
Screenshots: ``arena_*``."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from e2e.axe import assert_accessible, low_contrast, report_contrast
from e2e.conftest import LiveServer
from e2e.kit import person, wait_for_js, wait_until
from e2e.test_unter_spannung import play_round_by_keyboard
from server.wire import Scripted
from zackzack.server.lobby import Timing

pytestmark = [pytest.mark.e2e, pytest.mark.wallclock]

REST = 5.0
"""Seconds between a game's end and its players' next pairing (the server's 8 s, shortened)."""
BOTS = {"Blitz": 0.05, "Bummel": 0.7, "Trödel": 0.7}
"""The bots and how long each waits between two actions (seconds)."""
ARENA_PAGE = re.compile(r".*/arenas/[A-Z0-9]+$")
TABLE_PAGE = re.compile(r".*/t/[A-Z0-9]+$")
GAMES_SHOWN = "document.querySelectorAll('.arena-standings .arena-game').length"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """This module's own server: the arena rest short, the idle rule out of the way."""
    live = LiveServer(tmp_path_factory.mktemp("arena") / "zackzack.db",
                      timing=Timing(stall_warning=120.0, arena_rest=REST))
    live.start()
    yield live
    live.stop()


class Bots:
    """Bots as websocket clients in a thread of their own: each joins the arena and plays
    every table it is seated at (a fitting card, else a draw), at its own pace, until told
    to stop."""

    def __init__(self, url: str, arena: str) -> None:
        self.url, self.arena = url, arena
        self.stop = threading.Event()
        self.joined = threading.Event()
        self.paired: list[tuple[str, str]] = []
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _run(self) -> None:
        try:
            bots = [Scripted(name) for name in BOTS]
            for bot in bots:
                await bot.connect(self.url)
                await bot.send(type="arena_join", id=self.arena)
                await bot.wait_for(lambda b=bot: any(m["type"] == "arena" for m in b.seen))
            self.joined.set()
            await asyncio.gather(*(self._play(bot) for bot in bots))
            for bot in bots:
                await bot.close()
        except BaseException as error:  # told to the test, which fails with it
            self.errors.append(error)
            self.joined.set()

    async def _play(self, bot: Scripted) -> None:
        pace = BOTS[bot.name]
        while not self.stop.is_set():
            await bot.play(until=lambda: self.stop.is_set() or bot.closed, every=pace)
            if bot.closed:
                raise ConnectionError(f"{bot.name}: the connection closed")
        self.paired += [(bot.name, m["code"]) for m in bot.seen if m["type"] == "arena_paired"]

    def __enter__(self) -> Bots:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(15)


def accessible(page: Any, name: str) -> None:
    """axe finds nothing serious or critical, and every line of text has its contrast."""
    assert_accessible(page, name)
    assert not (low := low_contrast(page, name)), report_contrast(low)


def standings(page: Any) -> list[dict[str, Any]]:
    """The standings as the page shows them: each line's name, score, status and games (points,
    doubled, won)."""
    found: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        '.arena-standings tbody tr')].map(tr => ({
      name: tr.querySelector('.who a').textContent,
      score: Number(tr.querySelector('.score').textContent),
      status: tr.dataset.status,
      streak: tr.querySelector('.streak') !== null,
      games: [...tr.querySelectorAll('.arena-game')].map(li => ({
        points: Number(li.querySelector('[aria-hidden=true]').textContent),
        doubled: li.classList.contains('doubled'), win: li.classList.contains('win'),
        said: li.querySelector('.sr-only').textContent,
        href: li.querySelector('a')?.getAttribute('href') ?? null})),
    }))""")
    return found


def streaks_hold(line: dict[str, Any]) -> bool:
    """docs/rules.md, *Arena*: after two wins in a row each game counts double until one that
    is not a win (which still does); the first two games never do."""
    wins = 0
    for game in line["games"]:
        if game["doubled"] != (wins >= 2):
            return False
        wins = wins + 1 if game["win"] else 0
    return bool(line["score"] == sum(game["points"] for game in line["games"]))


def back_to_the_arena(anna: Any, shot: Any) -> None:
    """Anna plays her table by keys to its end, and "Back to the arena" (A) takes her there;
    a table the arena seats her at before she pressed it, she plays too."""
    while not ARENA_PAGE.match(anna.url):
        play_round_by_keyboard(anna, lambda *_args, **_kwargs: None)
        back = anna.locator(".overlay.on #to-arena")
        try:
            back.wait_for(timeout=5000)
            assert (back.text_content() or "").startswith("Zurück zur Arena")
            assert back.get_attribute("aria-keyshortcuts") == "A"
            shot(anna, "arena_table_over_de", settle=False)
            anna.keyboard.press("a")
            anna.wait_for_url(ARENA_PAGE, timeout=5000)
        except PlaywrightTimeout:
            assert TABLE_PAGE.match(anna.url), anna.url  # seated again meanwhile


def test_an_arena_played_through_in_the_browser(new_page: Any, server: LiveServer,
                                                 shot: Any) -> None:
    anna = person(new_page, "Anna", locale="de-DE")
    # The lobby's form, folded away under the arenas: one minute, two seats, casual, now.
    anna.click("#arena-new summary")
    anna.select_option("#arena-game", "unter-spannung")
    anna.select_option("#arena-seats", "2")
    anna.fill("#arena-minutes", "1")
    anna.fill("#arena-start_in", "0")
    anna.fill("#arena-title", "Blitzarena")
    shot(anna, "arena_lobby_form_de")
    anna.click("#arena-create")
    anna.wait_for_url(ARENA_PAGE)
    arena = anna.url.rsplit("/", 1)[1]
    anna.wait_for_selector("h1.arena-title")
    assert anna.inner_text("h1.arena-title") == "Blitzarena"
    assert anna.inner_text("#arena-you") == "Du bist nicht dabei."
    assert re.fullmatch(r"endet in (0:[0-5]\d|1:00)|beginnt in 0:0\d",
                        anna.inner_text("#arena-clock"))

    # Ben finds it in the lobby's list, with its clock, and opens it from there.
    ben = person(new_page, "Ben", locale="en-GB")
    item = ben.locator(f".arena-item[data-id='{arena}']")
    item.wait_for()
    assert "Unter Spannung · 2 per table · casual" in (item.text_content() or "")
    wait_for_js(ben, f"/^ends in 0:[0-5]\\d$/.test(document.querySelector("
                     f"\".arena-clock[data-id='{arena}']\").textContent)")
    first = ben.inner_text(f".arena-clock[data-id='{arena}']")
    wait_for_js(ben, f"document.querySelector(\".arena-clock[data-id='{arena}']\").textContent"
                     f" !== {first!r}", timeout=5)  # it counts down without a message
    accessible(ben, "arena_lobby_en")
    ben.locator("#arenas").scroll_into_view_if_needed()
    shot(ben, "arena_lobby_en")
    item.locator("a").click()
    ben.wait_for_url(ARENA_PAGE)
    ben.wait_for_selector("#arena-join")
    assert ben.text_content("#arena-join") == "Join J"
    ben.evaluate("window.sameDocument = true")  # gone with a reload
    assert ben.evaluate(GAMES_SHOWN) == 0

    # Anna joins by her key; the bots join too, and the pairing seats her at a table.
    anna.keyboard.press("j")
    wait_for_js(anna, "document.querySelector('#arena-pause') !== null")
    assert anna.inner_text("#arena-you").startswith("Du bist dabei")
    with Bots(server.url, arena) as bots:
        assert bots.joined.wait(20) and not bots.errors, bots.errors
        ben.wait_for_selector(".arena-standings tbody tr:nth-child(4)")
        accessible(ben, "arena_running_en")
        shot(ben, "arena_running_en")
        anna.wait_for_url(TABLE_PAGE, timeout=20_000)
        assert anna.evaluate("Object.values(window.zackzack.app.arenaTables)") == [arena]

        # Her table ends; back on the arena page she pauses (P) before the next pairing, or
        # plays the table she was given meanwhile and comes back again.
        while True:
            back_to_the_arena(anna, shot)
            wait_until(lambda: TABLE_PAGE.match(anna.url)
                       or anna.query_selector(".arena-actions button") is not None, timeout=20)
            if TABLE_PAGE.match(anna.url):
                continue
            if anna.query_selector("#arena-pause") is not None:
                anna.keyboard.press("p")
            wait_until(lambda: TABLE_PAGE.match(anna.url)
                       or anna.query_selector("#arena-back") is not None, timeout=20)
            if not TABLE_PAGE.match(anna.url):
                break
        assert anna.inner_text("#arena-you").startswith("Du machst Pause")
        # (her last game counts once it is stored and scored: at the next pairing, 2 s)
        mine = wait_until(lambda: next((line for line in standings(anna) if line["name"] == "Anna"
                                        and line["games"]), None), timeout=20)
        assert mine["status"] == "paused"
        # Withdrawing asks first: Esc keeps her in, "Ja, aufhören" takes her out for good.
        anna.keyboard.press("w")
        anna.wait_for_selector("#withdraw-yes")
        assert "Endgültig aufhören?" in anna.inner_text(".arena-actions")
        assert anna.evaluate("document.activeElement.id") == "withdraw-no"
        shot(anna, "arena_withdraw_ask_de")
        anna.keyboard.press("Escape")
        anna.wait_for_selector("#arena-withdraw")
        assert anna.evaluate("document.activeElement.id") == "arena-withdraw"
        anna.keyboard.press("w")
        anna.click("#withdraw-yes")
        wait_for_js(anna, "document.querySelector('.arena-actions button') === null")
        wait_for_js(anna, "document.querySelector('.arena-standings tr.me')"
                          "?.dataset.status === 'withdrawn'")
        assert anna.inner_text("#arena-you").startswith("Du hast aufgehört")

        # Ben's page followed the games as they ended, without a reload.
        wait_for_js(ben, f"{GAMES_SHOWN} > 0 && window.sameDocument === true", timeout=10)
        wait_for_js(ben, "[...document.querySelectorAll('.arena-standings .who a')].find(a =>"
                         " a.textContent === 'Anna')?.closest('tr').dataset.status === 'withdrawn'")

        # The end: once the last games are scored, the podium and every match.
        for page in (anna, ben):
            wait_for_js(page, "document.querySelector('.arena-head')?.dataset.state === 'over'",
                        timeout=90)
            wait_for_js(page, "document.querySelector(\".arena-standings tr"
                              "[data-status='playing']\") === null", timeout=60)
    assert not bots.errors, bots.errors
    assert bots.paired, "the bots were never seated"

    for page in (anna, ben):
        page.wait_for_selector(".arena-podium li")
        assert page.inner_text("#arena-clock") in ("vorbei", "over")
        assert page.query_selector("#arena-join") is None
    # What Ben's page shows at the end is what the server says.
    told = ben.request.get(f"{server.url}/api/arenas/{arena}").json()
    wait_until(lambda: [(line["name"], line["score"]) for line in standings(ben)]
               == [(line["name"], line["score"]) for line in told["standings"]], timeout=5)
    lines = standings(ben)
    played = [line for line in lines if line["games"]]
    podium = ben.eval_on_selector_all(".arena-podium .podium-name",
                                      "els => els.map(e => e.textContent)")
    assert podium == [line["name"] for line in played[:3]]
    assert [line["score"] for line in lines] == sorted((line["score"] for line in lines),
                                                       reverse=True)
    # Every line's points add up, and a streak doubles exactly the games after two wins.
    for line in lines:
        assert streaks_hold(line), line
        for game in line["games"]:
            assert game["said"].endswith(("doppelt gezählt", "counted double")) == game["doubled"]
    # At a table of two a game gives 2 and 0, or 1 each (before a streak doubles it).
    tables: dict[str, list[int]] = {}
    for line in lines:
        for game in line["games"]:
            if game["href"]:
                tables.setdefault(game["href"], []).append(game["points"] >> game["doubled"])
    assert all(sorted(points) in ([0, 2], [1, 1]) for points in tables.values()), \
        (tables, ben.request.get(f"{server.url}/api/arenas/{arena}").json())
    # Every stored game is a link to its match, and the list of matches names each once.
    links = {game["href"] for line in lines for game in line["games"] if game["href"]}
    listed = set(ben.eval_on_selector_all(".arena-matches a",
                                          "els => els.map(e => e.getAttribute('href'))"))
    assert listed and listed == links
    assert ben.request.get(f"{server.url}/api{sorted(listed)[0]}").ok
    accessible(anna, "arena_over_de")
    shot(anna, "arena_over_de", full_page=True)
    shot(ben, "arena_over_en", full_page=True)
    ben.click(f".arena-matches a[href='{sorted(listed)[0]}']")
    ben.wait_for_selector(".match-page")


def test_a_refusal_a_private_arena_on_a_phone_and_a_wrong_link(new_page: Any,
                                                                shot: Any) -> None:
    cleo = person(new_page, "Cleo", locale="en-GB", width=390, height=844)
    # A guest's rated arena: the refusal stands beside the form, in words.
    cleo.click("#arena-new summary")
    cleo.check("#arena-rated")
    cleo.click("#arena-create")
    cleo.wait_for_selector(".create-error[data-from='arena'] [data-code='rated_needs_account']")
    assert ARENA_PAGE.match(cleo.url) is None
    # A private one, in ten minutes: its page counts down and shows the link to pass on.
    cleo.uncheck("#arena-rated")
    cleo.check("#arena-private")
    cleo.fill("#arena-start_in", "10")
    cleo.click("#arena-create")
    cleo.wait_for_url(ARENA_PAGE)
    arena = cleo.url.rsplit("/", 1)[1]
    assert len(arena) == 12
    cleo.wait_for_selector(".arena-share")
    assert cleo.inner_text(".arena-share a").endswith(f"/arenas/{arena}")
    assert re.fullmatch(r"starts in (9:[0-5]\d|10:00)", cleo.inner_text("#arena-clock"))
    assert cleo.evaluate("document.documentElement.scrollWidth") <= 390, "nothing runs sideways"
    accessible(cleo, "arena_upcoming_phone_en")
    shot(cleo, "arena_upcoming_phone_en", full_page=True)

    cleo.goto("/arenas/NOSUCH99")
    cleo.wait_for_selector(".arena-missing h1")
    assert cleo.inner_text(".arena-missing h1") == "There is no such arena."
    cleo.keyboard.press("Enter")
    cleo.wait_for_url(re.compile(r".*/$"))
