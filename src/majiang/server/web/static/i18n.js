// Labels in English and Chinese, from labels.json (each key an [English, Chinese] pair); the
// choice is kept in localStorage ("majiang.lang"). Everything the page writes goes through t();
// fan and hu-item names come from the server in both languages and are picked with pick().

const KEY = "majiang.lang";
const listeners = new Set();
let current = localStorage.getItem(KEY) === "zh" ? "zh" : "en";

const LABELS = await (await fetch(new URL("./labels.json", import.meta.url))).json();
const {
  labels: L, winds: WINDS, dragons: DRAGONS, flowers: FLOWERS, suits: SUITS, numerals: NUMERALS,
  bots: BOTS, options: OPTIONS, events: EVENTS, safety: SAFETY,
} = LABELS;

/** The organiser's own labels (organiser-i18n.js). */
export const ORGANISER_LABELS = LABELS.organiser;

/** The pair's text in the current language. */
function inLang(pair) { return pair[current === "zh" ? 1 : 0]; }

/** The current language: "en" or "zh". */
export function lang() { return current; }

/** Switch language, remember it, and tell the listeners (the page re-renders). */
export function setLang(value) {
  current = value === "zh" ? "zh" : "en";
  localStorage.setItem(KEY, current);
  document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";
  for (const fn of listeners) fn(current);
}

/** Call fn after every language change. */
export function onLang(fn) { listeners.add(fn); }

function fill(text, args) {
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

/** The label for key in table (a section of labels.json) in the current language, {0}.. filled
from args; undefined when the table has no such key. */
export function labelOf(table, key, args) {
  const pair = table[key];
  return pair && fill(inLang(pair), args);
}

/** The label for key in the current language, {0}.. filled from args (the key when unknown). */
export function t(key, ...args) { return labelOf(L, key, args) ?? key; }

/** English or Chinese of a pair of names. */
export function pick(en, zh) { return current === "zh" ? (zh || en) : (en || zh); }

/** A wind 0-3. */
export function windName(wind) { return inLang(WINDS)[wind] ?? "?"; }

/** Full name of a tile in notation ("5m", "E", "a"). */
export function tileName(name) {
  if (!name) return "?";
  const zh = current === "zh";
  if (/^[1-9][msp]$/.test(name)) {
    const [n, s] = name;
    return zh ? NUMERALS[Number(n) - 1] + SUITS[s][1] : `${n} ${SUITS[s][0]}`;
  }
  const wind = "ESWN".indexOf(name);
  if (wind >= 0) return zh ? WINDS[1][wind] + "风" : `${WINDS[0][wind]} wind`;
  const pair = DRAGONS[name] ?? FLOWERS[name];
  return pair ? inLang(pair) : name;
}

/** A bot's name. */
export function botName(bot) {
  const pair = BOTS[bot];
  return t("bot", pair ? inLang(pair) : bot);
}

/** The label of a rule option (its name when unknown). */
export function optionLabel(name) {
  const pair = OPTIONS[name];
  return pair ? inLang(pair) : name.replaceAll("_", " ");
}

// the safety hint's reasons are majiang.safety.REASONS: {0} the tile, {1} the seat
/** A safety hint's reason in words; names[seat] names the opponent it is about. */
export function safetyReason(entry, names) {
  const args = [tileName(entry.tile), entry.seat != null ? names[entry.seat] : ""];
  return labelOf(SAFETY, entry.why, args) ?? (entry.text || entry.why);
}

/** One event in words; who(seat) names a seat. */
export function describeEvent(ev, who) {
  const key = ev.type === "draw" && ev.tile ? "draw_tile"
    : ev.type === "concealed_kong" && ev.tile ? "concealed_kong_tile" : ev.type;
  if (!EVENTS[key]) return ev.type;
  const tile = ev.tile ? tileName(ev.tile) : ev.tiles ? ev.tiles.map(tileName).join(" ") : ev.count;
  const third = ev.type === "indicator" ? tileName(ev.wild) : "";
  const second = ev.type === "win" ? ev.points : tile;
  return labelOf(EVENTS, key, [ev.seat != null ? who(ev.seat) : "", second, third]);
}

/** An action (the engine's JSON) in words, for the replay. */
export function describeAction(action, who, seat) {
  const key = action.type === "win" ? "declare_win" : action.type;
  const tile = action.tile ? tileName(action.tile) : action.count ?? "";
  return labelOf(EVENTS, key, [who(seat), tile]) ?? `${who(seat)}: ${action.type}`;
}

document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";
