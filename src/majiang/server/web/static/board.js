// The table as a picture: four seats around the centre (the bottom seat is the viewer's), each
// with its wind, name, score, melds, flowers, concealed tiles (backs, or face up in a replay)
// and pond; the centre shows the round, the wall, and in Huangyan the indicator, the wild tile,
// the dealer count and the raw-tile phase. Used by the live table and the replay viewer alike.

import { t, tileName, windName } from "./i18n.js";
import { group, meldEl, tileEl, tileRow } from "./tiles.js";
import { shows } from "./rules.js";
import { h } from "./util.js";

const POSITIONS = ["bottom", "right", "top", "left"];

/** The seat wind (0 East .. 3 North) of a seat, given the dealer. */
export function seatWind(seat, dealer) { return (seat - dealer + 4) % 4; }

/** Tiles in display order: the wild tiles first, then by suit; each group as a list. */
export function grouped(tiles, wild) {
  const groups = new Map();
  for (const name of tiles) {
    const key = wild && name === wild ? -1 : group(name);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(name);
  }
  return [...groups.keys()].sort((a, b) => a - b).map((k) => groups.get(k));
}

/** A seat's concealed tiles without one copy of the drawn tile: [rest, drawn]. */
export function splitDrawn(tiles, drawn) {
  const rest = [...tiles];
  if (drawn != null) {
    const i = rest.lastIndexOf(drawn);
    if (i >= 0) rest.splice(i, 1);
  }
  return [rest, drawn];
}

/** Face-up concealed tiles (a replay): grouped, the drawn tile apart. */
export function faceUpHand(tiles, drawn, wild) {
  const [rest] = splitDrawn(tiles, drawn);
  const el = h("div", { class: "concealed face-up" });
  for (const part of grouped(rest, wild)) el.append(tileRow(part, { wild }, "tiles group"));
  if (drawn != null) el.append(tileRow([drawn], { wild }, "tiles drawn"));
  return el;
}

function scoreText(total, delta) {
  const base = total ?? 0;
  return delta ? `${base} (${delta > 0 ? "+" : ""}${delta})` : String(base);
}

const WIND_ZH = "東南西北";

function seatPanel(model, seat) {
  const obs = model.obs;
  const rel = (seat - model.bottom + 4) % 4;
  const wind = seatWind(seat, obs.dealer);
  const acting = model.toAct.includes(seat);
  const isDealer = seat === obs.dealer;
  const header = h("header", { class: "seat-head" },
    h("span", { class: "wind", title: windName(wind) }, `${WIND_ZH[wind]} ${windName(wind)}`.trim()),
    isDealer ? h("span", { class: "dealer-mark", title: t("dealer") },
      t("dealer_mark") + (obs.dealer_count > 1 ? `×${obs.dealer_count}` : "")) : null,
    h("span", { class: "name" }, model.names[seat] ?? `#${seat}`),
    model.away && model.away[seat] ? h("span", { class: "away-mark", title: t("away_bot") }, t("away_short")) : null,
    h("span", { class: "score", title: t("score") },
      scoreText(model.totals ? model.totals[seat] : 0, obs.deltas ? obs.deltas[seat] : 0)),
    model.bullets && model.bullets.some((b) => b) ? h("span", { class: "bullets", title: t("bullets") },
      `⦿${model.bullets[seat]}`) : null,
    obs.thrown && obs.thrown[seat] ? h("span", { class: "thrown" }, t("thrown", obs.thrown[seat])) : null,
    acting ? h("span", { class: "acting", title: t("to_act") }, "●") : null,
  );
  const melds = h("div", { class: "melds" });
  for (const meld of obs.melds[seat] || []) melds.append(meldEl(meld));
  const flowers = obs.flowers[seat] && obs.flowers[seat].length
    ? tileRow(obs.flowers[seat], {}, "tiles flowers") : null;
  let concealed;
  if (seat === model.mySeat && model.handEl) concealed = model.handEl;
  else if (model.faceUp) concealed = faceUpHand(model.faceUp[seat], model.drawnBy ? model.drawnBy[seat] : null, obs.wild);
  else {
    const n = obs.hand_sizes ? obs.hand_sizes[seat] : 0;
    concealed = h("div", { class: "concealed backs", title: `${n}` },
      h("span", { class: "backs-tiles" }, ...Array.from({ length: n }, () => tileEl(null, { back: true }))),
      h("span", { class: "backs-count" }, tileEl(null, { back: true }), `×${n}`));
  }
  const call = model.callouts && model.callouts[seat];
  const callout = call ? h("div", {
    class: `callout callout-${call.kind}`, role: "status",
    style: `animation-delay: -${Date.now() - call.at}ms`, // a re-draw continues the animation
  }, t(`call_${call.kind}`)) : null;
  return h("section", {
    class: `seat pos-${POSITIONS[rel]}${acting ? " to-act" : ""}${isDealer ? " is-dealer" : ""}` +
      `${seat === model.mySeat ? " mine" : ""}${call && call.kind === "win" ? " winning" : ""}`,
    dataset: { seat: String(seat) },
  }, header, h("div", { class: "exposed" }, melds, flowers), concealed, callout);
}

/** A seat's pond, in discard order in rows of six, turned to face its seat; the last discard
 * of the table marked. */
function pond(model, seat) {
  const obs = model.obs;
  const rel = (seat - model.bottom + 4) % 4;
  const tiles = obs.discards[seat] || [];
  const el = h("div", { class: "pond", dataset: { seat: String(seat) } });
  const last = model.lastDiscard === seat ? tiles.length - 1 : -1;
  const fresh = model.fresh && model.fresh.seat === seat && model.fresh.count === tiles.length
    && Date.now() - model.fresh.at < 600 ? tiles.length - 1 : -1;
  tiles.forEach((name, i) => {
    const tile = tileEl(name, { wild: obs.wild, cls: `${i === last ? "last" : ""}${i === fresh ? " fresh" : ""}` });
    if (i === fresh) tile.style.animationDelay = `-${Date.now() - model.fresh.at}ms`;
    el.append(tile);
  });
  return h("div", { class: `pond-layer rel-${rel}` }, el);
}

/** The compass in the middle: each seat's wind on its side (the dealer's marked, the seat to
 * act lit), the prevalent wind, the hand and the wall. */
function compass(model) {
  const obs = model.obs;
  const sides = [0, 1, 2, 3].map((seat) => {
    const rel = (seat - model.bottom + 4) % 4;
    const wind = seatWind(seat, obs.dealer);
    const lit = model.toAct.includes(seat);
    return h("div", { class: `compass-side rel-${rel}` },
      h("span", { class: `compass-wind${lit ? " lit" : ""}${seat === obs.dealer ? " dealer" : ""}`,
        dataset: { seat: String(seat) }, title: `${windName(wind)} · ${model.names[seat] ?? ""}` },
      WIND_ZH[wind], seat === obs.dealer ? h("sup", {}, t("dealer_mark")) : null));
  });
  const prevalent = shows(model.rules).prevalent_wind;
  return h("div", { class: "compass", id: "compass" }, ...sides,
    h("div", { class: "compass-core" },
      !prevalent ? null : h("div", { class: "prevalent", title: t("round_wind", windName(obs.prevalent_wind)) },
        WIND_ZH[obs.prevalent_wind], h("small", {}, t("round_short"))),
      model.handNo ? h("div", { class: "hand-no" }, model.handsTotal ? `${model.handNo}/${model.handsTotal}` : `#${model.handNo}`) : null,
      h("div", { class: "wall", title: t("wall") }, h("b", { id: "wall-count" }, String(obs.wall_remaining)),
        obs.drawable !== obs.wall_remaining ? h("small", {}, ` (${obs.drawable})`) : null)));
}

function info(model) {
  const obs = model.obs;
  const show = shows(model.rules);
  const parts = [
    h("div", { class: "round" }, show.prevalent_wind ? t("round_wind", windName(obs.prevalent_wind)) : "",
      model.handNo ? `${show.prevalent_wind ? " · " : ""}${model.handsTotal ? t("hand_of", model.handNo, model.handsTotal) : t("hand_n", model.handNo)}` : ""),
    h("div", { class: "wall" }, `${t("wall")} `, h("b", {}, String(obs.wall_remaining)),
      obs.drawable !== obs.wall_remaining ? ` (${obs.drawable} ${t("drawable")})` : ""),
  ];
  if (obs.indicator || obs.wild) {
    parts.push(h("div", { class: "wild-info" },
      obs.indicator ? h("span", { class: "indicator" }, `${t("indicator")} `, tileEl(obs.indicator)) : null,
      obs.wild ? h("span", { class: "wild-tile" }, `${t("wild")} `, tileEl(obs.wild, { wild: obs.wild })) : null));
    if (obs.wild && obs.wild !== "P") {
      parts.push(h("div", { class: "stand-in", id: "stand-in" }, tileEl("P"), t("white_plays_as", tileName(obs.wild))));
    }
  }
  if (show.dealer_count && obs.dealer_count > 1) parts.push(h("div", { class: "dealer-count" }, t("dealer_count", obs.dealer_count)));
  if (obs.raw_phase) parts.push(h("div", { class: "raw-banner", role: "status" }, "生牌 · " + t("raw_phase")));
  return h("div", { class: "centre info" }, ...parts);
}

/**
 * The board for a model: {obs, bottom, mySeat, names, away, totals, bullets, toAct, handEl,
 * faceUp, drawnBy, handNo, handsTotal, centreExtra, rules, lastDiscard}: the seats around a
 * square table whose ponds face the compass.
 */
export function renderBoard(model) {
  const board = h("div", { class: model.rules ? `board rules-${model.rules}` : "board" });
  board.append(info(model));
  if (model.centreExtra) board.append(h("div", { class: "board-log" }, model.centreExtra));
  const square = h("div", { class: "table-square", id: "table-square" });
  for (let seat = 0; seat < 4; seat++) square.append(pond(model, seat));
  square.append(compass(model));
  board.append(square);
  for (let seat = 0; seat < 4; seat++) board.append(seatPanel(model, seat));
  return board;
}

/** The seat whose discard is the table's last, if that tile still lies in its pond (not
 * claimed since): from the events of the hand, oldest first. */
export function lastDiscarder(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "discard") return e.seat;
    if (["chow", "pung", "exposed_kong"].includes(e.type)) return null;
  }
  return null;
}
