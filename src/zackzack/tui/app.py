"""The Textual app: the start screen or straight into a match; breakpoints mark small terminals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import App
from textual.screen import Screen
from textual.worker import Worker

from zackzack.tui.arena import ArenaScreen
from zackzack.tui.dialogs import MIN_HEIGHT, MIN_WIDTH
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.online import LobbyScreen
from zackzack.tui.remote import RemoteSession
from zackzack.tui.session import Session, Unavailable
from zackzack.tui.start import StartScreen
from zackzack.tui.waiting import WaitScreen

SessionMaker = Callable[[], Session]
"""Makes the session of a new match (a new deal, or a new connection)."""


class PlayApp(App[None]):
    """``zackzack play``: one match after another at a local or a remote table."""

    TITLE = "zackzack"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, lang: str, sessions: SessionMaker | None = None, *,
                 again: bool = True, first: Session | None = None,
                 layout: str | None = None, lobby: Screen[Any] | None = None) -> None:
        """``sessions`` makes each match's session (``None``: ask on the start screen first);
        ``again``: Enter starts a new match after the last one; ``first``: the first match's
        session, opened already (``zackzack play`` connects before the app shows);
        ``layout``: the keyboard layout the key labels follow (``None``: the language's);
        ``lobby``: a server's lobby to choose the table in (instead of the start screen)."""
        super().__init__()
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MIN_WIDTH, "-wide")]
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (MIN_HEIGHT, "-tall")]
        self.lang = lang
        self.sessions = sessions
        self.again = again
        self.first = first
        self.layout = layout
        self.lobby = lobby
        self.error = ""
        """Why the app gave up (a session that could not open), one line; ``""``: it did not."""
        self.playing: Worker[None] | None = None
        """The worker opening (and then showing) the latest match."""
        self.chooser = sessions is None and lobby is None
        """Whether the matches were chosen on the start screen (Esc at a table goes back to
        it; with a lobby, to the lobby; else Esc quits)."""

    def on_mount(self) -> None:
        """Play at once, or ask what to play."""
        if self.sessions is not None:
            self.play(self.sessions)
        else:
            self.push_screen(self.lobby or StartScreen(self.lang), self._chosen)

    def _chosen(self, sessions: SessionMaker | None) -> None:
        if sessions is None:
            self.exit()
        else:
            self.sessions = sessions
            self.play(sessions)

    def play(self, sessions: SessionMaker, session: Session | None = None) -> None:
        """Start a match with a fresh session (``session``: this one, not opened yet),
        replacing the screen of the last one."""
        self.playing = self._play(sessions, session)

    @work(exclusive=True)
    async def _play(self, sessions: SessionMaker, session: Session | None = None) -> None:
        first, self.first = self.first, None
        hook: Callable[[Unavailable, float], None] | None = None
        try:
            if first is not None:
                session = first
            else:
                session = session or sessions()
                if isinstance(session, RemoteSession):  # a cluster's outage: wait, say so
                    opening = session
                    hook = session.waiting = lambda error, pause: self._refused(
                        sessions, opening, error, pause)
                await session.open()
        except ValueError as error:
            self.error = " ".join(str(error).split())
            self.exit(return_code=2)
            return
        finally:  # a reconnect mid-match retries by itself; Enter's new worker has its own
            if isinstance(session, RemoteSession) and first is None and session.waiting is hook:
                session.waiting = None
        if isinstance(self.screen, WaitScreen):
            await self.pop_screen()

        def again() -> None:
            self.play(sessions)

        screen = GameScreen(session, self.lang, again if self.again else None, self.layout)
        if isinstance(self.screen, GameScreen):
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)

    def _refused(self, sessions: SessionMaker, session: RemoteSession, error: Unavailable,
                 pause: float) -> None:
        """The server cannot do it now: say so on the waiting screen (shown from the first
        refusal on); the session asks again by itself after ``pause`` seconds."""
        screen = self.screen if isinstance(self.screen, WaitScreen) else None
        if screen is None:
            screen = WaitScreen(self.lang, session.code,
                                lambda: self.play(sessions, session),
                                lambda: self._give_up(session))
            self.push_screen(screen)
        screen.refused(error, pause)

    def _give_up(self, session: RemoteSession) -> None:
        """Esc while waiting: stop asking; back to the last match's results (Enter asks
        again), or to the lobby, or quit when there is neither."""
        if self.playing is not None:
            self.playing.cancel()
        session.waiting = None
        if isinstance(self.screen, WaitScreen):
            self.pop_screen()
        game = next((s for s in self.screen_stack if isinstance(s, GameScreen)), None)
        if game is not None:
            game.again_asked = False
        elif isinstance(self.lobby, LobbyScreen):
            self.lobby = self.lobby.afresh()
            self.push_screen(self.lobby, self._chosen)
        else:
            self.exit()

    def can_leave(self) -> bool:
        """Whether a table has a level above it (the lobby, the start screen, an arena's
        standings) for Esc."""
        return isinstance(self.lobby, LobbyScreen) or self.chooser or self._arena() is not None

    def _arena(self) -> ArenaScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, ArenaScreen)), None)

    def leave(self) -> None:
        """Esc at a table: one level back, to an arena's standings, a fresh lobby or the start
        screen (quit when there is none)."""
        arena = self._arena()
        if arena is not None:  # an arena's table: back to its standings
            for screen in self.screen_stack[self.screen_stack.index(arena) + 1:]:
                if isinstance(screen, GameScreen):
                    screen.leaving = True
            while self.screen is not arena:
                self.pop_screen()
            return
        if self.playing is not None:
            self.playing.cancel()
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.leaving = True  # a server's table: the seat is given up, not kept
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.call_later(self._back)  # from the app's own loop: the answer reaches the app

    def _back(self) -> None:
        if isinstance(self.lobby, LobbyScreen):
            self.lobby = self.lobby.afresh()
            self.push_screen(self.lobby, self._chosen)
        elif self.chooser:
            self.push_screen(StartScreen(self.lang), self._chosen)
        else:
            self.exit()

    async def action_quit(self) -> None:
        """Ctrl+Q: quit, asking first while a match is on."""
        game = next((s for s in self.screen_stack if isinstance(s, GameScreen)), None)
        if game is not None:
            game.ask_quit()
        else:
            self.exit()

    def action_help_quit(self) -> None:
        """Ctrl+C, whose everyday meaning is to stop: as Ctrl+Q (the quit question, in the
        player's language, with a local table paused), never Textual's English notice."""
        game = next((s for s in self.screen_stack if isinstance(s, GameScreen)), None)
        if game is not None:
            game.ask_quit()
        else:
            self.exit()
