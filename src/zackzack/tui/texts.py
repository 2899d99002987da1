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
        "not_yet_start": "Not yet – the match starts in {s} s.",
        "not_yet_round": "Not yet – the next round starts in {s} s.",
        "not_yet_paused": "Not yet – the match is paused.",
        "no_cursor": "Enter plays the card chosen with ← → – choose one first.",
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
        "paused_here": "Paused – the table waits for you.",
        "resuming": "Back – the match goes on in {s} s!",
        "free": "free",
        "move_to": "Move into place {n}: press the key of the card to move (Esc: cancel).",
        "watching": "You are watching.",
        "round_go": "Round {n} – go!",
        # results
        "standings": "Standings",
        "minus_points": "minus points",
        "cards_held": "cards held",
        "total": "Total",
        "place_column": "Place",
        "latest_first": "latest round first",
        "scroll": "← → ↑ ↓ scroll",
        "winner": "Round {n}: {who} wins",
        "winner_you": "Round {n}: you win",
        "no_winner": "Round {n}: nobody wins",
        "next_in": "Next round in {s} s",
        "match_over": "Match over",
        "match_ended": "Match over: {placings}.",
        "place": "{n}.",
        "again": "Enter: play again · Esc: quit",
        "again_remote": "Esc: quit",
        "rematch_key": "Enter: rematch · Esc: quit",
        "rematch_offer": "{who} asks for a rematch – Enter: play it · Esc: quit",
        # dialogs
        "quit_ask": "Quit the game?",
        "quit_keys": "y: quit · n / Esc: play on",
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
        "share": "Share this link to play together:",
        "share_code": "or the code {code} · c: copy the link",
        "copied": "Link copied (where the terminal allows it).",
        # the lobby and a new table
        "lobby_title": "zackzack at {server} · open tables",
        "l_code": "Code",
        "l_game": "Game",
        "l_title": "Table",
        "l_seats": "Seats",
        "lobby_hint": "↑ ↓ choose · Enter: sit down · n: new table · Esc: quit",
        "lobby_empty": "No open table yet · n: new table · Esc: quit",
        "g_unter-spannung": "Unter Spannung",
        "g_schnelllauf": "Schnelllauf",
        "create_title": "A new table",
        "create_seats": "The other seats (comma-separated: open, or a bot)",
        "create_seats_hint": "open: for a person with the link · bots: beginner, normal, pro, "
                             "machine",
        "create_private": "Private (not in the lobby: only the link lets anyone in)",
        "create_button": "Create",
        "create_hint": "Enter: create · Esc: back to the lobby",
        "e_seat": "“{item}” is neither open nor a bot.",
        "e_sl_seats": "Schnelllauf is for two: one other seat.",
        "seat_gone": "(away)",
        "link_good": "connection good · {ms} ms",
        "link_slow": "connection slow · {ms} ms",
        "slow_connection": "slow connection",
        # key help
        "k_card": "play that card from your hand (a card keeps its key while you hold it)",
        "k_card_more": "the same, for the cards after the tenth",
        "k_cursor": "choose a card (for hands longer than the keys)",
        "k_play_cursor": "play the chosen card (before the start: ready; after the match: "
                         "play again)",
        "k_draw": "draw a card from your draw pile",
        "k_pile1": "play the card of place 1–5 onto pile 1",
        "k_pile2": "play the card of place 1–5 onto pile 2",
        "k_move": "an empty place, then a card: move the card there",
        "k_cancel": "cancel a move (without one: quit)",
        "k_cancel_right": "cancel the right player's move",
        "k_help": "this help",
        "k_quit": "quit (asks first during a match)",
        "k_enter": "before the start: ready; after the match: play again",
        "k_left": "Left player",
        "k_right": "Right player",
        "k_both": "Both",
        "k_spread": "Spreads: ●±1 (blue) ◆±2 (orange) ▲±3 (purple). A card fits if its "
                    "value is the top card's value plus or minus the top card's spread "
                    "(after 10 comes 1).",
        "k_ranks": "A card fits one rank up or down (K–A–2 wrap). ★ is a joker.",
        "bar_us": "1…0 q…m card · ←→ ⏎ choose · Space draw · ? help · Esc quit",
        "bar_sl": "{l1} / {l2}: onto pile 1 / 2 · empty place, card: move · ? help · Esc quit",
        "bar_two": "Left: {l1} / {l2} · Right: {r1} / {r2} · ? help · Esc quit",
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
        "start_hint": "Tab: next field · Space: choose · Enter: start · Esc: quit",
        # bot levels and strategies, as the seats and the start screen name them
        "beginner": "beginner",
        "normal": "normal",
        "pro": "pro",
        "machine": "machine",
        "random": "random",
        # key names in the help
        "key_space": "Space",
        "key_ctrl": "Ctrl",
        "key_backspace": "Backspace",
        # the start screen's complaints (the command line has its own, naming the options)
        "e_bot": "Unknown bot “{spec}” – the levels are {levels}.",
        "e_us_bots": "Unter Spannung needs 1 to 5 bots (2 to 6 players).",
        "e_sl_bots": "Schnelllauf is for two: exactly one bot, or two at one keyboard "
                     "without a bot.",
        "e_us_only": "That option is for Schnelllauf.",
        "e_sl_only": "The tournament is for Unter Spannung.",
        "e_handicap": "Unknown handicap “{item}”.",
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
        "empty_draw_pile": "Dein Ziehstapel ist leer.",
        "no_such_pile": "Dort liegt keine Karte.",
        "place_not_empty": "Dieser Platz ist nicht frei.",
        "nothing_to_reveal": "Unter dieser Karte liegt nichts zum Aufdecken.",
        "round_over": "Die Runde ist vorbei.",
        "not_playing": "Noch nicht – warte auf den Start.",
        "not_yet_start": "Noch nicht – die Partie beginnt in {s} s.",
        "not_yet_round": "Noch nicht – die nächste Runde beginnt in {s} s.",
        "not_yet_paused": "Noch nicht – die Partie ist angehalten.",
        "no_cursor": "Enter legt die mit ← → gewählte Karte – erst eine wählen.",
        "refused": "Abgelehnt: {reason}",
        "offline": "Keine Verbindung – nicht gesendet.",
        "you": "Du",
        "left_name": "Links",
        "right_name": "Rechts",
        "round": "Runde {n}",
        "hand": "Deine Hand ({n})",
        "hand_more": "◂ {before} weitere · {after} weitere ▸",
        "draw_pile": "Ziehstapel {n} · Leertaste zieht",
        "pile": "Ablage",
        "pile_n": "Stapel {n}",
        "cards": "{n} Karten",
        "card": "1 Karte",
        "in_hand": "Hand {n}",
        "to_draw": "Ziehstapel {n}",
        "reserve": "Reserve {n}",
        "frozen_for": "❄ gesperrt {s} s",
        "starts_in": "Start in {s} s – mach dich bereit!",
        "waiting": "Warten auf den Start…",
        "paused": "Pause – es geht weiter, wenn alle zurück sind.",
        "paused_here": "Pause – der Tisch wartet auf dich.",
        "resuming": "Zurück – weiter in {s} s!",
        "free": "frei",
        "move_to": "Auf Platz {n} legen: Taste der Karte drücken, die dorthin soll "
                   "(Esc: abbrechen).",
        "watching": "Du schaust zu.",
        "round_go": "Runde {n} – los!",
        "standings": "Stand",
        "minus_points": "Minuspunkte",
        "cards_held": "Karten",
        "total": "Summe",
        "place_column": "Platz",
        "latest_first": "neueste Runde zuerst",
        "scroll": "← → ↑ ↓ blättern",
        "winner": "Runde {n}: {who} gewinnt",
        "winner_you": "Runde {n}: Du gewinnst",
        "no_winner": "Runde {n}: niemand gewinnt",
        "next_in": "Nächste Runde in {s} s",
        "match_over": "Partie vorbei",
        "match_ended": "Partie vorbei: {placings}.",
        "place": "{n}.",
        "again": "Enter: neue Partie · Esc: beenden",
        "again_remote": "Esc: beenden",
        "rematch_key": "Enter: Revanche · Esc: beenden",
        "rematch_offer": "{who} möchte eine Revanche – Enter: mitspielen · Esc: beenden",
        "quit_ask": "Das Spiel beenden?",
        "quit_keys": "j: beenden · n / Esc: weiterspielen",
        "too_small": "Das Terminal hat {w}×{h}; zackzack braucht mindestens {mw}×{mh}.\n"
                     "Bitte das Fenster vergrößern.",
        "help_title": "Tasten",
        "help_close": "Eine beliebige Taste schließt die Hilfe.",
        "reconnecting": "Verbindung verloren – verbinde neu…",
        "ready_key": "Enter: ich bin bereit",
        "start_key": "Enter: Partie starten",
        "ready_done": "Bereit – warte auf die anderen.",
        "seat_open": "frei",
        "share": "Diesen Link teilen, um zusammen zu spielen:",
        "share_code": "oder den Code {code} · c: Link kopieren",
        "copied": "Link kopiert (wo das Terminal es erlaubt).",
        "lobby_title": "zackzack auf {server} · offene Tische",
        "l_code": "Code",
        "l_game": "Spiel",
        "l_title": "Tisch",
        "l_seats": "Plätze",
        "lobby_hint": "↑ ↓ wählen · Enter: hinsetzen · n: neuer Tisch · Esc: beenden",
        "lobby_empty": "Noch kein offener Tisch · n: neuer Tisch · Esc: beenden",
        "g_unter-spannung": "Unter Spannung",
        "g_schnelllauf": "Schnelllauf",
        "create_title": "Ein neuer Tisch",
        "create_seats": "Die anderen Plätze (durch Komma getrennt: frei oder ein Bot)",
        "create_seats_hint": "frei: für eine Person mit dem Link · Bots: Anfänger, normal, Profi, "
                             "Maschine",
        "create_private": "Privat (nicht in der Lobby: nur der Link lässt jemanden herein)",
        "create_button": "Erstellen",
        "create_hint": "Enter: erstellen · Esc: zurück zur Lobby",
        "e_seat": "„{item}“ ist weder frei noch ein Bot.",
        "e_sl_seats": "Schnelllauf ist für zwei: ein weiterer Platz.",
        "seat_gone": "(weg)",
        "link_good": "Verbindung gut · {ms} ms",
        "link_slow": "Verbindung langsam · {ms} ms",
        "slow_connection": "langsame Verbindung",
        "k_card": "diese Karte aus der Hand legen (eine Karte behält ihre Taste, solange du sie "
                  "hältst)",
        "k_card_more": "ebenso, für die Karten nach der zehnten",
        "k_cursor": "Karte wählen (für Hände, die länger als die Tasten sind)",
        "k_play_cursor": "die gewählte Karte legen (vor dem Start: bereit; nach der Partie: "
                         "neue Partie)",
        "k_draw": "eine Karte vom Ziehstapel ziehen",
        "k_pile1": "die Karte von Platz 1–5 auf Stapel 1 legen",
        "k_pile2": "die Karte von Platz 1–5 auf Stapel 2 legen",
        "k_move": "freier Platz, dann eine Karte: die Karte dorthin umlegen",
        "k_cancel": "Umlegen abbrechen (sonst: beenden)",
        "k_cancel_right": "Umlegen rechts abbrechen",
        "k_help": "diese Hilfe",
        "k_quit": "beenden (fragt während der Partie)",
        "k_enter": "vor dem Start: bereit; nach der Partie: neue Partie",
        "k_left": "Links (linke Tastaturhälfte)",
        "k_right": "Rechts (rechte Tastaturhälfte)",
        "k_both": "Beide",
        "k_spread": "Spannen: ●±1 (blau) ◆±2 (orange) ▲±3 (lila). Eine Karte passt, wenn "
                    "ihr Wert der Wert der obersten Karte plus oder minus die Spanne der "
                    "obersten Karte ist (nach 10 kommt 1).",
        "k_ranks": "Eine Karte passt einen Rang höher oder tiefer (K–A–2 rundum). ★ ist ein Joker.",
        "bar_us": "1…0 q…m Karte · ←→ ⏎ wählen · Leertaste ziehen · ? Hilfe · Esc Ende",
        "bar_sl": "{l1}/{l2}: auf Stapel 1/2 · freier Platz, Karte: umlegen · ? Hilfe · Esc Ende",
        "bar_two": "Links: {l1} / {l2} · Rechts: {r1} / {r2} · ? Hilfe · Esc Ende",
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
        "start_hint": "Tab: nächstes Feld · Leertaste: wählen · Enter: los · Esc: beenden",
        "beginner": "Anfänger",
        "normal": "normal",
        "pro": "Profi",
        "machine": "Maschine",
        "random": "zufällig",
        "key_space": "Leertaste",
        "key_ctrl": "Strg",
        "key_backspace": "Rücktaste",
        "e_bot": "Unbekannter Bot „{spec}“ – die Stufen sind {levels}.",
        "e_us_bots": "Unter Spannung braucht 1 bis 5 Bots (2 bis 6 Spieler).",
        "e_sl_bots": "Schnelllauf ist für zwei: genau ein Bot, oder zu zweit an einer Tastatur "
                     "ohne Bot.",
        "e_us_only": "Diese Option gibt es nur bei Schnelllauf.",
        "e_sl_only": "Das Turnier gibt es nur bei Unter Spannung.",
        "e_handicap": "Unbekannter Chancenausgleich „{item}“.",
    },
}


def tr(key: str, lang: str = "en", **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English if unknown) with ``fields`` filled in."""
    texts = _TEXT[lang if lang in _TEXT else "en"]
    return texts[key].format(**fields) if fields else texts[key]


def level(spec: str, lang: str) -> str:
    """A bot's level (and strategy) in ``lang``: ``pro`` → ``Profi``, ``normal:random`` →
    ``normal, zufällig`` (the command line and the bots field take the English names).

    >>> level("pro", "de"), level("normal:random", "de"), level("machine", "en")
    ('Profi', 'normal, zufällig', 'machine')
    """
    return ", ".join(tr(part, lang) if known(part) else part for part in spec.split(":"))


def bot_spec(text: str, lang: str) -> str:
    """A bot as typed in ``lang``, with its level and strategy in English (as bots are named).

    >>> bot_spec(" Profi ", "de"), bot_spec("normal:zufällig", "de"), bot_spec("pro", "de")
    ('pro', 'normal:random', 'pro')
    """
    words = {tr(word, lang).lower(): word
             for word in ("beginner", "normal", "pro", "machine", "random")}
    return ":".join(words.get(part.strip().lower(), part.strip()) for part in text.split(":"))


def key_names(keys: str, lang: str) -> str:
    """Key names as the keyboard of ``lang`` labels them: ``Space`` → ``Leertaste``, ``Ctrl``
    → ``Strg``.

    >>> key_names("Esc Ctrl+Q", "de"), key_names("Space", "de")
    ('Esc Strg+Q', 'Leertaste')
    """
    for name in ("Space", "Ctrl", "Backspace"):
        keys = keys.replace(name, tr(f"key_{name.lower()}", lang))
    return keys


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
