// @ts-check
// The lobby's live tables: the list the server sends (kept while another page shows), each
// table with its seats, and the way back to the player's own live tables.

import { botLabel } from "./bots.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { GAMES } from "./games.js";
import { count, t } from "./i18n.js";
import { icon } from "./icons.js";
import { net } from "./net.js";
import { ratingNode, ratingText } from "./rating.js";

// The latest list: the server sends each version of the list once per connection, so asking
// again on the way back (from the matches) brings nothing new.
export const lobby = {
  /** @type {Protocol.LobbyTable[]} */
  tables: [],
  /** @type {number | null} people connected to the whole cluster (null: the server did not say) */
  online: null,
};
net.on("lobby", (msg) => {
  lobby.tables = msg.tables;
  lobby.online = onlineCount(msg.online);
});

// The count of people online worth showing: null for none or not counted (0).
/** @param {unknown} online @returns {number | null} */
export function onlineCount(online) {
  return Number.isInteger(online) && Number(online) > 0 ? Number(online) : null;
}

// Whether a table takes a player now: waiting, with an open seat.
/** @param {Protocol.LobbyTable} table */
export function canJoin(table) {
  return table.phase === "waiting" && table.seats.some((s) => s.kind === "open");
}

// The player's live tables (welcome.tables), each a link back.
/** @param {Protocol.TableRef[]} mine @returns {HTMLElement} */
export function backPanel(mine) {
  const live = mine.filter((m) => m.phase !== "over");
  if (!live.length) return h("div", { hidden: true });
  return h("div", { class: "panel back-to" },
    live.map((m) => h("a", { class: "btn btn-gold", href: `/t/${m.code}`, "data-link": "" },
      `${GAMES[m.game]?.title ?? m.game} · ${m.code} →`)));
}

// The list with its head ("Tables", "12 online"); `join(code)` takes a seat at a table.
/**
 * @param {Protocol.LobbyTable[]} tables @param {number | null} online
 * @param {(code: string) => void} join @returns {HTMLElement}
 */
export function tablesPanel(tables, online, join) {
  const list = tables.length
    ? h("ul", { class: "table-list" }, tables.map((table) => tableItem(table, join)))
    : h("p", { class: "empty", text: t("no_tables") });
  return h("div", { class: "panel" },
    h("div", { class: "panel-head" },
      h("h2", { text: t("tables") }),
      online === null ? null : h("span", { class: "online", id: "online", text: count("online", online) })),
    list);
}

/** @param {Protocol.LobbyTable} table @param {(code: string) => void} join */
function tableItem(table, join) {
  return h("li", { class: "table-item", "data-code": table.code },
    h("div", { class: "table-item-game" }, cardEl(table.game, GAMES[table.game]?.preview[0])),
    h("div", { class: "table-item-main" },
      h("div", { class: "table-item-title" },
        h("b", { text: table.title }), " ",
        h("span", { class: `phase phase-${table.phase}`, text: t(`phase_${table.phase}`) }),
        table.rated ? h("span", { class: "rated-badge", text: t("rated_badge") }) : null),
      h("div", { class: "seat-chips" }, table.seats.map(seatChip)),
      table.watchers ? h("small", { text: count("watchers", table.watchers) }) : null),
    h("div", { class: "table-item-actions" },
      canJoin(table) ? h("button", {
        class: "btn btn-gold", type: "button",
        onclick: () => join(table.code),
      }, t("join")) : null,
      h("a", { class: "btn", href: `/t/${table.code}`, "data-link": "" }, t("watch"))));
}

// A seat of a listed table: open, a bot by its level, or a person (with their rating).
/** @param {Protocol.SeatInfo} seat */
function seatChip(seat) {
  if (seat.kind === "open") return h("span", { class: "seat-chip open", text: t("open_seat") });
  if (seat.kind === "bot") {
    return h("span", { class: "seat-chip bot" }, icon("bot"), " ", botLabel(seat.bot));
  }
  const rated = seat.rating !== null && seat.rating !== undefined;
  return h("span", { class: `seat-chip human${seat.connected ? "" : " away"}`, title: rated ? `${seat.name} · ${t("rating")} ${ratingText(seat.rating, seat.provisional)}` : null },
    h("span", { class: "seat-name", text: seat.name }),
    rated ? [" ", h("span", { class: "sr-only", text: `, ${t("rating")} ` }), ratingNode(seat.rating, seat.provisional, { cls: "rating seat-rating" })] : null);
}
