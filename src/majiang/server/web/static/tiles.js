// Tiles drawn as SVG from their notation names ("5m", "E", "C", "a"), by the project: dots as
// circles, bamboo as sticks (the 1 of bamboo a bird), characters as numeral + 萬, winds, dragons
// (the white dragon a blue frame), the eight flowers; or, as a setting, text faces (the numeral
// over the suit). An optional label under the face (notation, English or Chinese); the wild tile
// (得) ringed in gold; face-down tiles as backs.

import { lang, tileName } from "./i18n.js";
import { setting } from "./settings.js";

const VALID = /^([1-9][msp]|[ESWNCFP]|[a-h])$/;
const NUMERALS = "一二三四五六七八九";
const BLUE = "#1f4e9c";
const GREEN = "#17703a";
const RED = "#b3261e";
const INK = "#1d1d1f";
const SUIT = {
  m: { zh: "万", face: RED, num: INK },
  s: { zh: "条", face: GREEN, num: GREEN },
  p: { zh: "饼", face: BLUE, num: BLUE },
};
const HONOURS = {
  E: ["東", INK], S: ["南", INK], W: ["西", INK], N: ["北", INK],
  C: ["中", RED], F: ["發", GREEN], P: ["白", BLUE],
};
const FLOWERS = { a: "春", b: "夏", c: "秋", d: "冬", e: "梅", f: "兰", g: "竹", h: "菊" };
const SHORT_EN = {
  m: "Char", s: "Bam", p: "Dot", E: "East", S: "South", W: "West", N: "North", C: "Red", F: "Green",
  P: "White", a: "Spring", b: "Summer", c: "Autumn", d: "Winter", e: "Plum", f: "Orchid", g: "Bamboo",
  h: "Mum",
};
const ORDER = "mspz";

function text(x, y, size, fill, content, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-weight="${weight}"` +
    ` text-anchor="middle">${content}</text>`;
}

// where the pips of each rank sit, in a unit box (x, y, colour)
const DOTS = {
  1: [[0.5, 0.5, RED]],
  2: [[0.5, 0.24, GREEN], [0.5, 0.76, BLUE]],
  3: [[0.2, 0.18, BLUE], [0.5, 0.5, RED], [0.8, 0.82, GREEN]],
  4: [[0.27, 0.24, BLUE], [0.73, 0.24, GREEN], [0.27, 0.76, GREEN], [0.73, 0.76, BLUE]],
  5: [[0.24, 0.2, BLUE], [0.76, 0.2, GREEN], [0.5, 0.5, RED], [0.24, 0.8, GREEN], [0.76, 0.8, BLUE]],
  6: [[0.3, 0.16, GREEN], [0.7, 0.16, GREEN], [0.3, 0.55, RED], [0.7, 0.55, RED], [0.3, 0.86, RED], [0.7, 0.86, RED]],
  7: [[0.2, 0.1, GREEN], [0.5, 0.22, GREEN], [0.8, 0.34, GREEN], [0.3, 0.6, RED], [0.7, 0.6, RED],
    [0.3, 0.88, RED], [0.7, 0.88, RED]],
  8: [0.11, 0.37, 0.63, 0.89].flatMap((y) => [[0.3, y, BLUE], [0.7, y, BLUE]]),
  9: [0.16, 0.5, 0.84].flatMap((y, row) => [0.2, 0.5, 0.8].map((x) => [x, y, [BLUE, RED, GREEN][row]])),
};
const STICKS = {
  2: [[0.5, 0.24], [0.5, 0.76]],
  3: [[0.5, 0.24], [0.28, 0.76], [0.72, 0.76]],
  4: [[0.28, 0.24], [0.72, 0.24], [0.28, 0.76], [0.72, 0.76]],
  5: [[0.2, 0.24], [0.8, 0.24], [0.5, 0.5, RED], [0.2, 0.76], [0.8, 0.76]],
  6: [[0.2, 0.24], [0.5, 0.24], [0.8, 0.24], [0.2, 0.76], [0.5, 0.76], [0.8, 0.76]],
  7: [[0.5, 0.16, RED], [0.2, 0.5], [0.5, 0.5], [0.8, 0.5], [0.2, 0.84], [0.5, 0.84], [0.8, 0.84]],
  8: [[0.14, 0.24], [0.38, 0.24], [0.62, 0.24], [0.86, 0.24], [0.14, 0.76], [0.38, 0.76], [0.62, 0.76],
    [0.86, 0.76]],
  9: [0.16, 0.5, 0.84].flatMap((y) => [0.2, 0.5, 0.8].map((x) => [x, y, x === 0.5 ? RED : GREEN])),
};

function dots(rank, box) {
  const spots = DOTS[rank];
  const r = rank === 1 ? 13 : rank <= 3 ? 6.2 : rank <= 6 ? 5.4 : rank === 7 ? 4.6 : 4.3;
  return spots.map(([ux, uy, colour]) => {
    const x = (box.x + ux * box.w).toFixed(1);
    const y = (box.y + uy * box.h).toFixed(1);
    const ring = rank === 1
      ? `<circle cx="${x}" cy="${y}" r="${(r * 0.62).toFixed(1)}" fill="none" stroke="${GREEN}" stroke-width="2"/>` +
        `<circle cx="${x}" cy="${y}" r="${(r * 0.25).toFixed(1)}" fill="#fffdf6"/>`
      : `<circle cx="${x}" cy="${y}" r="${(r * 0.5).toFixed(1)}" fill="none" stroke="#fffdf6" stroke-width="1"/>`;
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}"/>${ring}`;
  }).join("");
}

function sticks(rank, box) {
  const rows = rank === 7 || rank === 9 ? 3 : 2;
  const h = (box.h / rows) * 0.8;
  const w = rank === 8 ? 4.2 : 5;
  return STICKS[rank].map(([ux, uy, colour = GREEN]) => {
    const x = box.x + ux * box.w - w / 2;
    const y = box.y + uy * box.h - h / 2;
    const mid = y + h / 2;
    return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w}" height="${h.toFixed(1)}" rx="2" fill="${colour}"/>` +
      `<line x1="${x.toFixed(1)}" x2="${(x + w).toFixed(1)}" y1="${mid.toFixed(1)}" y2="${mid.toFixed(1)}" stroke="#fffdf6" stroke-width=".9"/>`;
  }).join("");
}

function bird(box) {
  // the 1 of bamboo: a peacock-like bird on a stick
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  return `<g transform="translate(${cx.toFixed(1)} ${cy.toFixed(1)})">` +
    `<path d="M-3 6 C-14 4 -16 -8 -8 -14 C-10 -6 -6 -2 -3 -1 Z" fill="${GREEN}"/>` +
    `<path d="M-2 8 C-16 12 -18 20 -12 22 C-8 16 -4 14 0 12 Z" fill="${RED}"/>` +
    `<ellipse cx="3" cy="4" rx="8" ry="6" fill="${GREEN}"/>` +
    `<circle cx="9" cy="-6" r="4.5" fill="${GREEN}"/>` +
    `<path d="M13 -7 L18 -5 L13 -4 Z" fill="${RED}"/>` +
    `<circle cx="10" cy="-7" r="1.2" fill="#fffdf6"/>` +
    `<path d="M2 10 L0 20 M6 10 L7 20" stroke="${RED}" stroke-width="1.6"/></g>`;
}

function flower(name, box) {
  const colour = "abcd".includes(name) ? "#7b3fa0" : "#c25a11";
  const number = "abcdefgh".indexOf(name) % 4 + 1;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h * 0.36;
  const petals = [0, 72, 144, 216, 288].map((a) =>
    `<ellipse cx="${cx}" cy="${(cy - 6).toFixed(1)}" rx="3.6" ry="6" fill="${colour}" opacity=".8" transform="rotate(${a} ${cx} ${cy.toFixed(1)})"/>`).join("");
  return petals + `<circle cx="${cx}" cy="${cy.toFixed(1)}" r="2.8" fill="#e0a800"/>` +
    text(cx, box.y + box.h * 0.95, 15, colour, FLOWERS[name]) +
    text(box.x + box.w - 3, box.y + 8, 8, colour, String(number));
}

function pictureFace(name, box) {
  if (/^[1-9][msp]$/.test(name)) {
    const rank = Number(name[0]);
    if (name[1] === "p") return dots(rank, box);
    if (name[1] === "s") return rank === 1 ? bird(box) : sticks(rank, box);
    return text(24, box.y + box.h * 0.42, 19, INK, NUMERALS[rank - 1]) + text(24, box.y + box.h * 0.95, 19, RED, "萬");
  }
  if (name === "P") {
    return `<rect x="${box.x + 3}" y="${box.y + 2}" width="${box.w - 6}" height="${box.h - 4}" rx="3" fill="none" stroke="${BLUE}" stroke-width="2.5"/>` +
      `<rect x="${box.x + 7}" y="${box.y + 6}" width="${box.w - 14}" height="${box.h - 12}" rx="2" fill="none" stroke="${BLUE}" stroke-width="1"/>`;
  }
  if (HONOURS[name]) {
    const [zh, colour] = HONOURS[name];
    return text(24, box.y + box.h * 0.72, 28, colour, zh);
  }
  if (FLOWERS[name]) return flower(name, box);
  return text(24, 40, 28, "#555", "?");
}

function textFace(name) {
  if (/^[1-9][msp]$/.test(name)) {
    const suit = SUIT[name[1]];
    return text(24, 27, 22, suit.num, NUMERALS[Number(name[0]) - 1]) + text(24, 48, 19, suit.face, suit.zh);
  }
  if (HONOURS[name]) {
    const [zh, colour] = HONOURS[name];
    return name === "P"
      ? `<rect x="11" y="10" width="26" height="37" rx="3" fill="none" stroke="${BLUE}" stroke-width="2.5"/>` +
        text(24, 35, 16, BLUE, "白", 400)
      : text(24, 40, 29, colour, { E: "东", F: "发" }[name] || zh);
  }
  if (FLOWERS[name]) {
    const colour = "abcd".includes(name) ? "#7b3fa0" : "#c25a11";
    return `<circle cx="24" cy="30" r="15" fill="none" stroke="${colour}" stroke-width="1" opacity=".5"/>` +
      text(24, 39, 24, colour, FLOWERS[name]);
  }
  return text(24, 40, 28, "#555", "?");
}

/** The label under a face, as the "labels" setting asks: notation, English, Chinese or none. */
function label(name, kind) {
  if (kind === "none") return "";
  if (kind === "code") return name;
  if (kind === "zh") return tileName(name);
  const suited = /^[1-9][msp]$/.test(name);
  return suited ? `${name[0]} ${SHORT_EN[name[1]]}` : SHORT_EN[name] || name;
}

function look() {
  const labels = setting("labels");
  const kind = labels === "name" ? (lang() === "zh" ? "zh" : "en") : labels;
  return { faces: setting("faces"), labels: kind };
}

const cache = new Map();

/** The SVG markup of one tile (a back when name is null or back is set); memoised. */
export function tileSVG(name, { wild = false, back = false } = {}) {
  const { faces, labels } = look();
  const key = `${name}|${wild}|${back}|${faces}|${labels}|${tileName(name || "")}`;
  let svg = cache.get(key);
  if (svg === undefined) {
    svg = drawTile(name, wild, back, faces, labels);
    cache.set(key, svg);
  }
  return svg;
}

function drawTile(name, wild, back, faces, labels) {
  const frame = '<rect x="1" y="4" width="46" height="61" rx="6" fill="#c9bd9f"/>';
  if (back || !name) {
    return `<svg viewBox="0 0 48 66" aria-hidden="true">${frame}` +
      '<rect x="1" y="1" width="46" height="61" rx="6" fill="#2e7d5b" stroke="#1b5e40"/>' +
      '<rect x="7" y="7" width="34" height="49" rx="4" fill="none" stroke="#7fc4a2" stroke-width="1.5"/></svg>';
  }
  if (!VALID.test(name)) name = "?";
  const caption = name === "?" ? "" : label(name, labels);
  const box = caption ? { x: 5, y: 5, w: 38, h: 45 } : { x: 5, y: 6, w: 38, h: 50 };
  const face = faces === "text" ? textFace(name) : pictureFace(name, box);
  const size = caption.length > 5 ? 7.5 : caption.length > 3 ? 8.5 : 10;
  const ring = wild
    ? '<rect x="1.5" y="1.5" width="45" height="60" rx="6" fill="none" stroke="#e0a800" stroke-width="3"/>' +
      '<circle cx="40" cy="9" r="7.5" fill="#e0a800"/>' + text(40, 12.5, 9, "#fff", "得")
    : "";
  return `<svg viewBox="0 0 48 66" role="img" aria-label="${tileName(name)}">${frame}` +
    '<rect x="1" y="1" width="46" height="61" rx="6" fill="#fffdf6" stroke="#8a8170"/>' +
    face + (caption ? text(24, 59.5, size, "#5b5b5b", caption, 600) : "") + ring + "</svg>";
}

const nodes = new Map();

function svgNode(name, wild, back) {
  const { faces, labels } = look();
  const key = `${name}|${wild}|${back}|${faces}|${labels}|${tileName(name || "")}`;
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
