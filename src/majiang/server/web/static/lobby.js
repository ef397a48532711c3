// The lobby: create a room (rules, options from GET /rules, stake, hands, a bot or a person per
// seat, timers, the ready timeout) and sit in it; join a room by its code; the list of rooms from GET /rooms.

import { botName, optionLabel, t } from "./i18n.js";
import { defaultRules, ruleLabel } from "./rules.js";
import { getJSON, h, playerName, postJSON, saveCreator, saveSeat, setPlayerName } from "./util.js";

/** Who sits in a room: the players' names, then how many bots. */
function playersText(seats) {
  const names = seats.filter((s) => s.player).map((s) => s.player);
  const bots = seats.filter((s) => s.bot).length;
  if (bots) names.push(t("n_bots", bots));
  return names.join(", ") || "–";
}

/** A room's status; a match paused because nobody is connected says so (and why, on hover). */
export function statusText(room) {
  return room.paused
    ? h("span", { class: "paused", title: t("paused_why") }, t("status_paused"))
    : h("span", {}, t(`status_${room.status}`));
}

/** The mark of a room whose creator chose the seed (null for the others). */
export function seedMark(room) {
  return room.chosen_seed ? h("span", { class: "mark chosen-seed", title: t("chosen_seed_why") }, t("chosen_seed")) : null;
}

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.ruleSets = null;
    this.rooms = null;
    this.error = null;
    this.busy = false;
    this.form = { rules: defaultRules(), hands: 4, stake: 1, turn_seconds: 30, grace_seconds: 20, bot_seconds: 0.6, next_seconds: 15, ready_seconds: 300, seed: "",
      seats: ["person", null, null, null], options: {} };
  }

  async start() {
    this.render();
    try {
      [this.ruleSets, this.rooms] = await Promise.all([getJSON("/rules"), getJSON("/rooms")]);
    } catch (error) {
      this.error = error.message;
    }
    this.render();
  }

  stop() {}

  async refresh() {
    try { this.rooms = await getJSON("/rooms"); } catch (error) { this.error = error.message; }
    this.render();
  }

  ruleSet() { return (this.ruleSets || []).find((r) => r.name === this.form.rules); }

  async create(event) {
    event.preventDefault();
    const form = this.form;
    const name = document.getElementById("player-name").value.trim();
    const rules = this.ruleSet();
    const bots = form.seats.map((s) => (s === "person" ? null : s || rules.default_bot));
    if (bots.every((b) => b != null)) bots[0] = null;
    if (!name) { // "Create and sit": a room made without its player would leave him watching
      this.error = t("need_name");
      this.render();
      document.getElementById("player-name").focus();
      return;
    }
    const body = { rules: form.rules, hands: Number(form.hands), stake: Number(form.stake),
      turn_seconds: Number(form.turn_seconds), grace_seconds: Number(form.grace_seconds),
      bot_seconds: Number(form.bot_seconds), next_seconds: Number(form.next_seconds),
      ready_seconds: Number(form.ready_seconds), bots, options: {} };
    for (const option of rules.options) {
      const value = form.options[`${form.rules}.${option.name}`];
      if (value !== undefined && value !== option.default) body.options[option.name] = value;
    }
    if (String(form.seed).trim() !== "") body.seed = Number(form.seed);
    this.busy = true;
    this.error = null;
    this.render();
    try {
      const room = await postJSON("/rooms", body);
      saveCreator(room.code, room.creator_token);
      setPlayerName(name);
      const seat = bots.indexOf(null);
      const grant = await postJSON(`/rooms/${room.code}/seats/${seat}`, { name });
      saveSeat(room.code, { ...grant, name });
      location.hash = `#/room/${room.code}`;
    } catch (error) {
      this.error = error.message;
      this.busy = false;
      this.render();
    }
  }

  optionInput(option) {
    const key = `${this.form.rules}.${option.name}`;
    const value = key in this.form.options ? this.form.options[key] : option.default;
    const set = (v) => { this.form.options[key] = v; };
    const id = `opt-${option.name}`;
    let input;
    if (option.type === "bool") {
      input = h("input", { type: "checkbox", id, checked: value, onchange: (e) => set(e.target.checked) });
    } else if (option.type === "int") {
      input = h("input", { type: "number", id, min: "0", value: String(value), onchange: (e) => set(Number(e.target.value)) });
    } else {
      input = h("select", { id, onchange: (e) => set(e.target.value) },
        ...option.choices.map((c) => h("option", { value: c, selected: c === value }, c)));
    }
    return h("label", { class: `option option-${option.type}`, title: option.doc }, input, " ", optionLabel(option.name));
  }

  field(key, label, attrs) {
    return h("label", { class: "field" }, h("span", {}, t(label)), h("input", {
      id: `room-${key.replaceAll("_", "-")}`, value: String(this.form[key]), ...attrs,
      oninput: (e) => { this.form[key] = e.target.value; },
    }));
  }

  createForm() {
    const rules = this.ruleSet();
    const seatSelect = (i) => h("select", { id: `seat-${i}`, onchange: (e) => { this.form.seats[i] = e.target.value; } },
      h("option", { value: "person", selected: this.form.seats[i] === "person" }, t("person")),
      ...(rules ? rules.bots : []).map((bot) => h("option", {
        value: bot, selected: this.form.seats[i] === bot || (this.form.seats[i] == null && bot === rules.default_bot),
      }, botName(bot))));
    return h("form", { class: "panel create", id: "create-form", onsubmit: (e) => this.create(e) },
      h("h2", {}, t("create_room")),
      h("label", { class: "field" }, h("span", {}, t("rules")),
        h("select", { id: "room-rules", onchange: (e) => { this.form.rules = e.target.value; this.form.seats = ["person", null, null, null]; this.render(); } },
          ...(this.ruleSets || []).map((r) => h("option", { value: r.name, selected: r.name === this.form.rules }, `${r.zh} · ${r.en}`)))),
      this.field("hands", "hands", { type: "number", min: "1", max: "64" }),
      this.field("stake", "stake", { type: "number", min: "1", max: "1000" }),
      this.field("turn_seconds", "turn_seconds", { type: "number", min: "1", max: "600", step: "any" }),
      this.field("grace_seconds", "grace_seconds", { type: "number", min: "0", max: "600", step: "any" }),
      this.field("bot_seconds", "bot_seconds", { type: "number", min: "0", max: "10", step: "any" }),
      this.field("next_seconds", "next_seconds", { type: "number", min: "0", max: "600", step: "any" }),
      this.field("ready_seconds", "ready_seconds", { type: "number", min: "1", max: "3600", step: "any" }),
      h("fieldset", { class: "seat-choice" }, h("legend", {}, t("seats")),
        ...[0, 1, 2, 3].map((i) => h("label", { class: "field" }, h("span", {}, `${t("seat")} ${i + 1}`), seatSelect(i)))),
      rules ? h("details", { class: "options" }, h("summary", {}, t("options")), ...rules.options.map((o) => this.optionInput(o))) : null,
      h("details", { class: "advanced" }, h("summary", {}, t("seed")), this.field("seed", "seed", { type: "number", min: "0" })),
      h("button", { class: "primary", type: "submit", id: "create-room", disabled: this.busy || !rules }, t("create")));
  }

  roomList() {
    if (!this.rooms) return null;
    const rows = this.rooms.map((room) => h("tr", { dataset: { code: room.code } },
      h("td", {}, h("code", {}, room.code)),
      h("td", {}, ruleLabel(room.rules)),
      h("td", { class: "room-status" }, statusText(room), seedMark(room)),
      h("td", {}, playersText(room.seats)),
      h("td", {}, room.open_seats.length ? String(room.open_seats.length) : "–"),
      h("td", { class: "room-go" }, room.status === "finished"
        ? h("a", { href: `#/room/${room.code}/hands`, class: "go" }, t("replays"))
        : h("a", { href: `#/room/${room.code}`, class: "go" }, room.open_seats.length ? t("join") : t("watch")))));
    return h("section", { class: "panel rooms" },
      h("h2", {}, t("open_rooms"), " ", h("button", { class: "small", onclick: () => this.refresh() }, t("refresh"))),
      rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "room-list" },
        h("thead", {}, h("tr", {}, ...[t("room_code"), t("rules"), "", t("players"), t("open_seats"), ""].map((x) => h("th", {}, x)))),
        h("tbody", {}, ...rows))) : h("p", {}, t("no_rooms")));
  }

  render() {
    const join = h("form", { class: "panel join", onsubmit: (e) => {
      e.preventDefault();
      const code = document.getElementById("join-code").value.trim().toUpperCase();
      if (code) location.hash = `#/room/${code}`;
    } }, h("h2", {}, t("join_room")),
    h("label", { class: "field" }, h("span", {}, t("room_code")),
      h("input", { id: "join-code", maxlength: "12", autocapitalize: "characters", autocomplete: "off" })),
    h("button", { type: "submit", id: "join-room" }, t("join")));
    const name = h("label", { class: "field name-field" }, h("span", {}, t("your_name")),
      h("input", { id: "player-name", value: playerName(), maxlength: "40", autocomplete: "nickname",
        oninput: (e) => setPlayerName(e.target.value.trim()) }));
    this.root.replaceChildren(
      h("div", { class: "lobby" }, h("div", { class: "panel you" }, name),
        this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
        h("div", { class: "lobby-columns" }, this.createForm(), h("div", {}, join, this.roomList()))));
  }
}
