"""Events as sentences a person reads, in German or English; the games' German calls stay.

>>> from zackzack.games import unter_spannung as us
>>> describe(us.Rotated(us.Card(3, 1), 7, 1), ("Anna", "Ben"))
'Nichts geht mehr! The bottom card 3±1 goes on top.'
>>> describe(us.Played(1, us.Card(7, 2), 4), ("Anna", "Ben"), lang="de")
'Ben legt 7±2 – „7!“'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from zackzack.games.base import Event, MatchResult, RoundResult

LANGS = ("de", "en")

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "played": "{who} plays {card} – “{value}!”",
        "played_on": "{who} plays {card} on pile {pile}",
        "turns_up": ", turning up {card}",
        "moved": "{who} moves {card} to the empty place {target}",
        "drew": "{who} draws a card ({left} left)",
        "drew_own": "{who} draws {card} ({left} left)",
        "went_out": "{who} lays the last card face down and wins the round!",
        "rotated": "Nichts geht mehr! The bottom card {card} goes on top.",
        "flipped": "Stalemate: reserve cards turned up: {cards}.",
        "reshuffled": "Both reserves are empty: the discard piles become the reserves.",
        "ann_rotate": "Nichts geht mehr! In {s} s the bottom card of the pile goes on top.",
        "ann_end_round": "Nichts geht mehr! Every card has been on top: the round ends in {s} s.",
        "ann_flip": "Nobody can play: in {s} s each player turns up a reserve card.",
        "ann_reshuffle": "Nobody can play and the reserves are empty: reshuffle in {s} s.",
        "ann_other": "In {s} s: {step}.",
        "cancelled": "Countdown off: a card was played.",
        "penalised": "{who} played a wrong card: frozen for {s} s.",
        "starting": "3 – 2 – 1 – los!",
        "round_started": "Round {n} – los!",
        "round_won": "Round {n}: {who} wins.",
        "round_drawn": "Round {n}: nobody wins.",
        "scores_us": " Minus points: {scores}.",
        "scores_sl": " Cards held: {scores}.",
        "next_round": "Round {n} starts in {s} s.",
        "match_ended": "Match over: {placings}.",
        "paused": "Paused: everybody at the table is away.",
        "resuming": "Play resumes in {s} s.",
        "resumed": "Play goes on.",
        "you": "You",
        "seat": "Player {n}",
        "played_you": "You play {card} – “{value}!”",
        "played_on_you": "You play {card} on pile {pile}",
        "turns_up_you": ", turning up {card}",
        "moved_you": "You move {card} to the empty place {target}",
        "drew_own_you": "You draw {card} ({left} left)",
        "went_out_you": "You lay the last card face down and win the round!",
        "round_won_you": "Round {n}: you win.",
    },
    "de": {
        "played": "{who} legt {card} – „{value}!“",
        "played_on": "{who} legt {card} auf Stapel {pile}",
        "turns_up": " und deckt {card} auf",
        "moved": "{who} legt {card} auf den freien Platz {target}",
        "drew": "{who} zieht eine Karte (noch {left})",
        "drew_own": "{who} zieht {card} (noch {left})",
        "went_out": "{who} legt die letzte Karte verdeckt ab und gewinnt die Runde!",
        "rotated": "Nichts geht mehr! Die unterste Karte {card} kommt nach oben.",
        "flipped": "Nichts geht mehr: Reservekarten aufgedeckt: {cards}.",
        "reshuffled": "Beide Reserven sind leer: die Ablagestapel werden zu Reserven.",
        "ann_rotate": "Nichts geht mehr! In {s} s kommt die unterste Karte nach oben.",
        "ann_end_round": "Nichts geht mehr! Jede Karte lag oben: die Runde endet in {s} s.",
        "ann_flip": "Keiner kann legen: in {s} s deckt jeder eine Reservekarte auf.",
        "ann_reshuffle": "Keiner kann legen, die Reserven sind leer: neu mischen in {s} s.",
        "ann_other": "In {s} s: {step}.",
        "cancelled": "Countdown gestoppt: es wurde gelegt.",
        "penalised": "{who} hat falsch gelegt: {s} s gesperrt.",
        "starting": "3 – 2 – 1 – los!",
        "round_started": "Runde {n} – los!",
        "round_won": "Runde {n}: {who} gewinnt.",
        "round_drawn": "Runde {n}: kein Sieger.",
        "scores_us": " Minuspunkte: {scores}.",
        "scores_sl": " Karten: {scores}.",
        "next_round": "Runde {n} beginnt in {s} s.",
        "match_ended": "Partie vorbei: {placings}.",
        "paused": "Pause: alle am Tisch sind weg.",
        "resuming": "Weiter in {s} s.",
        "resumed": "Es geht weiter.",
        "you": "Du",
        "seat": "Spieler {n}",
        "played_you": "Du legst {card} – „{value}!“",
        "played_on_you": "Du legst {card} auf Stapel {pile}",
        "turns_up_you": " und deckst {card} auf",
        "moved_you": "Du legst {card} auf den freien Platz {target}",
        "drew_own_you": "Du ziehst {card} (noch {left})",
        "went_out_you": "Du legst die letzte Karte verdeckt ab und gewinnst die Runde!",
        "penalised_you": "Du hast falsch gelegt: {s} s gesperrt.",
        "round_won_you": "Runde {n}: Du gewinnst.",
    },
}


def text(key: str, lang: str = "en", **fields: Any) -> str:
    """The sentence ``key`` in ``lang`` with ``fields`` filled in."""
    return _TEXT[lang if lang in _TEXT else "en"][key].format(**fields)


def seconds(ms: int) -> str:
    """Milliseconds as seconds for people: ``1.5``, ``8``."""
    return f"{ms / 1000:g}"


def describe(event: Event, names: Sequence[str] = (), lang: str = "en",
             seat: int | None = None, now: int = 0) -> str:
    """``event`` as a sentence; ``seat`` is the reader (``You``), ``now`` the table time.

    >>> from zackzack.games.unter_spannung import WentOut
    >>> describe(WentOut(0), ("Anna", "Ben"), seat=0)
    'You lay the last card face down and win the round!'
    """
    you = text("you", lang)

    def who(s: int) -> str:
        if s == seat:
            return you
        return names[s] if s < len(names) else text("seat", lang, n=s + 1)

    def t(key: str, **fields: Any) -> str:
        if fields.get("who") is you and f"{key}_you" in _TEXT[lang if lang in _TEXT else "en"]:
            key = f"{key}_you"  # the reader's own action: "You play", "Du legst"
        return text(key, lang, **fields)

    kind = event.kind
    data: Any = event
    handlers: dict[str, Callable[[], str]] = {
        "drew": lambda: t("drew_own", who=who(data.seat), card=data.card, left=data.left)
        if data.card is not None else t("drew", who=who(data.seat), left=data.left),
        "went_out": lambda: t("went_out", who=who(data.seat)),
        "rotated": lambda: t("rotated", card=data.card),
        "flipped": lambda: t("flipped", cards=", ".join(
            str(c) for c in data.cards if c is not None) or "–"),
        "reshuffled": lambda: t("reshuffled"),
        "announced": lambda: _announced(data.step, data.due - now, lang),
        "cancelled": lambda: t("cancelled"),
        "penalised": lambda: t("penalised", who=who(data.seat), s=seconds(data.until - now)),
        "starting": lambda: t("starting"),
        "round_started": lambda: t("round_started", n=data.number),
        "round_scored": lambda: _round(data.result, who, lang, t),
        "next_round": lambda: t("next_round", n=data.number, s=seconds(data.at - now)),
        "match_ended": lambda: t("match_ended", placings=_placings(data.result, who)),
        "paused": lambda: t("paused"),
        "resuming": lambda: t("resuming", s=seconds(data.in_ms)),
        "resumed": lambda: t("resumed"),
        "moved": lambda: t("moved", who=who(data.seat), card=data.card, target=data.target + 1)
        + (t("turns_up", who=who(data.seat), card=data.revealed)
           if data.revealed is not None else ""),
    }
    if kind == "played":
        if hasattr(event, "pile"):
            line = t("played_on", who=who(data.seat), card=data.card, pile=data.pile + 1)
            revealed = getattr(event, "revealed", None)
            return line + (t("turns_up", who=who(data.seat), card=revealed)
                           if revealed is not None else "")
        return t("played", who=who(data.seat), card=data.card, value=data.card.value)
    if kind == "round_ended":
        return ""
    handler = handlers.get(kind)
    return handler() if handler is not None else kind


def _announced(step: str, ms: int, lang: str) -> str:
    key = f"ann_{step}"
    if key not in _TEXT["en"]:
        return text("ann_other", lang, s=seconds(ms), step=step)
    return text(key, lang, s=seconds(ms))


def _round(result: RoundResult, who: Callable[[int], str], lang: str,
           t: Callable[..., str]) -> str:
    if result.winner is None:
        line = text("round_drawn", lang, n=result.number)
    else:
        line = t("round_won", n=result.number, who=who(result.winner))
    scores = ", ".join(f"{who(s)} {score}" for s, score in enumerate(result.scores))
    key = "scores_us" if result.reason in ("went_out", "nichts_geht_mehr") else "scores_sl"
    return line + text(key, lang, scores=scores)


def _placings(result: MatchResult, who: Callable[[int], str]) -> str:
    return ", ".join(f"{p.place}. {who(p.seat)} ({p.why})" for p in result.placings)
