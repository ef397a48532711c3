// A score sheet for four people at a real table: the current hand, the totals, the entry form
// (winner, discard or self-draw, and the tiles clicked or typed, the fans picked or the total;
// flowers, the situation, Huangyan's 得, losers' counts, gunner and thrown bullets as the rule set
// asks), the payments shown before saving, every hand with its corrections, summaries, changes,
// exports and a print view. The server settles every entry; this page only shows it.

import { pick, tileName, windName } from "./i18n.js";
import { call, keepToken, tokenOf } from "./organiser-api.js";
import { ot, signed } from "./organiser-i18n.js";
import { tileEl } from "./tiles.js";
import { h } from "./util.js";

const SUITED = ["m", "s", "p"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`));
const TILES = [...SUITED, "E", "S", "W", "N", "C", "F", "P"];
const FLOWERS = ["a", "b", "c", "d", "e", "f", "g", "h"];
const FLAGS = ["last_tile", "kong", "fourth_tile"];

function blankForm() {
  return { kind: "win", winner: null, discarder: undefined, seat: null, by: "tiles", tiles: "",
    fans: {}, points: "", flowers: 0, flags: {}, wild: "", losers: {}, gunner: false, throw: 0,
    accepted: [], note: "" };
}

/** The form of an entry as stored (for a correction). */
function formOf(entry) {
  const form = blankForm();
  form.kind = entry.kind;
  form.note = entry.note || "";
  form.throw = entry.throw || 0;
  form.accepted = entry.accepted || [];
  if (entry.kind === "false_win") form.seat = entry.seat;
  if (entry.kind !== "win") return form;
  form.winner = entry.winner;
  form.discarder = entry.discarder ?? null;
  if (entry.tiles != null) { form.by = "tiles"; form.tiles = entry.tiles; }
  else if (entry.fans) { form.by = "fans"; form.fans = { ...entry.fans }; }
  else { form.by = "points"; form.points = String(entry.points); }
  form.flowers = entry.flowers || 0;
  for (const flag of FLAGS) if (entry[flag]) form.flags[flag] = true;
  form.wild = entry.wild || "";
  for (const [seat, value] of Object.entries(entry.losers || {})) form.losers[seat] = String(value);
  form.gunner = !!entry.gunner;
  return form;
}

/** The JSON entry of the form. */
function entryOf(form) {
  const entry = { kind: form.kind };
  if (form.note.trim()) entry.note = form.note.trim();
  if (Number(form.throw) > 0) { entry.throw = Number(form.throw); entry.accepted = form.accepted; }
  if (form.kind === "false_win") { entry.seat = form.seat; return entry; }
  if (form.kind === "draw") return entry;
  entry.winner = form.winner;
  entry.discarder = form.discarder === undefined ? null : form.discarder;
  if (form.by === "tiles") entry.tiles = form.tiles.trim();
  else if (form.by === "fans") {
    entry.fans = {};
    for (const [id, n] of Object.entries(form.fans)) if (Number(n) > 0) entry.fans[id] = Number(n);
  } else entry.points = form.points.trim() === "" ? null : Number(form.points);
  if (Number(form.flowers) > 0) entry.flowers = Number(form.flowers);
  if (form.by === "tiles") for (const flag of FLAGS) if (form.flags[flag]) entry[flag] = true;
  if (form.wild.trim()) entry.wild = form.wild.trim();
  const losers = {};
  for (const [seat, value] of Object.entries(form.losers)) {
    const text = String(value).trim();
    if (text !== "" && Number(seat) !== form.winner) losers[seat] = /^\d+$/.test(text) ? Number(text) : text;
  }
  if (Object.keys(losers).length) entry.losers = losers;
  if (form.gunner && entry.discarder != null) entry.gunner = true;
  return entry;
}

/** Whether the form says enough to be settled (a preview is worth asking for). */
function complete(form, facts) {
  if (form.kind === "draw") return true;
  if (form.kind === "false_win") return form.seat != null;
  if (form.winner == null || form.discarder === undefined) return false;
  if (form.by === "tiles") return form.tiles.trim().length > 0;
  if (form.by === "fans") return Object.values(form.fans).some((n) => Number(n) > 0);
  if (facts.losers_count && [0, 1, 2, 3].some((s) => s !== form.winner && String(form.losers[s] ?? "").trim() === "")) return false;
  return form.points.trim() !== "";
}

function table(cls, head, rows, attrs = {}) {
  return h("table", { class: cls, ...attrs },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...rows));
}

/** A settled line in words. */
export function describe(line, who) {
  if (line.kind === "draw") return ot("d_draw");
  if (line.kind === "false_win") return ot("d_false", who(line.winner));
  const text = line.discarder == null ? ot("d_self", who(line.winner)) : ot("d_win_from", who(line.winner), who(line.discarder));
  return line.entry.gunner ? `${text} (${ot("gunner_tag")})` : text;
}

function fansText(line) {
  const detail = line.detail || {};
  const parts = (detail.fans || []).map((f) => `${pick(f.en, f.name)} ${f.points}${f.count > 1 ? `×${f.count}` : ""}`);
  if (detail.flowers && !(detail.fans || []).some((f) => f.name === "花牌")) parts.push(`${ot("flowers")} ${detail.flowers}`);
  return parts.join(", ");
}

export class SheetPage {
  constructor(root, code, fresh) {
    this.root = root;
    this.code = code;
    this.fresh = fresh;
    this.token = tokenOf("games", code);
    this.game = null;
    this.error = null;
    this.form = blankForm();
    this.rev = 0;
    this.editing = null;
    this.before = null;
    this.preview = null;
    this.previewError = null;
    this.busy = false;
    this.saved = false;
    this.filter = { kind: "", seat: "" };
    this.changes = null;
    this.confirming = null;
  }

  async start() { this.render(); await this.load(); }

  stop() { clearTimeout(this.timer); }

  async load() {
    const query = new URLSearchParams();
    if (this.filter.kind) query.set("kind", this.filter.kind);
    if (this.filter.seat !== "") query.set("seat", this.filter.seat);
    try {
      const search = query.toString();
      this.game = await call("GET", `/games/${this.code}${search ? `?${search}` : ""}`);
      this.error = null;
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  // ------------------------------------------------------------------ names and winds

  spec() {
    if (this.editing != null || this.before != null) {
      const line = this.game.entries.find((e) => e.id === (this.editing ?? this.before));
      if (line) return { ...line.hand, seat_winds: line.seat_winds };
    }
    return this.game.next_hand;
  }

  who(seat, spec = this.spec()) {
    const name = this.game.settings.names[seat];
    return spec ? `${windName(spec.seat_winds[seat])} ${name}` : name;
  }

  // ------------------------------------------------------------------ the form

  changed({ rerender = false } = {}) {
    this.rev += 1;
    this.saved = false;
    this.preview = null;
    this.previewError = null;
    if (rerender) this.render(); else this.renderPreview();
    clearTimeout(this.timer);
    if (complete(this.form, this.game.facts)) this.timer = setTimeout(() => this.askPreview(), 200);
  }

  async askPreview() {
    const rev = this.rev;
    const body = { entry: entryOf(this.form) };
    if (this.editing != null) body.replace = this.editing;
    if (this.before != null) body.before = this.before;
    try {
      const preview = await call("POST", `/games/${this.code}/preview`, body, this.token);
      if (rev !== this.rev) return;
      this.preview = { ...preview, rev };
      this.previewError = null;
    } catch (error) {
      if (rev !== this.rev) return;
      this.preview = null;
      this.previewError = error.message;
    }
    this.renderPreview();
  }

  async save() {
    if (!this.preview || this.preview.rev !== this.rev || this.busy) return;
    this.busy = true;
    const body = { entry: entryOf(this.form), version: this.game.version };
    try {
      if (this.editing != null) this.game = await call("PUT", `/games/${this.code}/entries/${this.editing}`, body, this.token);
      else {
        if (this.before != null) body.before = this.before;
        this.game = await call("POST", `/games/${this.code}/entries`, body, this.token);
      }
      this.form = blankForm();
      this.editing = this.before = null;
      this.preview = this.previewError = null;
      this.saved = true;
      this.changes = null;
      if (this.filter.kind || this.filter.seat !== "") await this.load();
    } catch (error) {
      this.previewError = error.message;
    }
    this.busy = false;
    this.rev += 1;
    this.render();
  }

  startEdit(line, mode) {
    this.form = mode === "edit" ? formOf(line.entry) : blankForm();
    this.editing = mode === "edit" ? line.id : null;
    this.before = mode === "before" ? line.id : null;
    this.changed({ rerender: true });
    document.getElementById("entry-form")?.scrollIntoView({ block: "start" });
  }

  cancelEdit() {
    this.form = blankForm();
    this.editing = this.before = null;
    this.changed({ rerender: true });
  }

  async remove(line) {
    if (this.confirming !== line.id) { this.confirming = line.id; this.render(); return; }
    this.confirming = null;
    try {
      this.game = await call("DELETE", `/games/${this.code}/entries/${line.id}`, undefined, this.token);
      this.error = null;
      this.changes = null;
      if (this.filter.kind || this.filter.seat !== "") await this.load();
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  seatButtons(id, chosen, onPick, { exclude = null, self = false } = {}) {
    const buttons = [];
    if (self) {
      buttons.push(h("button", { type: "button", id: `${id}-self`, class: `seat-pick${chosen === null ? " chosen" : ""}`,
        "aria-pressed": String(chosen === null), onclick: () => onPick(null) }, ot("self_drawn")));
    }
    for (const seat of [0, 1, 2, 3]) {
      if (seat === exclude) continue;
      buttons.push(h("button", { type: "button", id: `${id}-${seat}`, class: `seat-pick${chosen === seat ? " chosen" : ""}`,
        "aria-pressed": String(chosen === seat), onclick: () => onPick(seat) }, this.who(seat)));
    }
    return h("div", { class: "seat-picks", role: "group" }, ...buttons);
  }

  tilesInput() {
    const form = this.form;
    const input = h("input", { id: "tiles-input", class: "tiles-input", value: form.tiles, autocomplete: "off",
      spellcheck: "false", oninput: (e) => { form.tiles = e.target.value; this.showTiles(); this.changed(); } });
    const add = (text) => { form.tiles += text; input.value = form.tiles; this.showTiles(); this.changed(); };
    const button = (name) => h("button", { type: "button", class: "tile-button", dataset: { tile: name },
      title: tileName(name), onclick: () => add(name) }, tileEl(name));
    const rows = [SUITED.slice(0, 9), SUITED.slice(9, 18), SUITED.slice(18), TILES.slice(27),
      ...(this.game.facts.flowers ? [FLOWERS] : [])];
    const palette = rows.map((row) => h("div", { class: "palette-row" }, ...row.map(button)));
    const open = () => (form.tiles.match(/\[/g) || []).length > (form.tiles.match(/\]/g) || []).length;
    return h("div", { class: "by-tiles" },
      h("p", { class: "help" }, ot("tiles_help")),
      h("div", { class: "tiles-line" }, input,
        h("button", { type: "button", id: "meld-button", onclick: () => add(open() ? "]" : "[") }, ot("meld")),
        h("button", { type: "button", id: "backspace-button", title: "⌫", onclick: () => {
          form.tiles = form.tiles.replace(/(\d[msp]|[ESWNCFPa-h\][,]|,\d)$/, ""); input.value = form.tiles; this.showTiles(); this.changed();
        } }, ot("backspace")),
        h("button", { type: "button", id: "clear-tiles", onclick: () => { form.tiles = ""; input.value = ""; this.showTiles(); this.changed(); } }, ot("clear"))),
      h("div", { class: "tiles-shown", id: "tiles-shown" }),
      h("div", { class: "palette" }, ...palette));
  }

  /** The tiles typed so far, drawn (what the text says, not a judgement of it). */
  showTiles() {
    const box = document.getElementById("tiles-shown");
    if (!box) return;
    const names = [];
    let digits = "";
    for (const ch of this.form.tiles.replace(/,\d/g, "")) {
      if (/\d/.test(ch)) digits += ch;
      else if (/[msp]/.test(ch)) { for (const d of digits) names.push(`${d}${ch}`); digits = ""; }
      else if (/[ESWNCFPa-h]/.test(ch)) names.push(ch);
      else if (ch === "[" || ch === "]") names.push(ch);
    }
    box.replaceChildren(...names.map((n) => (n === "[" || n === "]" ? h("span", { class: "bracket" }, n) : tileEl(n))));
  }

  fansInput() {
    const form = this.form;
    const sum = h("span", { id: "fans-sum" });
    const showSum = () => {
      const points = this.game.facts.fans.reduce((s, f) => s + f.points * (Number(form.fans[f.id]) || 0), 0);
      sum.textContent = ot("picked", points);
    };
    const groups = new Map();
    for (const fan of this.game.facts.fans) {
      if (!groups.has(fan.points)) groups.set(fan.points, []);
      groups.get(fan.points).push(fan);
    }
    const rows = [...groups.entries()].map(([points, fans]) => h("div", { class: "fan-group" },
      h("h4", {}, `${points}`),
      ...fans.map((fan) => {
        const count = h("input", { type: "number", min: "0", max: "8", class: "fan-count", id: `fan-count-${fan.id}`,
          value: form.fans[fan.id] ? String(form.fans[fan.id]) : "",
          oninput: (e) => { form.fans[fan.id] = Number(e.target.value) || 0; box.checked = form.fans[fan.id] > 0; showSum(); this.changed(); } });
        const box = h("input", { type: "checkbox", id: `fan-${fan.id}`, checked: Number(form.fans[fan.id]) > 0,
          onchange: (e) => { form.fans[fan.id] = e.target.checked ? 1 : 0; count.value = e.target.checked ? "1" : ""; showSum(); this.changed(); } });
        return h("label", { class: "fan-pick", title: `${fan.zh} · ${fan.en}` }, box, " ", pick(fan.en, fan.zh), count);
      })));
    showSum();
    return h("div", { class: "by-fans" }, h("p", {}, sum), h("div", { class: "fan-list" }, ...rows));
  }

  winFields() {
    const form = this.form;
    const facts = this.game.facts;
    const out = [];
    out.push(h("div", { class: "form-row" }, h("span", { class: "label" }, ot("winner")),
      this.seatButtons("winner", form.winner, (seat) => {
        form.winner = seat;
        if (form.discarder === seat) form.discarder = undefined;
        delete form.losers[seat];
        this.changed({ rerender: true });
      })));
    out.push(h("div", { class: "form-row" }, h("span", { class: "label" }, ot("from")),
      this.seatButtons("from", form.discarder, (seat) => { form.discarder = seat; this.changed({ rerender: true }); },
        { exclude: form.winner, self: true })));
    const ways = ["tiles", ...(facts.fans.length ? ["fans"] : []), "points"];
    out.push(h("div", { class: "form-row" }, h("span", { class: "label" }, ot("count_by")),
      h("div", { class: "tabs", role: "tablist" }, ...ways.map((way) => h("button", {
        type: "button", role: "tab", id: `by-${way}`, class: form.by === way ? "chosen" : "", "aria-selected": String(form.by === way),
        onclick: () => { form.by = way; this.changed({ rerender: true }); },
      }, ot(`by_${way}`))))));
    if (form.by === "tiles") out.push(this.tilesInput());
    else if (form.by === "fans") out.push(this.fansInput());
    else {
      out.push(h("label", { class: "field" }, h("span", {}, facts.losers_count ? ot("total") : ot("points_without_flowers")),
        h("input", { id: "points-input", type: "number", min: "0", value: form.points,
          oninput: (e) => { form.points = e.target.value; this.changed(); } })));
    }
    if (form.by === "tiles" && facts.win_flags.length) {
      const self = form.discarder === null;
      out.push(h("div", { class: "form-row flags" }, h("span", { class: "label" }, ot("flags")),
        ...facts.win_flags.map((flag) => {
          const key = flag === "fourth_tile" ? "flag_fourth_tile" : `flag_${flag}${self ? "_self" : ""}`;
          return h("label", { class: "option" }, h("input", { type: "checkbox", id: `flag-${flag}`, checked: !!form.flags[flag],
            onchange: (e) => { form.flags[flag] = e.target.checked; this.changed(); } }), " ", ot(key));
        })));
    }
    if (facts.flowers) {
      out.push(h("label", { class: "field" }, h("span", {}, form.by === "tiles" ? ot("flowers_apart") : ot("flowers")),
        h("input", { id: "flowers-input", type: "number", min: "0", max: "8", value: String(form.flowers || 0),
          oninput: (e) => { form.flowers = Number(e.target.value) || 0; this.changed(); } })));
    }
    if (facts.indicator_tiles) {
      out.push(h("label", { class: "field" }, h("span", {}, ot("wild_indicator")),
        h("input", { id: "wild-input", value: form.wild, maxlength: "3", placeholder: "5s",
          oninput: (e) => { form.wild = e.target.value; this.changed(); } })));
    }
    if (facts.losers_count && form.winner != null) {
      out.push(h("fieldset", { class: "losers" }, h("legend", {}, ot("losers_counts")),
        ...[0, 1, 2, 3].filter((s) => s !== form.winner).map((seat) => h("label", { class: "field" },
          h("span", {}, this.who(seat)),
          h("input", { id: `loser-${seat}`, value: form.losers[seat] ?? "", placeholder: "0",
            oninput: (e) => { form.losers[seat] = e.target.value; this.changed(); } })))));
    }
    if (facts.gunner && form.discarder != null && form.discarder !== undefined) {
      out.push(h("label", { class: "option" }, h("input", { type: "checkbox", id: "gunner-box", checked: form.gunner,
        onchange: (e) => { form.gunner = e.target.checked; this.changed(); } }), " ", ot("gunner_box")));
    }
    return out;
  }

  throwFields(spec) {
    const form = this.form;
    const limit = this.game.facts.throw_limit;
    if (!limit || !spec) return null;
    return h("div", { class: "form-row throws" }, h("span", { class: "label" }, ot("throw")),
      h("select", { id: "throw-input", onchange: (e) => { form.throw = Number(e.target.value); this.changed({ rerender: true }); } },
        ...Array.from({ length: limit + 1 }, (_, n) => h("option", { value: String(n), selected: n === Number(form.throw) }, String(n)))),
      Number(form.throw) > 0 ? h("span", {}, ` ${ot("accepted_by")} `,
        ...[0, 1, 2, 3].filter((s) => s !== spec.dealer).map((seat) => h("label", { class: "option inline" },
          h("input", { type: "checkbox", id: `accept-${seat}`, checked: form.accepted.includes(seat), onchange: (e) => {
            form.accepted = e.target.checked ? [...form.accepted, seat].sort() : form.accepted.filter((s) => s !== seat);
            this.changed();
          } }), " ", this.who(seat)))) : null);
  }

  entryForm() {
    const game = this.game;
    const spec = this.spec();
    const form = this.form;
    if (!this.token) return null;
    if (!spec && this.editing == null && this.before == null) return null;
    const kinds = ["win", "draw", ...(game.facts.false_wins ? ["false_win"] : [])];
    const body = [
      h("div", { class: "form-row" }, h("span", { class: "label" }, ot("result")),
        h("div", { class: "tabs" }, ...kinds.map((kind) => h("button", {
          type: "button", id: `kind-${kind}`, class: form.kind === kind ? "chosen" : "", "aria-pressed": String(form.kind === kind),
          onclick: () => { form.kind = kind; this.changed({ rerender: true }); },
        }, ot(`kind_${kind}`))))),
    ];
    if (form.kind === "win") body.push(...this.winFields());
    if (form.kind === "false_win") {
      body.push(h("div", { class: "form-row" }, h("span", { class: "label" }, ot("offender")),
        this.seatButtons("offender", form.seat, (seat) => { form.seat = seat; this.changed({ rerender: true }); })));
    }
    body.push(this.throwFields(spec));
    body.push(h("label", { class: "field" }, h("span", {}, ot("note")),
      h("input", { id: "note-input", value: form.note, maxlength: "200", oninput: (e) => { form.note = e.target.value; this.changed(); } })));
    let title = spec ? `${ot("hand_now", spec.number)} · ${ot("round_of", windName(spec.prevalent_wind))}` : "";
    if (this.editing != null) title = ot("correcting", game.entries.findIndex((e) => e.id === this.editing) + 1);
    if (this.before != null) title = ot("inserting", game.entries.findIndex((e) => e.id === this.before) + 1);
    return h("section", { class: "panel entry-form", id: "entry-form" },
      h("h2", {}, title),
      ...body,
      h("div", { id: "entry-preview", class: "entry-preview", "aria-live": "polite" }),
      h("div", { class: "sheet-buttons" },
        this.editing != null || this.before != null ? h("button", { type: "button", id: "cancel-edit", onclick: () => this.cancelEdit() }, ot("cancel")) : null,
        h("button", { type: "button", class: "primary", id: "save-entry", disabled: true, onclick: () => this.save() },
          this.editing != null ? ot("save_correction") : ot("save"))));
  }

  renderPreview() {
    const box = document.getElementById("entry-preview");
    const button = document.getElementById("save-entry");
    if (button) button.disabled = !(this.preview && this.preview.rev === this.rev) || this.busy;
    if (!box) return;
    const parts = [];
    if (this.saved) parts.push(h("p", { class: "saved", id: "entry-saved" }, ot("entry_saved")));
    if (this.previewError) parts.push(h("p", { class: "error", role: "alert", id: "entry-error" }, this.previewError));
    if (this.preview) {
      const line = this.preview.line;
      const spec = { ...line.hand, seat_winds: line.seat_winds };
      const who = (seat) => this.who(seat, spec);
      parts.push(h("p", { class: "summary" }, describe(line, who), line.kind === "win" ? ` · ${line.points}` : ""));
      if (line.message) parts.push(h("p", { class: "message" }, line.message));
      const fans = fansText(line);
      if (fans) parts.push(h("p", { class: "fans" }, fans));
      const rows = [0, 1, 2, 3].map((seat) => h("tr", {},
        h("td", {}, who(seat)), h("td", { class: "num delta" }, signed(line.deltas[seat])),
        h("td", { class: "num" }, String(line.totals[seat])),
        line.bullets.some((b) => b) ? h("td", { class: "num" }, signed(line.bullets[seat])) : null));
      parts.push(table("preview-table", [ot("seat"), ot("this_hand"), ot("running"),
        ...(line.bullets.some((b) => b) ? [ot("bullets")] : [])], rows, { id: "preview-table" }));
    }
    box.replaceChildren(...parts);
  }

  // ------------------------------------------------------------------ the page

  status() {
    const game = this.game;
    const spec = game.next_hand;
    const head = spec
      ? [ot("hand_now", spec.number), ot("round_of", windName(spec.prevalent_wind)), ot("dealer_is", this.who(spec.dealer, spec)),
        spec.dealer_count > 1 ? ot("streak", spec.dealer_count) : null,
        spec.thrown.some((n) => n) ? ot("thrown_now", spec.thrown.map((n, s) => (n ? `${game.settings.names[s]} ${n}` : null)).filter(Boolean).join(", ")) : null]
        .filter(Boolean).join(" · ")
      : ot("game_over");
    const bullets = game.bullets.some((b) => b);
    const rows = [0, 1, 2, 3].map((seat) => h("tr", { class: spec && spec.dealer === seat ? "dealer" : "" },
      h("td", {}, spec ? h("span", { class: "wind-badge" }, windName(spec.seat_winds[seat])) : null),
      h("td", {}, game.settings.names[seat]),
      h("td", { class: "num total", id: `total-${seat}` }, String(game.totals[seat])),
      bullets ? h("td", { class: "num" }, String(game.bullets[seat])) : null));
    return h("section", { class: "panel status" },
      h("p", { class: "now", id: "sheet-now" }, head),
      table("totals-table", ["", ot("players"), ot("total"), ...(bullets ? [ot("bullets")] : [])], rows, { id: "totals-table" }));
  }

  entriesTable() {
    const game = this.game;
    const who = (line) => (seat) => this.who(seat, { ...line.hand, seat_winds: line.seat_winds });
    const rows = game.entries.map((line, i) => {
      const actions = this.token ? h("td", { class: "actions no-print" },
        h("button", { type: "button", class: "small", id: `edit-${line.id}`, onclick: () => this.startEdit(line, "edit") }, ot("edit")),
        h("button", { type: "button", class: "small", id: `before-${line.id}`, onclick: () => this.startEdit(line, "before") }, ot("insert_before")),
        h("button", { type: "button", class: `small${this.confirming === line.id ? " danger" : ""}`, id: `delete-${line.id}`,
          onclick: () => this.remove(line) }, this.confirming === line.id ? ot("confirm_delete") : ot("delete"))) : null;
      return h("tr", { class: `line line-${line.kind}${this.editing === line.id ? " editing" : ""}`, dataset: { entry: String(line.id) } },
        h("td", { class: "num" }, String(game.filtered ? line.index + 1 : i + 1)),
        h("td", { class: "hand-label" }, `${windName(line.hand.prevalent_wind)} ${line.hand.number}`),
        h("td", { class: "what" }, describe(line, who(line)),
          line.message ? h("div", { class: "message" }, line.message) : null,
          fansText(line) ? h("div", { class: "fans" }, fansText(line)) : null,
          line.entry.note ? h("div", { class: "note" }, line.entry.note) : null),
        h("td", { class: "num" }, line.kind === "win" ? String(line.points) : ""),
        ...[0, 1, 2, 3].map((seat) => h("td", { class: "num" }, h("span", { class: "delta" }, signed(line.deltas[seat])),
          h("span", { class: "running" }, String(line.totals[seat])))),
        actions);
    });
    const filters = h("div", { class: "filters no-print" }, `${ot("filter")}: `,
      h("select", { id: "filter-kind", onchange: (e) => { this.filter.kind = e.target.value; this.load(); } },
        h("option", { value: "" }, ot("all")),
        ...["win", "self_drawn", "deal_in", "draw", "false_win"].map((k) => h("option", { value: k, selected: this.filter.kind === k }, ot(`f_${k}`)))),
      " ",
      h("select", { id: "filter-seat", onchange: (e) => { this.filter.seat = e.target.value; this.load(); } },
        h("option", { value: "" }, ot("anyone")),
        ...[0, 1, 2, 3].map((s) => h("option", { value: String(s), selected: this.filter.seat === String(s) }, game.settings.names[s]))));
    return h("section", { class: "panel entries" }, h("h2", {}, ot("entries")), filters,
      h("div", { class: "scroll-x" }, table("entries-table", [ot("entry_n"), ot("hand_col"), ot("what"), ot("points"),
        ...game.settings.names, ...(this.token ? [""] : [])], rows, { id: "entries-table" })));
  }

  summaries() {
    const rows = this.game.summaries.map((s) => h("tr", {}, h("td", {}, s.name), h("td", { class: "num" }, String(s.wins)),
      h("td", { class: "num" }, String(s.self_drawn)), h("td", { class: "num" }, String(s.deal_ins)),
      h("td", { class: "num" }, String(s.false_wins)), h("td", { class: "num" }, s.mean_points == null ? "–" : String(s.mean_points)),
      h("td", { class: "num" }, String(s.total))));
    return h("section", { class: "panel" }, h("h2", {}, ot("summaries")),
      table("summary-table", [ot("players"), ot("wins"), ot("self_draws"), ot("deal_ins"), ot("false_wins"), ot("mean_points"), ot("total")],
        rows, { id: "summary-table" }));
  }

  changesPanel() {
    const details = h("details", { class: "panel changes no-print", id: "changes", open: this.changes != null,
      ontoggle: async (e) => {
        if (!e.target.open || this.changes != null) return;
        try { this.changes = await call("GET", `/games/${this.code}/history`); } catch (error) { this.changes = []; this.error = error.message; }
        this.render();
      } }, h("summary", {}, ot("changes")));
    if (this.changes) {
      details.append(h("ol", {}, ...this.changes.map((c) => h("li", {},
        `${ot(`change_${c.action}`)} · ${c.at.replace("T", " ").slice(0, 19)} · `,
        h("code", {}, JSON.stringify(c.before ?? c.after))))));
    }
    return details;
  }

  tokenBox() {
    if (this.fresh) {
      return h("p", { class: "panel token-once", id: "token-once" }, ot("token_once"), " ", h("code", { id: "fresh-token" }, this.fresh));
    }
    if (this.token) return null;
    const input = h("input", { id: "token-input", autocomplete: "off" });
    return h("form", { class: "panel read-only", onsubmit: async (e) => {
      e.preventDefault();
      try {
        await call("GET", `/games/${this.code}/access`, undefined, input.value.trim());
        keepToken("games", this.code, input.value.trim(), this.game ? this.game.settings.names.join(", ") : "");
        this.token = input.value.trim();
        this.error = null;
      } catch (error) { this.error = error.message; }
      this.render();
    } }, ot("read_only"), " ", h("label", {}, ot("enter_token"), " ", input), " ", h("button", { type: "submit" }, ot("use_token")));
  }

  render() {
    if (!this.game) {
      this.root.replaceChildren(this.error ? h("p", { class: "error", role: "alert" }, this.error) : h("p", {}, "…"));
      return;
    }
    const game = this.game;
    const rules = (game.tournament ? `${game.tournament.name} · ${ot("round_n", game.tournament.round)} · ${ot("table_n", game.tournament.table)} · ` : "")
      + `${game.title ? pick(game.title.en, game.title.zh) : game.settings.rules} · ${ot("stake")} ${game.settings.stake}`;
    this.root.replaceChildren(h("div", { class: "sheet-page" },
      h("header", { class: "page-head" },
        h("h1", {}, ot("sheet_title", game.code)), h("p", { class: "sub" }, rules),
        h("p", { class: "links no-print" },
          h("a", { href: `#/game/${game.code}/print`, id: "print-link" }, ot("print_view")), " · ",
          h("a", { href: `/organiser/api/games/${game.code}/export.csv`, download: `sheet-${game.code}.csv`, id: "export-csv" }, ot("export_csv")), " · ",
          h("a", { href: `/organiser/api/games/${game.code}/export.json`, download: `sheet-${game.code}.json`, id: "export-json" }, ot("export_json")),
          game.tournament ? [" · ", h("a", { href: `#/t/${game.tournament.code}` }, ot("tournament"))] : null)),
      this.tokenBox(),
      this.error ? h("p", { class: "error", role: "alert", id: "sheet-error" }, this.error) : null,
      this.status(),
      this.entryForm(),
      this.entriesTable(),
      this.summaries(),
      this.changesPanel()));
    this.renderPreview();
    this.showTiles();
  }
}

/** A sheet laid out for paper: every hand, the totals and the summaries, nothing to click. */
export class SheetPrintPage extends SheetPage {
  constructor(root, code) { super(root, code, null); this.token = null; }

  render() {
    if (!this.game) { super.render(); return; }
    const game = this.game;
    this.root.replaceChildren(h("div", { class: "sheet-page print-page" },
      h("p", { class: "no-print" }, h("a", { href: `#/game/${game.code}` }, ot("back")), " ",
        h("button", { type: "button", id: "print-button", onclick: () => window.print() }, ot("print"))),
      h("h1", {}, ot("sheet_title", game.code)),
      this.entriesTable(), this.summaries()));
  }
}
