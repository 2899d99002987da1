"""Radio buttons, check boxes and text fields readable in any terminal: in 16 colours and
without colour (``NO_COLOR``) too, their state and their place show in glyphs, not only in
colour."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox, Input, RadioButton
from textual.widgets._toggle_button import ToggleButton

_TOGGLE_CSS = """
{name} > .toggle--button {{ color: $foreground; background: $surface; }}
{name}.-on > .toggle--button {{ color: $text-success; background: $surface; }}
{name}:focus > .toggle--button {{ text-style: bold; }}
Screen RadioSet > {name} > .toggle--button {{ color: $foreground; background: $surface; }}
Screen RadioSet > {name}.-on > .toggle--button {{ color: $text-success; }}
"""


class _Bracketed(ToggleButton):
    """A toggle drawn as brackets around ``BUTTON_INNER`` when on and a blank when off, all in
    the button's colours (Textual draws the brackets in the button's background colour:
    invisible without colour). It comes second among a widget's bases: Textual takes CSS
    from the first base only."""

    @property
    def _button(self) -> Content:
        inner = self.BUTTON_INNER if self.value else " "
        return Content.assemble((f"{self.BUTTON_LEFT}{inner}{self.BUTTON_RIGHT}",
                                 self.get_visual_style("toggle--button")))


class Choice(RadioButton, _Bracketed):
    """A radio button drawn as ``(●)`` when chosen and ``( )`` when not."""

    SCOPED_CSS = False  # the rules look at the radio set around it
    DEFAULT_CSS = _TOGGLE_CSS.format(name="Choice")
    BUTTON_LEFT = "("
    BUTTON_RIGHT = ")"
    BUTTON_INNER = "●"


class Tick(Checkbox, _Bracketed):
    """A check box drawn as ``[✓]`` when ticked and ``[ ]`` when not."""

    DEFAULT_CSS = _TOGGLE_CSS.format(name="Tick")
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"
    BUTTON_INNER = "✓"


class Field(Input):
    """A one-line text field framed by thin bars (``▏ … ▕``), thick ones (``▌ … ▐``) while it
    has the focus: an empty field is seen where it is, and which one is typed into, whatever
    the colours."""

    DEFAULT_CSS = """
    Field { height: 1; padding: 0 1; border: none; background: $surface;
            border-left: vkey $foreground 60%; border-right: vkey $foreground 60%; }
    Field:focus { border: none; background-tint: $foreground 5%;
                  border-left: outer $accent; border-right: outer $accent; }
    Field.-invalid, Field.-invalid:focus { border: none;
            border-left: outer $error; border-right: outer $error; }
    """
