// The replay's Review pane: a seat's decisions in the hand weighed by the server's search
// (POST /hands/{id}/review?seat=N starts it, GET says where it stands), a progress bar while it
// runs, then the summary and the decisions, the biggest loss first. While the match is played
// only the seat kept in this browser (its token) may be reviewed; once it is over, any seat.

import { t, tileName } from "./i18n.js";
import { getJSON, h, postJSON, savedSeat } from "./util.js";

const POLL_MS = 1000;
/** Candidates shown per decision (and the action taken if it is not among them). */
const SHOWN = 4;

function signed(x) { return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`; }

function interval(pair) {
  return pair ? `[${signed(pair[0])}, ${signed(pair[1])}]` : "—";
}

/** A chow's three tiles from its lowest ("3m" → "345m"). */
function chowTiles(low) { const n = Number(low[0]); return `${n}${n + 1}${n + 2}${low[1]}`; }

/** An action of the review in words; offer is the tile a claim was on. */
export function actionLabel(action, offer) {
  const name = t(action.type);
  if (action.type === "chow") return `${name} ${chowTiles(action.tile)}`;
  if (action.tile) return `${name} ${tileName(action.tile)}`;
  if (offer && ["pung", "exposed_kong", "win"].includes(action.type)) return `${name} ${tileName(offer)}`;
  return name;
}

export class ReviewPane {
  /** replay: GET /hands/{id}/replay; names(): the seats' names; go(index): show a step. */
  constructor(replay, names, go) {
    this.replay = replay;
    this.names = names;
    this.go = go;
    this.mine = savedSeat(replay.room);
    this.over = null;
    this.seat = null;
    this.state = null;
    this.error = null;
    this.timer = null;
    this.stopped = false;
    this.el = h("section", { class: "panel review-pane", id: "review-pane" });
  }

  async start() {
    try {
      const room = await getJSON(`/rooms/${encodeURIComponent(this.replay.room)}`);
      this.over = room.status === "finished";
    } catch (error) {
      this.error = error.message;
    }
    if (this.mine) this.seat = this.mine.seat;
    else if (this.over) this.seat = 0;
    if (this.seat != null && !this.error) await this.load();
    this.render();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  path() { return `/hands/${encodeURIComponent(this.replay.id)}/review?seat=${this.seat}`; }

  /** The seat's token when the seat reviewed is the one kept in this browser. */
  headers() {
    return this.mine && this.mine.seat === this.seat ? { "X-Seat-Token": this.mine.token } : {};
  }

  async load() {
    const seat = this.seat;
    try {
      const state = await getJSON(this.path(), this.headers());
      if (seat !== this.seat || this.stopped) return;
      this.state = state;
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.poll();
  }

  poll() {
    clearTimeout(this.timer);
    if (this.stopped || !this.state || !["queued", "running"].includes(this.state.status)) return;
    this.timer = setTimeout(async () => { await this.load(); this.render(); }, POLL_MS);
  }

  async begin() {
    try {
      this.state = await postJSON(this.path(), {}, this.headers());
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.poll();
    this.render();
  }

  async choose(seat) {
    this.seat = seat;
    this.state = null;
    this.error = null;
    clearTimeout(this.timer);
    this.render();
    await this.load();
    this.render();
  }

  /** The pane, drawn afresh (the same element every time). */
  render() {
    const names = this.names();
    const parts = [h("h2", {}, t("review"))];
    if (this.over === null && !this.error) {
      this.el.replaceChildren(...parts);
      return this.el;
    }
    if (this.seat == null) {
      parts.push(this.error ? h("p", { class: "error", id: "review-error" }, this.error)
        : h("p", { class: "review-closed", id: "review-closed" }, t("review_closed")));
      this.el.replaceChildren(...parts);
      return this.el;
    }
    parts.push(h("p", { class: "review-intro" }, t("review_intro")));
    if (this.over) {
      const select = h("select", { id: "review-seat", onchange: (e) => this.choose(Number(e.target.value)) },
        names.map((name, seat) => h("option", { value: String(seat), selected: seat === this.seat }, name)));
      parts.push(h("label", { class: "review-seat" }, t("seat"), " ", select));
    } else {
      parts.push(h("p", {}, t("review_own", names[this.seat])));
    }
    if (this.error) parts.push(h("p", { class: "error", id: "review-error" }, this.error));
    const state = this.state;
    if ((state && (state.status === "none" || state.status === "failed")) || (!state && this.error)) {
      if (state && state.status === "failed") parts.push(h("p", { class: "error", id: "review-error" }, t("review_failed", state.error)));
      parts.push(h("button", { class: "primary", id: "review-start", onclick: () => this.begin() },
        state && state.status === "failed" ? t("review_retry") : t("review_start", names[this.seat])));
    } else if (state && (state.status === "queued" || state.status === "running")) {
      const label = state.status === "queued" ? t("review_queued", state.ahead ?? 0)
        : state.decisions ? t("review_running", state.reviewed, state.decisions) : t("review_starting");
      parts.push(h("div", { class: "review-progress" },
        h("progress", { id: "review-progress", max: "1", value: String(state.progress), "aria-label": label }),
        h("span", { id: "review-progress-text" }, label)));
    } else if (state && state.status === "done") {
      parts.push(...this.result(state.result));
    }
    this.el.replaceChildren(...parts);
    return this.el;
  }

  result(review) {
    const s = review.summary;
    const share = s.matched_share == null ? "—" : `${Math.round(s.matched_share * 100)}%`;
    const out = [h("p", { class: "review-summary", id: "review-summary" },
      t("review_summary", s.expected_loss.toFixed(1), s.matched, s.decisions, share))];
    if (!review.decisions.length) {
      out.push(h("p", {}, t("review_nothing")));
      return out;
    }
    out.push(h("p", { class: "review-note" }, t("review_note", review.samples)));
    const items = review.decisions.map((d) => {
      const where = [t("review_where", d.step, t(`phase_${d.phase}`), d.wall), h("code", {}, d.tiles)];
      if (d.drawn) where.push(" ", t("review_drew", tileName(d.drawn)));
      if (d.offer) where.push(" ", t("review_offer", tileName(d.offer)));
      const best = d.choices[0];
      const same = (c) => JSON.stringify(c.action) === JSON.stringify(d.taken);
      const shown = d.choices.slice(0, SHOWN);
      if (!shown.some(same)) shown.push(...d.choices.filter(same));  // the action taken, always
      const rows = shown.map((c) => h("tr", { class: same(c) ? "taken" : null },
        h("td", {}, actionLabel(c.action, d.offer)), h("td", {}, signed(c.mean)), h("td", {}, interval(c.interval)),
        h("td", {}, String(c.rollouts))));
      return h("li", { class: d.loss > 0.005 ? "review-decision lost" : "review-decision", dataset: { step: String(d.step) } },
        h("div", { class: "review-where" }, ...where, " ",
          h("button", { class: "small review-goto", onclick: () => this.go(d.step - 1) }, t("review_goto"))),
        h("div", { class: "review-verdict" },
          h("span", {}, t("review_took"), ": ", h("b", { class: "review-taken" }, actionLabel(d.taken, d.offer))), " · ",
          h("span", {}, t("review_best"), ": ", h("b", { class: "review-best" }, actionLabel(best.action, d.offer))), " · ",
          h("span", { class: "review-loss" }, t("review_loss"), ": ", h("b", {}, d.loss.toFixed(1)), " ", interval(d.loss_interval))),
        h("table", { class: "review-choices" },
          h("thead", {}, h("tr", {}, h("th", {}, t("review_candidate")), h("th", {}, t("review_points")),
            h("th", {}, t("review_interval")), h("th", {}, t("review_rollouts")))),
          h("tbody", {}, rows)));
    });
    out.push(h("ol", { class: "review-decisions", id: "review-decisions" }, items));
    return out;
  }
}
