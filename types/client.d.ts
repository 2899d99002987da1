// What the browser client adds to the page's globals (hand-written; types/protocol.d.ts is
// generated).

interface Window {
  /** Handles for the end-to-end tests (app.js). */
  zackzack: Record<string, unknown>;
  /** Safari before 14.1 (sound.js). */
  webkitAudioContext?: typeof AudioContext;
}

/** An option of a game as `GET /api/games` lists it (games/registry.py `options`). */
interface GameOption {
  name: string;
  type: "bool" | "int" | "list" | string;
  default?: unknown;
  min?: number;
  max?: number;
  /** A list's items: "int", "bool", "other". */
  item?: string;
  length?: number;
  required?: boolean;
}

/** A game as `GET /api/games` lists it (games/registry.py `describe`), in the page's zz-games. */
interface GameInfo {
  name: string;
  title: string;
  min_players: number;
  max_players: number;
  options: GameOption[];
  /** The addresses of its web modules: `board` alone, and all of them by kind. */
  board: string | null;
  web: Record<string, string>;
  rules: string | null;
  learn: string | null;
  preview: string[];
  /** kind → the per-seat option a ticked box sets, and to what. */
  handicaps: Record<string, { option: string; value: unknown }>;
  styles?: string[];
  low_wins?: boolean;
  noisy?: string[];
  /** The match of several rounds with running totals (Front.tournament), if the game has one. */
  tournament?: { option: string; rounds_per_player: number } | null;
}

/** A game of js/games.js `GAMES`: with its players as `min` and `max`. */
interface Game extends GameInfo {
  min: number;
  max: number;
}

/** What `net.on(type, fn)` hands `fn` (js/net.js): the server's messages by their type, and
 * the tab's own news (`status` of the connection, `account` changed, `renamed`). */
type NetMessages = { [M in Protocol.ServerMessage as M["type"]]: M } & {
  status: string;
  account: unknown;
  renamed: { name: string };
};

/** What js/app.js gives every page it mounts. */
interface App {
  /** The live tables where the player holds a seat (welcome.tables). */
  myTables: Protocol.TableRef[];
  /** The arena of each table an arena seated the player at (`arena_paired`): code → arena id. */
  arenaTables: Record<string, string>;
  /** Go to `path` inside the app; `params` reach the new page's `mount`. */
  go(path: string, params?: Record<string, unknown>): void;
  /** Change the address without a new page. */
  replace(path: string): void;
  rename(name: string): void;
  /** Send a `create`; `autostart`: start it as soon as every seat is taken. */
  createTable(message: Protocol.Create, options: { autostart: boolean }): void;
  /** A table message arrived at the table page. */
  onTable(page: { info: Protocol.TableInfo }): void;
  /** A short note; `detail` (the server's English reason) is its tooltip. */
  toast(text: string, detail?: string | null): void;
}

/** A page js/app.js has mounted: it goes with `unmount`; its keys and their help. */
interface Page {
  unmount(): void;
  /** A key pressed on the page: true (or anything truthy) if the page used it. */
  key?(e: KeyboardEvent): unknown;
  /** The page's keys for the `?` help: [key, what it does]. */
  helpKeys?(): [string, string][];
}

/** A game folder's web/cards.js (js/cards.js, js/art.js `Arts`). */
interface CardsPart {
  art(text: string): { markup: string; label: string; data?: Record<string, unknown> } | null;
  chip(span: HTMLElement, text: string): boolean;
  /** The value a card is called by (7 for 7±2, "Q" for Qh); "" for no card. */
  callOf(text: string): string | number;
  /** A card in words, for labels and the screen reader. */
  cardName(text: string): string;
  /** The cards the lobby's fan shows. */
  HERO?: string[];
}

/** A section of a rules page (js/rules.js): its id, the key of its heading, its content. */
interface RulesSection {
  id: string;
  head: string;
  body(): unknown[];
}

/** An example's item (js/rules.js `example`): a card, or [sign] between cards ("→", "or", "+"). */
type ExampleItem = string | [string];

/** The helpers js/rules.js hands a game's `sections`. */
interface RulesHelpers {
  p(key: string, cards?: Record<string, string>): HTMLElement;
  example(items: ExampleItem[], caption: unknown): HTMLElement;
  said(key: string, cards?: Record<string, string>): unknown[];
  race: RulesSection;
}

/** A game folder's web/rules.js. */
interface RulesPart {
  /** Keys of the words the game is named by: lead, quick, blurb, score, stalemate. */
  WORDS?: Partial<Record<"lead" | "quick" | "blurb" | "score" | "stalemate", string>>;
  /** More quick games the lobby offers: `key` their words, `options` their options. */
  QUICK?: { key: string; options: Record<string, unknown> }[];
  sections(helpers: RulesHelpers): RulesSection[];
}

/** What a tutorial step judges (js/learn.js): the game's state, the learner's seat, what
 * happened (`flags.penalised`), and whether the round is over. */
interface StepContext {
  state: any;
  me: number;
  flags: Record<string, boolean>;
  over: boolean;
}

/** A game folder's web/learn.js. */
interface LearnPart {
  INTRO: string;
  /** The practice table's beginner bots. */
  BOTS: number;
  STEPS: { key: string; cards: Record<string, string>; done(c: StepContext): boolean }[];
  /** What the end says: a key and its fields. */
  done(view: Protocol.TableView, me: number): [string, Record<string, unknown>];
}

/** A game folder's web/describe.js: its own events as sentences (js/describe.js asks it first). */
interface DescribePart {
  /** The key of a round's scores' words. */
  SCORES?: string;
  describe?(event: any, tools: {
    say(key: string, seat?: number, fields?: Record<string, unknown>): (string | Node)[];
    card(text: string): Node;
  }): (string | Node)[] | null;
}

/** The modules of a game's folder by kind (js/games.js `part`). */
interface GameParts {
  describe: DescribePart;
  cards: CardsPart;
  rules: RulesPart;
  learn: LearnPart;
}
