"""The websocket protocol: every message either way, as msgspec Structs; docs/protocol.md explains.

Each frame is one JSON object whose ``type`` names the message. :func:`decode` turns a client's
text into a message or a :class:`ProtocolError` with a stable ``code``; :func:`encode` turns a
server message into text.

>>> decode('{"type": "join", "code": "K7M2QX"}')
Join(code='K7M2QX', seat=None)
>>> decode('{"type": "dance"}')
Traceback (most recent call last):
...
zackzack.server.protocol.ProtocolError: unknown_type: unknown message type 'dance'
>>> encode(Ack(ref=3, ok=True))
'{"type":"ack","ref":3,"ok":true}'
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import Meta, Struct, field

from zackzack.bots.spec import LEVELS, STRATEGIES
from zackzack.games.base import enc_hook

MAX_MESSAGE_CHARS = 16_384
"""The longest client message accepted; longer ones get ``too_large`` (frames > 64 KiB close)."""

NAME_CHARS = 24
TITLE_CHARS = 40
BOT_SPEC_CHARS = 64
MAX_SEATS = 6

Code = Annotated[str, Meta(min_length=1, max_length=16)]
Ref = Annotated[int, Meta(ge=0, le=2**31 - 1)]
ActId = Annotated[str, Meta(min_length=1, max_length=40, pattern="^[A-Za-z0-9_.:-]+$")]
SeatIndex = Annotated[int, Meta(ge=0, lt=MAX_SEATS)]


class ProtocolError(ValueError):
    """A message that cannot be served; ``code`` is stable, the text says why."""

    def __init__(self, code: str, reason: str, ref: int | None = None) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.ref = ref


ERRORS: dict[str, str] = {
    "bad_json": "the frame is not a JSON object (or not a text frame)",
    "too_large": f"the message is longer than {MAX_MESSAGE_CHARS} characters",
    "unknown_type": "the message type is not one of this protocol's",
    "bad_field": "a field is missing, unknown, of the wrong type or out of range",
    "bad_options": "the game options are not playable (the reason says which)",
    "bad_bot": "a bot seat names no known bot",
    "no_such_game": "the game is not one registered now (the reason names those, built when "
                    "answered; GET /api/games lists them)",
    "hello_first": "the first message must be hello",
    "already_hello": "hello was sent twice on this connection",
    "rate_limited": "too many messages; this one was dropped",
    "no_such_table": "no live table has this code",
    "no_such_seat": "the table has no such seat",
    "seat_taken": "the seat is not open",
    "table_full": "the table has no open seat",
    "already_started": "the table has started; seats are fixed",
    "not_seated": "you have no seat at this table",
    "not_at_table": "this connection shows no table",
    "not_creator": "only the table's creator may do this",
    "not_ready": "some seats are open or some people are not ready",
    "not_over": "the match is not over yet",
    "no_rematch": "a tutorial table has no rematch",
    "too_many_tables": "this player has too many unfinished tables (Limits.tables_per_player)",
    "too_many_connections": "this player is connected too often (Limits.connections_per_player)",
    "too_many_new_players": "this address made too many new players lately "
                            "(Limits.new_players_burst, new_players_rate)",
    "internal": "the server failed; the table is unchanged",
    "name_taken": "the name (or one that looks like it) is a claimed player's",
    "playing_elsewhere": "the player is in a running match (a seek waits until it is over)",
    "no_such_arena": "no arena has this id",
    "arena_over": "the arena has ended",
    "arena_withdrawn": "the player withdrew from this arena (for good)",
    "not_in_arena": "the player has not joined this arena",
    "arena_moving": "the arena's server died; another takes it over in a few seconds",
    "too_many_arenas": "this player made too many arenas that are still to come or running "
                       "(server/arenas.py, ARENAS_PER_PLAYER)",
}
"""Every ``error`` code; ``ack`` codes are these or the game's refusals (games/errors.py)."""


# Client → server --------------------------------------------------------------------------


class _In(Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    """A message from a client."""


class Hello(_In, tag="hello", frozen=True):
    """Who I am: my private token (``None``: new) and the name I want to show."""

    token: Annotated[str, Meta(max_length=64)] | None = None
    name: Annotated[str, Meta(max_length=NAME_CHARS)] = ""


class WatchLobby(_In, tag="lobby", frozen=True):
    """Show me the lobby: the open tables now and after every change."""


class SeatSpec(Struct, forbid_unknown_fields=True, frozen=True):
    """A seat of a new table: open for a person, or a bot (``bot``: a bot spec like "normal")."""

    kind: Literal["open", "bot"]
    bot: Annotated[str, Meta(max_length=BOT_SPEC_CHARS)] | None = None


class Create(_In, tag="create", frozen=True):
    """Make a table; the creator takes its first open seat (or watches if there is none)."""

    game: Annotated[str, Meta(max_length=32)]
    options: dict[str, Any] = {}
    seats: Annotated[list[SeatSpec], Meta(min_length=1, max_length=MAX_SEATS)] | None = None
    private: bool = False
    title: Annotated[str, Meta(max_length=TITLE_CHARS)] | None = None
    compensation: bool = True
    """Order close races by when cards were pressed, crediting each player's lag."""
    rated: bool = False
    """A rated table: every seat for a person, the game's standard options (but ``players``,
    and Unter Spannung's ``tournament``), lag compensation on; its result moves ratings."""
    tutorial: bool = False
    """Make ``game``'s tutorial table instead (``server/tutorial.py``): private, started at
    once, its scripted deal, the creator against a tutor who never plays; the other fields
    are not used."""


class Join(_In, tag="join", frozen=True):
    """Take a seat (``None``: my own seat if I have one there, else the first open one)."""

    code: Code
    seat: SeatIndex | None = None


class Watch(_In, tag="watch", frozen=True):
    """Show me a table: from my seat if I have one there, else as a spectator."""

    code: Code


class Leave(_In, tag="leave", frozen=True):
    """Stop showing me the table; before the start this also gives up my seat."""


class Ready(_In, tag="ready", frozen=True):
    """I am (not) ready to start."""

    ready: bool = True


class Rename(_In, tag="rename", frozen=True):
    """Call me ``name`` from now on (checked like ``hello``'s); the waiting tables where I sit
    show it at once. Not at a table I play at that has started."""

    name: Annotated[str, Meta(max_length=NAME_CHARS)]


class SetSeat(_In, tag="seat", frozen=True):
    """The creator, before the start: open a seat, or put a bot in it."""

    seat: SeatIndex
    kind: Literal["open", "bot"]
    bot: Annotated[str, Meta(max_length=BOT_SPEC_CHARS)] | None = None


class Start(_In, tag="start", frozen=True):
    """The creator starts the match: the 3-2-1 countdown runs, then round 1 is on."""


class Rematch(_In, tag="rematch", frozen=True):
    """After the match: a new table with the same seats and options."""


class Act(_In, tag="act", frozen=True):
    """Do ``action`` (the game's action JSON) at my seat; answered by an ``ack`` with ``ref``.

    ``id``, chosen by the client, makes the action idempotent: the same ``id`` from the same
    player at the same table is applied at most once and always answered with the first
    answer (a double click, a retry after a reconnect).
    """

    ref: Ref
    action: dict[str, Any]
    id: ActId | None = None


class Ping(_In, tag="ping", frozen=True):
    """Are you there? ``t`` comes back in the ``pong``."""

    t: float = 0.0


class ProbeReply(_In, tag="pong", frozen=True):
    """The answer to the server's ``ping`` ``n``: send it at once, it measures the lag."""

    n: Annotated[int, Meta(ge=0, le=1 << 31)]


class Shown(_In, tag="shown", frozen=True):
    """The page now shows the table's piles at ``versions`` (one per pile, as the view's
    ``versions``): send it in the first frame that shows a change another player made. It
    starts the reaction window for that version when the page's drawing took longer than the
    wire (at most ``PAGE_MS`` = 150 ms later; ``docs/fairness.md``)."""

    versions: Annotated[list[Annotated[int, Meta(ge=0, le=1 << 31)]], Meta(max_length=8)]


class Seek(_In, tag="seek", frozen=True):
    """Find me an opponent: queue me for a rated ``game`` of ``players`` people (answered by
    ``queue``; ``server/matchmaking.py``). Seeking again moves me to that queue."""

    game: Annotated[str, Meta(max_length=32)]
    players: Annotated[int, Meta(ge=2, le=MAX_SEATS)]


class Unseek(_In, tag="unseek", frozen=True):
    """Take me out of the matchmaking queue (answered by ``unqueued`` if I was in one)."""


ArenaId = Annotated[str, Meta(min_length=1, max_length=16, pattern="^[A-Za-z0-9]+$")]


class ArenaCreate(_In, tag="arena_create", frozen=True):
    """Make an arena of ``game`` with ``seats`` at each table, starting ``start_in`` seconds
    from now and running ``minutes`` (answered by ``arena``: the creator shows it)."""

    game: Annotated[str, Meta(max_length=32)]
    seats: Annotated[int, Meta(ge=2, le=MAX_SEATS)] = 2
    minutes: Annotated[int, Meta(ge=1, le=720)] = 30
    start_in: Annotated[int, Meta(ge=0, le=7 * 86400)] = 0
    rated: bool = False
    private: bool = False
    title: Annotated[str, Meta(max_length=TITLE_CHARS)] | None = None


class ArenaWatch(_In, tag="arena_watch", frozen=True):
    """Show me arena ``id``: ``arena`` now and after every change."""

    id: ArenaId


class ArenaJoin(_In, tag="arena_join", frozen=True):
    """Let me play in arena ``id`` (or again, after a pause), and show it."""

    id: ArenaId


class ArenaPause(_In, tag="arena_pause", frozen=True):
    """Pair me no more in arena ``id`` until I join again (a game I play still counts)."""

    id: ArenaId


class ArenaWithdraw(_In, tag="arena_withdraw", frozen=True):
    """Take me out of arena ``id`` for good (my results stay in its standings)."""

    id: ArenaId


ClientMessage = Hello | WatchLobby | Create | Join | Watch | Leave | Ready | SetSeat | Start \
    | Rematch | Act | Ping | ProbeReply | Shown | Rename | Seek | Unseek | ArenaCreate \
    | ArenaWatch | ArenaJoin | ArenaPause | ArenaWithdraw


# Server → client --------------------------------------------------------------------------


class _Out(Struct, tag_field="type", frozen=True):
    """A message to a client."""


class TableRef(Struct, frozen=True):
    """A live table where the player holds a seat (in ``welcome``, to offer going back)."""

    code: str
    seat: int
    game: str
    phase: str


class BotChoices(Struct, frozen=True):
    """The bots a table may seat: a level, alone or with a strategy (``"normal:random"``)."""

    levels: list[str] = field(default_factory=lambda: list(LEVELS))
    strategies: list[str] = field(default_factory=lambda: list(STRATEGIES))
    """The first is the default: a bot named by its level alone plays it."""


class Welcome(_Out, tag="welcome", frozen=True):
    """You are ``player`` (public id); keep ``token`` secret to come back as yourself."""

    player: str
    token: str
    name: str
    tables: list[TableRef] = []
    reaction_ms: int = 600
    """A card's ``seen`` names the version of its pile on screen this long before the press."""
    bots: BotChoices = field(default_factory=BotChoices)
    """What a ``create`` or ``seat`` may name as a bot, so that clients offer only these."""
    claimed: bool = False
    """The player has claimed their name with a password (they can sign in elsewhere)."""


class SeatInfo(Struct, frozen=True):
    """One seat as everybody may see it; ``player`` is the public id of a person."""

    kind: Literal["open", "human", "bot"]
    name: str | None = None
    player: str | None = None
    bot: str | None = None
    connected: bool = False
    ready: bool = False
    lag: Literal["good", "slow"] | None = None
    """A present person's connection quality (``None``: a bot, away, or not measured yet)."""
    rating: int | None = None
    """A person's rating in the table's game (``zackzack.ratings.shown``; ``None``: a bot)."""
    provisional: bool = False
    """The rating is still uncertain: shown with "?"."""
    stand_in_at: int | None = None
    """While the round waits on this seat's person and they are warned (``docs/rules.md``,
    *A round always ends*): the table time (ms) at which a stand-in plays the seat."""


LobbyOptions = dict[str, bool | int | float]
"""What the lobby shows of a table's options: those that are one number or yes/no."""


def lobby_options(options: dict[str, Any]) -> LobbyOptions:
    """The summary of a game's options (its JSON) that a lobby entry carries: the options that
    are one number or yes/no (``players``, ``tournament``, ``jokers``, ...), never a list such
    as a custom deck or the handicaps per seat; the table's ``table`` message has them all.

    >>> lobby_options({"players": 2, "tournament": True, "deck": ["7±2"] * 2100})
    {'players': 2, 'tournament': True}
    """
    return {name: value for name, value in options.items()
            if isinstance(value, (bool, int, float))}


class LobbyTable(Struct, frozen=True):
    """One public table in the lobby: what a lobby shows, never bulky options."""

    code: str
    game: str
    title: str
    options: LobbyOptions
    seats: list[SeatInfo]
    phase: str
    watchers: int
    private: bool = False
    rated: bool = False


class ArenaEntry(Struct, frozen=True):
    """An arena as a list shows it: ``start`` and ``end`` in wall ms; ``players``: how many
    joined it (those who withdrew too)."""

    id: str
    game: str
    title: str
    seats: int
    rated: bool
    state: Literal["upcoming", "running", "over"]
    start: int
    end: int
    players: int


class LobbyList(_Out, tag="lobby", frozen=True):
    """The public live tables, newest first; sent on ``lobby`` and again on every change.
    ``arenas``: the public arenas to come, running, or over in the last ten minutes;
    ``now``: the server's wall clock (ms) when the list was made, to count down to them."""

    tables: list[LobbyTable]
    online: int = 0
    """People connected (to every process of a cluster)."""
    arenas: list[ArenaEntry] = []
    now: int = 0


class TableInfo(Struct, frozen=True):
    """A table as one connection sees it: ``you`` is its seat (``None``: watching)."""

    code: str
    game: str
    title: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    creator: str
    you: int | None
    phase: str
    link: str
    private: bool
    watchers: int
    match: str | None = None
    rematch: str | None = None
    stats: list[dict[str, Any]] | None = None
    """Once the match is over: how each seat played (``zackzack.engine.stats.stats_json``)."""
    rated: bool = False


class TableState(_Out, tag="table", frozen=True):
    """The whole table for this connection: on join, watch, reconnect and every seat change."""

    table: TableInfo
    view: Any
    """A ``TableView`` of the table's game (``Any`` on the wire: a client decodes the frame
    before it knows the game, then the view with the game's types, ``tui.codec``)."""
    now: int


class Events(_Out, tag="events", frozen=True):
    """What just happened at the table, as this seat may see it, and the fresh view."""

    events: list[Any]
    """``Event`` values of the table and its game (``Any`` for the same reason as ``view``)."""
    view: Any
    now: int


class Ack(_Out, tag="ack", frozen=True, omit_defaults=True):
    """The answer to ``act`` ``ref``: accepted, or refused with the game's reason code."""

    ref: int
    ok: bool
    code: str | None = None
    reason: str | None = None
    winner: int | None = None
    """``too_late``: the seat whose action took the pile first (absent: the table's own step)."""
    margin_ms: int | None = None
    """``too_late``: how much sooner the winning action was, in lag-corrected milliseconds."""


class Error(_Out, tag="error", frozen=True):
    """A message that was refused; nothing changed."""

    code: str
    reason: str
    ref: int | None = None


class Left(_Out, tag="left", frozen=True):
    """This connection no longer shows table ``code``."""

    code: str


class Moved(_Out, tag="moved", frozen=True):
    """Table ``code`` is served by another process: connect to ``url``, say hello with the same
    token and ask for the table again (``None``: ask your home server again, where the table's
    new owner is found once it has one)."""

    code: str
    url: str | None = None


class Notice(_Out, tag="notice", frozen=True):
    """Something about the whole server that its clients should show (``code``: a word of the
    catalogue, ``err_<code>``): ``store_unavailable``, the server cannot store games right
    now (since ``since``, wall ms): every running table stands paused and nothing more is
    told until it is stored; ``store_back``, it can again and the tables go on by themselves
    (3-2-1). Sent ahead of everything else still waiting."""

    code: str
    since: int | None = None


class RematchOffer(_Out, tag="rematch", frozen=True):
    """Someone asked for a rematch of ``previous``: your seat is waiting at table ``code``."""

    code: str
    previous: str
    by: str


class Pong(_Out, tag="pong", frozen=True):
    """The answer to ``ping``."""

    t: float


class Probe(_Out, tag="ping", frozen=True):
    """The server's ping: answer ``{"type": "pong", "n": n}`` at once. ``rtt`` is this
    connection's smoothed round trip in ms so far (``None``: not measured yet)."""

    n: int
    rtt: int | None = None


class Queue(_Out, tag="queue", frozen=True):
    """Where this connection stands in the matchmaking queue of ``game`` for ``players``:
    ``waiting`` people in it, joined at ``since`` (ms of the server's clock: only differences
    mean anything), accepting ratings ``window`` points either side; ``bot`` (after a minute):
    the bot level offered for an unrated game instead."""

    game: str
    players: int
    waiting: int
    since: int
    window: int
    bot: str | None = None


class Unqueued(_Out, tag="unqueued", frozen=True):
    """This connection left the queue: ``matched`` (a ``table`` message of table ``code``
    follows) or ``left`` (unseek, another table, another tab's seek, a server stop)."""

    reason: Literal["matched", "left"]
    code: str | None = None


class ArenaGame(Struct, frozen=True):
    """One game of a player in an arena: their place among ``seats``, its points (doubled on
    a streak), whether it was a win, and its match (``/matches/ID``; ``None``: not stored)."""

    place: int
    seats: int
    points: int
    win: bool
    doubled: bool
    match: str | None


class ArenaLine(Struct, frozen=True):
    """One player in an arena's standings; ``playing``: the code of their table now."""

    rank: int
    player: str
    name: str
    rating: int
    score: int
    performance: int | None
    on_fire: bool
    status: Literal["active", "paused", "withdrawn"]
    playing: str | None
    games: list[ArenaGame]


class ArenaInfo(ArenaEntry, frozen=True):
    """An arena with its standings (ranked by score, then performance, then name); ``you``:
    the reader's player id if they joined it. The podium: the first three lines with games."""

    private: bool
    creator: str
    link: str
    standings: list[ArenaLine]
    """The first hundred lines (``players`` says how many there are)."""
    you: str | None = None
    mine: ArenaLine | None = None
    """The reader's own line, if they joined. ``you`` and ``mine`` come last, so that one
    text serves every reader (``server/arenas.py``)."""


class ArenaState(_Out, tag="arena", frozen=True):
    """Arena ``arena`` as it stands at ``now`` (the server's wall clock, ms): on
    ``arena_watch`` and after every change, at most about once a second."""

    now: int
    arena: ArenaInfo


class ArenaPaired(_Out, tag="arena_paired", frozen=True):
    """Arena ``arena`` seated you at table ``code``: its ``table`` message follows."""

    arena: str
    code: str


ServerMessage = Welcome | LobbyList | TableState | Events | Ack | Error | Left | RematchOffer \
    | Pong | Probe | Queue | Unqueued | Moved | Notice | ArenaState | ArenaPaired


# Coding ------------------------------------------------------------------------------------

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder(enc_hook=enc_hook, order="deterministic")
"""Cards by their notation (``enc_hook``); ``order="deterministic"`` so that the views' sets
come out sorted, the same for every seat and every run. It sorts dict keys too (the table's
``options``, ``stats``): key order in an object is not significant (``docs/protocol.md``)."""
_FIELDS = msgspec.json.Decoder(dict[str, msgspec.Raw])  # an object's top level, values unread
_TYPE = msgspec.json.Decoder(str)
_TYPES = frozenset(kind.__struct_config__.tag for kind in get_args(ClientMessage))


def decode(text: str | bytes) -> ClientMessage:
    """The client message in ``text``, or a ``ProtocolError`` saying what is wrong."""
    if not isinstance(text, str):
        raise ProtocolError("bad_json", "send JSON in text frames, not binary ones")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
    try:
        message: ClientMessage = _decoder.decode(text)
    except msgspec.ValidationError as error:
        raise _invalid(text, str(error)) from None
    except msgspec.DecodeError as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "the JSON is nested too deeply") from None
    return message


def clean_text(text: str, limit: int, what: str) -> str:
    """``text`` with its spaces tidied, if it is printable and at most ``limit`` characters.

    Control, format (bidi overrides, zero-width), private-use and unassigned characters are
    refused, and so are more than two combining marks on one letter.

    >>> clean_text("  Anna   B ", 24, "a name")
    'Anna B'
    >>> clean_text("A\\x00", 24, "a name")
    Traceback (most recent call last):
    ...
    zackzack.server.protocol.ProtocolError: bad_field: a name is up to 24 printable characters
    """
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    if len(text) > limit or not text.isprintable() or _piled_marks(text):
        raise ProtocolError("bad_field", f"{what} is up to {limit} printable characters")
    return text


def _piled_marks(text: str, most: int = 2) -> bool:
    """Whether more than ``most`` combining marks sit on one character ("Zalgo" text)."""
    run = 0
    for char in text:
        run = run + 1 if unicodedata.combining(char) else 0
        if run > most:
            return True
    return False


def _invalid(text: str, problem: str) -> ProtocolError:
    """The error for ``text``, JSON that msgspec found is not a client message (``problem``).

    Decided by what ``text`` is, not by the wording of ``problem``: not an object at all is
    ``bad_json``; an object with no ``type`` or a ``type`` string not of this protocol is
    ``unknown_type``; anything else — a missing, unknown or wrongly typed field at any depth,
    ``type`` itself not a string — is ``bad_field``, with msgspec's text naming the field.
    """
    ref = ref_of(text)
    try:
        fields = _FIELDS.decode(text)
    except msgspec.ValidationError:
        return ProtocolError("bad_json", "a message is a JSON object", ref)
    except msgspec.DecodeError as error:  # msgspec stopped at a wrong field before the bad JSON
        return ProtocolError("bad_json", f"not JSON: {error}", ref)
    except RecursionError:
        return ProtocolError("bad_json", "the JSON is nested too deeply", ref)
    if "type" not in fields:
        return ProtocolError("unknown_type", "every message needs a \"type\"", ref)
    try:
        kind = _TYPE.decode(fields["type"])
    except msgspec.ValidationError:
        return ProtocolError("bad_field", problem, ref)  # "type" is there but not a string
    if kind not in _TYPES:
        return ProtocolError("unknown_type", f"unknown message type {kind!r}", ref)
    return ProtocolError("bad_field", problem, ref)  # a field inside the object is wrong


def ref_of(text: str) -> int | None:
    """The ``ref`` of a malformed ``act``, so that its error can name it."""
    try:
        data = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    return ref if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < 2**31 \
        else None


def encode(message: ServerMessage) -> str:
    """The JSON text of a server message."""
    return _encoder.encode(message).decode()
