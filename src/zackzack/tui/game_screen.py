"""The game screen: a header, the board (or the results or the waiting room), the countdown
banner, feedback on refused actions, the last events and the key bar."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from zackzack.describe import describe
from zackzack.games.base import Event
from zackzack.race import SLOW_RTT_MS
from zackzack.table import Announced, Phase, TableView
from zackzack.tui import keys
from zackzack.tui.board import Board
from zackzack.tui.dialogs import HelpScreen, QuitDialog, TooSmall, too_small
from zackzack.tui.lobby import waiting
from zackzack.tui.results import results
from zackzack.tui.session import Lost, Session, names
from zackzack.tui.sl_board import SlBoard
from zackzack.tui.texts import known, tr
from zackzack.tui.us_board import UsBoard

FEEDBACK_S = 2.5
"""How long feedback on a refused action stays."""

STYLES = {"too_late": "bold black on yellow", "does_not_fit": "bold white on red",
          "frozen": "bold black on cyan", "penalised": "bold cyan", "round_scored": "bold",
          "match_ended": "bold", "announced": "bold yellow"}
"""How a refusal's feedback or an event's line stands out."""


class GameScreen(Screen[None]):
    """One match at one table, local or remote; it listens to the session."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; layers: base cover; }
    #head { height: 1; background: $primary-background; padding: 0 1; }
    #panel { height: 1fr; padding: 1 2; }
    #banner { height: 1; padding: 0 1; }
    #feedback { height: 1; padding: 0 1; }
    #log { height: 4; padding: 0 1; border-top: solid $primary-background; color: $text-muted; }
    #keys { height: 1; background: $primary-background; padding: 0 1; }
    """

    def __init__(self, session: Session, lang: str,
                 again: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.session, self.lang, self.again = session, lang, again
        two = len(session.mine) == 2
        if session.rules.INFO.name == "schnelllauf":
            self.scheme = keys.schnelllauf(two)
            self.board: Board = SlBoard(session, self.scheme, lang)
        else:
            self.scheme = keys.unter_spannung()
            self.board = UsBoard(session, self.scheme, lang)
        self.log_lines: deque[Text] = deque(maxlen=50)
        self.feedback = Text("")
        self.feedback_code = ""
        self.feedback_until = 0.0
        self.connection = ""
        self.rtt_ms: int | None = None
        """The round trip to the server as last measured (``None``: offline, not yet known)."""
        self.said_ready = False
        self.resume_at = 0.0

    def compose(self) -> ComposeResult:
        """Header, board or panel, banner, feedback, log, keys."""
        yield Static(id="head")
        yield self.board
        yield Static(id="panel")
        yield Static(id="banner")
        yield Static(id="feedback")
        yield Static(id="log")
        yield Static(Text(tr(self.scheme.bar, self.lang)), id="keys")
        yield TooSmall(self.lang)

    def on_mount(self) -> None:
        """Start the session and keep the clocks on screen running."""
        self.set_interval(0.1, self.tick)
        self.session.start(self)
        self.call_after_refresh(self.show)

    async def on_unmount(self) -> None:
        """Stop the bots or the connection."""
        await self.session.close()

    # The listener --------------------------------------------------------------------------

    def changed(self, events: Sequence[Event]) -> None:
        """Log what happened and draw the table afresh."""
        mine = self.session.mine
        reader = mine[0] if len(mine) == 1 else None
        seats = names(self.session.seats)
        view = self.table_view()
        own = {getattr(event, "pile", 0) for event in events
               if event.kind == "played" and getattr(event, "seat", None) in mine}
        if view is not None and view.state is not None and own:
            self.board.sightings.note(self.board.versions(view), view.round, own)
        if view is not None and view.resumes_in is not None:
            self.resume_at = time.monotonic() + view.resumes_in / 1000
        for event in events:
            line = describe(event, seats, self.lang, seat=reader, now=self.session.now())
            if line:
                self.log_lines.append(Text(line, style=STYLES.get(event.kind, "")))
        self.show()

    def refused(self, seat: int, code: str, reason: str, lost: Lost | None = None) -> None:
        """Say clearly why an action was refused: too late (and to whom), does not fit, …"""
        if code == "frozen" and self.feedback_code == "does_not_fit" \
                and time.monotonic() < self.feedback_until:
            return
        self.feedback_code = code
        if code == "too_late" and lost is not None:
            text = self._lost(seat, lost)
        elif known(code):
            text = tr(code, self.lang)
        else:
            text = tr("refused", self.lang, reason=reason)
        if len(self.session.mine) > 1:
            text = f"{self.session.seats[seat].name}: {text}"
        self.feedback = Text(f" {text} ", style=STYLES.get(code, "bold"))
        self.feedback_until = time.monotonic() + FEEDBACK_S
        self.show()

    def _lost(self, seat: int, lost: Lost) -> str:
        """The lost race in words: who was how much faster (the table's step, one's own card)."""
        if lost.winner is None:
            return tr("too_late_step", self.lang, ms=lost.margin_ms)
        if lost.winner == seat:
            return tr("too_late_own", self.lang)
        return tr("too_late_by", self.lang, who=self.board.name_of(lost.winner),
                  ms=lost.margin_ms)

    def status(self, text: str) -> None:
        """Connection news go into the header."""
        self.connection = text
        self.show()

    def measured(self, rtt_ms: int) -> None:
        """The round trip to the server: the header shows it."""
        self.rtt_ms = rtt_ms
        self.show()

    # Drawing -------------------------------------------------------------------------------

    def table_view(self) -> TableView | None:
        """The view from this keyboard's first seat (a spectator's if none)."""
        mine = self.session.mine
        return self.session.view(mine[0] if mine else None)

    def tick(self) -> None:
        """Ten times a second: redraw while a clock runs on screen (countdown, freeze, note)."""
        view, now = self.table_view(), self.session.now()
        if self.feedback.plain or (view is not None and (
                view.phase in (Phase.STARTING, Phase.BETWEEN, Phase.PAUSED)
                or view.countdown is not None
                or max(view.frozen_until, default=0) > now - 200)):
            self.show()

    def show(self) -> None:
        """Draw everything from the session's current view."""
        if not self.is_mounted:
            return
        view, now = self.table_view(), self.session.now()
        head = Text(self.session.rules.INFO.title, style="bold")
        if view is not None:
            head.append(f" · {tr('round', self.lang, n=view.round)}")
        if self.connection:
            head.append(f"   {self.connection}", style="italic yellow")
        elif self.rtt_ms is not None:
            good = self.rtt_ms < SLOW_RTT_MS
            link = tr("link_good" if good else "link_slow", self.lang, ms=self.rtt_ms)
            head.append(f"   {link}", style="dim" if good else "italic yellow")
        self.query_one("#head", Static).update(head)
        phase = view.phase if view is not None else Phase.WAITING
        playing = phase in (Phase.STARTING, Phase.PLAYING, Phase.PAUSED)
        self.board.display = playing
        panel = self.query_one("#panel", Static)
        panel.display = not playing
        if view is not None and phase in (Phase.BETWEEN, Phase.OVER):
            mine = self.session.mine
            panel.update(results(view, self._names(), self.lang, now, self.again is not None,
                                 mine[0] if len(mine) == 1 else None))
        elif not playing:
            panel.update(waiting(self.session.seats, self.session.mine, self.lang,
                                 self.session.creator, self.said_ready))
        if view is not None and view.state is not None:
            self.board.sightings.note(self.board.versions(view), view.round)
        self.board.refresh()
        self.query_one("#banner", Static).update(self._banner(view, now))
        if time.monotonic() > self.feedback_until:
            self.feedback = Text("")
        self.query_one("#feedback", Static).update(self.feedback)
        self.query_one("#log", Static).update(Text("\n").join(list(self.log_lines)[-3:]))

    def _names(self) -> list[str]:
        return [self.board.name_of(seat) for seat in range(len(self.session.seats))]

    def _banner(self, view: TableView | None, now: int) -> Text:
        if view is None:
            return Text("")
        if view.phase is Phase.PAUSED:
            left = self.resume_at - time.monotonic()
            key, s = ("resuming", f"{left:.1f}") if left > 0 else ("paused", "")
            return Text(tr(key, self.lang, s=s), style="bold black on cyan")
        if view.phase is Phase.STARTING and view.starts_at is not None:
            left = max(0, view.starts_at - now) / 1000
            return Text(tr("starts_in", self.lang, s=f"{left:.1f}"), style="bold reverse")
        if view.countdown is not None and view.phase is Phase.PLAYING:
            shown = Announced(view.countdown.step, view.countdown.due)
            tenths = -(-max(0, shown.due - now) // 100) * 100
            return Text(describe(shown, self._names(), self.lang, now=shown.due - tenths),
                        style="bold black on yellow")
        prompt = self.board.prompt()
        return Text(prompt, style="bold") if prompt else Text("")

    # Keys ----------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Look the key up in the game's scheme and do it."""
        command = self.scheme.command(event.key)
        if command is None or too_small(self):
            return
        event.stop()
        event.prevent_default()
        view = self.table_view()
        phase = view.phase if view is not None else Phase.WAITING
        if isinstance(command, keys.ShowHelp):
            self.app.push_screen(HelpScreen(self.scheme, self.lang))
        elif isinstance(command, keys.AskQuit) or (
                isinstance(command, keys.Cancel) and not self.board.cancel()):
            self.ask_quit()
        elif isinstance(command, keys.Confirm) and phase is Phase.OVER:
            if self.again is not None:
                self.again()
        elif isinstance(command, keys.Confirm) and phase is Phase.WAITING:
            self.said_ready = True
            self.session.ready()
        else:
            self.board.command(command)
        self.show()

    def match_on(self) -> bool:
        """Whether quitting now would leave a match unfinished."""
        view = self.table_view()
        return view is not None and view.phase is not Phase.OVER

    def ask_quit(self) -> None:
        """Quit; while a match is on, ask first."""
        if not self.match_on():
            self.app.exit()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(QuitDialog(self.lang), answer)
