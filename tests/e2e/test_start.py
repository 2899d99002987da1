"""The first page: it needs no request of its own (the words and the games are in the page),
and a remembered draft naming a game the server does not play still shows the lobby."""

from __future__ import annotations

import json
from typing import Any

GONE = {"game": "gone", "find_game": "gone", "seats": [{"kind": "open"}] * 9,
        "jokers": 2, "options": {"gone": {"x": 1}}}


def test_a_draft_naming_an_unknown_game_still_shows_the_lobby(new_page: Any) -> None:
    page = new_page(locale="en-US")
    page.add_init_script(f"localStorage.setItem('zz.draft', {json.dumps(json.dumps(GONE))})")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto("/")
    page.wait_for_selector("#create-form")
    # The first game stands in for the one that is gone, with the seats it takes.
    assert page.is_checked("input[name=game][value='unter-spannung']")
    assert page.locator("#create-form .seat-row").count() == 6
    assert page.input_value("#find-game") == "unter-spannung"
    assert "Tables" in page.inner_text(".lobby")
    assert not [url for url in asked if url.endswith(("/words.json", "/api/games"))]


def test_a_games_options_are_named_by_its_own_words(new_page: Any) -> None:
    page = new_page(locale="en-US")
    page.goto("/")
    page.click("label.game-tile:has(input[value='schnelllauf']) b")
    form = page.inner_text("#create-form")
    assert "Jokers per deck" in form and "Ace between K and 2" in form
    assert page.input_value("#create-form input[name=jokers]") == "3"
    page.click("label.game-tile:has(input[value='unter-spannung']) b")
    assert "Tournament" in page.inner_text("#create-form")
    assert page.locator("#create-form input[name=jokers]").count() == 0


def edited_page(page: Any, edit: Any) -> None:
    """Serve the page with its JSON blocks changed by ``edit(name, data)``."""
    import re

    def handle(route: Any) -> None:
        html = route.fetch().text()

        def block(found: Any) -> str:
            data = edit(found.group(1), json.loads(found.group(2)))
            text = json.dumps(data).replace("<", "\\u003c")
            return f'<script type="application/json" id="{found.group(1)}">{text}</script>'

        html = re.sub(r'<script type="application/json" id="([\w-]+)">(.*?)</script>', block,
                      html, flags=re.S)
        route.fulfill(body=html, content_type="text/html")

    page.route(lambda url: url.endswith("/"), handle)


def test_with_no_game_the_lobby_still_shows(new_page: Any) -> None:
    page = new_page(locale="en-US")
    edited_page(page, lambda name, data: {"games": []} if name == "zz-games" else data)
    page.goto("/")
    page.wait_for_selector(".lobby h2")
    assert "Tables" in page.inner_text(".lobby")
    assert page.locator("#create-form").count() == 0


def test_a_new_games_events_are_said_by_its_own_keys(new_page: Any) -> None:
    """describe.js says an event of a game by "<game>.<kind>" (and "_you"), as describe.py."""
    def edit(name: str, data: Any) -> Any:
        if name == "zz-words":
            data["en"]["events"]["hoeher.raised"] = "{who} raises to {card} ({left} left)"
            data["en"]["events"]["hoeher.raised_you"] = "You raise to {card}"
        return data

    page = new_page(locale="en-US")
    edited_page(page, edit)
    page.goto("/")
    page.wait_for_selector(".lobby h2")
    address = page.get_attribute("link[rel=modulepreload][href$='/js/describe.js']", "href")
    said = page.evaluate("""async (address) => {
      const { describe } = await import(address);
      const line = (me) => describe({ type: "raised", seat: 0, card: "7", left: 3 },
        { game: "hoeher", who: () => "Anna", me }).map((p) => p.textContent ?? p).join("");
      return [line(null), line(0)];
    }""", address)
    assert said == ["Anna raises to 7 (3 left)", "You raise to 7"]


def test_a_games_handicaps_are_boxes_on_its_seat_rows(new_page: Any) -> None:
    """Handicaps as /api/games gives them ({kind: {option, value}}; set here so the test does
    not wait for the server's entry): a box per seat sets that seat's item of the option."""
    def edit(name: str, data: Any) -> Any:
        if name == "zz-games":
            for game in data["games"]:
                if game["name"] == "schnelllauf":
                    game["handicaps"] = {"pile": {"option": "pile_size", "value": 4},
                                         "one-hand": {"option": "one_hand_seats", "value": True}}
        return data

    page = new_page(locale="en-US")
    edited_page(page, edit)
    page.goto("/")
    page.click("label.game-tile:has(input[value='schnelllauf']) b")
    assert "4 cards per pile" in page.inner_text("#create-form .seat-row")
    page.check("input[name=seat-0-pile]")
    page.check("input[name=seat-1-one-hand]")
    draft = json.loads(page.evaluate("localStorage.getItem('zz.draft')"))
    assert draft["options"]["schnelllauf"]["pile_size"] == [4, 3]
    assert draft["options"]["schnelllauf"]["one_hand_seats"] == [False, True]
