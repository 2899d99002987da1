// German and English. The event sentences mirror zackzack/describe.py; the German calls
// ("Nichts geht mehr!", "los!") stay German in English too, as at a real table.

import { store } from "./dom.js";

const TEXT = {
  en: {
    // chrome
    nav_play: "Play", nav_matches: "Matches", close: "Close", lang_name: "English",
    speech_on: "Calls spoken", speech_off: "Calls silent", help: "Keys and help",
    conn_open: "online", conn_connecting: "connecting…", conn_closed: "offline – reconnecting…",
    conn_refused: "too many new players from this network – trying again in a moment…",
    // lobby
    tagline: "Two lightning-fast card games. No turns: everyone plays at once.",
    your_name: "Your name", name_placeholder: "e.g. Anna",
    quick_title: "Play now", quick_us: "Unter Spannung vs 3 bots", quick_sl: "Schnelllauf vs a bot",
    tables: "Tables", no_tables: "No table open yet – open one!",
    new_table: "New table", game: "Game", create: "Open the table",
    join: "Join", watch: "Watch", open_seat: "open", seats: "Seats",
    phase_waiting: "waiting", phase_starting: "starting", phase_playing: "playing",
    phase_between: "between rounds", phase_over: "over", phase_paused: "paused", watchers: "{n} watching",
    watchers_1: "1 watching",
    private_table: "Private (not in the list)",
    us_blurb: "Play a card whose value is the top card's value ± its spread. First down to one card wins.",
    sl_blurb: "Two players, five piles each: up or down by one, as fast as your hands go.",
    players: "Players", tournament: "Tournament (2 × players rounds, minus points)",
    jokers: "Jokers per deck", wrap: "Ace between K and 2 (Q–K–A–2)",
    penalty_ms: "Freeze for a wrong card (ms)", countdown_ms: "Countdown before automatic steps (ms)",
    seat_n: "Seat {n}", seat_open: "Open seat", seat_bot: "Bot", seat_you: "You",
    level: "Level", strategy: "Strategy (optional)",
    level_beginner: "beginner", level_normal: "normal", level_pro: "pro", level_machine: "machine",
    handicap_piles: "4 cards per pile", handicap_one_hand: "One hand only",
    handicaps: "Handicaps", more_options: "More options", table_title: "Table name", optional: "optional",
    max_rounds: "Round limit (then fewer cards wins)",
    // table
    code: "Code", share: "Invite: share this link", copy: "Copy", copied: "Link copied",
    ready: "Ready", not_ready: "Not ready yet", im_ready: "I'm ready", start: "Start",
    waiting_for: "Waiting for the players…", all_ready: "Everybody is ready: start when you like (Enter).", waiting_creator: "Waiting for the table's creator to start.",
    you: "You", bot: "bot", host: "host", not_ready_yet: "not ready yet", disconnected: "away", is_ready: "ready", take_seat: "Sit here",
    spectating: "You are watching.", leave: "Leave", rematch: "Rematch", to_lobby: "To the lobby",
    draw: "Draw", draw_pile: "Your draw pile", discard: "Discard pile", cards_n: "{n} cards", cards_n_1: "1 card",
    hand: "Your hand", in_hand: "{n} in hand", pile_n: "Pile {n}", reserve: "Reserve",
    layout: "Your layout", empty_place: "empty", too_late: "Too late!", wrong_card: "Wrong card!",
    frozen: "Frozen", los: "los!", round_n: "Round {n}", round_of: "Round {n} of {m}",
    round_won_you: "You win the round!", round_won: "{who} wins the round!",
    round_drawn: "Nobody wins this round.", minus_points: "Minus points", total: "Total",
    cards_left: "Cards held", next_round_in: "Next round in {s} s", match_over: "Match over",
    place_n: "{n}.", winner_is: "{who} wins the match!", winner_you: "You win the match!",
    standings: "Standings", nichts_geht_mehr: "Nichts geht mehr!", stalemate: "Stalemate!",
    step_rotate: "The bottom card comes up in {s} s", step_end_round: "The round ends in {s} s",
    step_flip: "Reserve cards are turned up in {s} s", step_reshuffle: "Reshuffle in {s} s",
    not_found: "There is no such table.", last_events: "What just happened",
    select_first: "Choose a card first (1–5).", nothing_to_move: "Choose a place with cards under its top.",
    no_empty_place: "No empty place to move to.",
    // matches
    matches: "Stored matches", no_matches: "No stored match yet. Play one!",
    when: "When", result: "Result", rounds: "Rounds", open_match: "Watch the replay",
    download_log: "Download the log (JSON)", replay: "Replay", play: "Play", pause: "Pause",
    step: "Step", back: "Back", speed: "Speed", restart: "From the start",
    match_n: "Match {id}", loading: "Loading…", load_failed: "Could not load: {reason}",
    // keys help
    keys_title: "Keys", keys_us_cards: "Play the hand card with that key",
    keys_us_draw: "Draw a card", keys_sl_place: "Choose the card in place 1–5",
    keys_sl_pile: "Play the chosen card on the left / right pile (either order: pile, then place, works too)",
    keys_sl_move: "Move the chosen card into an empty place",
    move_hint: "move into the empty place",
    keys_ready: "Ready / start", keys_help: "This help", keys_lang: "Deutsch / English",
    keys_speech: "Speak the calls on / off", keys_escape: "Cancel the choice, close this help",
    help_mouse: "Mouse and touch: click or tap a card to play it (Unter Spannung), or tap a card and then a pile, or drag it there (Schnelllauf).",
    // event sentences (describe.py)
    ev_played: "{who} plays {card} – “{value}!”", ev_played_you: "You play {card} – “{value}!”",
    ev_played_on: "{who} plays {card} on pile {pile}", ev_played_on_you: "You play {card} on pile {pile}",
    ev_turns_up: ", turning up {card}",
    ev_moved: "{who} moves {card} to the empty place {target}",
    ev_moved_you: "You move {card} to the empty place {target}",
    ev_drew: "{who} draws a card ({left} left)", ev_drew_own: "You draw {card} ({left} left)",
    ev_drew_seen: "{who} draws {card} ({left} left)",
    ev_went_out: "{who} lays the last card face down and wins the round!",
    ev_went_out_you: "You lay your last card face down and win the round!",
    ev_rotated: "Nichts geht mehr! The bottom card {card} goes on top.",
    ev_flipped: "Stalemate: reserve cards turned up: {cards}.",
    ev_reshuffled: "Both reserves are empty: the discard piles become the reserves.",
    ev_ann_rotate: "Nichts geht mehr! In {s} s the bottom card of the pile goes on top.",
    ev_ann_end_round: "Nichts geht mehr! Every card has been on top: the round ends in {s} s.",
    ev_ann_flip: "Nobody can play: in {s} s each player turns up a reserve card.",
    ev_ann_reshuffle: "Nobody can play and the reserves are empty: reshuffle in {s} s.",
    ev_ann_other: "In {s} s: {step}.",
    ev_cancelled: "Countdown off: a card was played.",
    ev_penalised: "{who} played a wrong card: frozen for {s} s.",
    ev_penalised_you: "You played a wrong card: frozen for {s} s.",
    ev_starting: "3 – 2 – 1 – los!", ev_round_started: "Round {n} – los!",
    ev_round_won: "Round {n}: {who} wins.", ev_round_won_you: "Round {n}: you win.",
    ev_round_drawn: "Round {n}: nobody wins.",
    ev_scores_us: " Minus points: {scores}.", ev_scores_sl: " Cards held: {scores}.",
    ev_next_round: "Round {n} starts in {s} s.", ev_match_ended: "Match over: {placings}.",
    ev_paused: "Everybody is away: the game is paused.", ev_resuming: "Somebody is back: on in {s} s.",
    ev_resumed: "On we go – los!", paused: "Paused",
    paused_why: "Every player has left the table. The game goes on as soon as one of them is back.",
    ev_joined: "{who} sits down.", ev_left: "{who} left the table.",
    seat: "Player {n}",
    rej_too_late: "{who}: {card} came too late", rej_does_not_fit: "{who}: {card} does not fit",
    joker_free: "★ free: anything fits", joker_stands: "★ stands for {ranks}",
    // the race and the connection
    late_by: "{who} was {ms} ms faster", late_who: "{who} was faster",
    late_self: "your own card came first", late_pile: "The pile moved on",
    feed_late: "Too late: {why}.",
    lag_good: "connection good", lag_slow: "connection slow",
    lag_title: "Round trip to the server and back: {ms} ms", lag_mark_slow: "slow connection",
    // errors
    err_too_late: "Too late – another card was faster.", err_does_not_fit: "That card does not fit.",
    err_frozen: "Frozen – wait a moment.", err_one_hand: "One hand only: one card at a time.",
    err_empty_draw_pile: "Your draw pile is empty.", err_generic: "Not possible: {reason}",
  },
  de: {
    nav_play: "Spielen", nav_matches: "Partien", close: "Schließen", lang_name: "Deutsch",
    speech_on: "Ansagen laut", speech_off: "Ansagen stumm", help: "Tasten und Hilfe",
    conn_open: "online", conn_connecting: "verbinde…", conn_closed: "offline – verbinde neu…",
    conn_refused: "zu viele neue Spieler aus diesem Netz – versuche es gleich wieder…",
    tagline: "Zwei blitzschnelle Kartenspiele. Keiner wartet: alle legen gleichzeitig.",
    your_name: "Dein Name", name_placeholder: "z. B. Anna",
    quick_title: "Sofort spielen", quick_us: "Unter Spannung gegen 3 Bots",
    quick_sl: "Schnelllauf gegen einen Bot",
    tables: "Tische", no_tables: "Noch kein Tisch offen – eröffne einen!",
    new_table: "Neuer Tisch", game: "Spiel", create: "Tisch eröffnen",
    join: "Mitspielen", watch: "Zuschauen", open_seat: "frei", seats: "Plätze",
    phase_waiting: "wartet", phase_starting: "startet", phase_playing: "läuft",
    phase_between: "zwischen den Runden", phase_over: "vorbei", phase_paused: "Pause", watchers: "{n} schauen zu", watchers_1: "1 schaut zu",
    private_table: "Privat (nicht in der Liste)",
    us_blurb: "Lege eine Karte, deren Wert der oberste Wert ± seine Spanne ist. Wer zuerst nur noch eine Karte hat, gewinnt.",
    sl_blurb: "Zwei Spieler, je fünf Stapel: eins rauf oder runter, so schnell die Hände können.",
    players: "Spieler", tournament: "Turnier (2 × Spielerzahl Runden, Minuspunkte)",
    jokers: "Joker pro Blatt", wrap: "Ass zwischen K und 2 (D–K–A–2)",
    penalty_ms: "Sperre für eine falsche Karte (ms)",
    countdown_ms: "Countdown vor automatischen Schritten (ms)",
    seat_n: "Platz {n}", seat_open: "Freier Platz", seat_bot: "Bot", seat_you: "Du",
    level: "Stufe", strategy: "Strategie (optional)",
    level_beginner: "Anfänger", level_normal: "normal", level_pro: "Profi", level_machine: "Maschine",
    handicap_piles: "4 Karten pro Stapel", handicap_one_hand: "Nur eine Hand",
    handicaps: "Chancenausgleich", more_options: "Weitere Optionen", table_title: "Tischname", optional: "optional",
    max_rounds: "Höchstens Runden (dann gewinnt, wer weniger Karten hat)",
    code: "Code", share: "Einladen: teile diesen Link", copy: "Kopieren", copied: "Link kopiert",
    ready: "Bereit", not_ready: "Noch nicht bereit", im_ready: "Ich bin bereit", start: "Starten",
    waiting_for: "Warte auf die Mitspieler…", all_ready: "Alle sind bereit: starte, wann du willst (Enter).", waiting_creator: "Warte, bis der Gastgeber startet.",
    you: "Du", bot: "Bot", host: "Gastgeber", not_ready_yet: "noch nicht bereit", disconnected: "weg", is_ready: "bereit", take_seat: "Hinsetzen",
    spectating: "Du schaust zu.", leave: "Verlassen", rematch: "Revanche", to_lobby: "Zur Lobby",
    draw: "Ziehen", draw_pile: "Dein Nachziehstapel", discard: "Ablagestapel", cards_n: "{n} Karten", cards_n_1: "1 Karte",
    hand: "Deine Hand", in_hand: "{n} auf der Hand", pile_n: "Stapel {n}", reserve: "Reserve",
    layout: "Deine Auslage", empty_place: "frei", too_late: "Zu spät!", wrong_card: "Falsche Karte!",
    frozen: "Gesperrt", los: "los!", round_n: "Runde {n}", round_of: "Runde {n} von {m}",
    round_won_you: "Du gewinnst die Runde!", round_won: "{who} gewinnt die Runde!",
    round_drawn: "Diese Runde gewinnt keiner.", minus_points: "Minuspunkte", total: "Gesamt",
    cards_left: "Karten", next_round_in: "Nächste Runde in {s} s", match_over: "Partie vorbei",
    place_n: "{n}.", winner_is: "{who} gewinnt die Partie!", winner_you: "Du gewinnst die Partie!",
    standings: "Stand", nichts_geht_mehr: "Nichts geht mehr!", stalemate: "Nichts geht mehr!",
    step_rotate: "Die unterste Karte kommt in {s} s nach oben", step_end_round: "Die Runde endet in {s} s",
    step_flip: "Reservekarten werden in {s} s aufgedeckt", step_reshuffle: "Neu mischen in {s} s",
    not_found: "Diesen Tisch gibt es nicht.", last_events: "Was gerade passiert ist",
    select_first: "Wähle zuerst eine Karte (1–5).",
    nothing_to_move: "Wähle einen Platz mit Karten unter der obersten.",
    no_empty_place: "Kein freier Platz zum Verschieben.",
    matches: "Gespeicherte Partien", no_matches: "Noch keine Partie gespeichert. Spiel eine!",
    when: "Wann", result: "Ergebnis", rounds: "Runden", open_match: "Wiederholung ansehen",
    download_log: "Protokoll herunterladen (JSON)", replay: "Wiederholung", play: "Abspielen",
    pause: "Pause", step: "Schritt", back: "Zurück", speed: "Tempo", restart: "Von vorn",
    match_n: "Partie {id}", loading: "Lade…", load_failed: "Laden fehlgeschlagen: {reason}",
    keys_title: "Tasten", keys_us_cards: "Die Handkarte mit dieser Taste legen",
    keys_us_draw: "Eine Karte ziehen", keys_sl_place: "Die Karte auf Platz 1–5 wählen",
    keys_sl_pile: "Die gewählte Karte auf den linken / rechten Stapel legen (auch umgekehrt: erst Stapel, dann Platz)",
    keys_sl_move: "Die gewählte Karte auf einen freien Platz schieben",
    move_hint: "auf den freien Platz schieben",
    keys_ready: "Bereit / Starten", keys_help: "Diese Hilfe", keys_lang: "Deutsch / English",
    keys_speech: "Ansagen an / aus", keys_escape: "Auswahl aufheben, Hilfe schließen",
    help_mouse: "Maus und Touch: Karte anklicken oder antippen legt sie (Unter Spannung); bei Schnelllauf erst die Karte, dann den Stapel antippen – oder die Karte hinziehen.",
    ev_played: "{who} legt {card} – „{value}!“", ev_played_you: "Du legst {card} – „{value}!“",
    ev_played_on: "{who} legt {card} auf Stapel {pile}", ev_played_on_you: "Du legst {card} auf Stapel {pile}",
    ev_turns_up: " und deckt {card} auf",
    ev_moved: "{who} legt {card} auf den freien Platz {target}",
    ev_moved_you: "Du legst {card} auf den freien Platz {target}",
    ev_drew: "{who} zieht eine Karte (noch {left})", ev_drew_own: "Du ziehst {card} (noch {left})",
    ev_drew_seen: "{who} zieht {card} (noch {left})",
    ev_went_out: "{who} legt die letzte Karte verdeckt ab und gewinnt die Runde!",
    ev_went_out_you: "Du legst die letzte Karte verdeckt ab und gewinnst die Runde!",
    ev_rotated: "Nichts geht mehr! Die unterste Karte {card} kommt nach oben.",
    ev_flipped: "Nichts geht mehr: Reservekarten aufgedeckt: {cards}.",
    ev_reshuffled: "Beide Reserven sind leer: die Ablagestapel werden zu Reserven.",
    ev_ann_rotate: "Nichts geht mehr! In {s} s kommt die unterste Karte nach oben.",
    ev_ann_end_round: "Nichts geht mehr! Jede Karte lag oben: die Runde endet in {s} s.",
    ev_ann_flip: "Keiner kann legen: in {s} s deckt jeder eine Reservekarte auf.",
    ev_ann_reshuffle: "Keiner kann legen, die Reserven sind leer: neu mischen in {s} s.",
    ev_ann_other: "In {s} s: {step}.",
    ev_cancelled: "Countdown gestoppt: es wurde gelegt.",
    ev_penalised: "{who} hat falsch gelegt: {s} s gesperrt.",
    ev_penalised_you: "Du hast falsch gelegt: {s} s gesperrt.",
    ev_starting: "3 – 2 – 1 – los!", ev_round_started: "Runde {n} – los!",
    ev_round_won: "Runde {n}: {who} gewinnt.", ev_round_won_you: "Runde {n}: Du gewinnst.",
    ev_round_drawn: "Runde {n}: kein Sieger.",
    ev_scores_us: " Minuspunkte: {scores}.", ev_scores_sl: " Karten: {scores}.",
    ev_next_round: "Runde {n} beginnt in {s} s.", ev_match_ended: "Partie vorbei: {placings}.",
    ev_paused: "Alle sind weg: das Spiel ist pausiert.", ev_resuming: "Jemand ist zurück: weiter in {s} s.",
    ev_resumed: "Weiter geht's – los!", paused: "Pause",
    paused_why: "Alle Spieler haben den Tisch verlassen. Es geht weiter, sobald einer zurück ist.",
    ev_joined: "{who} setzt sich an den Tisch.", ev_left: "{who} hat den Tisch verlassen.",
    seat: "Spieler {n}",
    rej_too_late: "{who}: {card} kam zu spät", rej_does_not_fit: "{who}: {card} passt nicht",
    joker_free: "★ frei: alles passt", joker_stands: "★ steht für {ranks}",
    late_by: "{who} war {ms} ms schneller", late_who: "{who} war schneller",
    late_self: "deine eigene Karte kam zuerst", late_pile: "Der Stapel hat sich weitergedreht",
    feed_late: "Zu spät: {why}.",
    lag_good: "Verbindung gut", lag_slow: "Verbindung langsam",
    lag_title: "Laufzeit zum Server und zurück: {ms} ms", lag_mark_slow: "langsame Verbindung",
    err_too_late: "Zu spät – eine andere Karte war schneller.", err_does_not_fit: "Die Karte passt nicht.",
    err_frozen: "Gesperrt – einen Moment.", err_one_hand: "Nur eine Hand: eine Karte nach der anderen.",
    err_empty_draw_pile: "Dein Nachziehstapel ist leer.", err_generic: "Geht nicht: {reason}",
  },
};

export const LANGS = ["de", "en"];
const listeners = new Set();

function initialLang() {
  const saved = store("zz.lang");
  if (LANGS.includes(saved)) return saved;
  const browser = (navigator.languages?.[0] ?? navigator.language ?? "en").slice(0, 2);
  return browser === "de" ? "de" : "en";
}

export let lang = initialLang();

export function setLang(next) {
  if (!LANGS.includes(next) || next === lang) return;
  lang = next;
  store("zz.lang", next);
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

export function onLang(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return key in TEXT[lang] || key in TEXT.en;
}

// The sentence `key` with its {fields} filled in, as a string.
export function t(key, fields = {}) {
  const template = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(fields[name] ?? ""));
}

// `key` for a count: `key_1` where there is one (1 Karte, 2 Karten).
export function count(key, n) {
  return t(n === 1 && has(`${key}_1`) ? `${key}_1` : key, { n });
}

// The sentence as a list of parts: strings and nodes (for card chips). Names stay text.
export function parts(key, fields = {}) {
  const template = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  const out = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    out.push(template.slice(last, m.index));
    const value = fields[m[1]];
    out.push(...(Array.isArray(value) ? value : [value instanceof Node ? value : String(value ?? "")]));
    last = m.index + m[0].length;
  }
  out.push(template.slice(last));
  return out.filter((p) => p !== "");
}

// Seconds for people: 1.5, 8.
export function seconds(ms) {
  return String(Math.max(0, Math.round(ms / 100) / 10));
}

// Fill every element with data-i18n="key" (static chrome in index.html).
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}
