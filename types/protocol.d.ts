// The protocol's types for the browser client (docs/protocol.md), generated from the server's
// msgspec schemas by scripts/protocol_types.py: do not edit, run it again.
// tests/test_protocol_types.py fails when this file differs from what it writes.

declare namespace Protocol {
  type ClientMessage = Hello | WatchLobby | Create | Join | Watch | Leave | Ready | SetSeat | Start | Rematch | Act | Ping | ProbeReply | Shown | Rename | Seek | Unseek | ArenaCreate | ArenaWatch | ArenaJoin | ArenaPause | ArenaWithdraw;
  type ServerMessage = Welcome | LobbyList | TableState | Events | Ack | Error | Left | RematchOffer | Pong | Probe | Queue | Unqueued | Moved | Notice | ArenaState | ArenaPaired;
  type TableEvent = Starting | RoundStarted | Announced | Cancelled | Penalised | RoundScored | NextRound | MatchEnded | Paused | Resuming | Resumed;
  /** The answer to `act` `ref`: accepted, or refused with the game's reason code. */
  interface Ack {
    type: "ack";
    ref: number;
    ok: boolean;
    code?: string | null;
    reason?: string | null;
    winner?: number | null;
    margin_ms?: number | null;
  }
  /**
   * Do `action` (the game's action JSON) at my seat; answered by an `ack` with `ref`.
   *
   * `id`, chosen by the client, makes the action idempotent: the same `id` from the same
   * player at the same table is applied at most once and always answered with the first
   * answer (a double click, a retry after a reconnect).
   */
  interface Act {
    type: "act";
    ref: number;
    action: { [key: string]: any };
    id?: string | null;
  }
  /** Nobody can act: the automatic step `step` (e.g. `rotate`, `flip`) runs at `due`. */
  interface Announced {
    type: "announced";
    step: string;
    due: number;
  }
  /**
   * Make an arena of `game` with `seats` at each table, starting `start_in` seconds
   * from now and running `minutes` (answered by `arena`: the creator shows it).
   */
  interface ArenaCreate {
    type: "arena_create";
    game: string;
    seats?: number;
    minutes?: number;
    start_in?: number;
    rated?: boolean;
    private?: boolean;
    title?: string | null;
  }
  /**
   * An arena as a list shows it: `start` and `end` in wall ms; `players`: how many
   * joined it (those who withdrew too).
   */
  interface ArenaEntry {
    id: string;
    game: string;
    title: string;
    seats: number;
    rated: boolean;
    state: "over" | "running" | "upcoming";
    start: number;
    end: number;
    players: number;
  }
  /**
   * One game of a player in an arena: their place among `seats`, its points (doubled on
   * a streak), whether it was a win, and its match (`/matches/ID`; `None`: not stored).
   */
  interface ArenaGame {
    place: number;
    seats: number;
    points: number;
    win: boolean;
    doubled: boolean;
    match: string | null;
  }
  /**
   * An arena with its standings (ranked by score, then performance, then name); `you`:
   * the reader's player id if they joined it. The podium: the first three lines with games.
   */
  interface ArenaInfo {
    id: string;
    game: string;
    title: string;
    seats: number;
    rated: boolean;
    state: "over" | "running" | "upcoming";
    start: number;
    end: number;
    players: number;
    private: boolean;
    creator: string;
    link: string;
    standings: ArenaLine[];
    you: string | null;
    mine: ArenaLine | null;
  }
  /** Let me play in arena `id` (or again, after a pause), and show it. */
  interface ArenaJoin {
    type: "arena_join";
    id: string;
  }
  /** One player in an arena's standings; `playing`: the code of their table now. */
  interface ArenaLine {
    rank: number;
    player: string;
    name: string;
    rating: number;
    score: number;
    performance: number | null;
    on_fire: boolean;
    status: "active" | "paused" | "withdrawn";
    playing: string | null;
    games: ArenaGame[];
  }
  /** Arena `arena` seated you at table `code`: its `table` message follows. */
  interface ArenaPaired {
    type: "arena_paired";
    arena: string;
    code: string;
  }
  /** Pair me no more in arena `id` until I join again (a game I play still counts). */
  interface ArenaPause {
    type: "arena_pause";
    id: string;
  }
  /**
   * Arena `arena` as it stands at `now` (the server's wall clock, ms): on
   * `arena_watch` and after every change, at most about once a second.
   */
  interface ArenaState {
    type: "arena";
    now: number;
    arena: ArenaInfo;
  }
  /** Show me arena `id`: `arena` now and after every change. */
  interface ArenaWatch {
    type: "arena_watch";
    id: string;
  }
  /** Take me out of arena `id` for good (my results stay in its standings). */
  interface ArenaWithdraw {
    type: "arena_withdraw";
    id: string;
  }
  /** The bots a table may seat: a level, alone or with a strategy (`"normal:random"`). */
  interface BotChoices {
    levels: string[];
    strategies: string[];
  }
  /** An accepted action cancelled the countdown of `step`. */
  interface Cancelled {
    type: "cancelled";
    step: string;
  }
  /** Make a table; the creator takes its first open seat (or watches if there is none). */
  interface Create {
    type: "create";
    game: string;
    options?: { [key: string]: any };
    seats?: SeatSpec[] | null;
    private?: boolean;
    title?: string | null;
    compensation?: boolean;
    rated?: boolean;
    tutorial?: boolean;
  }
  /** A message that was refused; nothing changed. */
  interface Error {
    type: "error";
    code: string;
    reason: string;
    ref: number | null;
  }
  /** What just happened at the table, as this seat may see it, and the fresh view. */
  interface Events {
    type: "events";
    events: any[];
    view: any;
    now: number;
  }
  /** Who I am: my private token (`None`: new) and the name I want to show. */
  interface Hello {
    type: "hello";
    token?: string | null;
    name?: string;
  }
  /** Take a seat (`None`: my own seat if I have one there, else the first open one). */
  interface Join {
    type: "join";
    code: string;
    seat?: number | null;
  }
  /** Stop showing me the table; before the start this also gives up my seat. */
  interface Leave {
    type: "leave";
  }
  /** This connection no longer shows table `code`. */
  interface Left {
    type: "left";
    code: string;
  }
  /**
   * The public live tables, newest first; sent on `lobby` and again on every change.
   * `arenas`: the public arenas to come, running, or over in the last ten minutes;
   * `now`: the server's wall clock (ms) when the list was made, to count down to them.
   */
  interface LobbyList {
    type: "lobby";
    tables: LobbyTable[];
    online: number;
    arenas: ArenaEntry[];
    now: number;
  }
  /** One public table in the lobby: what a lobby shows, never bulky options. */
  interface LobbyTable {
    code: string;
    game: string;
    title: string;
    options: { [key: string]: boolean | number };
    seats: SeatInfo[];
    phase: string;
    watchers: number;
    private: boolean;
    rated: boolean;
  }
  /** The match is over; it was stored before anyone saw this. */
  interface MatchEnded {
    type: "match_ended";
    result: MatchResult;
  }
  /** The end of a match: who placed where and why; ties share a place. */
  interface MatchResult {
    placings: Placing[];
    rounds: number;
    reason: string;
  }
  /**
   * Table `code` is served by another process: connect to `url`, say hello with the same
   * token and ask for the table again (`None`: ask your home server again, where the table's
   * new owner is found once it has one).
   */
  interface Moved {
    type: "moved";
    code: string;
    url: string | null;
  }
  /** Round `number` will be dealt at table time `at`. */
  interface NextRound {
    type: "next_round";
    number: number;
    at: number;
  }
  /**
   * Something about the whole server that its clients should show (`code`: a word of the
   * catalogue, `err_<code>`): `store_unavailable`, the server cannot store games right
   * now (since `since`, wall ms): every running table stands paused and nothing more is
   * told until it is stored; `store_back`, it can again and the tables go on by themselves
   * (3-2-1). Sent ahead of everything else still waiting.
   */
  interface Notice {
    type: "notice";
    code: string;
    since: number | null;
  }
  /** Play is halted; table time stands still until it resumes. */
  interface Paused {
    type: "paused";
  }
  /** `seat` played a wrong card and is frozen until table time `until`. */
  interface Penalised {
    type: "penalised";
    seat: number;
    until: number;
  }
  /** Where a table is in its life. */
  type Phase = "between" | "over" | "paused" | "playing" | "starting" | "waiting";
  /** Are you there? `t` comes back in the `pong`. */
  interface Ping {
    type: "ping";
    t?: number;
  }
  /** Where one seat placed in a match, with its score and the reason. */
  interface Placing {
    seat: number;
    place: number;
    score: number;
    why: string;
  }
  /** The answer to `ping`. */
  interface Pong {
    type: "pong";
    t: number;
  }
  /**
   * The server's ping: answer `{"type": "pong", "n": n}` at once. `rtt` is this
   * connection's smoothed round trip in ms so far (`None`: not measured yet).
   */
  interface Probe {
    type: "ping";
    n: number;
    rtt: number | null;
  }
  /** The answer to the server's `ping` `n`: send it at once, it measures the lag. */
  interface ProbeReply {
    type: "pong";
    n: number;
  }
  /**
   * Where this connection stands in the matchmaking queue of `game` for `players`:
   * `waiting` people in it, joined at `since` (ms of the server's clock: only differences
   * mean anything), accepting ratings `window` points either side; `bot` (after a minute):
   * the bot level offered for an unrated game instead.
   */
  interface Queue {
    type: "queue";
    game: string;
    players: number;
    waiting: number;
    since: number;
    window: number;
    bot: string | null;
  }
  /** I am (not) ready to start. */
  interface Ready {
    type: "ready";
    ready?: boolean;
  }
  /** After the match: a new table with the same seats and options. */
  interface Rematch {
    type: "rematch";
  }
  /** Someone asked for a rematch of `previous`: your seat is waiting at table `code`. */
  interface RematchOffer {
    type: "rematch";
    code: string;
    previous: string;
    by: string;
  }
  /**
   * Call me `name` from now on (checked like `hello`'s); the waiting tables where I sit
   * show it at once. Not at a table I play at that has started.
   */
  interface Rename {
    type: "rename";
    name: string;
  }
  /** Play goes on where it was halted. */
  interface Resumed {
    type: "resumed";
  }
  /** Play resumes in `in_ms` real milliseconds ("3 – 2 – 1 – los!"); table time stands still. */
  interface Resuming {
    type: "resuming";
    in_ms: number;
  }
  /** The end of one round: the winner (`None`: nobody) and the scores it added. */
  interface RoundResult {
    number: number;
    winner: number | null;
    reason: string;
    scores: number[];
  }
  /** The finished round's result; the round was stored before anyone saw this. */
  interface RoundScored {
    type: "round_scored";
    result: RoundResult;
    totals: number[];
  }
  /** Round `number` is dealt and on: every seat should look at its new view. */
  interface RoundStarted {
    type: "round_started";
    number: number;
  }
  /** One seat as everybody may see it; `player` is the public id of a person. */
  interface SeatInfo {
    kind: "bot" | "human" | "open";
    name: string | null;
    player: string | null;
    bot: string | null;
    connected: boolean;
    ready: boolean;
    lag: "good" | "slow" | null;
    rating: number | null;
    provisional: boolean;
    stand_in_at: number | null;
  }
  /** A seat of a new table: open for a person, or a bot (`bot`: a bot spec like "normal"). */
  interface SeatSpec {
    kind: "bot" | "open";
    bot?: string | null;
  }
  /**
   * Find me an opponent: queue me for a rated `game` of `players` people (answered by
   * `queue`; `server/matchmaking.py`). Seeking again moves me to that queue.
   */
  interface Seek {
    type: "seek";
    game: string;
    players: number;
  }
  /** The creator, before the start: open a seat, or put a bot in it. */
  interface SetSeat {
    type: "seat";
    seat: number;
    kind: "bot" | "open";
    bot?: string | null;
  }
  /**
   * The page now shows the table's piles at `versions` (one per pile, as the view's
   * `versions`): send it in the first frame that shows a change another player made. It
   * starts the reaction window for that version when the page's drawing took longer than the
   * wire (at most `PAGE_MS` = 150 ms later; `docs/fairness.md`).
   */
  interface Shown {
    type: "shown";
    versions: number[];
  }
  /** The creator starts the match: the 3-2-1 countdown runs, then round 1 is on. */
  interface Start {
    type: "start";
  }
  /** The match starts (round 1 is dealt) at table time `at`. */
  interface Starting {
    type: "starting";
    at: number;
  }
  /** A table as one connection sees it: `you` is its seat (`None`: watching). */
  interface TableInfo {
    code: string;
    game: string;
    title: string;
    options: { [key: string]: any };
    seats: SeatInfo[];
    creator: string;
    you: number | null;
    phase: string;
    link: string;
    private: boolean;
    watchers: number;
    match: string | null;
    rematch: string | null;
    stats: { [key: string]: any }[] | null;
    rated: boolean;
  }
  /** A live table where the player holds a seat (in `welcome`, to offer going back). */
  interface TableRef {
    code: string;
    seat: number;
    game: string;
    phase: string;
  }
  /** The whole table for this connection: on join, watch, reconnect and every seat change. */
  interface TableState {
    type: "table";
    table: TableInfo;
    view: any;
    now: number;
  }
  /** What a seat (`None`: a spectator) may see of the whole table; `state` is the game's. */
  interface TableView {
    game: string;
    phase: Phase;
    now: number;
    seat: number | null;
    players: number;
    round: number;
    state: any;
    frozen_until: number[];
    countdown: Announced | null;
    next_round_at: number | null;
    starts_at: number | null;
    results: RoundResult[];
    totals: number[];
    result: MatchResult | null;
    resumes_in: number | null;
  }
  /**
   * This connection left the queue: `matched` (a `table` message of table `code`
   * follows) or `left` (unseek, another table, another tab's seek, a server stop).
   */
  interface Unqueued {
    type: "unqueued";
    reason: "left" | "matched";
    code: string | null;
  }
  /** Take me out of the matchmaking queue (answered by `unqueued` if I was in one). */
  interface Unseek {
    type: "unseek";
  }
  /** Show me a table: from my seat if I have one there, else as a spectator. */
  interface Watch {
    type: "watch";
    code: string;
  }
  /** Show me the lobby: the open tables now and after every change. */
  interface WatchLobby {
    type: "lobby";
  }
  /** You are `player` (public id); keep `token` secret to come back as yourself. */
  interface Welcome {
    type: "welcome";
    player: string;
    token: string;
    name: string;
    tables: TableRef[];
    reaction_ms: number;
    bots: BotChoices;
    claimed: boolean;
  }

  /** Schnelllauf (schnelllauf). */
  namespace Schnelllauf {
    type Event = Played | Moved | Flipped | Reshuffled | RoundEnded;
    type Action = Play | Move | Flip | Reshuffle | EndRound;
    /** Why a round ended. */
    type EndReason = "dead_end" | "played_out";
    /** A dead end: nobody can ever play again, so the round ends with no winner. */
    interface EndRound {
      type: "end_round";
    }
    /** Stalemate: each player turns the top of their reserve onto the pile they started. */
    interface Flip {
      type: "flip";
    }
    /** Stalemate: each seat's reserve card turned onto its pile (`None`: none), new versions. */
    interface Flipped {
      type: "flipped";
      cards: [string | null, string | null];
      versions: [number, number];
    }
    /** Move the top card of place `source` into the empty place `target`, revealing one. */
    interface Move {
      type: "move";
      source: number;
      target: number;
    }
    /** `seat` moved `card` from place `source` into the empty `target`, revealing one. */
    interface Moved {
      type: "moved";
      seat: number;
      source: number;
      target: number;
      card: string;
      revealed: string;
    }
    /**
     * Play face-up `card` from one's layout onto discard pile `pile`, aimed at `seen`.
     *
     * The card is named by value, not by place: with both hands two actions may be in flight,
     * and the card the player saw is the one they mean.
     */
    interface Play {
      type: "play";
      card: string;
      pile: number;
      seen?: number | null;
    }
    /**
     * `seat` played `card` from `place` onto `pile`, now at `version`; `revealed` is
     * the card turned face up under it (`None`: the place is empty).
     */
    interface Played {
      type: "played";
      seat: number;
      card: string;
      pile: number;
      version: number;
      place: number;
      revealed: string | null;
    }
    /** Both reserves empty: every discard pile but its top becomes its starter's reserve. */
    interface Reshuffle {
      type: "reshuffle";
    }
    /** Both reserves were empty: the piles but their tops are the new reserves (counts only). */
    interface Reshuffled {
      type: "reshuffled";
      reserve_counts: [number, number];
      versions: [number, number];
    }
    /** The round is over: the winner (`None`: a dead end) and each layout's cards left. */
    interface RoundEnded {
      type: "round_ended";
      winner: number | null;
      reason: EndReason;
      cards_left: [number, number];
    }
    /**
     * What a seat (`None`: a spectator) sees of a round; in Schnelllauf all of it is public.
     *
     * `layouts[seat][place]` is the face-up top card (`None`: empty place) and how many
     * face-down cards lie under it; `tops[i]` is discard pile `i`'s top (`None`: not
     * started) and `stands[i]` what it stands for (`None`: free).
     */
    interface View {
      seat: number | null;
      layouts: [string | null, number][][];
      reserve_counts: number[];
      tops: (string | null)[];
      pile_counts: number[];
      versions: number[];
      stands: (number[] | null)[];
      winner: number | null;
      over: boolean;
    }
  }

  /** Unter Spannung (unter-spannung). */
  namespace UnterSpannung {
    type Event = Played | Drew | WentOut | Rotated | RoundEnded;
    type Action = Play | Draw | Rotate | EndRound;
    /** Draw the top card of one's own draw pile into the hand. */
    interface Draw {
      type: "draw";
    }
    /** `seat` drew a card (its value only for that seat); `left` remain in their pile. */
    interface Drew {
      type: "drew";
      seat: number;
      card: string | null;
      left: number;
    }
    /** Why a round ended. */
    type EndReason = "nichts_geht_mehr" | "went_out";
    /** Nichts geht mehr after every card has been on top: the round ends with no winner. */
    interface EndRound {
      type: "end_round";
    }
    /** Play `card` from the hand onto the discard pile, aimed at pile version `seen`. */
    interface Play {
      type: "play";
      card: string;
      seen?: number | null;
    }
    /** `seat` played `card`; the discard pile is now at `version`. */
    interface Played {
      type: "played";
      seat: number;
      card: string;
      version: number;
    }
    /** Nichts geht mehr: the table moves the bottom card of the discard pile to the top. */
    interface Rotate {
      type: "rotate";
    }
    /** Nichts geht mehr: the bottom card of the discard pile, `card`, is now on top. */
    interface Rotated {
      type: "rotated";
      card: string;
      version: number;
      rotations: number;
    }
    /** The round is over: the winner (`None`: nobody could play) and each hand's minus points. */
    interface RoundEnded {
      type: "round_ended";
      winner: number | null;
      reason: EndReason;
      minus_points: number[];
    }
    /** What one seat (`None`: a spectator) may see of a round: own hand, others as counts. */
    interface View {
      seat: number | null;
      top: string;
      version: number;
      discard_count: number;
      hand: string[];
      hand_counts: number[];
      draw_counts: number[];
      rotations: number;
      winner: number | null;
      over: boolean;
    }
    /** `seat` laid their last card face down on the pile and won the round. */
    interface WentOut {
      type: "went_out";
      seat: number;
    }
  }
}
