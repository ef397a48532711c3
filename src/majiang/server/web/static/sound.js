// Short sounds made in the browser with Web Audio (no downloaded assets): a click for a discard,
// two notes for a claim, a rising chord for a win, a soft ping when the seat must act. Silent
// when the "sound" setting is off, and until the player has touched the page (browsers let a
// page play sound only after a gesture).

import { setting } from "./settings.js";

let context = null;

function unlock() {
  if (context || typeof AudioContext !== "function") return;
  try { context = new AudioContext(); } catch { context = null; }
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlock, { once: true, capture: true });

function note(freq, start, length, { type = "sine", gain = 0.12 } = {}) {
  const osc = context.createOscillator();
  const amp = context.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t0 = context.currentTime + start;
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(context.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

const SOUNDS = {
  discard: () => { note(1900, 0, 0.05, { type: "triangle", gain: 0.09 }); note(700, 0.005, 0.07, { type: "square", gain: 0.03 }); },
  claim: () => { note(523, 0, 0.12, { type: "triangle" }); note(784, 0.1, 0.16, { type: "triangle" }); },
  win: () => { [523, 659, 784, 1047].forEach((f, i) => note(f, i * 0.09, 0.35, { type: "triangle", gain: 0.1 })); },
  turn: () => note(880, 0, 0.18, { gain: 0.06 }),
};

/** Play a sound ("discard", "claim", "win", "turn") if sounds are on and allowed. */
export function playSound(kind) {
  if (!setting("sound") || !context || !SOUNDS[kind]) return;
  try {
    if (context.state === "suspended") context.resume();
    SOUNDS[kind]();
  } catch {
    // a sound is never worth an error
  }
}
