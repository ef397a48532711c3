// The end-of-hand score sheet and the match standings, drawn from the server's result: the
// Guobiao fans (Chinese and English names, points, counts, total, flowers) or the Huangyan
// count (hu items, doublings, the arithmetic, each loser's count, the gunner, both ledgers and
// every payment), then the payments per seat. Nothing is computed here but sums for display.

import { pick, t, tileName, windName } from "./i18n.js";
import { meldEl, tileEl } from "./tiles.js";
import { h } from "./util.js";
import { faceUpHand, seatWind } from "./board.js";

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function table(cls, head, rows, foot = null) {
  return h("table", { class: cls },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((x) => h("td", {}, x))))),
    foot ? h("tfoot", {}, h("tr", {}, ...foot.map((x) => h("td", {}, x)))) : null);
}

function fanName(en, zh) {
  // the current language first, the other one beside it
  const [main, other] = pick("en", "zh") === "en" ? [en, zh] : [zh, en];
  return h("span", { class: "fan-name" }, h("span", { class: "fan-main" }, main),
    other ? h("span", { class: "fan-other" }, other) : null);
}

/** The winning tile marked in the winner's hand (its last copy: the drawn or claimed one). */
function markWinning(el, tile) {
  if (!tile) return el;
  const copies = el.querySelectorAll(`.tile[data-tile="${tile}"]`);
  if (copies.length) copies[copies.length - 1].classList.add("winning");
  return el;
}

/** The rule set's settlement lines (the server's ``settlement``): "label: text → result (note)",
 * each seat of a line named as the sheet names seats. Nothing is computed here. */
function settlementLines(settlement, who) {
  return ((settlement && settlement.lines) || []).map((line) => {
    const body = pick(line.text.en, line.text.zh).replace(/\{(\d+)\}/g, (_, i) => who(line.seats[Number(i)]));
    return h("p", { class: line.id === "payment-formula" ? "formula" : line.id, id: line.id },
      `${pick(line.label.en, line.label.zh)}: `, body, " → ", h("b", {}, line.result),
      line.note ? ` (${pick(line.note.en, line.note.zh)})` : "");
  });
}

/** Light the tiles of the winner's hand that make a fan (the server's fan_tiles), or none. */
function light(sheetEl, sheet, fan) {
  for (const el of sheetEl.querySelectorAll(".lit")) el.classList.remove("lit");
  for (const row of sheetEl.querySelectorAll(".fans tr[data-fan]")) row.classList.toggle("chosen", row.dataset.fan === fan);
  const names = fan && sheet.final && sheet.final.fan_tiles ? sheet.final.fan_tiles[fan] : null;
  const hand = sheetEl.querySelector(".final-hand.winner");
  if (!names || !hand) return;
  const tiles = [...hand.querySelectorAll(".tile[data-tile]")];
  for (const name of names) {
    const tile = tiles.find((x) => x.dataset.tile === name && !x.classList.contains("lit"));
    if (tile) tile.classList.add("lit");
  }
}

/** The (i) of a fan line, when the server sent the fan's definition. */
function infoButton(fan, definitions) {
  if (!definitions || !definitions[fan]) return null;
  return h("button", { class: "fan-info", type: "button", "data-info": fan, title: t("fan_definition"),
    "aria-label": `${t("fan_definition")}: ${fan}`, "aria-expanded": "false" }, "i");
}

/** Show (or, with null, hide) a fan's definition under its line: the page's language first. */
function showDefinition(sheetEl, definitions, fan) {
  for (const el of sheetEl.querySelectorAll("tr.fan-definition")) el.remove();
  for (const b of sheetEl.querySelectorAll(".fan-info")) b.setAttribute("aria-expanded", String(b.dataset.info === fan));
  const row = fan ? [...sheetEl.querySelectorAll(".fans tr[data-fan], .doublings tr[data-fan]")]
    .find((r) => r.dataset.fan === fan) : null;
  const text = fan && definitions ? definitions[fan] : null;
  if (!row || !text) return;
  const [main, other] = pick("en", "zh") === "en" ? [text.en, text.zh] : [text.zh, text.en];
  row.after(h("tr", { class: "fan-definition" }, h("td", { colspan: String(row.children.length) },
    h("p", { class: "def-main", lang: main === text.zh ? "zh-Hans" : "en" }, main),
    h("p", { class: "def-other", lang: other === text.zh ? "zh-Hans" : "en" }, other))));
}

function guobiao(detail, definitions) {
  const fans = detail.fans || [];
  const rows = fans.map((f) => [h("span", { class: "fan-cell" }, fanName(f.en, f.name), infoButton(f.en, definitions)),
    String(f.points), String(f.count), String(f.points * f.count)]);
  const fanTable = table("fans", [t("fan"), t("points"), t("count"), t("total")], rows,
    [t("total"), "", "", String(detail.total)]);
  [...fanTable.querySelectorAll("tbody tr")].forEach((row, i) => {
    row.dataset.fan = fans[i].en;
    row.tabIndex = 0;
    row.title = t("fan_highlight");
  });
  const out = [fanTable];
  const notes = [];
  if (detail.flowers) notes.push(`${t("flowers")}: ${detail.flowers}`);
  if (notes.length) out.push(h("p", { class: "notes" }, notes.join(" · ")));
  return out;
}

function huangyan(detail, names, lines, settlement, definitions) {
  const w = detail.winner || {};
  const out = [];
  if (w.reading) out.push(h("p", { class: "reading" }, `${t("reading")}: `, h("code", {}, w.reading)));
  out.push(h("h3", {}, t("hu_items")));
  out.push(table("hu-items", [t("item"), t("tiles"), t("hu")],
    (w.items || []).map((i) => [fanName(i.en, i.zh), h("code", {}, i.tiles), String(i.hu)]),
    [t("total"), "", String(w.hu ?? 0)]));
  out.push(h("h3", {}, t("doublings")));
  const doublings = table("doublings", [t("doubling"), t("points"), t("count")],
    (w.fans || []).map((f) => [h("span", { class: "fan-cell" }, fanName(f.en, f.zh), infoButton(f.zh, definitions)),
      String(f.fan), String(f.count)]),
    [t("total"), String(w.fan ?? 0), ""]);
  [...doublings.querySelectorAll("tbody tr")].forEach((row, i) => { row.dataset.fan = w.fans[i].zh; });
  out.push(doublings);
  out.push(...lines);
  const losers = Object.entries(detail.losers || {}).map(([seat, total]) => [names[seat], String(total)]);
  out.push(h("h3", {}, t("losers")));
  out.push(table("losers", [t("seat"), t("hu")], losers));
  out.push(h("p", { class: "gunner" }, `${t("gunner")}: `,
    detail.gunner != null ? names[detail.gunner] : t("no_gunner")));
  // every transfer as the rule set explains it (its ledger and reason in both languages)
  const payments = ((settlement && settlement.payments) || []).map((p) => [
    pick(p.ledger.en, p.ledger.zh), names[p.payer], names[p.payee], String(p.amount),
    pick(p.reason.en, p.reason.zh) + (p.for != null ? ` (${t("on_behalf", names[p.for])})` : "")]);
  out.push(h("h3", {}, t("payments")));
  out.push(table("payment-list", ["", t("payer"), t("payee"), t("amount"), t("reason")], payments));
  return out;
}

/**
 * The score sheet of a hand: {result, settlement, totals, bullets, hand, names, dealer, rules,
 * actions: [[label, fn, cls]]}.
 */
export function scoreSheet(sheet) {
  const { result, names } = sheet;
  const who = (seat) => `${windName(seatWind(seat, sheet.dealer ?? 0))} ${names[seat] ?? ""}`.trim();
  const body = [];
  let summary;
  if (result.winner == null) summary = t("draw");
  else if (result.self_drawn) summary = t("wins_self", who(result.winner), tileName(result.winning_tile));
  else summary = t("wins_from", who(result.winner), tileName(result.winning_tile), who(result.discarder));
  body.push(h("p", { class: "summary" }, summary,
    result.winning_tile ? h("span", { class: "winning-tile", title: t("winning_tile") }, tileEl(result.winning_tile)) : null));
  if (sheet.final) {
    // every seat's tiles as the hand ended (the replay's last step), the winner first
    const order = [0, 1, 2, 3].sort((a, b) => (b === result.winner) - (a === result.winner));
    body.push(h("div", { class: "final-hands" }, ...order.map((seat) => h("div", {
      class: `final-hand${seat === result.winner ? " winner" : ""}`,
    }, h("span", { class: "final-name" }, who(seat)),
    h("span", { class: "melds" }, ...(sheet.final.melds[seat] || []).map((m) => meldEl(m))),
    markWinning(faceUpHand(sheet.final.hands[seat], sheet.final.drawn[seat], sheet.final.wild),
      seat === result.winner ? result.winning_tile : null)))));
  }
  const detail = result.detail || {};
  if (result.winner != null) {
    const lines = settlementLines(sheet.settlement, who);
    if (detail.fans) body.push(...guobiao(detail, sheet.final && sheet.final.fan_definitions), ...lines);
    else if (detail.winner) body.push(...huangyan(detail, names.map((_, s) => who(s)), lines, sheet.settlement,
      sheet.final && sheet.final.fan_definitions));
    else body.push(...lines);
  }
  const hasBullets = (result.bullets && result.bullets.some((b) => b)) || (sheet.bullets && sheet.bullets.some((b) => b));
  const head = [t("seat"), t("this_hand"), t("running")];
  if (hasBullets) head.push(t("bullets"), `${t("bullets")} · ${t("running")}`);
  const rows = [0, 1, 2, 3].map((seat) => {
    const row = [who(seat), signed(result.deltas[seat]), sheet.totals ? String(sheet.totals[seat]) : "–"];
    if (hasBullets) {
      row.push(signed(result.bullets ? result.bullets[seat] : 0), sheet.bullets ? String(sheet.bullets[seat]) : "–");
    }
    return row;
  });
  body.push(h("h3", {}, t("per_seat")), table("seat-payments", head, rows));
  if (result.thrown && result.thrown.some((n) => n)) {
    body.push(h("p", { class: "notes" }, result.thrown.map((n, s) => n ? `${who(s)}: ${t("thrown", n)}` : null)
      .filter(Boolean).join(" · ")));
  }
  const buttons = (sheet.actions || []).map(([label, fn, cls]) => h("button", { class: cls || "", onclick: fn }, label));
  const el = h("div", { class: "sheet", id: "score-sheet", role: "dialog", "aria-label": t("score_sheet") },
    h("h2", {}, `${t("score_sheet")} · ${t("hand_n", sheet.hand ?? "")}`),
    ...body,
    buttons.length ? h("div", { class: "sheet-buttons" }, sheet.pause || null, ...buttons) : null);
  // a fan under the pointer (or tapped, which keeps it lit over re-draws) lights its tiles
  const keep = sheet.keep || sheet; // what outlives a re-draw
  for (const row of el.querySelectorAll(".fans tr[data-fan]")) {
    const fan = row.dataset.fan;
    row.addEventListener("mouseenter", () => light(el, sheet, fan));
    row.addEventListener("focus", () => light(el, sheet, fan));
    row.addEventListener("mouseleave", () => light(el, sheet, keep.lit || null));
    row.addEventListener("click", () => { keep.lit = keep.lit === fan ? null : fan; light(el, sheet, keep.lit); });
  }
  if (keep.lit) light(el, sheet, keep.lit);
  // the (i) of a fan line opens its definition (one at a time; again closes it)
  const definitions = sheet.final && sheet.final.fan_definitions;
  for (const button of el.querySelectorAll(".fan-info")) {
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      keep.info = keep.info === button.dataset.info ? null : button.dataset.info;
      showDefinition(el, definitions, keep.info);
    });
  }
  if (keep.info) showDefinition(el, definitions, keep.info);
  return el;
}

/** The match standings: {totals, bullets, names, actions}. */
export function standings(info) {
  const seats = [0, 1, 2, 3].sort((a, b) => info.totals[b] - info.totals[a]);
  const hasBullets = info.bullets && info.bullets.some((b) => b);
  const head = [t("rank"), t("players"), t("score")];
  if (hasBullets) head.push(t("bullets"));
  const rows = seats.map((seat, i) => {
    const row = [String(i + 1), info.names[seat] ?? `#${seat}`, String(info.totals[seat])];
    if (hasBullets) row.push(String(info.bullets[seat]));
    return row;
  });
  const buttons = (info.actions || []).map(([label, fn, cls]) => h("button", { class: cls || "", onclick: fn }, label));
  return h("div", { class: "sheet standings", id: "standings", role: "dialog" },
    h("h2", {}, `${t("match_over")} · ${t("standings")}`), table("standings-table", head, rows),
    h("div", { class: "sheet-buttons" }, ...buttons));
}
