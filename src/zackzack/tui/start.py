"""The start screen: which game, which bots, which options; Enter starts, Esc leaves."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, RadioSet, Static

from zackzack.bots import LEVELS
from zackzack.games import entry, registered
from zackzack.tui import setup
from zackzack.tui.dialogs import TooSmall
from zackzack.tui.session import Session
from zackzack.tui.texts import bot_spec, level, tr
from zackzack.tui.toggles import Choice, Field, Tick


def handicaps() -> tuple[tuple[str, ...], ...]:
    """The handicap choices, in the order of the buttons: none, me (player 1), and each other
    player of the largest game with handicaps (the bot, when that game is for two).

    >>> handicaps()
    ((), ('1',), ('2',))
    """
    most = max((g.info.max_players for g in registered() if g.front.handicaps), default=1)
    return ((), *((str(seat),) for seat in range(1, most + 1)))


def _handicap_words(lang: str) -> list[str]:
    """The buttons' words: none, me, then the bot (two players) or each player by number."""
    seats = len(handicaps()) - 1
    others = [tr("h_bot", lang)] if seats == 2 else [
        tr("h_player", lang, n=str(n)) for n in range(2, seats + 1)]
    return [tr("h_none", lang), tr("h_me", lang), *others]


class StartScreen(Screen[Callable[[], Session] | None]):
    """Ask for the game, the opponents and the options; answer with a session maker.

    Enter starts from every field, as the hint says; Space chooses a game or an option.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "start", priority=True)]

    DEFAULT_CSS = """
    StartScreen { align: center middle; layers: base cover; }
    StartScreen > Vertical { width: 76; height: auto; border: round $accent; padding: 0 2;
                             border-title-style: bold; }
    StartScreen Label { margin-top: 1; text-style: bold; }
    StartScreen RadioSet { layout: horizontal; width: auto; }
    StartScreen RadioButton { width: auto; margin-right: 3; }
    StartScreen .hint { color: $text-muted; }
    StartScreen #error { color: $error; text-style: bold; height: auto; }
    StartScreen Button { margin-top: 1; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The form: game, opponents, the game's options, name, start."""
        t = self._t
        with Vertical() as form:
            form.border_title = t("start_title")
            yield Label(t("game"))
            with RadioSet(id="game", compact=True):
                for i, found in enumerate(registered()):
                    yield Choice(found.title, value=i == 0)
            yield Label(t("opponents"))
            yield Field(self._bots(registered()[0].name), id="bots")
            yield Static(t("levels", levels=", ".join(level(name, self.lang) for name in LEVELS)),
                         classes="hint")
            yield Tick(t("tournament"), id="tournament", compact=True)
            yield Tick(t("local_two"), id="local_two", compact=True)
            yield Label(t("handicap"), id="handicap_label")
            with RadioSet(id="handicap", compact=True):
                for i, words in enumerate(_handicap_words(self.lang)):
                    yield Choice(words, value=i == 0)
            yield Label(t("name"))
            yield Field(id="name", max_length=24)
            yield Static(id="error")
            yield Button(t("start"), variant="primary", id="start", compact=True)
            yield Static(t("start_hint"), classes="hint")
        yield TooSmall(self.lang)

    def _t(self, key: str, **fields: str) -> str:
        return tr(key, self.lang, **fields)

    def _bots(self, game: str) -> str:
        """The default opponents of ``game``, in the screen's language."""
        return ",".join(level(spec, self.lang) for spec in entry(game).front.opponents)


    def on_mount(self) -> None:
        """Show the options of the first game."""
        self._show_options()

    @property
    def game(self) -> str:
        """The chosen game."""
        return registered()[self.query_one("#game", RadioSet).pressed_index].name

    @on(RadioSet.Changed, "#game")
    def _game_changed(self) -> None:
        self.query_one("#bots", Input).value = self._bots(self.game)
        self._show_options()

    @on(Checkbox.Changed, "#local_two")
    def _show_options(self) -> None:
        found = entry(self.game)
        two = found.front.local_two and self.query_one("#local_two", Checkbox).value
        self.query_one("#tournament").display = found.front.tournament is not None
        self.query_one("#local_two").display = found.front.local_two
        self.query_one("#handicap").display = bool(found.front.handicaps)
        self.query_one("#handicap_label").display = bool(found.front.handicaps)
        self.query_one("#bots").disabled = two

    def action_start(self) -> None:
        """Enter: start (whichever field has the focus)."""
        self.start()

    @on(Button.Pressed, "#start")
    @on(Input.Submitted)
    def start(self) -> None:
        """Check the form; start, or say what is wrong."""
        found = entry(self.game)
        two = found.front.local_two and self.query_one("#local_two", Checkbox).value
        bots = () if two else tuple(
            bot_spec(spec, self.lang) for spec in self.query_one("#bots", Input).value.split(",")
            if spec.strip())
        try:
            chosen = setup.Setup(
                game=self.game, bots=bots, local_two=two,
                tournament=found.front.tournament is not None
                and self.query_one("#tournament", Checkbox).value,
                handicap=handicaps()[self.query_one("#handicap", RadioSet).pressed_index]
                if found.front.handicaps else (),
                name=self.query_one("#name", Input).value.strip())
        except setup.SetupError as error:
            self.query_one("#error", Static).update(error.say(self.lang))
            return
        lang = self.lang
        self.dismiss(lambda: setup.session(chosen, lang))

    def on_key(self, event: events.Key) -> None:
        """Esc leaves."""
        if event.key == "escape":
            event.stop()
            self.dismiss(None)
