"""Test kit for the terminal client: recorded sessions, a pilot that plays by keys, screenshots."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from rich.color import Color, ColorSystem, ColorType
from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from zackzack.bots import Bot
from zackzack.engine.clock import Clock
from zackzack.engine.table import Phase, Settings, Table, TableView
from zackzack.games import schnelllauf as sl
from zackzack.games import unter_spannung as us
from zackzack.games.base import Action, Event, Rules
from zackzack.games.schnelllauf.keys import PLACE_KEYS
from zackzack.games.unter_spannung.board import UsBoard
from zackzack.tui.keys import HAND_KEYS
from zackzack.tui.offline import BotMaker, OfflineSession, Player
from zackzack.tui.results import Results
from zackzack.tui.session import Listener, Lost, Seat

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "tui"
QUICK = Settings(start_ms=1500, between_rounds_ms=2000)
"""A short start countdown (long enough for a busy machine to see it), shorter than the 3 s."""
PERCEIVE_S = 0.25
"""How long a quick player takes to see another seat's card (well inside the reaction window)."""


class Idle:
    """A bot that never acts: the deal decides everything."""

    def stop(self) -> None:
        """Nothing to stop."""


def idle(table: Table, seat: int, rng: random.Random) -> Player:
    """Seat an idle bot."""
    return Idle()


def bot(level: str) -> BotMaker:
    """Seat a real bot of ``level``."""
    return lambda table, seat, rng: Bot(table, seat, level, rng)


class Spy:
    """Passes everything on to the screen and keeps a copy."""

    def __init__(self, listener: Listener, record: Recording) -> None:
        self.listener, self.record = listener, record

    def changed(self, events: Sequence[Event]) -> None:
        self.record.events.extend(events)
        self.listener.changed(events)

    def refused(self, seat: int, code: str, reason: str, lost: Lost | None = None) -> None:
        self.record.refusals.append((seat, code))
        self.record.lost.append(lost)
        self.listener.refused(seat, code, reason, lost)

    def status(self, text: str) -> None:
        self.listener.status(text)

    def measured(self, rtt_ms: int) -> None:
        self.listener.measured(rtt_ms)


class Recording(OfflineSession):
    """An offline session that remembers every action, refusal and event."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.acts: list[tuple[int, Action, int]] = []
        self.refusals: list[tuple[int, str]] = []
        self.lost: list[Lost | None] = []
        self.events: list[Event] = []

    def start(self, listener: Listener) -> None:
        super().start(Spy(listener, self))

    def act(self, seat: int, action: Action) -> None:
        view = self.view(seat)
        assert view is not None and view.state is not None
        self.acts.append((seat, action, getattr(view.state, "version", 0)))
        super().act(seat, action)

    def played(self, seat: int) -> int:
        """How many cards ``seat`` got onto a pile."""
        return sum(1 for e in self.events if e.kind == "played" and getattr(e, "seat", -1) == seat)


def recording(rules: Rules, options: Any, bots: dict[int, BotMaker], *, two: bool = False,
              seed: int = 7, settings: Settings = QUICK, deal: Any = None,
              clock: Clock | None = None) -> Recording:
    """A recorded offline session: one person at seat 0 (or two at seats 0 and 1); its table
    on ``clock`` (``None``: the running loop's)."""
    mine = (0, 1) if two else (0,)
    seats = [Seat("Left"), Seat("Right")] if two else \
        [Seat("You"), *(Seat(f"Bot {s}", "bot") for s in range(1, options.players))]
    return Recording(rules, options, seats, mine, bots, seed=seed, settings=settings,
                     first_round=deal, clock=clock)


def us_deal(hands: Sequence[str], draw_piles: Sequence[str], discard_pile: str,
            penalty_ms: int = 1000) -> us.State:
    """An Unter Spannung round laid out exactly; the deck is the cards named."""
    groups = [text.split() for text in (*hands, *draw_piles, discard_pile)]
    deck = tuple(us.Card.parse(card) for group in groups for card in group)
    options = us.Options(players=len(hands), deck=deck, penalty_ms=penalty_ms)
    return us.parse_deal({"hands": groups[:len(hands)],
                          "draw_piles": groups[len(hands):-1],
                          "discard_pile": groups[-1]}, options)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10) -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out"
        await pilot.pause(0.02)


class Eyes:
    """A quick player's eyes: another seat's card takes ``PERCEIVE_S`` to see, one's own none.

    A pilot that presses before that would answer cards no person could have seen yet.
    """

    def __init__(self) -> None:
        self.versions: tuple[int, ...] = ()
        self.since = 0.0

    def ready(self, view: TableView | None) -> bool:
        """Whether the piles of ``view`` have been on screen long enough to be seen."""
        versions = versions_of(view)
        now = time.monotonic()
        if versions != self.versions:
            self.versions, self.since = versions, now
        return now - self.since >= PERCEIVE_S

    def own(self, view: TableView | None) -> None:
        """The piles of ``view`` changed by one's own hand: seen at once."""
        self.versions, self.since = versions_of(view), time.monotonic() - PERCEIVE_S


def versions_of(view: TableView | None) -> tuple[int, ...]:
    """The pile versions of ``view``."""
    if view is None or view.state is None:
        return ()
    versions = getattr(view.state, "versions", None)
    return tuple(versions) if versions is not None else (view.state.version,)


async def play_out(pilot: Pilot[Any], view: Callable[[], TableView | None],
                   keys: Callable[[TableView], list[str]],
                   before: Callable[[int], Awaitable[object]] | None = None,
                   limit: int = 1500) -> int:
    """Press the keys a quick player would until the match is over; how many presses.

    ``keys(view)`` names the keys for what is on screen (none: wait); ``before(n)`` runs
    before the ``n``-th press (a screenshot, say).
    """
    eyes, presses = Eyes(), 0
    for _ in range(limit):
        now = view()
        if now is not None and now.phase is Phase.OVER:
            return presses
        chosen = keys(now) if now is not None and now.phase is Phase.PLAYING else []
        seen = eyes.ready(now)
        if not chosen or (chosen != ["space"] and not seen):
            await pilot.pause(0.05)
            continue
        if before is not None:
            await before(presses)
        await pilot.press(*chosen)
        presses += 1
        if chosen != ["space"]:
            eyes.own(view())
    raise AssertionError("the match did not end")


def us_keys(board: UsBoard) -> Callable[[TableView], list[str]]:
    """The key a quick player presses, as ``board`` labels the cards: a card that fits the
    top as shown, else Space."""

    def keys(view: TableView) -> list[str]:
        state: us.View = view.state
        assert view.seat is not None
        for place, card in board.keyed(view):
            if us.fits(card, state.top) and place < len(HAND_KEYS):
                return [HAND_KEYS[place]]
        return ["space"] if state.draw_counts[view.seat] else []

    return keys


def sl_keys(view: TableView, seat: int, hand: int) -> list[str]:
    """The keys a quick player presses: a place onto a pile it fits, else a move, else none."""
    state: sl.View = view.state
    places = state.layouts[seat]
    for place, (card, _) in enumerate(places):
        for pile in range(2):
            if card is not None and state.tops[pile] is not None \
                    and sl.fits(card, state.stands[pile]):
                return [PLACE_KEYS[hand][pile][place]]
    empty = [place for place, (card, _) in enumerate(places) if card is None]
    deep = [place for place, (card, under) in enumerate(places) if card is not None and under]
    if empty and deep:
        return [PLACE_KEYS[hand][0][empty[0]], PLACE_KEYS[hand][1][deep[0]]]
    return []


def text(renderable: RenderableType, width: int = 100) -> str:
    """What ``renderable`` shows, as plain text."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def shown(app: App[Any], selector: str) -> str:
    """The plain text of the ``Static`` (or the results) at ``selector`` on the current
    screen (``""`` while the screen has none: it may still be composing)."""
    widget = next(iter(app.screen.query(selector)), None)
    if isinstance(widget, Results):
        return widget.plain()
    if isinstance(widget, Static):
        return text(widget.content)  # type: ignore[arg-type]
    return ""


def screenshot(app: App[Any], name: str) -> None:
    """Save the screen as ``artifacts/tui/NAME.svg``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(ARTIFACTS))


Cell = tuple[str, Color | None, Color | None]
"""One character on screen with its colours as a terminal shows them (``None``: its own)."""


def _shown_colour(color: Color | None, system: ColorSystem | None) -> Color | None:
    return color.downgrade(system) if color is not None and system is not None else color


def cells(app: App[Any], colours: str = "truecolor") -> list[list[Cell]]:
    """The screen's rows as a terminal with ``colours`` (``standard``: 16 colours, as
    ``TEXTUAL_COLOR_SYSTEM=standard``) shows them: each character with its colours (with
    ``NO_COLOR`` set, Textual's filter has made them grey already)."""
    system = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT}.get(colours)
    return [[(char, _shown_colour(segment.style.color if segment.style else None, system),
              _shown_colour(segment.style.bgcolor if segment.style else None, system))
             for segment in strip for char in segment.text]
            for strip in app.screen._compositor.render_strips()]


def readable(rows: list[list[Cell]], words: str) -> bool:
    """Whether ``words`` are on screen in a colour apart from their background (16 colours:
    another colour number; grey: a clear step in lightness)."""
    for row in rows:
        line = "".join(char for char, _, _ in row)
        start = line.find(words)
        if start < 0:
            continue
        return all(_apart(fg, bg) for char, fg, bg in row[start:start + len(words)]
                   if not char.isspace())
    return False


def _apart(fg: Color | None, bg: Color | None) -> bool:
    if fg is None or bg is None:
        return fg is not bg  # the terminal's own foreground on its own background
    if fg.type is ColorType.STANDARD or bg.type is ColorType.STANDARD:
        return fg.number != bg.number
    light = [sum(fg_or_bg.get_truecolor()) / 765 for fg_or_bg in (fg, bg)]
    return abs(light[0] - light[1]) > 0.2


def screenshot16(app: App[Any], name: str) -> None:
    """Save the screen as a 16-colour terminal shows it, as ``artifacts/tui/NAME.svg``."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False,
                      safe_box=False)
    for strip in app.screen._compositor.render_strips():
        row = Text(no_wrap=True, overflow="crop")
        for segment in strip:
            style = segment.style or Style()
            row.append(segment.text, style + Style(
                color=_shown_colour(style.color, ColorSystem.STANDARD),
                bgcolor=_shown_colour(style.bgcolor, ColorSystem.STANDARD)))
        console.print(row)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.svg").write_text(console.export_svg(title=f"{app.title} · 16"),
                                           encoding="utf-8")


class Still:
    """A session whose table never changes: one fixed view, for screens of rare moments."""

    def __init__(self, rules: Rules, view: TableView, seats: Sequence[Seat],
                 mine: tuple[int, ...] = (0,)) -> None:
        self.rules, self._view, self.seats, self.mine = rules, view, tuple(seats), mine
        self.creator = False
        self.reaction_ms = 600
        self.share: str | None = None
        self.rematch: tuple[str, str] | None = None
        self.acts: list[tuple[int, Action]] = []

    async def open(self) -> None:
        """Nothing to open."""

    def start(self, listener: Listener) -> None:
        """Nothing will happen."""

    def view(self, seat: int | None) -> TableView:
        return self._view

    def now(self) -> int:
        return self._view.now

    def act(self, seat: int, action: Action) -> None:
        self.acts.append((seat, action))

    def pending(self, seat: int) -> tuple[Action, ...]:
        """Nothing is ever on its way."""
        return ()

    def ready(self) -> None:
        """Nothing to be ready for."""

    def hold(self, reason: str, held: bool) -> bool:
        """Time stands still anyway."""
        return False

    async def close(self) -> None:
        """Nothing to close."""
