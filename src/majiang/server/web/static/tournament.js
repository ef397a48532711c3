// An MCR tournament: the organiser's page (players, withdrawals and substitutes, rounds seated by
// the server, swaps, table results typed or taken from a table's score sheet, penalties, the
// seating report, the standings), the public standings that update by themselves, and the
// printable table sheets of a round.

import { windName } from "./i18n.js";
import { call, keepToken, tokenOf } from "./organiser-api.js";
import { ot } from "./organiser-i18n.js";
import { h } from "./util.js";

const POLL_MS = 3000;

function table(cls, head, rows, attrs = {}) {
  return h("table", { class: cls, ...attrs },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...rows));
}

/** The standings table, with each round's table points and score. */
function standingsTable(view) {
  const rounds = view.rounds.map((r) => r.round).filter((r) => view.after == null || r <= view.after);
  const rows = view.standings.map((s) => {
    const byRound = new Map(s.rounds.map((r) => [r.round, r]));
    return h("tr", { class: s.substitute ? "substitute" : "", dataset: { player: String(s.player) } },
      h("td", { class: "num rank" }, s.rank == null ? "–" : String(s.rank)),
      h("td", { class: "name" }, s.name, s.substitute ? h("span", { class: "badge" }, ot("substitute")) : null,
        s.withdrawn ? h("span", { class: "badge" }, ot("withdrawn")) : null),
      h("td", { class: "num tp" }, s.table_points_text),
      h("td", { class: "num score" }, String(s.score)),
      ...rounds.map((r) => {
        const line = byRound.get(r);
        if (!line) return h("td", { class: "num round" }, "");
        return h("td", { class: "num round" }, line.bye ? `${line.table_points_text} (${ot("byes")})`
          : `${line.table_points_text} / ${line.score}${line.penalty ? ` −${line.penalty}` : ""}`);
      }));
  });
  return h("div", { class: "scroll-x" }, table("standings-table", [ot("rank"), ot("players"), ot("table_points"), ot("score"),
    ...rounds.map((r) => `${ot("round_n", r)} (${ot("tp_short")} / ${ot("score")})`)], rows, { id: "standings-table" }));
}

function afterSelect(view, onPick) {
  return h("label", { class: "after no-print" }, `${ot("standings")}: `,
    h("select", { id: "standings-after", onchange: (e) => onPick(e.target.value ? Number(e.target.value) : null) },
      h("option", { value: "" }, ot("latest")),
      ...view.complete_rounds.map((r) => h("option", { value: String(r), selected: view.after === r }, ot("after_round", r)))));
}

function seatingList(round) {
  return h("div", { class: "tables" }, ...round.tables.map((t) => h("div", { class: "table-card" },
    h("h4", {}, ot("table_n", t.table)),
    h("ol", { class: "winds" }, ...t.players.map((p, w) => h("li", {}, h("span", { class: "wind-badge" }, windName(w)), " ", p.name,
      t.scores ? h("span", { class: "num score" }, String(t.scores[w])) : null))))),
  round.byes.length ? h("p", {}, `${ot("byes")}: ${round.byes.map((p) => p.name).join(", ")}`) : null);
}

class TournamentBase {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.view = null;
    this.error = null;
    this.after = null;
  }

  async load(token = null) {
    try {
      this.view = await call("GET", `/tournaments/${this.code}${this.after ? `?after=${this.after}` : ""}`, undefined, token);
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
  }

  head(extra = null) {
    const v = this.view;
    return h("header", { class: "page-head" }, h("h1", {}, v.name), h("p", { class: "sub" }, `${ot("tournament")} ${v.code}`),
      h("p", { class: "links no-print" },
        h("a", { href: `#/t/${v.code}/standings`, id: "public-link" }, ot("public_page")), " · ",
        h("a", { href: `/organiser/api/tournaments/${v.code}/standings.csv`, download: `standings-${v.code}.csv`, id: "standings-csv" }, ot("standings_csv")),
        extra));
  }
}

/** The public standings: they follow every change (the page polls the change counter). */
export class StandingsPage extends TournamentBase {
  constructor(root, code) { super(root, code); this.version = null; this.updated = null; }

  async start() {
    this.render();
    await this.refresh();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  stop() { clearInterval(this.timer); }

  async refresh() {
    await this.load();
    if (this.view) { this.version = this.view.version; this.updated = new Date(); }
    this.render();
  }

  async poll() {
    try {
      const { version } = await call("GET", `/tournaments/${this.code}/version`);
      if (version !== this.version) await this.refresh();
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  render() {
    if (!this.view) {
      this.root.replaceChildren(this.error ? h("p", { class: "error", role: "alert" }, this.error) : h("p", {}, "…"));
      return;
    }
    const v = this.view;
    const stamp = this.updated ? this.updated.toLocaleTimeString() : "";
    const token = h("input", { id: "t-token-input", autocomplete: "off" });
    const organiser = tokenOf("tournaments", v.code)
      ? h("a", { href: `#/t/${v.code}` }, ot("organiser_view"))
      : h("form", { class: "inline-form", onsubmit: async (e) => {
        e.preventDefault();
        try {
          await call("GET", `/tournaments/${v.code}`, undefined, token.value.trim());
          keepToken("tournaments", v.code, token.value.trim(), v.name);
          const target = `#/t/${v.code}`;
          if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
          else location.hash = target;
        } catch (error) { this.error = error.message; this.render(); }
      } }, `${ot("organiser_view")}: `, h("label", {}, ot("enter_token"), " ", token), " ",
      h("button", { type: "submit", id: "t-token-use" }, ot("use_token")));
    this.root.replaceChildren(h("div", { class: "tournament-page public" },
      this.head([" · ", organiser]),
      this.error ? h("p", { class: "error", role: "alert", id: "standings-error" }, this.error) : null,
      h("section", { class: "panel" }, h("h2", {}, ot("standings"), " ",
        h("span", { class: "live", id: "live-stamp", dataset: { version: String(v.version) } }, `${ot("live")} · ${ot("updated", stamp)}`)),
      afterSelect(v, (r) => { this.after = r; this.refresh(); }), standingsTable(v)),
      ...[...v.rounds].reverse().map((r) => h("section", { class: "panel" }, h("h2", {}, ot("round_n", r.round)), seatingList(r)))));
  }
}

/** The organiser's page (with the tournament's token), or the public standings without it. */
export class TournamentPage extends TournamentBase {
  constructor(root, code, fresh) {
    super(root, code);
    this.fresh = fresh;
    this.token = tokenOf("tournaments", code);
    this.public = null;
    this.busy = false;
  }

  async start() {
    if (!this.token) {
      this.public = new StandingsPage(this.root, this.code);
      this.public.start();
      return;
    }
    this.render();
    await this.load(this.token);
    this.render();
  }

  stop() { if (this.public) this.public.stop(); }

  /** Send a change; the answer is the organiser's view. */
  async act(method, path, body = undefined) {
    if (this.busy) return;
    this.busy = true;
    try {
      const view = await call(method, `/tournaments/${this.code}${path}`, body, this.token);
      if (view && view.rounds) this.view = view;
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.busy = false;
    if (this.after) await this.load(this.token);
    this.render();
  }

  playersPanel() {
    const v = this.view;
    const name = h("input", { id: "player-name", maxlength: "40", autocomplete: "off" });
    const sub = h("input", { type: "checkbox", id: "player-sub" });
    const form = h("form", { class: "add-player", onsubmit: async (e) => {
      e.preventDefault();
      const value = name.value.trim();
      if (!value) return;
      await this.act("POST", "/players", { name: value, substitute: sub.checked });
      document.getElementById("player-name")?.focus();
    } }, name, " ", h("label", { class: "option inline" }, sub, " ", ot("substitute")), " ",
    h("button", { type: "submit", id: "add-player" }, ot("add_player")));
    const items = v.players.map((p) => h("li", { class: p.withdrawn ? "withdrawn" : "", value: String(p.id) }, p.name,
      p.substitute ? h("span", { class: "badge" }, ot("substitute")) : null,
      p.withdrawn ? h("span", { class: "badge" }, ot("withdrawn")) : null, " ",
      h("button", { type: "button", class: "small", id: `withdraw-${p.id}`,
        onclick: () => this.act("POST", `/players/${p.id}/withdraw`, { withdrawn: !p.withdrawn }) }, p.withdrawn ? ot("reinstate") : ot("withdraw"))));
    return h("section", { class: "panel players" }, h("h2", {}, `${ot("players")} (${v.players.length})`), form,
      h("ol", { class: "player-list", id: "player-list" }, ...items));
  }

  tableCard(round, t) {
    const inputs = t.players.map((p, w) => h("input", { type: "number", class: "score-input", id: `score-${round.round}-${t.table}-${w}`,
      value: t.scores ? String(t.scores[w]) : "", "aria-label": `${windName(w)} ${p.name}` }));
    const scores = () => inputs.map((i) => (i.value.trim() === "" ? null : Number(i.value)));
    const base = `/rounds/${round.round}/tables/${t.table}`;
    return h("div", { class: `table-card${t.scores ? " done" : ""}`, id: `table-${round.round}-${t.table}` },
      h("h4", {}, ot("table_n", t.table)),
      h("ol", { class: "winds" }, ...t.players.map((p, w) => h("li", {}, h("span", { class: "wind-badge" }, windName(w)), " ",
        h("span", { class: "player" }, p.name), inputs[w]))),
      h("div", { class: "card-buttons" },
        h("button", { type: "button", class: "small primary", id: `save-${round.round}-${t.table}`,
          onclick: () => this.act("PUT", `${base}/result`, { scores: scores() }) }, ot("save_result")),
        t.scores ? h("button", { type: "button", class: "small", id: `unsave-${round.round}-${t.table}`,
          onclick: () => this.act("DELETE", `${base}/result`) }, ot("delete_result")) : null,
        h("button", { type: "button", class: "small", id: `sheet-${round.round}-${t.table}`, onclick: async () => {
          try {
            const made = await call("POST", `/tournaments/${this.code}${base}/sheet`, undefined, this.token);
            keepToken("games", made.code, this.token, `${this.view.name} · ${ot("round_n", round.round)} · ${ot("table_n", t.table)}`);
            location.hash = `#/game/${made.code}`;
          } catch (error) { this.error = error.message; this.render(); }
        } }, ot("open_sheet")),
        t.sheet ? h("button", { type: "button", class: "small", id: `from-sheet-${round.round}-${t.table}`,
          onclick: () => this.act("PUT", `${base}/result`, { from_sheet: true }) }, ot("sheet_totals")) : null));
  }

  roundPanel(round, last) {
    const v = this.view;
    const seated = [...round.tables.flatMap((t) => t.players), ...round.byes];
    const others = v.players.filter((p) => !p.withdrawn && !seated.some((s) => s.id === p.id));
    const choices = [...seated, ...others];
    const pickA = h("select", { id: `swap-a-${round.round}` }, ...choices.map((p) => h("option", { value: String(p.id) }, p.name)));
    const pickB = h("select", { id: `swap-b-${round.round}` }, ...choices.map((p, i) => h("option", { value: String(p.id), selected: i === 1 }, p.name)));
    return h("section", { class: "panel round", id: `round-${round.round}` },
      h("h2", {}, ot("round_n", round.round), round.complete ? h("span", { class: "badge" }, ot("complete")) : null),
      h("div", { class: "tables" }, ...round.tables.map((t) => this.tableCard(round, t))),
      round.byes.length ? h("p", {}, `${ot("byes")}: ${round.byes.map((p) => p.name).join(", ")}`) : null,
      h("p", { class: "round-tools no-print" }, `${ot("swap_players")}: `, pickA, " ↔ ", pickB, " ",
        h("button", { type: "button", class: "small", id: `swap-${round.round}`,
          onclick: () => this.act("POST", `/rounds/${round.round}/swap`, { a: Number(pickA.value), b: Number(pickB.value) }) }, ot("swap")),
        " · ", h("a", { href: `#/t/${v.code}/print/${round.round}`, id: `print-${round.round}` }, ot("print_tables")),
        last ? [" · ", h("button", { type: "button", class: "small", id: `unseat-${round.round}`,
          onclick: () => this.act("DELETE", `/rounds/${round.round}`) }, ot("take_back"))] : null));
  }

  reportPanel() {
    const report = this.view.report;
    const rounds = report.rounds.map((r) => h("li", {}, `${ot("round_n", r.round)}: ${ot("repeat_meetings")} ${r.repeat_meetings}`,
      r.repeats.length ? ` (${r.repeats.map((x) => `${ot("table_n", x.table)}: ${x.players.join("–")}`).join("; ")})` : ""));
    const winds = report.winds.map((w) => h("tr", {}, h("td", {}, w.player), ...["E", "S", "W", "N"].map((k) => h("td", { class: "num" }, String(w.winds[k]))),
      h("td", { class: "num" }, String(w.spread))));
    return h("details", { class: "panel report", id: "report" }, h("summary", {}, `${ot("report")}: ${ot("repeat_meetings")} ${report.repeat_meetings}, ${ot("spread")} ${report.worst_wind_spread}`),
      h("ul", {}, ...rounds),
      report.pairs_met_again.length ? h("p", {}, `${ot("pairs_again")}: ${report.pairs_met_again.map((p) => `${p.players.join("–")} ×${p.times}`).join(", ")}`) : null,
      table("winds-table", [ot("players"), windName(0), windName(1), windName(2), windName(3), ot("spread")], winds));
  }

  penaltiesPanel() {
    const v = this.view;
    if (!v.rounds.length) return null;
    const round = h("select", { id: "penalty-round" }, ...v.rounds.map((r) => h("option", { value: String(r.round) }, ot("round_n", r.round))));
    const player = h("select", { id: "penalty-player" }, ...v.players.map((p) => h("option", { value: String(p.id) }, p.name)));
    const points = h("input", { type: "number", id: "penalty-points", min: "1", value: "10" });
    const reason = h("input", { id: "penalty-reason", maxlength: "120" });
    const items = v.penalties.map((p) => h("li", {}, `${ot("round_n", p.round)} · ${p.name} · −${p.points} · ${p.reason} `,
      h("button", { type: "button", class: "small", id: `unpenalty-${p.id}`, onclick: () => this.act("DELETE", `/penalties/${p.id}`) }, ot("delete"))));
    return h("section", { class: "panel penalties no-print" }, h("h2", {}, ot("penalties")),
      h("form", { onsubmit: (e) => { e.preventDefault(); this.act("POST", "/penalties", { round: Number(round.value), player: Number(player.value), points: Number(points.value), reason: reason.value }); } },
        round, " ", player, " ", h("label", {}, ot("points"), " ", points), " ", h("label", {}, ot("reason"), " ", reason), " ",
        h("button", { type: "submit", id: "add-penalty" }, ot("add_penalty"))),
      items.length ? h("ul", {}, ...items) : null);
  }

  render() {
    if (this.public) return;
    if (!this.view) {
      this.root.replaceChildren(this.error ? h("p", { class: "error", role: "alert" }, this.error) : h("p", {}, "…"));
      return;
    }
    const v = this.view;
    const next = v.rounds.length + 1;
    const rounds = v.rounds.map((r, i) => this.roundPanel(r, i === v.rounds.length - 1));
    this.root.replaceChildren(h("div", { class: "tournament-page" },
      this.head(),
      this.fresh ? h("p", { class: "panel token-once", id: "token-once" }, ot("token_once_t"), " ", h("code", { id: "fresh-token" }, this.fresh)) : null,
      this.error ? h("p", { class: "error", role: "alert", id: "tournament-error" }, this.error) : null,
      h("div", { class: "org-columns t-columns" },
        h("div", {}, this.playersPanel()),
        h("div", {},
          h("section", { class: "panel" }, h("h2", {}, ot("standings")), afterSelect(v, async (r) => { this.after = r; await this.load(this.token); this.render(); }),
            standingsTable(v)))),
      next <= v.settings.rounds ? h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", id: "seat-round",
        onclick: () => this.act("POST", "/rounds") }, ot("seat_next", next))) : null,
      ...[...rounds].reverse(),
      v.rounds.length ? this.reportPanel() : h("p", {}, ot("no_rounds")),
      this.penaltiesPanel()));
  }
}

/** The table sheets of a round, one page each: the players by wind and boxes for 16 hands. */
export class TablesPrintPage extends TournamentBase {
  constructor(root, code, round) { super(root, code); this.round = round; }

  async start() { this.render(); await this.load(); this.render(); }

  stop() {}

  render() {
    if (!this.view) {
      this.root.replaceChildren(this.error ? h("p", { class: "error", role: "alert" }, this.error) : h("p", {}, "…"));
      return;
    }
    const v = this.view;
    const round = v.rounds.find((r) => r.round === this.round);
    if (!round) { this.root.replaceChildren(h("p", { class: "error" }, ot("no_rounds"))); return; }
    const sheets = round.tables.map((t) => h("section", { class: "table-sheet" },
      h("h2", {}, `${v.name} · ${ot("round_n", round.round)} · ${ot("table_n", t.table)}`),
      table("paper", [ot("hand_col"), ...t.players.map((p, w) => `${windName(w)} ${p.name}`)],
        [...Array.from({ length: 16 }, (_, i) => h("tr", {}, h("td", { class: "num" }, String(i + 1)), ...t.players.map(() => h("td", {})))),
          h("tr", { class: "sum" }, h("td", {}, ot("total_row")), ...t.players.map(() => h("td", {}))),
          h("tr", { class: "sum" }, h("td", {}, ot("table_points")), ...t.players.map(() => h("td", {}))),
          h("tr", { class: "sign" }, h("td", {}, ot("signature")), ...t.players.map(() => h("td", {})))])));
    this.root.replaceChildren(h("div", { class: "print-page" },
      h("p", { class: "no-print" }, h("a", { href: `#/t/${v.code}` }, ot("back")), " ",
        h("button", { type: "button", id: "print-button", onclick: () => window.print() }, ot("print"))),
      ...sheets));
  }
}
