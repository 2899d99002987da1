"""Learning the games in the browser: the rules pages in both languages with their drawn
examples, and both tutorials played to the end by keyboard alone and by mouse or touch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from e2e.kit import frozen, person, wait_for_js, wait_until

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
COACH = "document.querySelector('.coach-text')?.dataset.key"
PLAYING = "document.querySelector('.table-page')?.dataset.phase === 'playing'"


def title_is(page: Any, text: str) -> None:
    wait_for_js(page, f"document.querySelector('.rules-page h1')?.textContent === {text!r}")


def step(page: Any, key: str, timeout: float = 15) -> None:
    """Wait until the coach shows the step ``key`` (countdowns of the table's own steps: 4 s)."""
    try:
        wait_for_js(page, f"{COACH} === {key!r}", timeout=timeout)
    except Exception:
        feed = page.inner_text(".feed-list")
        raise AssertionError(f"no step {key}: the coach shows {page.evaluate(COACH)}; "
                             f"the feed says {feed!r}") from None


def thawed(page: Any) -> None:
    wait_until(lambda: not frozen(page), timeout=5)


def figure_cards(page: Any) -> list[list[str]]:
    """The cards drawn in each example figure, by their data-card."""
    cards: list[list[str]] = page.eval_on_selector_all(
        ".learn-ex",
        "els => els.map(f => [...f.querySelectorAll('.card')].map(c => c.dataset.card))")
    return cards


# The rules pages ------------------------------------------------------------------------------


def test_rules_pages_in_both_languages_with_drawn_examples(new_page: Any, shot: Any) -> None:
    page = new_page(locale="de-DE")
    page.goto("/")
    page.wait_for_selector(".learn-panel")
    page.locator(".learn-panel").scroll_into_view_if_needed()
    shot(page, "learn_lobby_panel_desktop")
    assert page.locator(".learn-panel a[href='/rules/unter-spannung']").count() == 1
    assert page.locator(".learn-panel a[href='/learn/schnelllauf']").count() == 1
    page.click(".learn-panel a[href='/rules/unter-spannung']")
    page.wait_for_selector(".rules-page h1")
    assert page.inner_text(".rules-page h1") == "Regeln: Unter Spannung"
    examples = figure_cards(page)
    assert ["9±3", "2±1", "6±2"] in examples and ["1±2", "9±3", "3±1"] in examples
    assert ["10±1", "8±2", "6±3", "3±1"] in examples  # the "27" with 4 cards in hand
    # Real card drawings: the client's SVG art, face up (a face-down card has no data-card).
    assert page.locator(".learn-ex .card[data-card='9±3']:not(.back) > svg").count() == 2
    text = page.inner_text(".learn-sections")
    for words in ("Nichts geht mehr", "Minuspunkte", "27", "Falsche Karte", "Zu spät", "Turnier",
                  "Ziehen", "nach 10 geht es bei 1 weiter"):
        assert words in text, words
    shot(page, "learn_rules_us_de_desktop", full_page=True)

    page.click("#lang-toggle")  # the header's switch re-renders the page in English
    title_is(page, "Rules: Unter Spannung")
    text = page.inner_text(".learn-sections")
    for words in ("Nichts geht mehr", "minus points", "Wrong card", "Too late", "tournament"):
        assert words in text, words
    assert ["9±3", "2±1", "6±2"] in figure_cards(page)
    shot(page, "learn_rules_us_en_desktop", full_page=True)

    page.keyboard.press("g")  # the other game's rules
    page.wait_for_url("**/rules/schnelllauf")
    title_is(page, "Rules: Schnelllauf")
    examples = figure_cards(page)
    assert ["Jc", "10h", "Qs"] in examples
    assert ["4s", "*", "2h", "4d", "6c"] in examples  # a joker on a 4
    text = page.inner_text(".learn-sections")
    for words in ("empty place", "Jokers", "reserve", "shuffled", "Handicaps", "one hand only"):
        assert words in text, words
    shot(page, "learn_rules_sl_en_desktop", full_page=True)
    page.click("#lang-toggle")
    title_is(page, "Regeln: Schnelllauf")
    assert "Chancenausgleich" in page.inner_text(".learn-sections")

    # The help dialog leads to this game's rules and tutorial.
    page.keyboard.press("?")
    page.wait_for_selector("#help[open] .help-learn")
    shot(page, "learn_help_links")
    assert page.locator("#help .help-learn a[href='/learn/schnelllauf']").count() == 1
    page.click("#help .help-learn a[href='/learn/schnelllauf']")
    page.wait_for_url("**/learn/schnelllauf")
    wait_for_js(page, "!document.querySelector('#help').open")
    page.wait_for_selector("#learn-start")

    phone = new_page(locale="en-GB", **PHONE)
    phone.goto("/")
    phone.locator(".learn-panel").scroll_into_view_if_needed()
    shot(phone, "learn_lobby_panel_phone")
    for game in ("unter-spannung", "schnelllauf"):
        phone.goto(f"/rules/{game}")
        phone.wait_for_selector(".learn-ex .card svg")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the {game} rules page is {width} px wide on a phone"
        shot(phone, f"learn_rules_{game}_phone", full_page=True)


# The tutorials --------------------------------------------------------------------------------


class Hands:
    """How a test plays: by keyboard alone, by mouse clicks, or by taps on a touch screen."""

    def __init__(self, page: Any, how: str) -> None:
        self.page, self.how = page, how

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def touch(self, selector: str) -> None:
        target = self.page.locator(selector)
        if self.how == "touch":
            target.tap()
        else:
            target.click()

    def us_play(self, card: str) -> None:
        selector = f".board.us .hand .card[data-card='{card}']"
        if self.how == "keys":
            self.press(self.page.get_attribute(selector, "data-hotkey"))
        else:
            self.touch(selector)

    def us_draw(self) -> None:
        if self.how == "keys":
            self.press("d")
        else:
            self.touch(".board.us .draw")

    def sl_play(self, place: int, pile: int) -> None:
        """A card that fits one pile only goes there at once; else the board asks which."""
        if self.how == "keys":
            self.press(str(place + 1))
        else:
            self.touch(f".board.sl .side.me .place[data-place='{place}'] > .card")
        if not self.page.locator(".board.sl.choosing-pile").count():
            return
        if self.how == "keys":
            self.press("q" if pile == 0 else "ArrowRight")
        else:
            self.touch(f".board.sl .pile-zone[data-pile='{pile}'] .pile")

    def sl_move(self, source: int, target: int) -> None:
        if self.how == "keys":
            self.press(str(source + 1))
            self.press("m")
        else:
            self.touch(f".board.sl .side.me .place[data-place='{source}'] > .card")
            self.touch(f".board.sl .side.me .place[data-place='{target}']")


def start_tutorial(page: Any, hands: Hands, game: str, shot: Callable[..., Any],
                   name: str) -> str:
    """Open the tutorial of ``game`` and start it; returns its table's code."""
    page.goto(f"/learn/{game}")
    page.wait_for_selector("#learn-start")
    shot(page, f"{name}_0_intro")
    if hands.how == "keys":
        page.keyboard.press("Enter")
    else:
        hands.touch("#learn-start")
    wait_for_js(page, PLAYING, timeout=15)
    return str(page.get_attribute(".learn-page", "data-code"))


def play_us(page: Any, hands: Hands, shot: Callable[..., Any], name: str) -> None:
    step(page, "learn_us_s1")
    shot(page, f"{name}_1_fitting")
    hands.us_play("6±3")
    step(page, "learn_us_s2")
    hands.us_play("4±2")  # does not fit 6±3: the freeze
    step(page, "learn_us_s3")
    assert frozen(page)
    shot(page, f"{name}_2_frozen", settle=False)
    thawed(page)
    hands.us_draw()
    step(page, "learn_us_s4")
    hands.us_play("3±2")
    step(page, "learn_us_s5")
    wait_for_js(page, "document.querySelector('.announce.on') !== null")
    shot(page, f"{name}_3_nichts_geht_mehr", settle=False)
    step(page, "learn_us_s6")  # the bottom card, 5±3, came up by itself
    assert page.get_attribute(".board.us .pile .card.top", "data-card") == "5±3"
    hands.us_play("8±1")
    step(page, "learn_us_s7")
    hands.us_play("7±1")
    page.wait_for_selector(".learn-page.done #learn-practice")
    assert "28" in page.inner_text(".coach-text")  # the tutor's 4 + 10 + 10 + 4 minus points
    shot(page, f"{name}_4_done")


def play_sl(page: Any, hands: Hands, shot: Callable[..., Any], name: str) -> None:
    step(page, "learn_sl_s1")
    shot(page, f"{name}_1_play")
    hands.sl_play(0, 0)  # 7h on the 6s
    step(page, "learn_sl_s2")
    hands.sl_play(4, 0)  # Ah on the 7h: wrong
    step(page, "learn_sl_s3")
    assert frozen(page)
    shot(page, f"{name}_2_frozen", settle=False)
    thawed(page)
    hands.sl_play(1, 0)  # 8d on the 7h: place 1 is empty now
    step(page, "learn_sl_s4")
    hands.sl_move(2, 1)  # 10c into the empty place: the joker turns up
    step(page, "learn_sl_s5")
    shot(page, f"{name}_3_joker")
    hands.sl_play(2, 1)  # the joker on the 4s
    step(page, "learn_sl_s6")
    hands.sl_play(0, 1)  # 2c on the joker
    step(page, "learn_sl_s7")
    hands.sl_play(4, 1)  # Ah on the 2c: stalemate
    step(page, "learn_sl_s8")
    wait_for_js(page, "document.querySelector('.announce.on') !== null")
    shot(page, f"{name}_4_stalemate", settle=False)
    step(page, "learn_sl_s9")  # the reserves turned up a jack and a 9
    hands.sl_play(1, 0)  # 10c on the Jh
    wait_for_js(page, "document.querySelector(\".board.sl .place[data-place='1']\")"
                      ".classList.contains('empty')")
    hands.sl_play(3, 1)  # 10d on the 9h
    page.wait_for_selector(".learn-page.done #learn-practice")
    shot(page, f"{name}_5_done")


@pytest.mark.parametrize("how", ["keys", "mouse"])
def test_unter_spannung_tutorial(new_page: Any, shot: Any, how: str) -> None:
    page = new_page(locale="de-DE" if how == "keys" else "en-GB")
    watcher = person(new_page, "Wim")
    hands = Hands(page, how)
    code = start_tutorial(page, hands, "unter-spannung", shot, f"learn_us_{how}")
    assert len(code) == 12
    play_us(page, hands, shot, f"learn_us_{how}")
    # The tutorial table never showed in the lobby list.
    assert watcher.locator(f".table-item[data-code='{code}']").count() == 0
    assert code not in watcher.inner_text("#app")

    # Then practice against beginner bots, with the "what fits" marks (H, or the button).
    if how == "keys":
        page.keyboard.press("p")
    else:
        hands.touch("#learn-practice")
    wait_for_js(page, "document.querySelector('.learn-page')?.dataset.mode === 'practice'")
    wait_for_js(page, PLAYING, timeout=15)
    assert page.locator(".board.us .others .plate").count() == 2
    before = page.get_attribute("#learn-hints", "aria-pressed")
    if how == "keys":
        page.keyboard.press("h")
    else:
        hands.touch("#learn-hints")
    wait_for_js(page, "document.querySelector('#learn-hints').getAttribute('aria-pressed') !== "
                      f"{before!r}")
    shot(page, f"learn_us_{how}_6_practice")


@pytest.mark.parametrize("how", ["keys", "touch"])
def test_schnelllauf_tutorial(new_page: Any, shot: Any, how: str) -> None:
    size = PHONE if how == "touch" else {}
    page = new_page(locale="en-GB" if how == "keys" else "de-DE", touch=how == "touch", **size)
    hands = Hands(page, how)
    start_tutorial(page, hands, "schnelllauf", shot, f"learn_sl_{how}")
    play_sl(page, hands, shot, f"learn_sl_{how}")
    if how == "keys":
        page.keyboard.press("p")
    else:
        hands.touch("#learn-practice")
    wait_for_js(page, PLAYING, timeout=15)
    assert page.locator(".board.sl").count() == 1
    shot(page, f"learn_sl_{how}_6_practice")


def test_phone_tutorial_unter_spannung_by_touch(new_page: Any, shot: Any) -> None:
    page = new_page(locale="de-DE", touch=True, **PHONE)
    hands = Hands(page, "touch")
    start_tutorial(page, hands, "unter-spannung", shot, "learn_us_phone")
    play_us(page, hands, shot, "learn_us_phone")
