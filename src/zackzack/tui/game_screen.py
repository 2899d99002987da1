"""The game screen: a header, the board (or the results or the waiting room), the countdown
banner, feedback on refused actions, the last events and the key bar."""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from zackzack.engine.race import SLOW_RTT_MS
from zackzack.engine.table import Announced, MatchEnded, Phase, RoundStarted, TableView
from zackzack.games import entry
from zackzack.games.base import Event
from zackzack.tui import keys
from zackzack.tui.board import MOVE_S, Board
from zackzack.tui.dialogs import HelpScreen, QuitDialog, TooSmall, too_small
from zackzack.tui.lobby import waiting
from zackzack.tui.results import Results, unit
from zackzack.tui.session import Lost, Session, names
from zackzack.tui.texts import in_s, known, tr
from zackzack.words.describe import describe

FEEDBACK_S = 2.5
"""How long feedback on a refused action stays."""

LOG_ROWS = 3
"""The rows of the log of events below the board."""

STYLES = {"too_late": "bold black on yellow", "does_not_fit": "bold white on red",
          "frozen": "bold black on cyan", "penalised": "bold cyan", "round_scored": "bold",
          "match_ended": "bold", "announced": "bold yellow", "round_started": "bold"}
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
                 again: Callable[[], None] | None = None, layout: str | None = None) -> None:
        """``again`` starts the next match (``None``: none); ``layout``: the keyboard's
        (``qwerty``, ``qwertz``, ``azerty``; ``None``: the usual one for ``lang``)."""
        super().__init__()
        self.session, self.lang, self.again = session, lang, again
        self.board: Board = entry(session.rules.INFO.name).board(session, lang, layout)
        self.scheme = self.board.scheme
        self.log_lines: deque[Text] = deque(maxlen=50)
        self.feedback = Text("")
        self.feedback_code = ""
        self.feedback_until = 0.0
        self.connection = ""
        self.rtt_ms: int | None = None
        """The round trip to the server as last measured (``None``: offline, not yet known)."""
        self.said_ready = False
        self.again_asked = False
        """Enter asked for the next match already (a second Enter must not reach it)."""
        self.resume_at = 0.0
        self.small = False
        """Whether the terminal was too small at the last tick."""
        self.holds: set[str] = set()
        """Why this keyboard looks away now (``help``, ``quit``, ``small``)."""
        self.own_pause = False
        """The table stands still because this keyboard looked away (not because all left),
        until it has resumed."""
        self.leaving = False
        """Esc left the table for the level above: the session leaves the table for good
        (a server's frees the seat, or shows the person gone), not only closes."""

    def compose(self) -> ComposeResult:
        """Header, board or panel, banner, feedback, log, keys."""
        yield Static(id="head")
        yield self.board
        yield Static(id="panel")
        yield Results(self.lang, id="results")
        yield Static(id="banner")
        yield Static(id="feedback")
        yield Static(id="log")
        yield Static(Text(tr(self.scheme.bar, self.lang, **self.scheme.bar_fields)), id="keys")
        yield TooSmall(self.lang)

    def on_mount(self) -> None:
        """Start the session and keep the clocks on screen running."""
        self.set_interval(0.1, self.tick)
        self.session.start(self)
        why = getattr(self.session, "watching_because", "")
        if why and known(f"watch_{why}"):  # sat down at a full table: a watcher, and told so
            self.log_lines.append(Text(tr(f"watch_{why}", self.lang), style="bold yellow"))
        self.call_after_refresh(self.show)

    async def on_unmount(self) -> None:
        """Stop the bots or the connection (after leaving the table, when Esc left it)."""
        leave: Callable[[], Awaitable[None]] | None = getattr(self.session, "leave", None)
        if self.leaving and leave is not None:
            await leave()
        else:
            await self.session.close()

    # The listener --------------------------------------------------------------------------

    def changed(self, events: Sequence[Event]) -> None:
        """Log what happened and draw the table afresh."""
        mine = self.session.mine
        reader = mine[0] if len(mine) == 1 else None
        seats = names(self.session.seats)
        view = self.table_view()
        own: dict[int, set[int]] = {}
        for event in events:
            seat = getattr(event, "seat", None)
            if event.kind == "played" and seat in mine:
                own.setdefault(seat, set()).add(getattr(event, "pile", 0))
        if view is not None and view.state is not None and own:
            self.board.note(view, own)
        if view is not None and view.resumes_in is not None:
            self.resume_at = time.monotonic() + view.resumes_in / 1000
        for event in events:
            line = self._line(event, seats, reader)
            if line:
                self.log_lines.append(Text(line, style=STYLES.get(event.kind, "")))
        self.show()

    def _line(self, event: Event, seats: Sequence[str], reader: int | None) -> str:
        """The log's line for ``event``: cards as on the board; "go!" when play begins (the
        banner counts the start down); a pause of one's own is not news."""
        if event.kind in ("paused", "resuming", "resumed") and self.own_pause:
            self.own_pause = event.kind != "resumed" or bool(self.holds)
            return ""
        if event.kind == "starting":
            return ""
        if isinstance(event, RoundStarted):
            return tr("round_go", self.lang, n=event.number)
        if isinstance(event, MatchEnded):  # the places in this language (the reasons are not)
            what = unit(self.session.rules.INFO.name, self.lang)
            return tr("match_ended", self.lang, placings=", ".join(
                f"{p.place}. {self.board.name_of(p.seat)} ({p.score} {what})"
                for p in event.result.placings))
        return self.board.readable(event, describe(event, seats, self.lang, seat=reader,
                                                   now=self.session.now(),
                                                   game=self.session.rules.INFO.name))

    def refused(self, seat: int, code: str, reason: str, lost: Lost | None = None) -> None:
        """Say clearly why an action was refused: too late (and to whom), does not fit, …"""
        if code == "frozen" and self.feedback_code == "does_not_fit" \
                and time.monotonic() < self.feedback_until:
            return
        self.feedback_code = code
        waiting = [str(i + 1) for i, found in enumerate(self.session.seats)
                   if found.kind == "open" or (found.kind == "human" and not found.ready)]
        if code == "too_late" and lost is not None:
            text = self._lost(seat, lost)
        elif code == "not_ready" and waiting:  # seats counted from 1, as on screen
            text = tr("not_ready_seats", self.lang, seats=", ".join(waiting))
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
        """Ten times a second: hold the table while the terminal is too small; redraw while
        a clock runs on screen (countdown, freeze, note)."""
        if too_small(self) != self.small:
            self.small = too_small(self)
            self.hold("small", self.small)
        gone = self.board.timed_out()
        if gone:
            self.say(gone, {"s": f"{MOVE_S:g}"})
        view, now = self.table_view(), self.session.now()
        if self.feedback.plain or self.board.prompt() or (view is not None and (
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
            rounds = self._rounds()
            head.append(" · " + (tr("round_of", self.lang, n=view.round, of=rounds) if rounds
                                 else tr("round", self.lang, n=view.round)))
        mine = self.session.mine
        own = self.session.seats[mine[0]].name if len(mine) == 1 else ""
        if own and own != tr("you", self.lang):
            head.append(f" · {own}", style="italic")  # the name the others see
        if self.connection:
            head.append(f"   {self.connection}", style="italic yellow")
        elif self.rtt_ms is not None:
            good = self.rtt_ms < SLOW_RTT_MS
            link = tr("link_good" if good else "link_slow", self.lang, ms=self.rtt_ms)
            head.append(f"   {link}", style="dim" if good else "italic yellow")
        self.query_one("#head", Static).update(head)
        phase = view.phase if view is not None else Phase.WAITING
        scores = view is not None and self._scores(view)
        paused = not scores and phase is Phase.PAUSED  # no free look at the cards meanwhile
        playing = not scores and phase in (Phase.STARTING, Phase.PLAYING)
        self.board.display = playing
        bar = tr(self.scheme.bar, self.lang, **self.scheme.bar_fields) if playing or paused \
            else tr("bar_idle", self.lang, esc=self._esc())  # the game's keys where they play
        self.query_one("#keys", Static).update(Text(bar))
        panel = self.query_one("#panel", Static)
        panel.display = not playing and not scores
        standings = self.query_one(Results)
        standings.display = scores
        if view is not None and scores:
            mine = self.session.mine
            standings.show(view, self._names(), now, self._end(),
                           mine[0] if len(mine) == 1 else None)
        elif paused:
            panel.update(Text(tr("paused_hidden", self.lang), style="italic"))
        elif not playing:
            panel.update(waiting(self.session.seats, self.session.mine, self.lang,
                                 self.session.creator, self.said_ready, self.session.share))
        if view is not None and view.state is not None:
            self.board.note(view)
        self.board.refresh()
        self.query_one("#banner", Static).update(self._banner(view, now))
        if time.monotonic() > self.feedback_until:
            self.feedback = Text("")
        self.query_one("#feedback", Static).update(self.feedback)
        self.query_one("#log", Static).update(self._log_tail())

    def _log_tail(self, rows: int = LOG_ROWS) -> Text:
        """The latest log lines that fit into ``rows`` rows as wrapped at the log's width (a
        long line, "Match over: …" with five players, is shown whole, never cut off)."""
        log = self.query_one("#log", Static)
        width = log.content_size.width or max(20, self.app.size.width - 2)
        shown: list[Text] = []
        for line in reversed(self.log_lines):
            rows -= len(line.wrap(self.app.console, width))
            if rows < 0 and shown:
                break
            shown.insert(0, line)
            if rows <= 0:
                break
        return Text("\n").join(shown)

    def _rounds(self) -> int:
        """How many rounds the match has when that is fixed (a game's tournament, such as
        2 × players); 0: not fixed (one round, or until someone has no cards). Offline the
        match says; a server's table says by its options (a tournament, and how many play)."""
        table = getattr(self.session, "table", None)
        rounds = getattr(getattr(table, "match", None), "rounds", 0)
        options = getattr(self.session, "options", None)
        found = entry(self.session.rules.INFO.name)
        tournament = found.front.tournament
        if table is None and isinstance(options, dict) and tournament is not None \
                and options.get(tournament.option) and "players" in options:
            with contextlib.suppress(ValueError, TypeError):
                rounds = found.front.rounds_per_match(found.rules.parse_options(options))
        return rounds if isinstance(rounds, int) and rounds > 1 else 0

    def _may_again(self) -> bool:
        """Whether Enter starts another match: offline, or a rematch for a seated player."""
        return self.again is not None and (self.session.share is None or bool(self.session.mine))

    def _end(self) -> str:
        """What the keys do after the match: play again (offline), a rematch, or quit."""
        esc = self._esc()
        if not self._may_again():
            return tr("again_remote", self.lang, esc=esc)
        if self.session.share is None:
            return tr("again", self.lang, esc=esc)
        offer = self.session.rematch
        if offer is not None and offer[1]:
            return tr("rematch_offer", self.lang, who=offer[1], esc=esc)
        return tr("rematch_key", self.lang, esc=esc)

    def _esc(self) -> str:
        """What Esc does here, in words: back to the lobby or the start screen, or quit."""
        can_leave: Callable[[], bool] = getattr(self.app, "can_leave", lambda: False)
        if not can_leave():
            return tr("esc_quit", self.lang)
        return tr("esc_lobby" if getattr(self.app, "lobby", None) is not None else "esc_start",
                  self.lang)

    @staticmethod
    def _scores(view: TableView) -> bool:
        """Whether the results are on screen: between rounds (paused there too), at the end."""
        return view.phase in (Phase.BETWEEN, Phase.OVER) or (
            view.phase is Phase.PAUSED and view.next_round_at is not None)

    def _names(self) -> list[str]:
        return [self.board.name_of(seat) for seat in range(len(self.session.seats))]

    def _banner(self, view: TableView | None, now: int) -> Text:
        if view is None:
            return Text("")
        if view.phase is Phase.PAUSED:
            left = self.resume_at - time.monotonic()
            key, s = ("resuming", str(in_s(left * 1000))) if left > 0 else (
                "paused_here" if self.own_pause else "paused", "")
            return Text(tr(key, self.lang, s=s), style="bold black on cyan")
        if view.phase is Phase.STARTING and view.starts_at is not None:
            left = in_s(view.starts_at - now)
            return Text(tr("starts_in", self.lang, s=left), style="bold reverse")
        idle = self._idle(view, now)
        if idle:
            return Text(idle, style="bold black on red")
        if view.countdown is not None and view.phase is Phase.PLAYING:
            shown = Announced(view.countdown.step, view.countdown.due)
            tenths = -(-max(0, shown.due - now) // 100) * 100
            return Text(describe(shown, self._names(), self.lang, now=shown.due - tenths),
                        style="bold black on yellow")
        prompt = self.board.prompt()
        return Text(prompt, style="bold") if prompt else Text("")

    def _idle(self, view: TableView, now: int) -> str:
        """The idle rule's words to the person at this keyboard (docs/rules.md): the table
        waits on them (with the countdown to the stand-in), or a stand-in plays for them."""
        seats, mine = self.session.seats, self.session.mine
        if view.phase is not Phase.PLAYING or len(mine) != 1 or mine[0] >= len(seats):
            return ""
        seat = seats[mine[0]]
        if seat.stand_in:
            return tr("stand_in_playing_you", self.lang)
        if seat.stand_in_at is not None:
            return tr("stand_in_you", self.lang, s=max(0, -(-(seat.stand_in_at - now) // 1000)))
        return ""

    # Keys ----------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Look the key up in the game's scheme and do it; a play before play begins (or a
        bare Enter with no card chosen) is answered with a short message, never sent."""
        command = self.scheme.command(event.key)
        view = self.table_view()
        phase = view.phase if view is not None else Phase.WAITING
        if event.key == "c" and phase is Phase.WAITING and self.session.share:
            self.app.copy_to_clipboard(self.session.share)  # OSC 52, where the terminal has it
            self.say("copied")
            event.stop()
            return
        if command is None or too_small(self):
            return
        event.stop()
        event.prevent_default()
        if isinstance(command, keys.ShowHelp):
            self.hold("help", True)
            self.app.push_screen(HelpScreen(self.scheme, self.lang),
                                 lambda _: self.hold("help", False))
        elif isinstance(command, keys.AskQuit):
            self.ask_quit()
        elif isinstance(command, keys.Cancel):
            if not self.board.cancel(command.hand) and command.hand != 1:
                self.ask_quit(back=True)  # the right player's Backspace only ever cancels
        elif isinstance(command, keys.Confirm) and phase is Phase.OVER:
            if self._may_again() and not self.again_asked and self.again is not None:
                self.again_asked = True  # a second Enter must not play in the new match
                self.again()
        elif isinstance(command, keys.Confirm) and phase is Phase.WAITING:
            self.said_ready = True
            self.session.ready()
        elif isinstance(command, keys.MoveCursor) and view is not None and self._scores(view):
            self.query_one(Results).scroll(command.dx, command.dy)
        elif phase is not Phase.PLAYING:
            if view is not None and phase is not Phase.OVER:
                self.say(*self._not_yet(view))
        elif isinstance(command, keys.Confirm) and not self.board.chosen():
            if self.board.CURSOR:
                self.say("no_cursor")
        else:
            self.board.command(command)
        self.show()

    def _not_yet(self, view: TableView) -> tuple[str, dict[str, str]]:
        """Why a key cannot play now, with the seconds to wait when the table knows them."""
        now = self.session.now()
        if view.phase is Phase.STARTING and view.starts_at is not None:
            return "not_yet_start", {"s": str(in_s(view.starts_at - now))}
        if view.phase is Phase.BETWEEN and view.next_round_at is not None:
            return "not_yet_round", {"s": str(in_s(view.next_round_at - now))}
        if view.phase is Phase.PAUSED:
            return "not_yet_paused", {}
        return "not_playing", {}

    def say(self, key: str, fields: dict[str, str] | None = None, style: str = "") -> None:
        """Show the text ``key`` in the feedback line for a moment."""
        self.feedback_code = key
        self.feedback = Text(f" {tr(key, self.lang, **(fields or {}))} ",
                             style=style or STYLES.get(key, "bold reverse"))
        self.feedback_until = time.monotonic() + FEEDBACK_S
        self.show()

    def match_on(self) -> bool:
        """Whether quitting now would leave a match unfinished."""
        view = self.table_view()
        return view is not None and view.phase is not Phase.OVER

    def ask_quit(self, back: bool = False) -> None:
        """Quit (``back``: leave the table for the level above it, the lobby or the start
        screen, where there is one); while a match is on, ask first (once: a second Ctrl+Q
        asks nothing more)."""
        can_leave: Callable[[], bool] = getattr(self.app, "can_leave", lambda: False)
        leave: Callable[[], None] = getattr(self.app, "leave", self.app.exit)
        go = leave if back and can_leave() else self.app.exit
        if not self.match_on():
            go()
            return
        if any(isinstance(screen, QuitDialog) for screen in self.app.screen_stack):
            return

        def answer(yes: bool | None) -> None:
            if yes:
                go()
            else:
                self.hold("quit", False)

        self.hold("quit", True)
        self.app.push_screen(QuitDialog(self.lang, "quit_ask" if go == self.app.exit
                                        else "leave_ask"), answer)

    def hold(self, reason: str, held: bool) -> None:
        """Look away for ``reason`` or back: an offline table stands still meanwhile."""
        if held:
            self.holds.add(reason)
        else:
            self.holds.discard(reason)
        before, self.own_pause = self.own_pause, self.own_pause or held  # before it pauses
        if not self.session.hold(reason, held):
            self.own_pause = before  # a server's table: its pauses are news
        self.show()
