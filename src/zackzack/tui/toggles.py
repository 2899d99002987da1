"""Radio buttons and check boxes whose state shows in the glyph, not only in its colour."""

from __future__ import annotations

from textual.widgets import Checkbox, RadioButton


class Choice(RadioButton):
    """A radio button drawn with ``●`` when chosen and empty when not."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        """The inside of the button: its state."""
        return "●" if self.value else " "


class Tick(Checkbox):
    """A check box drawn with ``✓`` when ticked and empty when not."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        """The inside of the box: its state."""
        return "✓" if self.value else " "
