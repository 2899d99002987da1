"""Every word the terminal client shows, in German and English; events come from ``describe``.

>>> tr("too_late", "de")
'Zu spät – jemand war schneller. Keine Strafe.'
>>> system_lang({"LANG": "de_AT.UTF-8"}), system_lang({"LC_ALL": "C"})
('de', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from zackzack.describe import LANGS

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        # refusals, by their stable code
        "too_late": "Too late – someone was faster. No penalty.",
        "too_late_by": "Too late – {who} was {ms} ms faster. No penalty.",
        "too_late_step": "Too late – the table's own step came {ms} ms sooner. No penalty.",
        "too_late_own": "Too late – your own card got there first. No penalty.",
        "does_not_fit": "Does not fit! Frozen for a moment.",
        "frozen": "You are still frozen.",
        "one_hand": "One hand only: wait a moment.",
        "not_your_card": "That card is no longer yours to play.",
        "empty_draw_pile": "Your draw pile is empty.",
        "no_such_pile": "There is no card there.",
        "place_not_empty": "That place is not empty.",
        "nothing_to_reveal": "That place has nothing underneath to reveal.",
        "round_over": "The round is over.",
        "not_playing": "Not yet – wait for the start.",
        "refused": "Refused: {reason}",
        "offline": "Not connected – the action was not sent.",
        # the table
        "you": "You",
        "left_name": "Left",
        "right_name": "Right",
        "round": "Round {n}",
        "hand": "Your hand ({n})",
        "hand_more": "◂ {before} more · {after} more ▸",
        "draw_pile": "Draw pile {n} · Space draws",
        "pile": "Pile",
        "pile_n": "Pile {n}",
        "cards": "{n} cards",
        "card": "1 card",
        "in_hand": "hand {n}",
        "to_draw": "draw {n}",
        "reserve": "reserve {n}",
        "frozen_for": "❄ frozen {s} s",
        "starts_in": "Starting in {s} s – get ready!",
        "waiting": "Waiting for the start…",
        "paused": "Paused – the match goes on when the players are back.",
        "resuming": "Back – the match goes on in {s} s!",
        "free": "free",
        "move_to": "Move into place {n}: press the key of the card to move (Esc: cancel).",
        "watching": "You are watching.",
        # results
        "standings": "Standings",
        "minus_points": "minus points",
        "cards_held": "cards held",
        "total": "Total",
        "winner": "Round {n}: {who} wins",
        "winner_you": "Round {n}: you win",
        "no_winner": "Round {n}: nobody wins",
        "next_in": "Next round in {s} s",
        "match_over": "Match over",
        "place": "{n}.",
        "again": "Enter: play again · Esc: quit",
        "again_remote": "Esc: quit",
        # dialogs
        "quit_ask": "Quit the game?",
        "quit_keys": "y / Enter: quit · n / Esc: play on",
        "too_small": "The terminal is {w}×{h}; zackzack needs at least {mw}×{mh}.\n"
                     "Please make the window larger.",
        "help_title": "Keys",
        "help_close": "Press any key to close.",
        # remote
        "reconnecting": "Connection lost – reconnecting…",
        "ready_key": "Enter: I am ready",
        "start_key": "Enter: start the match",
        "ready_done": "Ready – waiting for the others.",
        "seat_open": "open",
        "seat_gone": "(away)",
        "link_good": "connection good · {ms} ms",
        "link_slow": "connection slow · {ms} ms",
        "slow_connection": "slow connection",
        # key help
        "k_card": "play that card from your hand",
        "k_cursor": "choose a card (for hands longer than the keys)",
        "k_play_cursor": "play the chosen card (before the start: ready; after the match: "
                         "play again)",
        "k_draw": "draw a card from your draw pile",
        "k_pile1": "play the card of place 1–5 onto pile 1",
        "k_pile2": "play the card of place 1–5 onto pile 2",
        "k_move": "an empty place, then a card: move the card there",
        "k_cancel": "cancel a move (without one: quit)",
        "k_help": "this help",
        "k_quit": "quit (asks first during a match)",
        "k_enter": "before the start: ready; after the match: play again",
        "k_left": "Left player",
        "k_right": "Right player",
        "k_both": "Both",
        "k_spread": "Spreads: ●±1 (blue) ◆±2 (orange) ▲±3 (purple). "
                    "A card fits if its value is the top's value ± its spread (10 wraps to 1).",
        "k_ranks": "A card fits one rank up or down (K–A–2 wrap). ★ is a joker.",
        "bar_us": "1…0 q…m card · ←→ ⏎ choose · Space draw · ? help · Esc quit",
        "bar_sl": "1–5 / q–t: onto pile 1 / 2 · empty place, card: move · ? help · Esc quit",
        "bar_two": "Left: 1–5 / q–t · Right: 6–0 / z(y)–p · ? help · Esc quit",
        # start screen
        "start_title": "zackzack – play in the terminal",
        "game": "Game",
        "opponents": "Opponents (bots, comma-separated)",
        "levels": "Levels: {levels}",
        "tournament": "Tournament (2 × players rounds)",
        "local_two": "Two players at one keyboard",
        "handicap": "Handicap (Schnelllauf)",
        "h_none": "none",
        "h_me": "me",
        "h_bot": "the bot",
        "name": "Your name",
        "start": "Start",
        "start_hint": "Tab: next field · Enter: start · Esc: quit",
    },
    "de": {
        "too_late": "Zu spät – jemand war schneller. Keine Strafe.",
        "too_late_by": "Zu spät – {who} war {ms} ms schneller. Keine Strafe.",
        "too_late_step": "Zu spät – der Tisch war mit seinem eigenen Schritt {ms} ms schneller. "
                         "Keine Strafe.",
        "too_late_own": "Zu spät – deine eigene Karte war zuerst da. Keine Strafe.",
        "does_not_fit": "Passt nicht! Kurz gesperrt.",
        "frozen": "Du bist noch gesperrt.",
        "one_hand": "Nur eine Hand: einen Moment warten.",
        "not_your_card": "Diese Karte kannst du nicht mehr legen.",
        "empty_draw_pile": "Dein Nachziehstapel ist leer.",
        "no_such_pile": "Dort liegt keine Karte.",
        "place_not_empty": "Dieser Platz ist nicht frei.",
        "nothing_to_reveal": "Unter dieser Karte liegt nichts zum Aufdecken.",
        "round_over": "Die Runde ist vorbei.",
        "not_playing": "Noch nicht – warte auf den Start.",
        "refused": "Abgelehnt: {reason}",
        "offline": "Keine Verbindung – nicht gesendet.",
        "you": "Du",
        "left_name": "Links",
        "right_name": "Rechts",
        "round": "Runde {n}",
        "hand": "Deine Hand ({n})",
        "hand_more": "◂ {before} weitere · {after} weitere ▸",
        "draw_pile": "Nachziehstapel {n} · Leertaste zieht",
        "pile": "Ablage",
        "pile_n": "Stapel {n}",
        "cards": "{n} Karten",
        "card": "1 Karte",
        "in_hand": "Hand {n}",
        "to_draw": "Stapel {n}",
        "reserve": "Reserve {n}",
        "frozen_for": "❄ gesperrt {s} s",
        "starts_in": "Start in {s} s – mach dich bereit!",
        "waiting": "Warten auf den Start…",
        "paused": "Pause – es geht weiter, wenn alle zurück sind.",
        "resuming": "Zurück – weiter in {s} s!",
        "free": "frei",
        "move_to": "Auf Platz {n} legen: Taste der Karte drücken, die dorthin soll "
                   "(Esc: abbrechen).",
        "watching": "Du schaust zu.",
        "standings": "Stand",
        "minus_points": "Minuspunkte",
        "cards_held": "Karten",
        "total": "Summe",
        "winner": "Runde {n}: {who} gewinnt",
        "winner_you": "Runde {n}: Du gewinnst",
        "no_winner": "Runde {n}: kein Sieger",
        "next_in": "Nächste Runde in {s} s",
        "match_over": "Partie vorbei",
        "place": "{n}.",
        "again": "Enter: neue Partie · Esc: beenden",
        "again_remote": "Esc: beenden",
        "quit_ask": "Das Spiel beenden?",
        "quit_keys": "j / Enter: beenden · n / Esc: weiterspielen",
        "too_small": "Das Terminal hat {w}×{h}; zackzack braucht mindestens {mw}×{mh}.\n"
                     "Bitte das Fenster vergrößern.",
        "help_title": "Tasten",
        "help_close": "Eine beliebige Taste schließt die Hilfe.",
        "reconnecting": "Verbindung verloren – verbinde neu…",
        "ready_key": "Enter: ich bin bereit",
        "start_key": "Enter: Partie starten",
        "ready_done": "Bereit – warte auf die anderen.",
        "seat_open": "frei",
        "seat_gone": "(weg)",
        "link_good": "Verbindung gut · {ms} ms",
        "link_slow": "Verbindung langsam · {ms} ms",
        "slow_connection": "langsame Verbindung",
        "k_card": "diese Karte aus der Hand legen",
        "k_cursor": "Karte wählen (für Hände, die länger als die Tasten sind)",
        "k_play_cursor": "die gewählte Karte legen (vor dem Start: bereit; nach der Partie: "
                         "neue Partie)",
        "k_draw": "eine Karte vom Nachziehstapel ziehen",
        "k_pile1": "die Karte von Platz 1–5 auf Stapel 1 legen",
        "k_pile2": "die Karte von Platz 1–5 auf Stapel 2 legen",
        "k_move": "freier Platz, dann eine Karte: die Karte dorthin schieben",
        "k_cancel": "Schieben abbrechen (sonst: beenden)",
        "k_help": "diese Hilfe",
        "k_quit": "beenden (fragt während der Partie)",
        "k_enter": "vor dem Start: bereit; nach der Partie: neue Partie",
        "k_left": "Linke Spielerin",
        "k_right": "Rechter Spieler",
        "k_both": "Beide",
        "k_spread": "Spannen: ●±1 (blau) ◆±2 (orange) ▲±3 (lila). Eine Karte passt, "
                    "wenn ihr Wert der Wert oben ± dessen Spannweite ist (nach 10 kommt 1).",
        "k_ranks": "Eine Karte passt einen Rang höher oder tiefer (K–A–2 rundum). ★ ist ein Joker.",
        "bar_us": "1…0 q…m Karte · ←→ ⏎ wählen · Leertaste ziehen · ? Hilfe · Esc Ende",
        "bar_sl": "1–5 / q–t: auf Stapel 1 / 2 · freier Platz, Karte: schieben · ? Hilfe · "
                  "Esc Ende",
        "bar_two": "Links: 1–5 / q–t · Rechts: 6–0 / z(y)–p · ? Hilfe · Esc Ende",
        "start_title": "zackzack – im Terminal spielen",
        "game": "Spiel",
        "opponents": "Gegner (Bots, durch Komma getrennt)",
        "levels": "Stufen: {levels}",
        "tournament": "Turnier (2 × Spielerzahl Runden)",
        "local_two": "Zu zweit an einer Tastatur",
        "handicap": "Chancenausgleich (Schnelllauf)",
        "h_none": "keiner",
        "h_me": "ich",
        "h_bot": "der Bot",
        "name": "Dein Name",
        "start": "Los",
        "start_hint": "Tab: nächstes Feld · Enter: los · Esc: beenden",
    },
}


def tr(key: str, lang: str = "en", **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English if unknown) with ``fields`` filled in."""
    texts = _TEXT[lang if lang in _TEXT else "en"]
    return texts[key].format(**fields) if fields else texts[key]


def cards(n: int, lang: str) -> str:
    """``n`` cards, singular for one."""
    return tr("card", lang) if n == 1 else tr("cards", lang, n=n)


def known(key: str) -> bool:
    """Whether the catalogue has a text ``key`` (a refusal code, say)."""
    return key in _TEXT["en"]


def system_lang(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): de or en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value:
            lang = value[:2].lower()
            return lang if lang in LANGS else "en"
    return "en"
