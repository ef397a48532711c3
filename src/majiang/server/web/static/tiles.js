// Tiles drawn as SVG from their notation names ("5m", "E", "C", "a"): the Chinese face and the
// notation label on every tile; the wild tile (得) ringed in gold; face-down tiles as backs.

import { tileName } from "./i18n.js";

const VALID = /^([1-9][msp]|[ESWNCFP]|[a-h])$/;
const NUMERALS = "一二三四五六七八九";
const SUIT = {
  m: { zh: "万", face: "#b3261e", num: "#1d1d1f" },
  s: { zh: "条", face: "#17703a", num: "#17703a" },
  p: { zh: "饼", face: "#1f4e9c", num: "#1f4e9c" },
};
const HONOURS = {
  E: ["东", "#1d1d1f"], S: ["南", "#1d1d1f"], W: ["西", "#1d1d1f"], N: ["北", "#1d1d1f"],
  C: ["中", "#b3261e"], F: ["发", "#17703a"], P: ["白", "#1f4e9c"],
};
const FLOWERS = { a: "春", b: "夏", c: "秋", d: "冬", e: "梅", f: "兰", g: "竹", h: "菊" };
const ORDER = "mspz";

function text(x, y, size, fill, content, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-weight="${weight}"` +
    ` text-anchor="middle">${content}</text>`;
}

const cache = new Map();

/** The SVG markup of one tile (a back when name is null or back is set); memoised. */
export function tileSVG(name, { wild = false, back = false } = {}) {
  const key = `${name}|${wild}|${back}|${tileName(name || "")}`;
  let svg = cache.get(key);
  if (svg === undefined) {
    svg = drawTile(name, wild, back);
    cache.set(key, svg);
  }
  return svg;
}

function drawTile(name, wild, back) {
  const frame = '<rect x="1" y="4" width="46" height="61" rx="6" fill="#c9bd9f"/>';
  if (back || !name) {
    return `<svg viewBox="0 0 48 66" aria-hidden="true">${frame}` +
      '<rect x="1" y="1" width="46" height="61" rx="6" fill="#2e7d5b" stroke="#1b5e40"/>' +
      '<rect x="7" y="7" width="34" height="49" rx="4" fill="none" stroke="#7fc4a2" stroke-width="1.5"/></svg>';
  }
  if (!VALID.test(name)) name = "?";
  let face;
  if (/^[1-9][msp]$/.test(name)) {
    const suit = SUIT[name[1]];
    face = text(24, 27, 22, suit.num, NUMERALS[Number(name[0]) - 1]) + text(24, 48, 19, suit.face, suit.zh);
  } else if (HONOURS[name]) {
    const [zh, colour] = HONOURS[name];
    face = name === "P"
      ? '<rect x="11" y="10" width="26" height="37" rx="3" fill="none" stroke="#1f4e9c" stroke-width="2.5"/>' +
        text(24, 35, 16, "#1f4e9c", zh, 400)
      : text(24, 40, 29, colour, zh);
  } else if (FLOWERS[name]) {
    const colour = "abcd".includes(name) ? "#7b3fa0" : "#c25a11";
    face = '<circle cx="24" cy="30" r="15" fill="none" stroke="' + colour + '" stroke-width="1" opacity=".5"/>' +
      text(24, 39, 24, colour, FLOWERS[name]);
  } else {
    face = text(24, 40, 28, "#555", "?");
  }
  const ring = wild
    ? '<rect x="1.5" y="1.5" width="45" height="60" rx="6" fill="none" stroke="#e0a800" stroke-width="3"/>' +
      '<circle cx="40" cy="9" r="7.5" fill="#e0a800"/>' + text(40, 12.5, 9, "#fff", "得")
    : "";
  return `<svg viewBox="0 0 48 66" role="img" aria-label="${tileName(name)}">${frame}` +
    '<rect x="1" y="1" width="46" height="61" rx="6" fill="#fffdf6" stroke="#8a8170"/>' +
    face + text(24, 59.5, 10, "#5b5b5b", name, 600) + ring + "</svg>";
}

const nodes = new Map();

function svgNode(name, wild, back) {
  const key = `${name}|${wild}|${back}|${tileName(name || "")}`;
  let node = nodes.get(key);
  if (node === undefined) {
    const template = document.createElement("template");
    template.innerHTML = tileSVG(name, { wild, back });
    node = template.content.firstElementChild;
    nodes.set(key, node);
  }
  return node.cloneNode(true);
}

/** A tile element: span.tile with data-tile, a tooltip, and the SVG inside. */
export function tileEl(name, { wild = null, back = false, cls = "" } = {}) {
  const el = document.createElement("span");
  const isWild = !back && name != null && wild != null && name === wild;
  el.className = `tile${back || !name ? " back" : ""}${isWild ? " wild" : ""}${cls ? " " + cls : ""}`;
  if (name && !back) {
    el.dataset.tile = name;
    el.title = `${tileName(name)} (${name})${isWild ? " — 得" : ""}`;
  }
  el.append(svgNode(name, isWild, back));
  return el;
}

/** A row of tiles. */
export function tileRow(names, opts = {}, cls = "tiles") {
  const row = document.createElement("span");
  row.className = cls;
  for (const name of names) row.append(tileEl(name, opts));
  return row;
}

/** The suit group of a tile: 0 characters, 1 bamboo, 2 dots, 3 honours, 4 flowers. */
export function group(name) {
  if (/^[1-9][msp]$/.test(name)) return ORDER.indexOf(name[1]);
  return FLOWERS[name] ? 4 : 3;
}

/** The tile n ranks above a suited tile ("3m", 2 → "5m"). */
export function plus(name, n) {
  return `${Number(name[0]) + n}${name[1]}`;
}

/** The tiles of a meld in the server's JSON ({kind, tile, source}); null tiles are face down. */
export function meldTiles(meld) {
  if (meld.tile == null) return [null, null, null, null];
  if (meld.kind === "chow") return [meld.tile, plus(meld.tile, 1), plus(meld.tile, 2)];
  return Array(meld.kind === "kong" ? 4 : 3).fill(meld.tile);
}

/** A meld as a group of tiles: the claimed tile marked, a concealed kong's ends face down.
 * Melds show identities (a white dragon standing in for the wild face shows as that face), so
 * no tile of a meld is ringed as wild. */
export function meldEl(meld) {
  const el = document.createElement("span");
  el.className = `meld meld-${meld.kind}`;
  const tiles = meldTiles(meld);
  const concealed = meld.kind === "kong" && meld.source === 0;
  // which tile was claimed: a chow's 1-3; a pung's or kong's source player (1 left .. 3 right)
  let claimed = -1;
  if (meld.kind === "chow") claimed = meld.source - 1;
  else if (!concealed && meld.tile != null) claimed = [0, 0, 1, 2][meld.source % 4];
  tiles.forEach((name, i) => {
    const back = name == null || (concealed && (i === 0 || i === 3));
    el.append(tileEl(name, { back, cls: i === claimed ? "claimed" : "" }));
  });
  return el;
}
