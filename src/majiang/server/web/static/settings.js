// The player's settings, kept in localStorage ("majiang.settings"): how tiles look, sounds, and
// the toggles the big platforms have (auto-win, no calls, auto-discard, auto-pass). Every page
// reads them with setting(); a change re-draws through onSettings().

const KEY = "majiang.settings";
const DEFAULTS = {
  faces: "pictures", // "pictures": dots, sticks and characters drawn; "text": numeral and suit
  labels: "code", // under each face: "code" (5p), "name" (5 Dots / 五饼) or "none"
  sound: true,
  auto_win: false, // declare a win whenever one is legal (and reaches the minimum)
  no_calls: false, // pass every claim but a win
  auto_discard: false, // discard the drawn tile when there is nothing else to do
  auto_pass: true, // pass at once when passing is all the seat may do
};
const listeners = new Set();

function stored() {
  try { return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(KEY) || "{}") || {}) }; } catch { return { ...DEFAULTS }; }
}

let current = stored();
// the toggle kept by older pages under its own key
if (localStorage.getItem("majiang.autopass") === "off") current.auto_pass = false;

/** A setting's value. */
export function setting(name) { return current[name]; }

/** Change a setting, remember it, and tell the listeners. */
export function setSetting(name, value) {
  current = { ...current, [name]: value };
  localStorage.setItem(KEY, JSON.stringify(current));
  if (name === "auto_pass") localStorage.setItem("majiang.autopass", value ? "on" : "off");
  for (const fn of listeners) fn(name, value);
}

/** Call fn(name, value) after every change. */
export function onSettings(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** Whether the player asked the system for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
