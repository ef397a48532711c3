// The replay viewer: a finished hand from GET /hands/{id}/replay, one full view per step (every
// hand face up), stepped with the buttons, the slider or the keys; the score sheet at the end;
// under it the review of a seat's decisions (review.js).

import { lastDiscarder, renderBoard, seatWind } from "./board.js";
import { botName, describeAction, describeEvent, t, windName } from "./i18n.js";
import { ReviewPane } from "./review.js";
import { scoreSheet } from "./sheet.js";
import { getJSON, h } from "./util.js";

export class ReplayPage {
  constructor(root, id, step = 0) {
    this.root = root;
    this.id = id;
    this.index = step;
    this.replay = null;
    this.error = null;
  }

  async start() {
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.render();
    try {
      this.replay = await getJSON(`/hands/${encodeURIComponent(this.id)}/replay`);
      this.index = Math.min(Math.max(0, this.index), this.replay.steps.length - 1);
      this.review = new ReviewPane(this.replay, () => this.names(), (index) => this.go(index));
      this.review.start();
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    if (this.review) this.review.stop();
  }

  go(index) {
    if (!this.replay) return;
    const last = this.replay.steps.length - 1;
    this.index = Math.min(Math.max(0, index), last);
    this.render();
  }

  onKey(event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: Infinity,
      PageUp: this.index - 10, PageDown: this.index + 10 };
    if (event.key in moves) {
      this.go(moves[event.key]);
      event.preventDefault();
    }
  }

  names() {
    return this.replay.seats.map((s) => s.player || (s.bot ? botName(s.bot) : `#${s.seat}`));
  }

  render() {
    const parts = [h("h2", {}, t("replay"), this.replay ? ` · ${t("room")} ${this.replay.room} · ${t("hand_n", this.replay.number)}` : "")];
    if (this.error) {
      parts.push(h("p", { class: "error", id: "replay-error" }, this.error));
      this.root.replaceChildren(...parts);
      return;
    }
    if (!this.replay) {
      this.root.replaceChildren(...parts);
      return;
    }
    const replay = this.replay;
    const steps = replay.steps;
    const step = steps[this.index];
    const view = step.view;
    const names = this.names();
    const who = (s) => `${windName(seatWind(s, view.dealer))} ${names[s]}`;
    const last = steps.length - 1;
    const controls = h("div", { class: "replay-controls" },
      h("button", { class: "rp-first", title: "Home", onclick: () => this.go(0), disabled: this.index === 0 }, "|◀ ", t("first")),
      h("button", { class: "rp-prev", title: "←", onclick: () => this.go(this.index - 1), disabled: this.index === 0 }, "◀ ", t("prev")),
      h("span", { class: "rp-step", id: "replay-step" }, t("step_of", this.index, last)),
      h("button", { class: "rp-next", title: "→", onclick: () => this.go(this.index + 1), disabled: this.index === last }, t("next"), " ▶"),
      h("button", { class: "rp-last", title: "End", onclick: () => this.go(last), disabled: this.index === last }, t("last"), " ▶|"),
      h("input", { type: "range", class: "rp-slider", min: "0", max: String(last), value: String(this.index),
        "aria-label": t("step_of", this.index, last), oninput: (e) => this.go(Number(e.target.value)) }));
    // the event the action made says it best ("wins (12 points)", "discards 5m"): it heads
    // the caption, the other events follow
    const own = step.action
      ? step.events.findIndex((e) => e.type === step.action.type && e.seat === step.seat) : -1;
    const what = own >= 0 ? describeEvent(step.events[own], who)
      : step.action ? describeAction(step.action, who, step.seat) : t("the_deal");
    const happened = step.events.filter((_, i) => i !== own).map((e) => describeEvent(e, who));
    const caption = h("div", { class: "replay-caption", id: "replay-caption" }, h("b", {}, what),
      happened.length ? h("span", {}, " — " + happened.join("; ")) : null);
    const board = renderBoard({
      obs: view, rules: replay.rules, bottom: 0, mySeat: null, names, totals: null, bullets: null,
      toAct: view.to_act || [], faceUp: view.hands, drawnBy: view.drawn, handNo: replay.number,
      centreExtra: caption, lastDiscard: lastDiscarder(steps.slice(0, this.index + 1).flatMap((s) => s.events)),
    });
    parts.push(controls, board);
    if (this.index === last) {
      parts.push(scoreSheet({ result: replay.result, settlement: view.settlement, hand: replay.number, names,
        dealer: replay.dealer, rules: replay.rules, totals: null, bullets: null }));
    }
    parts.push(this.review.render());
    parts.push(h("p", {}, h("a", { href: `#/room/${replay.room}/hands` }, `← ${t("hands_of_room", replay.room)}`)),
      h("p", { class: "keys" }, t("keys_replay")));
    this.root.replaceChildren(...parts);
  }
}
