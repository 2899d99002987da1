"""Issue 30, the rest of "words and controls": names cut on phones say all of themselves, the
header shows a new name at once, the speech switch is named like the sound switch, a touch
screen is not told to press keys, bot selects name their seat, the focus starts at the top of
a new page, Esc and Backspace never play, and the tutorial's table does not jump between steps."""

from __future__ import annotations

from typing import Any

import pytest

from e2e.kit import (
    create_by_message,
    dealt,
    person,
    phase,
    sl_state,
    us_state,
    wait_for_js,
    wait_until,
)
from e2e.test_learn import Hands, play_us, start_tutorial
from e2e.test_ready import short_deal, win_the_round

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LONG_NAME = "Annabella Maximiliane Sc"  # 24 characters, the most a name has
LONG_TITLE = "WOCHENENDMEISTERSCHAFT MÜNCHEN–WUPPERTAL"  # 40, the most a title has

WIDTHS = """[...document.querySelectorAll('.stats-table tr:first-child > *, .stats-scroll')]
  .map(e => e.className + ':' + Math.round(e.getBoundingClientRect().width))"""
ONE_LINE_CUT = """el => {
  const style = getComputedStyle(el);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
  return {text: el.textContent, title: el.title, height: el.getBoundingClientRect().height,
          line, cut: el.scrollWidth > el.clientWidth + 0.5, overflow: style.textOverflow,
          wrap: style.whiteSpace};
}"""


def assert_one_line(box: dict[str, Any], full: str, what: str) -> None:
    assert box["text"] == full and box["title"] == full, (what, box)
    assert box["height"] < box["line"] * 1.5, (what, box)  # one line
    assert box["wrap"] == "nowrap" and box["overflow"] == "ellipsis", (what, box)


# 1. Names cut on phones ------------------------------------------------------------------------


def test_long_names_on_a_phone_are_one_line_with_the_whole_name_named(
        new_page: Any, shot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    anna = person(new_page, LONG_NAME, touch=True, **PHONE)
    with dealt(monkeypatch, short_deal()):
        create_by_message(anna, {"type": "create", "game": "unter-spannung", "options": {},
                                 "title": LONG_TITLE,
                                 "seats": [{"kind": "open"}, {"kind": "bot", "bot": "pro"}]})
    anna.locator("#start:not([disabled])").tap()
    wait_until(lambda: phase(anna) == "playing", timeout=15)
    title = anna.locator(".table-title")
    head = title.evaluate(ONE_LINE_CUT)
    assert_one_line(head, LONG_TITLE, "title")
    assert head["cut"], head  # 40 wide letters do not fit 390 px: the "…" shows
    assert anna.get_by_role("heading", name=LONG_TITLE, exact=True).count() == 1
    bot_plate = anna.locator(".board.us .others .plate").first
    bot_name = bot_plate.locator(".plate-name").inner_text()
    assert bot_name.startswith("Bot 2"), bot_name
    assert bot_plate.get_attribute("title") == bot_name
    assert bot_name in bot_plate.locator(".plate-say").inner_text()
    shot(anna, "polish_names_phone_playing")
    win_the_round(anna)
    wait_until(lambda: phase(anna) == "over")
    anna.locator(".round-end.over #rematch").wait_for()
    wait_for_js(anna, "document.getAnimations().every(a => a.playState !== 'running'"
                      " || a.effect?.getComputedTiming().iterations === Infinity)")
    shot(anna, "polish_names_phone_over")
    rows = anna.locator(".round-end .scores:not(.stats-table) .who-name")
    names = [rows.nth(i).evaluate(ONE_LINE_CUT) for i in range(rows.count())]
    assert sorted(n["text"] for n in names) == sorted(["Du", bot_name]), names
    for box in names:
        assert_one_line(box, box["text"], "score row")
    # Every row's cell says the whole name, cut or not.
    assert anna.get_by_role("cell", name=bot_name).count() == 1
    # The statistics below: the same, a long name ends in "…" instead of breaking mid-word.
    anna.locator(".stats-table .who-name").first.wait_for()
    stats = anna.locator(".stats-table .who-name")
    lines = {box["text"]: box for box in
             (stats.nth(i).evaluate(ONE_LINE_CUT) for i in range(stats.count()))}
    assert set(lines) == {LONG_NAME, bot_name}, lines
    for name, box in lines.items():
        assert_one_line(box, name, "statistics row")
    assert lines[LONG_NAME]["cut"], lines
    assert anna.get_by_role("rowheader", name=LONG_NAME).count() == 1
    # …and the table fits the panel at 390 px: the reaction column is not scrolled away.
    fits = anna.evaluate("(s => s.scrollWidth <= s.clientWidth)"
                         "(document.querySelector('.stats-scroll'))")
    assert fits, anna.evaluate(WIDTHS)
    anna.locator(".stats-table").scroll_into_view_if_needed()
    shot(anna, "polish_names_phone_stats")


# 2. The header after a rename -----------------------------------------------------------------


def test_the_header_shows_a_new_name_at_once(new_page: Any, shot: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_function("window.zackzack?.net.open === true")
    guest = page.inner_text("#account-toggle .account-name")
    assert guest.startswith("Gast "), guest
    create_by_message(page, {"type": "create", "game": "unter-spannung", "options": {},
                             "seats": [{"kind": "open"}, {"kind": "open"}]})
    page.locator("#rename").click()
    page.fill("#name-ask", "Paula")
    # The next welcome could only come with a reconnect: none may be needed.
    page.evaluate("window.__welcomes = 0;"
                  " window.zackzack.net.on('welcome', () => window.__welcomes++)")
    page.click("#name-ok")
    wait_for_js(page, "document.querySelector('#account-toggle .account-name')?.textContent"
                      " === 'Paula'", timeout=1)
    assert page.evaluate("window.__welcomes") == 0
    assert page.get_attribute("#account-toggle", "aria-label").startswith("Paula")
    page.locator(".wait-seat.human .wait-name:text('Paula')").wait_for()
    shot(page, "polish_renamed_header")


# 3. The speech switch -------------------------------------------------------------------------


SWITCH = """el => ({name: el.getAttribute('aria-label'), title: el.title,
  pressed: el.getAttribute('aria-pressed'),
  icon: el.querySelector('svg')?.getAttribute('class')})"""


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_speech_switch_is_named_for_what_it_does(new_page: Any, shot: Any,
                                                     locale: str) -> None:
    page = new_page(locale=locale)
    page.goto("/")
    page.wait_for_function("window.zackzack?.net.open === true")
    speech = page.locator("#speech-toggle")
    assert speech.is_visible()
    name = "Ansagen vorlesen" if locale == "de-DE" else "Speak the calls aloud"
    off = speech.evaluate(SWITCH)
    assert off == {"name": name, "title": name, "pressed": "false", "icon": "icon icon-talk_off"}
    # Not the sound switch's look: that one is a note, slashed when muted.
    sound = page.locator("#sound-toggle").evaluate(SWITCH)
    assert sound["name"] != name and "mute" not in off["icon"]
    assert page.get_by_role("button", name=name, exact=True).count() == 1
    shot(page, f"polish_speech_off_{locale[:2]}")
    speech.click()
    on = speech.evaluate(SWITCH)
    assert on == {"name": name, "title": name, "pressed": "true", "icon": "icon icon-talk"}
    assert page.get_by_role("button", name=name, pressed=True).count() == 1
    shot(page, f"polish_speech_on_{locale[:2]}")
    speech.click()
    assert speech.get_attribute("aria-pressed") == "false"


# 4. No "press Enter" on a touch screen --------------------------------------------------------


@pytest.mark.parametrize("touch", [True, False])
def test_a_touch_screen_is_not_told_to_press_keys(new_page: Any, shot: Any, touch: bool) -> None:
    size = PHONE if touch else {}
    page = person(new_page, "Tina", touch=touch, **size)
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches") is touch
    create_by_message(page, {"type": "create", "game": "unter-spannung", "options": {},
                             "seats": [{"kind": "open"}, {"kind": "bot", "bot": "normal"}]})
    hint = page.locator(".waiting .hint").last
    wait_until(lambda: "bereit" in hint.inner_text())
    text = hint.inner_text()
    assert ("Enter" in text) is not touch, text
    assert ("tippe" in text) is touch, text
    shot(page, f"polish_keys_waiting_{'touch' if touch else 'desktop'}")
    page.goto("/t/ZZZZZZ")  # a dead link: its way back is a button with a key on it
    page.locator("#to-lobby").wait_for()
    assert page.locator("#to-lobby kbd").is_visible() is not touch
    page.goto("/learn/unter-spannung")
    page.locator("#learn-start").wait_for()
    assert page.locator("#learn-start kbd").is_visible() is not touch
    shot(page, f"polish_keys_learn_{'touch' if touch else 'desktop'}")


# 5. Bot selects name their seat ---------------------------------------------------------------


def test_bot_selects_name_their_seat(new_page: Any) -> None:
    page = person(new_page, "Lena")
    page.locator("select[name='seat-1-kind']").wait_for()
    page.select_option("select[name='seat-1-kind']", "bot")
    level = page.get_by_role("combobox", name="Platz 2: Bot-Stufe", exact=True)
    assert level.count() == 1
    assert level.get_attribute("name") == "seat-1-level"
    assert page.get_by_role("combobox", name="Platz 2: Bot-Strategie", exact=True).count() == 1
    page.click("#lang-toggle")
    assert page.get_by_role("combobox", name="Seat 2: bot level", exact=True).count() == 1
    assert page.get_by_role("combobox", name="Seat 2: bot strategy", exact=True).count() == 1


# 6. The focus after a navigation --------------------------------------------------------------


FOCUS = """() => {
  const el = document.activeElement;
  const app = document.querySelector('#app');
  return {tag: el?.tagName ?? null, inApp: el === app || app.contains(el),
          text: (el?.tagName === 'H1' ? el.textContent : '')};
}"""


def test_the_focus_starts_at_the_top_of_a_new_page(new_page: Any) -> None:
    page = person(new_page, "Kai")
    page.click(".bar-nav a[href='/matches']")
    page.wait_for_url("**/matches")
    wait_for_js(page, "document.activeElement !== document.body")
    focus = page.evaluate(FOCUS)
    assert focus["inApp"], focus
    page.click(".bar-nav a[href='/']")
    page.wait_for_url(lambda url: url.endswith("/"))
    page.locator(".learn-panel a[href='/rules/unter-spannung']").click()
    page.wait_for_url("**/rules/unter-spannung")
    wait_for_js(page, "document.activeElement?.tagName === 'H1'")
    assert page.evaluate(FOCUS) == {"tag": "H1", "inApp": True, "text": "Regeln: Unter Spannung"}
    page.keyboard.press("g")  # the other game's rules
    page.wait_for_url("**/rules/schnelllauf")
    wait_for_js(page, "document.activeElement?.textContent === 'Regeln: Schnelllauf'")
    page.go_back()
    page.wait_for_url("**/rules/unter-spannung")
    wait_for_js(page, "document.activeElement?.textContent === 'Regeln: Unter Spannung'")
    # A created table: the page's content has the focus until the table's heading comes.
    page.go_back()
    page.wait_for_url(lambda url: url.endswith("/"))
    page.locator("[data-quick='unter-spannung']").click()
    page.wait_for_url("**/t/*")
    wait_for_js(page, "document.activeElement?.classList.contains('table-title')")
    assert page.evaluate(FOCUS)["inApp"]
    # Tab from there goes on inside the page, not back to the header.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS)["inApp"]


# 7. Esc and Backspace never play -------------------------------------------------------------


SENT_ACTS = """() => {
  window.__acts = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { if (JSON.parse(data).type === 'act') window.__acts.push(JSON.parse(data)); } catch {}
    return send.call(this, data);
  };
}"""


@pytest.mark.parametrize("game", ["unter-spannung", "schnelllauf"])
def test_escape_and_backspace_never_play_a_card(new_page: Any, shot: Any, game: str) -> None:
    page = person(new_page, "Eva")
    page.evaluate(SENT_ACTS)
    create_by_message(page, {"type": "create", "game": game, "options": {},
                             "seats": [{"kind": "open"}, {"kind": "bot", "bot": "beginner"}]})
    page.locator("#start:not([disabled])").click()
    wait_until(lambda: phase(page) == "playing", timeout=15)
    state = us_state if game == "unter-spannung" else sl_state
    wait_until(lambda: state(page) and (state(page).get("hand") or state(page).get("mine")))
    mine = "hand" if game == "unter-spannung" else "mine"
    before = state(page)[mine]
    card = ".board.us .hand .card" if game == "unter-spannung" else ".board.sl .side.me .place"
    for focused in (False, True):
        if focused:  # a focused card: Enter would play it, Esc and Backspace must not
            page.locator(card).first.focus()
        for key in ("Escape", "Backspace", "Escape", "Backspace"):
            page.keyboard.press(key)
        # And as a page script would dispatch them (no browser default in between).
        page.evaluate("""() => { for (const key of ['Escape', 'Backspace']) {
            const target = document.activeElement ?? document.body;
            target.dispatchEvent(
              new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
            target.dispatchEvent(new KeyboardEvent('keyup', {key, bubbles: true}));
        } }""")
    page.wait_for_timeout(300)  # what an act would need to show and be answered
    assert page.evaluate("window.__acts") == []
    after = state(page)
    assert phase(page) == "playing"
    assert after[mine] == before, (before, after)
    assert "/t/" in page.url  # still the table (Esc leaves only a watched one)
    shot(page, f"polish_no_escape_play_{game}")


# 8. The tutorial's table keeps its place between steps ---------------------------------------


WATCH = """() => {
  window.__shifts = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__shifts.push(
      {value: e.value, recent: e.hadRecentInput, sources: (e.sources ?? []).map(s => ({
        node: s.node?.className?.baseVal ?? s.node?.className ?? s.node?.nodeName,
        dy: s.currentRect.y - s.previousRect.y}))}); })
    .observe({type: 'layout-shift'});
  window.__tops = new Set();
  window.__coach = new Set();
  const frame = () => {
    const table = document.querySelector('.learn-table');
    const coach = document.querySelector('.coach');
    // Between steps; the end (its own panel with the ways on) may be taller.
    if (table && coach?.offsetHeight && !document.querySelector('.learn-page.done')) {
      window.__tops.add(Math.round(table.getBoundingClientRect().top));
      window.__coach.add(Math.round(coach.getBoundingClientRect().height));
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_the_tutorial_table_does_not_jump_between_steps(new_page: Any, shot: Any,
                                                        where: str) -> None:
    touch = where == "phone"
    page = new_page(locale="de-DE", touch=touch, **(PHONE if touch else {}))
    hands = Hands(page, "touch" if touch else "keys")
    start_tutorial(page, hands, "unter-spannung", shot, f"polish_tutorial_{where}")
    page.evaluate(WATCH)
    play_us(page, hands, shot, f"polish_tutorial_{where}")
    tops = page.evaluate("[...window.__tops]")
    coach = page.evaluate("[...window.__coach]")
    shifts = page.evaluate("window.__shifts")
    print(where, "table tops", tops, "coach heights", coach)
    print(where, "shifts", [s for s in shifts if s["value"] > 0.0001])
    assert len(tops) == 1, f"the table moved between steps: its top at {tops} px (coach {coach})"
    moved = [s for s in shifts[:-1] if any("learn-table" in str(x["node"]) for x in s["sources"])]
    assert not moved, moved


# The tutorial on a phone, before its first step, and step 4 ---------------------------------

COACH_TEXTS = """() => {
  window.__coachTexts = [];
  const coach = document.querySelector('.learn-page .coach');
  const note = () => {
    const text = coach.querySelector('.coach-text')?.textContent;
    if (text) window.__coachTexts.push(text);
  };
  new MutationObserver(note).observe(coach, {childList: true, subtree: true, characterData: true});
}"""
KEY_WORDS = ("drück", "Taste", "Leertaste")


@pytest.mark.parametrize("touch", [True, False])
def test_the_tutorial_says_tap_on_a_touch_screen_and_never_loading(new_page: Any, shot: Any,
                                                                   touch: bool) -> None:
    size = PHONE if touch else {}
    page = new_page(locale="de-DE", touch=touch, **size)
    for game in ("unter-spannung", "schnelllauf"):
        page.goto(f"/learn/{game}")
        page.wait_for_selector("#learn-start")
        page.evaluate(COACH_TEXTS)
        page.locator("#learn-start").click()
        first = "learn_us_s1" if game == "unter-spannung" else "learn_sl_s1"
        wait_for_js(page, f"document.querySelector('.coach-text')?.dataset.key === {first!r}",
                    timeout=15)
        texts = page.evaluate("window.__coachTexts")
        assert texts, "the coach said nothing"
        assert not [x for x in texts if "Lade" in x or "Loading" in x], texts
        assert len(set(texts)) == 1, f"the coach changed its words before step 1: {texts}"
        # Every step's words are in the coach (the hidden ones keep its height).
        steps = page.eval_on_selector_all(".coach-ghost", "els => els.map(e => e.textContent)")
        keyed = [x for x in steps if any(word in x for word in KEY_WORDS)]
        if touch:
            assert not keyed, keyed
            assert any("tipp" in x for x in steps), steps
        else:
            assert keyed, steps
        if game == "schnelllauf":  # step 4 says what to press, and what M does
            four = steps[3]
            if touch:
                assert "tipp" in four and "leeren Platz an" in four, four
            else:
                assert "drück die Taste von" in four and ", 3" in four, four
                assert "dann M" in four and "kommt auf den leeren Platz" in four, four
        shot(page, f"polish_tutorial_words_{game}_{'touch' if touch else 'desktop'}")


# Plural forms -----------------------------------------------------------------------------

PLURALS = """async () => {
  const {count, setLang} = await import('/static/js/i18n.js');
  const out = {};
  for (const lang of ['de', 'en']) {
    setLang(lang);
    for (const key of ['profile_matches', 'profile_bot_matches', 'board_count', 'board_rule',
                       'chart_summary', 'cards_n', 'a11y_hand', 'find_n_players', 'watchers',
                       'ready_next_done']) {
      out[`${lang}:${key}:1`] = count(key, 1, {days: 90, from: '1.5.', to: '2.5.', first: 1500,
                                               last: 1510, min: 1490, max: 1510});
      out[`${lang}:${key}:2`] = count(key, 2, {days: 90, from: '1.5.', to: '2.5.', first: 1500,
                                               last: 1510, min: 1490, max: 1510});
    }
  }
  return out;
}"""


def test_a_count_of_one_is_said_in_the_singular(new_page: Any) -> None:
    page = person(new_page, "Paula")
    said = page.evaluate(PLURALS)
    assert said["en:profile_matches:1"] == "1 rated match"
    assert said["en:profile_matches:2"] == "2 rated matches"
    assert said["de:profile_matches:1"] == "1 gewertete Partie"
    assert said["de:profile_matches:2"] == "2 gewertete Partien"
    assert said["en:board_count:1"] == "1 player listed."
    assert said["de:board_count:1"] == "Ein Spieler steht hier."
    assert said["en:chart_summary:1"].startswith("1 rated match,"), said["en:chart_summary:1"]
    for key, text in said.items():
        if key.endswith(":1"):  # no "1 Karten", "1 matches", "1 … fehlen"
            for plural in ("Karten", "Partien", "Spieler stehen", "fehlen", "matches", "cards",
                           "players", "others", "watching") if key.split(":")[1] != "watchers" \
                    else ("schauen",):
                assert plural not in text, (key, text)


# Schnelllauf's round results by place ----------------------------------------------------------


def sl_quick_win() -> dict[str, Any]:
    """Piles 7h (the bot's) and 7c (Anna's); the bot (seat 0) shows five court cards that never
    fit, Anna (seat 1) one 8d: her one press wins the round, and the bot, behind her in seat
    order, takes the bigger pile and its layout."""
    from zackzack.games import schnelllauf as sl

    rest = [str(card) for card in sl.deck(3)] * 2

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    piles = [take("7h"), take("7c")]
    bot = [take(card) for card in ("Ks", "Kd", "Qs", "Qd", "Kc")]
    anna = [take("8d"), [], [], [], []]
    half = len(rest) // 2
    return {"layouts": [bot, anna], "reserves": [rest[:half], rest[half:]],
            "discard_piles": piles}


def test_schnelllauf_round_results_are_by_place(new_page: Any, shot: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    anna = person(new_page, "Anna")
    with dealt(monkeypatch, sl_quick_win()):
        create_by_message(anna, {"type": "create", "game": "schnelllauf", "options": {},
                                 "seats": [{"kind": "bot", "bot": "machine"}, {"kind": "open"}]})
    anna.locator("#start:not([disabled])").click()
    wait_until(lambda: phase(anna) == "playing", timeout=15)
    wait_until(lambda: sl_state(anna) is not None)
    anna.keyboard.press("1")  # 8d fits both piles: which?
    anna.wait_for_selector(".board.sl.choosing-pile")
    anna.keyboard.press("w")  # on Anna's own pile: her layout is empty, the round is hers
    wait_until(lambda: phase(anna) == "between", timeout=15)
    rows = anna.locator(".round-end .scores tbody tr")
    assert rows.count() == 2
    places = anna.locator(".round-end .scores tbody td.place").all_inner_texts()
    assert places == ["1.", "2."], places
    assert "me" in (rows.nth(0).get_attribute("class") or ""), "Anna (seat 2) comes first"
    cards = [int(x) for x in anna.locator(".round-end .scores tbody td.num").all_inner_texts()]
    assert cards == sorted(cards), cards
    shot(anna, "polish_sl_round_places")
