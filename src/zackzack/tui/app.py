"""The Textual app: the start screen or straight into a match; breakpoints mark small terminals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import work
from textual.app import App
from textual.screen import Screen

from zackzack.tui.dialogs import MIN_HEIGHT, MIN_WIDTH
from zackzack.tui.game_screen import GameScreen
from zackzack.tui.session import Session
from zackzack.tui.start import StartScreen

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

    @work(exclusive=True)
    async def play(self, sessions: SessionMaker) -> None:
        """Start a match with a fresh session, replacing the screen of the last one."""
        session, self.first = self.first, None
        try:
            if session is None:
                session = sessions()
                await session.open()
        except ValueError as error:
            self.error = " ".join(str(error).split())
            self.exit(return_code=2)
            return

        def again() -> None:
            self.play(sessions)

        screen = GameScreen(session, self.lang, again if self.again else None, self.layout)
        if isinstance(self.screen, GameScreen):
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)

    async def action_quit(self) -> None:
        """Ctrl+Q: quit, asking first while a match is on."""
        game = next((s for s in self.screen_stack if isinstance(s, GameScreen)), None)
        if game is not None:
            game.ask_quit()
        else:
            self.exit()
