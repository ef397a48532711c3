// The organiser's page: #/ home (new score sheet, new tournament, open by code, what this browser
// keeps), #/game/CODE a score sheet, #/game/CODE/print its print view, #/t/CODE a tournament
// (the organiser's view with its token, the public one without), #/t/CODE/standings the live
// public standings, #/t/CODE/print/N the table sheets of round N.

import { optionLabel } from "./i18n.js";
import { call, keepToken, kept } from "./organiser-api.js";
import { ot } from "./organiser-i18n.js";
import { SheetPage, SheetPrintPage } from "./organiser-sheet.js";
import { StandingsPage, TablesPrintPage, TournamentPage } from "./tournament.js";
import { runPages } from "./pages.js";
import { h } from "./util.js";

const root = document.getElementById("app");

/** The token just given, to show once on the page it opens. */
function showOnce(token) { sessionStorage.setItem("majiang.organiser.fresh", token); }

function freshToken() {
  const token = sessionStorage.getItem("majiang.organiser.fresh");
  sessionStorage.removeItem("majiang.organiser.fresh");
  return token;
}

class HomePage {
  constructor(root) {
    this.root = root;
    this.rules = null;
    this.error = null;
    this.sheet = { rules: null, names: ["", "", "", ""], first_dealer: 0, length: "hands", hands: 16,
      rounds: 1, stake: 1, options: {} };
    this.tournament = { name: "", rounds: 3, seed: "", fill: "substitutes", penalties_before_table_points: false };
  }

  async start() {
    this.render();
    try { this.rules = await call("GET", "/rules"); } catch (error) { this.error = error.message; }
    if (this.rules && this.rules.length && !this.sheet.rules) this.chooseRules(this.rules[0].name);
    this.render();
  }

  stop() {}

  ruleSet() { return (this.rules || []).find((r) => r.name === this.sheet.rules); }

  /** A sheet of these rules, measured as they usually are (hands or rounds). */
  chooseRules(name) {
    this.sheet.rules = name;
    const rules = this.ruleSet();
    this.sheet.length = rules ? rules.match_length : "hands";
  }

  async createSheet(event) {
    event.preventDefault();
    const s = this.sheet;
    const body = { rules: s.rules, names: s.names.map((n) => n.trim()), first_dealer: Number(s.first_dealer),
      stake: Number(s.stake), options: {} };
    if (s.length === "rounds") body.rounds = Number(s.rounds); else body.hands = Number(s.hands);
    const rules = this.ruleSet();
    for (const option of rules ? rules.options : []) {
      const value = s.options[`${s.rules}.${option.name}`];
      if (value !== undefined && value !== option.default) body.options[option.name] = value;
    }
    try {
      const made = await call("POST", "/games", body);
      keepToken("games", made.code, made.token, body.names.join(", "));
      showOnce(made.token);
      location.hash = `#/game/${made.code}`;
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  async createTournament(event) {
    event.preventDefault();
    const tt = this.tournament;
    const body = { name: tt.name.trim(), rounds: Number(tt.rounds), fill: tt.fill,
      penalties_before_table_points: tt.penalties_before_table_points };
    if (String(tt.seed).trim() !== "") body.seed = Number(tt.seed);
    try {
      const made = await call("POST", "/tournaments", body);
      keepToken("tournaments", made.code, made.token, body.name);
      showOnce(made.token);
      location.hash = `#/t/${made.code}`;
    } catch (error) {
      this.error = error.message;
      this.render();
    }
  }

  optionInput(option) {
    const key = `${this.sheet.rules}.${option.name}`;
    const value = key in this.sheet.options ? this.sheet.options[key] : option.default;
    const set = (v) => { this.sheet.options[key] = v; };
    const id = `sheet-opt-${option.name}`;
    let input;
    if (option.type === "bool") input = h("input", { type: "checkbox", id, checked: value, onchange: (e) => set(e.target.checked) });
    else if (option.type === "int") input = h("input", { type: "number", id, min: "0", value: String(value), onchange: (e) => set(Number(e.target.value)) });
    else input = h("select", { id, onchange: (e) => set(e.target.value) }, ...option.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
    return h("label", { class: `option option-${option.type}`, title: option.doc }, input, " ", optionLabel(option.name));
  }

  field(label, input) { return h("label", { class: "field" }, h("span", {}, label), input); }

  sheetForm() {
    const s = this.sheet;
    const rules = this.ruleSet();
    const names = s.names.map((name, i) => this.field(ot("player_n", i + 1), h("input", {
      id: `sheet-name-${i}`, value: name, maxlength: "40", required: true,
      oninput: (e) => { s.names[i] = e.target.value; },
    })));
    return h("form", { class: "panel", id: "new-sheet", onsubmit: (e) => this.createSheet(e) },
      h("h2", {}, ot("new_sheet")),
      this.field(ot("rules"), h("select", { id: "sheet-rules", onchange: (e) => {
        this.chooseRules(e.target.value); this.render();
      } }, ...(this.rules || []).map((r) => h("option", { value: r.name, selected: r.name === s.rules }, `${r.zh} · ${r.en}`)))),
      h("fieldset", { class: "names" }, h("legend", {}, ot("names")), ...names),
      this.field(ot("first_dealer"), h("select", { id: "sheet-first-dealer", onchange: (e) => { s.first_dealer = Number(e.target.value); } },
        ...[0, 1, 2, 3].map((i) => h("option", { value: String(i), selected: i === s.first_dealer }, ot("player_n", i + 1))))),
      this.field(ot("length"), h("span", { class: "length" },
        h("select", { id: "sheet-length", onchange: (e) => { s.length = e.target.value; this.render(); } },
          h("option", { value: "hands", selected: s.length === "hands" }, ot("hands")),
          h("option", { value: "rounds", selected: s.length === "rounds" }, ot("t_rounds"))),
        s.length === "hands"
          ? h("input", { id: "sheet-hands", type: "number", min: "1", max: "64", value: String(s.hands), oninput: (e) => { s.hands = e.target.value; } })
          : h("input", { id: "sheet-rounds", type: "number", min: "1", max: "8", value: String(s.rounds), oninput: (e) => { s.rounds = e.target.value; } }))),
      this.field(ot("stake"), h("input", { id: "sheet-stake", type: "number", min: "1", max: "1000", value: String(s.stake), oninput: (e) => { s.stake = e.target.value; } })),
      rules ? h("details", { class: "options" }, h("summary", {}, ot("options")), ...rules.options.map((o) => this.optionInput(o))) : null,
      h("button", { class: "primary", type: "submit", id: "create-sheet", disabled: !rules }, ot("create_sheet")));
  }

  tournamentForm() {
    const tt = this.tournament;
    return h("form", { class: "panel", id: "new-tournament", onsubmit: (e) => this.createTournament(e) },
      h("h2", {}, ot("new_tournament")),
      this.field(ot("t_name"), h("input", { id: "t-name", value: tt.name, maxlength: "80", required: true, oninput: (e) => { tt.name = e.target.value; } })),
      this.field(ot("t_rounds"), h("input", { id: "t-rounds", type: "number", min: "1", max: "20", value: String(tt.rounds), oninput: (e) => { tt.rounds = e.target.value; } })),
      this.field(ot("t_seed"), h("input", { id: "t-seed", type: "number", min: "0", value: String(tt.seed), oninput: (e) => { tt.seed = e.target.value; } })),
      this.field(ot("t_fill"), h("select", { id: "t-fill", onchange: (e) => { tt.fill = e.target.value; } },
        ...["substitutes", "byes"].map((f) => h("option", { value: f, selected: f === tt.fill }, ot(`fill_${f}`))))),
      h("label", { class: "option" }, h("input", { type: "checkbox", id: "t-penalties-first", checked: tt.penalties_before_table_points,
        onchange: (e) => { tt.penalties_before_table_points = e.target.checked; } }), " ", ot("t_penalties_first")),
      h("p", {}, h("button", { class: "primary", type: "submit", id: "create-tournament" }, ot("create_tournament"))));
  }

  openForm() {
    const go = (kind) => {
      const code = document.getElementById("open-code").value.trim().toUpperCase();
      if (code) location.hash = kind === "game" ? `#/game/${code}` : `#/t/${code}`;
    };
    return h("form", { class: "panel", onsubmit: (e) => { e.preventDefault(); go("game"); } },
      h("h2", {}, ot("open_code")),
      this.field(ot("code"), h("input", { id: "open-code", maxlength: "12", autocomplete: "off", autocapitalize: "characters" })),
      h("p", { class: "buttons" }, h("button", { type: "submit", id: "open-sheet" }, ot("open_sheet")),
        " ", h("button", { type: "button", id: "open-tournament", onclick: () => go("t") }, ot("tournament"))));
  }

  keptList() {
    const b = kept();
    const item = (href, code, label) => h("li", {}, h("a", { href }, h("code", {}, code)), " ", label || "");
    const games = Object.entries(b.games).map(([code, v]) => item(`#/game/${code}`, code, v.label));
    const tours = Object.entries(b.tournaments).map(([code, v]) => item(`#/t/${code}`, code, v.label));
    return h("section", { class: "panel" }, h("h2", {}, ot("yours")),
      games.length || tours.length ? h("ul", { class: "kept" }, ...tours, ...games) : h("p", {}, ot("none_yet")));
  }

  render() {
    this.root.replaceChildren(h("div", { class: "org-home" },
      h("p", { class: "intro" }, ot("home_intro")),
      this.error ? h("p", { class: "error", role: "alert", id: "home-error" }, this.error) : null,
      h("div", { class: "org-columns" },
        h("div", {}, this.sheetForm()),
        h("div", {}, this.tournamentForm(), this.openForm(), this.keptList()))));
  }
}

function pick(parts) {
  const code = (parts[1] || "").toUpperCase();
  if (parts[0] === "game" && code && parts[2] === "print") return new SheetPrintPage(root, code);
  if (parts[0] === "game" && code) return new SheetPage(root, code, freshToken());
  if (parts[0] === "t" && code && parts[2] === "standings") return new StandingsPage(root, code);
  if (parts[0] === "t" && code && parts[2] === "print") return new TablesPrintPage(root, code, Number(parts[3] || 1));
  if (parts[0] === "t" && code) return new TournamentPage(root, code, freshToken());
  return new HomePage(root);
}

function header() {
  document.getElementById("organiser-home").textContent = ot("organiser");
  document.getElementById("lang-toggle").textContent = ot("language");
  document.title = `${ot("organiser")} · majiang`;
}

runPages(pick, header);
