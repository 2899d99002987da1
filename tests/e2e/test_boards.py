"""The boards without traps (issue 10): Schnelllauf asks for the pile only when the card
leaves a choice and a pile alone arms nothing; Unter Spannung's keys stay with their cards;
hints mark exactly the cards that fit; "los!" never covers a pile; cards are labelled
buttons. Two people at a table with an explicit deal (nobody else plays), on a desktop and
on a phone.
"""

from __future__ import annotations

from typing import Any

import pytest

from e2e.kit import (
    create_by_message,
    dealt,
    frozen,
    person,
    sit_down,
    sl_fits,
    sl_state,
    us_fits,
    us_state,
    wait_for_js,
    wait_until,
)
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"width": 1280, "height": 800},
         "phone": {"width": 390, "height": 844, "touch": True}}

PLACE = ".board.sl .side.me .place[data-place='{}']"
PILE = ".board.sl .pile-zone[data-pile='{}'] .pile"

# Records, every frame from now on, where the start call ("los!", "3", …) is while a board is
# shown, and where the piles are: a call that covers a pile in any frame is caught (faint or
# not: on a busy machine a frame may come only as the call fades in).
WATCH_STARTER = """() => {
  window.starterSeen = [];
  const frame = () => {
    const starter = document.querySelector('.starter');
    const piles = [...document.querySelectorAll('.board .pile')];
    const text = starter?.textContent ?? '';
    if (text && piles.length) {
      const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
      window.starterSeen.push({text, starter: box(starter), piles: piles.map(box)});
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


def two_people(new_page: Any, shot: Any, size: str, game: str) -> tuple[Any, Any]:
    """Anna (seat 0, at ``size``) makes the table, Ben sits down, Anna starts; a picture of
    Anna's "los!" if it is still there."""
    anna = person(new_page, "Anna", **SIZES[size])
    ben = person(new_page, "Ben")
    code = create_by_message(anna, {"type": "create", "game": game, "options": {},
                                    "seats": [{"kind": "open"}, {"kind": "open"}]})
    anna.evaluate(WATCH_STARTER)
    sit_down(ben, code)
    anna.locator("#start:not([disabled])").click()
    wait_for_js(anna, "window.starterSeen.some(s => s.text === 'los!')")
    shot(anna, f"board_{'sl' if game == 'schnelllauf' else 'us'}_los_{size}", settle=False)
    wait_for_js(ben, "document.querySelector('.table-page')?.dataset.phase === 'playing'")
    return anna, ben


def apart(box: dict[str, float], other: dict[str, float]) -> bool:
    return (box["right"] <= other["left"] or other["right"] <= box["left"]
            or box["bottom"] <= other["top"] or other["bottom"] <= box["top"])


def assert_los_beside_the_piles(page: Any) -> None:
    """"los!" was shown over the board, and in no frame did it overlap a pile; nor does the
    call of a played card ("7!"), which stays where it pops up."""
    wait_for_js(page, "window.starterSeen.some(s => s.text === 'los!')")
    seen = page.evaluate("window.starterSeen")
    for sample in seen:
        for pile in sample["piles"]:
            assert apart(sample["starter"], pile), \
                f"{sample['text']!r} at {sample['starter']} covers a pile at {pile}"
    call = page.evaluate("""() => { const r = document.querySelector('.board .call')
      .getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
      bottom: r.bottom}; }""")
    for pile in seen[-1]["piles"]:
        assert apart(call, pile), f"the call at {call} covers a pile at {pile}"


def press(page: Any, size: str, selector: str) -> None:
    """A click on the desktop, a tap on the phone."""
    if size == "phone":
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


# Schnelllauf --------------------------------------------------------------------------------


def sl_deal() -> dict[str, Any]:
    """Piles 7h and 7c. Anna's places show 8d (fits both), 6s, a joker (fits both), 5d and 2c;
    Ben's show two jokers, so somebody can always play and no stalemate flip moves a pile."""
    rest = [str(card) for card in sl.deck(3)] * 2

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    piles = [take("7h"), take("7c")]
    tops = [take("8d", "6s", "*", "5d", "2c"), take("*", "*", "Qd", "Jd", "10d")]
    layouts = [[[rest.pop(), rest.pop(), top] for top in seat_tops] for seat_tops in tops]
    half = len(rest) // 2
    return {"layouts": layouts, "reserves": [rest[:half], rest[half:]], "discard_piles": piles}


def sl_tops(page: Any) -> list[str | None]:
    state = sl_state(page)
    assert state is not None
    return list(state["tops"])


def asking(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('.board.sl.choosing-pile') !== null"))


def prompt_text(page: Any) -> str:
    return str(page.inner_text(".board.sl .choose-prompt"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_schnelllauf_asks_for_the_pile_only_when_there_is_a_choice(
        new_page: Any, shot: Any, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    with dealt(monkeypatch, sl_deal()):
        anna, _ben = two_people(new_page, shot, size, "schnelllauf")
    wait_for_js(anna, "document.querySelector(\"" + PLACE.format(0) + " > .card\")"
                      "?.dataset.card === '8d'")
    assert_los_beside_the_piles(anna)

    # Labels: the places are buttons that say what a press does, the piles name their tops.
    place = anna.locator(PLACE.format(0))
    assert place.get_attribute("role") == "button"
    assert place.get_attribute("aria-label") == "Karo 8 spielen, Taste 1, 2 darunter"
    assert anna.locator(PLACE.format(2)).get_attribute("aria-label") == \
        "Joker spielen, Taste 3, 2 darunter"
    assert anna.locator(PILE.format(0)).get_attribute("aria-label") == \
        "Linker Stapel: Herz 7, Taste Q"

    # The help lists the keys: a card, the pile when asked, the hints.
    anna.keyboard.press("?")
    keys = anna.wait_for_selector("#help[open] .keys").inner_text()
    assert "dann Q / W" in keys and "Hilfen an / aus" in keys
    shot(anna, f"board_sl_help_{size}")
    anna.keyboard.press("Escape")
    anna.wait_for_selector("#help[open]", state="detached")

    # 8d fits both piles: its key asks "to which pile?" (visibly, and said); Esc lets go.
    anna.keyboard.press("1")
    wait_until(lambda: asking(anna))
    assert "Auf welchen Stapel?" in prompt_text(anna)
    wait_for_js(anna, "document.getElementById('live').textContent"
                      ".includes('Karo 8: auf welchen Stapel? Q links, W rechts')")
    assert anna.locator(PLACE.format(0) + ".selected").count() == 1
    shot(anna, f"board_sl_which_pile_{size}")
    # A language switch while asking asks again, in the new words.
    anna.keyboard.press("Shift+L")
    wait_until(lambda: "To which pile?" in prompt_text(anna))
    assert asking(anna)
    anna.keyboard.press("Shift+L")
    wait_until(lambda: "Auf welchen Stapel?" in prompt_text(anna))
    anna.keyboard.press("Escape")
    wait_until(lambda: not asking(anna))
    assert prompt_text(anna).strip() == ""
    assert sl_tops(anna) == ["7h", "7c"]

    # ... and then W says the right pile.
    anna.keyboard.press("1")
    wait_until(lambda: asking(anna))
    anna.keyboard.press("w")
    wait_until(lambda: sl_tops(anna) == ["7h", "8d"])
    assert not asking(anna)

    # The joker fits both: a tap asks, a tap on the left pile answers.
    press(anna, size, PLACE.format(2) + " > .card")
    wait_until(lambda: asking(anna))
    press(anna, size, PILE.format(0))
    wait_until(lambda: sl_tops(anna) == ["*", "8d"])

    # A pile alone arms nothing: after a tap on the right pile, 6s (which now fits neither
    # pile) is not played there but asks, like any card that leaves a choice.
    press(anna, size, PILE.format(1))
    assert not asking(anna)
    assert anna.locator(".board.sl .pile-zone.armed").count() == 0
    note = anna.wait_for_selector(".board.sl .choose-prompt .board-note:not(:empty)")
    assert note.inner_text() == "Wähle zuerst eine Karte (1–5)."
    press(anna, size, PLACE.format(1) + " > .card")
    wait_until(lambda: asking(anna))
    assert sl_tops(anna) == ["*", "8d"] and not frozen(anna)
    press(anna, size, ".board.sl .prompt-cancel")
    wait_until(lambda: not asking(anna))

    # After another tap on the right pile, 5d (which fits the left pile only) goes left at once.
    press(anna, size, PILE.format(1))
    press(anna, size, PLACE.format(3) + " > .card")
    wait_until(lambda: sl_tops(anna) == ["5d", "8d"])
    assert not asking(anna) and not frozen(anna)

    # Hints (H): exactly the cards that fit a pile now wear the tick, and say "passt".
    anna.keyboard.press("h")
    state = sl_state(anna)
    assert state is not None
    expected = [k for k, spot in enumerate(state["mine"]) if spot["card"] and any(
        sl_fits(spot["card"], state["tops"][p], state["stands"][p]) for p in (0, 1))]
    marked = anna.eval_on_selector_all(
        ".board.sl .side.me .place", "els => els.flatMap((el, k) => "
        "el.querySelector(':scope > .card.fits') ? [k] : [])")
    assert marked == expected and expected, (marked, expected)
    for k in range(5):
        label = anna.locator(PLACE.format(k)).get_attribute("aria-label") or ""
        assert label.endswith("passt") == (k in expected), label
    assert anna.evaluate("localStorage.getItem('zz.hints')") == "1"
    shot(anna, f"board_sl_hints_{size}")
    anna.keyboard.press("h")
    wait_until(lambda: anna.locator(".board.sl .card.fits").count() == 0)

    # In English the same labels (Shift+L switches the language).
    anna.keyboard.press("Shift+L")
    wait_until(lambda: anna.locator(PLACE.format(1)).get_attribute("aria-label")
               == "Play 6 of spades, key 2, 2 below")
    assert anna.locator(PILE.format(1)).get_attribute("aria-label") == \
        "Right pile: 8 of diamonds, key W"


# Unter Spannung -----------------------------------------------------------------------------


def us_deal() -> dict[str, Any]:
    """5±1 on the pile (4 or 6 fit). Anna holds 6±2, 1±1, 2±2 and 4±3: sorted, 4±3 has key 3
    and 6±2 key 4; after 4±3 (1 or 7 fit) her 1±1 follows. Her next draw is 8±3."""
    rest = [str(card) for card in us.Options(players=2).deck]

    def take(*cards: str) -> list[str]:
        for card in cards:
            rest.remove(card)
        return list(cards)

    anna = take("6±2", "1±1", "2±2", "4±3")
    ben = take("9±1", "9±2", "10±1", "10±2")
    start = take("5±1")
    next_draw = take("8±3")
    half = len(rest) // 2
    return {"hands": [anna, ben], "draw_piles": [rest[:half] + next_draw, rest[half:]],
            "discard_pile": start}


def keys_of(page: Any) -> dict[str, str]:
    state = us_state(page)
    assert state is not None
    return {card["card"]: card["key"] for card in state["hand"]}


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_unter_spannung_keys_stay_with_their_cards(
        new_page: Any, shot: Any, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    with dealt(monkeypatch, us_deal()):
        anna, _ben = two_people(new_page, shot, size, "unter-spannung")
    wait_for_js(anna, "document.querySelectorAll('.board.us .hand .card').length === 4")
    assert_los_beside_the_piles(anna)
    assert keys_of(anna) == {"1±1": "1", "2±2": "2", "4±3": "3", "6±2": "4"}

    # Buttons with labels; the pile names its top card.
    card = anna.locator(".board.us .hand .card[data-card='6±2']")
    assert card.get_attribute("role") == "button"
    assert card.get_attribute("aria-label") == "6 ±2 spielen, Taste 4"
    assert anna.get_attribute(".board.us .pile", "aria-label") == "Ablagestapel, oben 5 ±1"

    # Hints: exactly the fitting cards (4±3 and 6±2 on 5±1) wear the tick.
    anna.keyboard.press("h")
    wait_until(lambda: anna.locator(".board.us .hand .card.fits").count() > 0)
    state = us_state(anna)
    assert state is not None
    fitting = sorted(c["card"] for c in state["hand"] if us_fits(c["card"], state["top"]))
    marked = sorted(anna.eval_on_selector_all(".board.us .hand .card.fits",
                                              "els => els.map(el => el.dataset.card)"))
    assert marked == fitting == ["4±3", "6±2"]
    assert card.get_attribute("aria-label") == "6 ±2 spielen, Taste 4 – passt"
    shot(anna, f"board_us_hints_{size}")

    # A chain planned by keys: 3 (4±3), then 1 (1±1). The 6±2 keeps its key 4 throughout.
    anna.keyboard.press("3")
    wait_until(lambda: (us_state(anna) or {}).get("top") == "4±3")
    assert keys_of(anna) == {"1±1": "1", "2±2": "2", "6±2": "4"}
    # The hints follow the new top: on 4±3 only 1±1 fits.
    wait_until(lambda: anna.eval_on_selector_all(
        ".board.us .hand .card.fits", "els => els.map(el => el.dataset.card)") == ["1±1"])
    anna.keyboard.press("1")
    wait_until(lambda: (us_state(anna) or {}).get("top") == "1±1")
    assert keys_of(anna) == {"2±2": "2", "6±2": "4"}
    # The new top card is said in the page's polite region.
    wait_for_js(anna, "document.getElementById('live').textContent.includes('Oben liegt 1 ±1')")

    # A drawn card takes the first free key.
    anna.keyboard.press("d")
    wait_until(lambda: len(keys_of(anna)) == 3)
    assert keys_of(anna) == {"8±3": "1", "2±2": "2", "6±2": "4"}
    shot(anna, f"board_us_stable_keys_{size}")
    anna.keyboard.press("h")
    wait_until(lambda: anna.locator(".board.us .hand .card.fits").count() == 0)
    assert anna.evaluate("localStorage.getItem('zz.hints')") == "0"
    anna.keyboard.press("Shift+L")  # English: the same keys, the labels in English
    wait_until(lambda: anna.locator(".board.us .hand .card[data-card='6±2']")
               .get_attribute("aria-label") == "Play 6 ±2, key 4")
    assert anna.get_attribute(".board.us .pile", "aria-label") == "Discard pile, top card 1 ±1"
