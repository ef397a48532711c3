// A room: the seats and the ready check, then the live table over the websocket (protocol v1).
// The seat's token is kept in localStorage, so a reload reconnects to the seat and the server's
// state frame puts the table back. Every choice offered comes from observation.legal_actions.

import { renderBoard, grouped, lastDiscarder, splitDrawn, seatWind } from "./board.js";
import { botName, describeEvent, lang, safetyReason, t, windName } from "./i18n.js";
import { ruleLabel } from "./rules.js";
import { seedMark, statusText } from "./lobby.js";
import { scoreSheet, standings } from "./sheet.js";
import { plus, tileEl, tileRow } from "./tiles.js";
import { reducedMotion, setSetting, setting } from "./settings.js";
import { playSound } from "./sound.js";
import { creatorToken, deleteWith, forgetSeat, getJSON, h, playerName, postJSON, saveSeat, savedSeat, setPlayerName } from "./util.js";


const CALLS = { chow: 1, pung: 1, exposed_kong: 1, concealed_kong: 1, added_kong: 1, win: 1, false_win: 1 };

function sameAction(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

/** Seconds left until a deadline a frame carries (epoch seconds, with the server's ``now``:
 * the two clocks need not agree), or null. */
function untilDeadline(deadline, frame) {
  if (typeof deadline !== "number") return null;
  const now = typeof frame.now === "number" ? frame.now : Date.now() / 1000;
  return Math.max(0, deadline - now);
}

/** Seconds left on the server's timer for a seat, from a frame that carries the deadlines
 * (``deadlines`` per seat, or one ``deadline``); else null. */
export function secondsLeft(frame, seat) {
  if (Array.isArray(frame.deadlines)) return seat == null ? null : untilDeadline(frame.deadlines[seat], frame);
  return untilDeadline(frame.deadline, frame);
}

export class RoomPage {
  constructor(root, code) {
    this.root = root;
    this.code = code.toUpperCase();
    this.seat = null;
    this.view = null;
    this.status = null;
    this.handNo = null;
    this.step = null;
    this.obs = null;
    this.events = [];
    this.totals = null;
    this.bullets = null;
    this.sheet = null; // the last hand_end, shown until dismissed
    this.sheetOpen = false;
    this.matchEnd = null;
    this.standingsOpen = false;
    this.hints = null;
    this.hintsOpen = false;
    this.pending = false; // an action sent and not yet answered
    this.cursor = null; // the tile chosen with the keyboard (index in display order)
    this.deadline = null;
    this.askedStep = null;
    this.settingsOpen = false;
    this.callouts = {}; // seat → {kind, until}: a call shown over the seat
    this.fresh = null; // the discard just made: {seat, count}
    this.waits = null; // the seat's waits when ready (hints asked on its own), shown always
    this.waitsFor = null;
    this.silentHint = false;
    this.message = null;
    this.lost = false;
    this.fatal = null;
    this.retry = 500;
    this.closed = false;
  }

  start() {
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tick(), 250);
    this.connect();
    this.render();
  }

  stop() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
    clearTimeout(this.sheetTimer);
    clearTimeout(this.calloutTimer);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.resyncTimer);
    if (this.ws) this.ws.close();
  }

  // ------------------------------------------------------------------ the connection

  connect() {
    const grant = savedSeat(this.code);
    this.token = grant ? grant.token : null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}${query}`);
    this.ws = ws;
    ws.onmessage = (message) => { if (ws === this.ws) this.onFrame(JSON.parse(message.data)); };
    ws.onclose = (event) => {
      if (ws !== this.ws || this.closed) return;
      if (event.code === 4404) {
        this.fatal = t("no_room", this.code);
        this.render();
        return;
      }
      if (event.code === 4401) forgetSeat(this.code);
      this.lost = true;
      this.render();
      this.reconnectTimer = setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  onFrame(frame) {
    if (frame.type === "state" || frame.type === "update") {
      const left = secondsLeft(frame, frame.type === "state" && this.seat == null ? null : this.seat);
      this.frameDeadline = left == null ? null : { at: Date.now() + left * 1000 };
    }
    if ("next_deadline" in frame) { // a server with the pause between hands
      this.pauses = true;
      const left = untilDeadline(frame.next_deadline, frame);
      this.nextAt = left == null ? null : Date.now() + left * 1000;
    }
    switch (frame.type) {
      case "welcome":
        if (frame.resumed) this.flash(t("resumed"));
        this.seat = frame.seat;
        this.lost = false;
        this.retry = 500;
        break;
      case "state":
        this.status = frame.status;
        this.view = frame.view;
        this.handNo = frame.hand;
        this.step = frame.step ?? null;
        this.obs = frame.observation;
        this.events = [...(frame.events || [])];
        this.pending = false;
        this.hints = null;
        if (frame.view.totals) this.totals = frame.view.totals;
        if (frame.result && !this.sheet) {
          this.sheet = { hand: frame.hand, result: frame.result, settlement: frame.settlement,
            totals: frame.view.totals, bullets: null, dealer: frame.observation ? frame.observation.dealer : 0 };
          this.loadFinal(this.sheet);
          this.sheetOpen = true;
        }
        if (frame.status === "finished" && !this.matchEnd) this.matchEnd = { totals: frame.view.totals, bullets: null };
        if (!frame.result && this.sheet && frame.hand !== this.sheet.hand && this.sheetOpen) {
          this.sheetOpen = false; // the next hand is dealt (the pause ran out): the table again
          this.nextSent = false;
        }
        break;
      case "pause":
        this.nextWaiting = frame.waiting || [];
        break;
      case "update":
        if (frame.hand !== this.handNo) { this.resync(); return; }
        this.step = frame.step;
        this.obs = frame.observation;
        this.events.push(...frame.events);
        this.feedback(frame.events);
        // an action sent is answered once the seat is asked something else (frames for steps
        // before it was played still ask the same question: answering again would be stale)
        if (this.pending && this.questionKey() !== this.pendingKey) this.pending = false;
        if (this.hints && !this.myLegal().length) this.hints = null;
        break;
      case "room":
        this.view = frame.view;
        this.status = frame.view.status;
        if (frame.view.totals) this.totals = frame.view.totals;
        break;
      case "hand_end":
        this.nextSent = false;
        this.sheet = { hand: frame.hand, result: frame.result, settlement: frame.settlement,
          totals: frame.totals, bullets: frame.bullets, dealer: this.obs ? this.obs.dealer : 0 };
        this.loadFinal(this.sheet);
        this.openSheetAfterCall();
        this.totals = frame.totals;
        this.bullets = frame.bullets;
        this.hints = null;
        this.hintsOpen = false;
        break;
      case "match_end":
        this.matchEnd = { totals: frame.totals, bullets: frame.bullets };
        this.status = "finished";
        break;
      case "hint":
        if (this.silentHint) {
          this.silentHint = false;
          const quiet = frame.hints || {};
          if (quiet.tiles === 13) {
            this.waits = quiet.shanten === 0 && quiet.waits && quiet.waits.length ? quiet.waits : null;
          }
          this.safety = quiet.safety ? { key: this.waitsFor, byTile: Object.fromEntries(quiet.safety.map((x) => [x.tile, x])) } : null;
          break;
        }
        this.hints = frame.hints;
        this.hintsOpen = true;
        break;
      case "error":
        if (this.silentHint) { this.silentHint = false; break; }
        this.flash(frame.message);
        this.pending = false;
        this.resync();
        break;
      default:
        return;
    }
    this.afterFrame();
    this.scheduleRender();
  }

  /** What a player of a real table sees and hears as it happens: a fresh discard drops into
   * its pond, a claim or a win is called out over the seat that calls, with a sound. */
  feedback(events) {
    const now = Date.now();
    for (const e of events) {
      if (e.type === "discard") {
        this.fresh = { seat: e.seat, count: (this.obs?.discards?.[e.seat] || []).length, at: now };
        playSound("discard");
      } else if (CALLS[e.type]) {
        this.callouts[e.seat] = { kind: e.type, at: now, until: now + 1500 };
        playSound(e.type === "win" ? "win" : "claim");
        clearTimeout(this.calloutTimer);
        this.calloutTimer = setTimeout(() => this.scheduleRender(), 1600);
      }
    }
  }

  /** Draw once per animation frame however many frames arrived (bots play in bursts). */
  scheduleRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => { this.renderQueued = false; this.render(); });
  }

  /** The seat's legal actions now (none while an action is on its way). */
  myLegal() {
    if (this.seat == null || !this.obs || this.pending || this.status !== "playing") return [];
    return this.obs.legal_actions || [];
  }

  afterFrame() {
    const legal = this.myLegal();
    if (legal.length && this.frameDeadline) {
      // the server's clock: a reload (or a late frame) continues the countdown, never restarts it
      this.deadline = this.frameDeadline.at;
      this.askedStep = `${this.handNo}:${this.step}`;
    } else if (legal.length && this.askedStep !== `${this.handNo}:${this.step}`) {
      this.askedStep = `${this.handNo}:${this.step}`;
      this.deadline = Date.now() + (this.view ? this.view.turn_seconds : 30) * 1000;
    }
    if (!legal.length) this.deadline = null;
    const auto = this.automatic(legal);
    if (auto) this.act(auto);
    else if (legal.length && this.turnSounded !== this.askedStep) {
      this.turnSounded = this.askedStep;
      playSound("turn");
    }
    this.watchWaits();
  }

  /** After a change of hand, ask the server (quietly) for the hints: with 13 tiles the waits
   * stay on show when the hand is ready, with unseen counts and whether each reaches 8 fans;
   * on the seat's turn each tile shows how dangerous it is to discard (the safety hint). */
  watchWaits() {
    const obs = this.obs;
    if (this.seat == null || !obs || this.status !== "playing" || !obs.hand || this.silentHint) return;
    const size = obs.hand.length + 3 * ((obs.melds && obs.melds[this.seat]) || []).length;
    if (size !== 13 && !(size === 14 && obs.phase === "turn" && this.myLegal().length)) return;
    // a new hand of tiles asks again; the table's discards only refresh the unseen counts of
    // waits on show
    const seen = size === 14 || this.waits ? obs.discards.flat().length : "";
    const key = `${this.handNo}:${[...obs.hand].sort().join("")}:${(obs.melds[this.seat] || []).length}:${seen}`;
    if (key === this.waitsFor) return;
    this.waitsFor = key;
    this.silentHint = true;
    this.send({ type: "hint" });
  }

  /** What the player's toggles answer by themselves, if anything: a legal win (auto-win,
   * never a false one), a pass on a claim with no win (no calls), the drawn tile when nothing
   * else but a discard is possible (auto-discard), the only choice being to pass (auto-pass). */
  automatic(legal) {
    if (!legal.length) return null;
    const obs = this.obs;
    const win = legal.find((a) => a.type === "win");
    const pass = legal.find((a) => a.type === "pass");
    if (win && setting("auto_win") && obs.win_reaches_minimum !== false) return win;
    if (pass && legal.length === 1 && setting("auto_pass")) return pass;
    if (pass && !win && setting("no_calls") && (obs.phase === "claim" || obs.phase === "rob")) return pass;
    if (setting("auto_discard") && obs.phase === "turn" && obs.drawn && !win
        && legal.every((a) => a.type === "discard") && this.playable(obs.drawn)) {
      return { type: "discard", tile: obs.drawn };
    }
    return null;
  }

  questionKey() {
    return `${this.handNo}:${JSON.stringify(this.obs ? this.obs.legal_actions : [])}`;
  }

  act(action) {
    if (!this.myLegal().some((a) => sameAction(a, action))) return;
    this.send({ type: "act", action, step: this.step });
    this.pending = true;
    this.pendingKey = this.questionKey();
    this.cursor = null;
    this.deadline = null;
    this.render();
  }

  flash(text) {
    this.message = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => { this.message = null; this.render(); }, 4000);
  }

  /** Seats whose player is away (not connected: a bot plays for them meanwhile). */
  away() {
    const seats = this.view ? this.view.seats : [];
    return [0, 1, 2, 3].map((s) => Boolean(seats[s] && seats[s].player && (seats[s].away ?? !seats[s].connected)));
  }

  names() {
    const seats = this.view ? this.view.seats : [];
    return [0, 1, 2, 3].map((s) => {
      const st = seats[s];
      if (!st) return `#${s}`;
      const name = st.player || (st.bot ? botName(st.bot) : t("empty_seat"));
      return s === this.seat ? `${name} (${t("you")})` : name;
    });
  }

  // ------------------------------------------------------------------ seats and the ready check

  async sit(seat) {
    const name = (document.getElementById("sit-name")?.value || playerName()).trim();
    if (!name) { this.flash(t("need_name")); this.render(); return; }
    setPlayerName(name);
    try {
      const grant = await postJSON(`/rooms/${this.code}/seats/${seat}`, { name });
      saveSeat(this.code, { ...grant, name });
      this.reconnect();
    } catch (error) {
      this.flash(error.message);
      this.render();
    }
  }

  /** The room's creator frees a person's seat before the match (the server tells everyone). */
  async freeSeat(seat) {
    try {
      await deleteWith(`/rooms/${this.code}/seats/${seat}`, { "X-Creator-Token": creatorToken(this.code) });
    } catch (error) {
      this.flash(error.message);
      this.render();
    }
  }

  waitingPanel() {
    const seats = this.view.seats;
    const creator = creatorToken(this.code) != null;
    // Between the welcome and the first state frame the view is the one from before we sat:
    // the seat is ours only once the server's view shows us in it.
    const mine = this.seat != null && seats[this.seat]?.player ? seats[this.seat] : null;
    const rows = seats.map((st) => h("li", { class: "wait-seat", dataset: { seat: String(st.seat) } },
      h("b", {}, `${t("seat")} ${st.seat + 1}`), " ",
      st.player ? st.player : st.bot ? botName(st.bot) : t("empty_seat"),
      st.player ? ` · ${st.ready ? t("is_ready") : t("not_ready")} · ${st.connected ? t("connected") : t("away")}` : "",
      st.seat === this.seat && st.player ? ` (${t("you")})` : "",
      this.seat == null && !st.player && !st.bot
        ? h("button", { class: "sit", onclick: () => this.sit(st.seat) }, t("sit_here")) : null,
      creator && st.player
        ? h("button", { class: "small free-seat", onclick: () => this.freeSeat(st.seat) }, t("free_seat")) : null));
    return h("div", { class: "panel waiting" },
      h("p", {}, t("waiting_players")),
      this.seat == null ? h("label", {}, `${t("your_name")} `,
        h("input", { id: "sit-name", value: playerName(), maxlength: "40", autocomplete: "nickname" })) : null,
      h("ul", { class: "wait-seats" }, ...rows),
      mine && !mine.ready ? h("button", { class: "primary ready", onclick: () => this.send({ type: "ready" }) }, t("ready")) : null);
  }

  // ------------------------------------------------------------------ the live table

  /** The hands as the hand ended, for the score sheet (the replay's last step, once the
   * hand is finished and its record public). */
  async loadFinal(sheet) {
    try {
      const hands = await getJSON(`/rooms/${this.code}/hands`);
      const hand = hands.find((x) => x.number === sheet.hand && x.finished);
      if (!hand) return;
      const replay = await getJSON(`/hands/${hand.id}/replay?last=true`);
      sheet.final = replay.steps[0].view;
      if (sheet === this.sheet) this.scheduleRender();
    } catch {
      // the sheet is whole without the hands
    }
  }

  /** My concealed tiles in display order, with the drawn tile last. */
  handOrder() {
    const obs = this.obs;
    const [rest, drawn] = splitDrawn(obs.hand || [], obs.drawn);
    const groups = grouped(rest, obs.wild);
    const flat = groups.flat();
    if (drawn != null) flat.push(drawn);
    return { groups, drawn, flat };
  }

  /** The safety hint, if it was given for the hand as it is now. */
  safetyNow() {
    return this.safety && this.safety.key === this.waitsFor && this.obs && this.obs.phase === "turn";
  }

  playable(name) {
    return this.myLegal().some((a) => a.type === "discard" && a.tile === name);
  }

  handEl() {
    const obs = this.obs;
    const { groups, drawn, flat } = this.handOrder();
    const best = this.hints && this.hints.discards && this.hints.discards.length ? this.hints.discards[0].tile : null;
    let index = 0;
    const make = (name) => {
      const i = index++;
      const playable = this.playable(name);
      const cls = [playable ? "playable" : "", this.cursor === i ? "cursor" : "", best === name ? "hinted" : ""]
        .filter(Boolean).join(" ");
      const el = tileEl(name, { wild: obs.wild, cls });
      el.dataset.index = String(i);
      const safe = this.safetyNow() && this.safety.byTile[name];
      if (safe) {
        el.classList.add(`danger-${safe.danger}`);
        if (safe.raw) el.classList.add("raw");
        el.append(h("span", { class: "danger", "aria-hidden": "true" }));
        el.title = `${el.title} · ${t(`danger_${safe.level}`)}: ${safetyReason(safe, this.names())}` +
          (safe.raw ? ` · ${t("raw_tile")}` : "");
      }
      if (playable) {
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        el.addEventListener("click", () => this.act({ type: "discard", tile: name }));
      }
      return el;
    };
    const el = h("div", { class: "concealed my-hand", id: "my-hand" });
    for (const part of groups) el.append(h("span", { class: "tiles group" }, ...part.map(make)));
    if (drawn != null) el.append(h("span", { class: "tiles drawn" }, make(drawn)));
    if (this.cursor != null && this.cursor >= flat.length) this.cursor = null;
    return el;
  }

  actionLabel(action) {
    const obs = this.obs;
    const tile = obs.last_discard;
    switch (action.type) {
      case "win": return [t(obs.win_reaches_minimum === false ? "false_win" : "win")];
      case "chow": return [t("chow"), tileRow([action.tile, plus(action.tile, 1), plus(action.tile, 2)], {}, "tiles mini")];
      case "pung": return [t("pung"), tileRow([tile, tile, tile], {}, "tiles mini")];
      case "exposed_kong": return [t("exposed_kong"), tileRow([tile, tile, tile, tile], {}, "tiles mini")];
      case "concealed_kong": return [t("concealed_kong"), tileRow([action.tile], {}, "tiles mini")];
      case "added_kong": return [t("added_kong"), tileRow([action.tile], {}, "tiles mini")];
      case "throw_bullets": return [t("throw_n", action.count)];
      case "accept_bullets": return [t("accept")];
      case "pass": return [obs.phase === "bullets" ? t("decline") : t("pass")];
      default: return [action.type];
    }
  }

  actionBar() {
    const obs = this.obs;
    const legal = this.myLegal();
    const who = (s) => `${windName(seatWind(s, obs.dealer))} ${this.names()[s]}`;
    let prompt = "";
    if (legal.length) {
      if (obs.phase === "turn") prompt = t("your_turn");
      else if (obs.phase === "claim") prompt = t("claim_on", who(obs.current));
      else if (obs.phase === "rob") prompt = t("rob_on", who(obs.current));
      else if (obs.phase === "bullets") {
        prompt = legal.some((a) => a.type === "throw_bullets") ? t("bullets_throw_explained") : t("bullets_accept_explained");
      }
    } else if (this.seat != null && this.status === "playing") prompt = t("waiting_others");
    // a throw's key is its count (0 throws none); other buttons are numbered from 1
    const key = (action, i) => action.type === "throw_bullets" ? String(action.count) : String(i + 1);
    const buttons = legal.filter((a) => a.type !== "discard").map((action, i) =>
      h("button", {
        class: `act act-${action.type}${action.type === "win" ? " primary" : ""}`,
        dataset: { action: JSON.stringify(action) },
        title: key(action, i),
        onclick: () => this.act(action),
      }, h("kbd", {}, key(action, i)), ...this.actionLabel(action)));
    const offer = legal.length && (obs.phase === "claim" || obs.phase === "rob") && obs.last_discard
      ? tileEl(obs.last_discard, { wild: obs.wild, cls: "offer" }) : null;
    const waits = this.waits && this.waits.length ? h("div", { class: "waits-strip", id: "waits-strip" },
      h("span", { class: "waits-label" }, t("waits")),
      ...this.waits.map((w) => {
        const reach = w.meets_minimum ?? [w.discard, w.self_drawn].some((x) => x && x.meets_minimum);
        const known = "meets_minimum" in w || w.discard || w.self_drawn;
        return h("span", { class: `wait${known ? (reach ? " reaches" : " under") : ""}`, title: known ? t(reach ? "reaches_8" : "under_8") : "" },
          tileEl(w.tile, { wild: obs.wild }), `×${w.unseen}`, known ? (reach ? " ✓8" : " ✗8") : "");
      })) : null;
    this.countdownEl = h("span", { class: "countdown", id: "countdown" });
    this.countdownBar = h("span", { class: "countdown-bar" });
    const bar = h("div", { class: `action-bar${legal.length ? " asking" : ""}`, id: "action-bar" },
      h("div", { class: "prompt" }, prompt, offer),
      h("div", { class: "buttons" }, ...buttons),
      waits,
      legal.length ? h("div", { class: "timer" }, this.countdownEl, h("span", { class: "countdown-track" }, this.countdownBar)) : null,
      this.seat != null ? h("div", { class: "tools" },
        h("button", { class: "hint-button", id: "hint-button", onclick: () => this.askHints(),
          disabled: !(obs.hand && obs.hand.length) || this.status !== "playing" }, h("kbd", {}, "H"), t("hints")),
        h("button", { class: "settings-button", id: "settings-button", "aria-expanded": String(this.settingsOpen),
          onclick: () => { this.settingsOpen = !this.settingsOpen; this.render(); } }, "⚙ ", t("settings"))) : null);
    this.tick();
    return bar;
  }

  askHints() { this.send({ type: "hint" }); }

  /** Ask for the whole state again, at most once a second: the server refuses faster resyncs
   * with an error frame, which must not be answered by another resync at once. */
  resync() {
    if (this.resyncTimer) return;
    const wait = Math.max(0, (this.lastResync || 0) + 1000 - Date.now());
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      this.lastResync = Date.now();
      this.send({ type: "resync" });
    }, wait);
  }

  /** The player's settings: tile faces and labels, sound, and the toggles. */
  settingsPanel() {
    const toggle = (name) => h("label", { class: "toggle" }, h("input", {
      type: "checkbox", id: `set-${name.replaceAll("_", "-")}`, checked: setting(name),
      onchange: (e) => { setSetting(name, e.target.checked); this.afterFrame(); },
    }), ` ${t(`set_${name}`)}`);
    const choice = (name, values) => h("label", { class: "choice" }, `${t(`set_${name}`)} `,
      h("select", { id: `set-${name}`, onchange: (e) => setSetting(name, e.target.value) },
        ...values.map((v) => h("option", { value: v, selected: setting(name) === v }, t(`set_${name}_${v}`)))));
    return h("aside", { class: "settings-panel", id: "settings" },
      h("header", {}, h("b", {}, t("settings")),
        h("button", { class: "close", onclick: () => { this.settingsOpen = false; this.render(); } }, "×")),
      choice("faces", ["pictures", "text"]), choice("labels", ["code", "name", "none"]),
      toggle("sound"), toggle("auto_win"), toggle("no_calls"), toggle("auto_discard"), toggle("auto_pass"));
  }

  hintsPanel() {
    const hints = this.hints;
    const body = [];
    const tileCount = (list) => h("span", { class: "hint-tiles" }, ...list.map((u) =>
      h("span", { class: "hint-tile" }, tileEl(u.tile, { wild: this.obs && this.obs.wild }), `×${u.unseen}`)));
    const waitsList = (waits) => h("ul", { class: "waits" }, ...waits.map((w) => {
      const reach = [w.discard, w.self_drawn].some((s) => s && s.meets_minimum);
      return h("li", {}, tileEl(w.tile), ` ×${w.unseen} ${t("unseen")}`,
        w.best_total != null ? ` · ${w.best_total} · ${reach ? "✓ " + t("reaches_8") : "✗ " + t("under_8")}` : "");
    }));
    if (hints.shanten == null) body.push(h("p", {}, t("no_hints")));
    else {
      body.push(h("p", { class: "shanten" }, hints.complete || hints.shanten < 0 ? t("complete")
        : hints.shanten === 0 ? t("tenpai") : t("shanten", hints.shanten)));
      if (hints.discards) {
        body.push(h("h3", {}, t("best_discards")));
        body.push(h("ol", { class: "hint-discards" }, ...hints.discards.slice(0, 5).map((d) => h("li", {},
          tileEl(d.tile, { wild: this.obs && this.obs.wild }),
          ` → ${d.shanten === 0 ? t("tenpai") : t("shanten", d.shanten)} · ${t("useful_unseen", d.useful_unseen)}`,
          d.waits && d.waits.length ? waitsList(d.waits) : null))));
      }
      if (hints.useful && hints.useful.length && !(hints.waits && hints.waits.length)) {
        body.push(h("h3", {}, t("useful")), tileCount(hints.useful));
      }
      if (hints.waits && hints.waits.length) body.push(h("h3", {}, t("waits")), waitsList(hints.waits));
      if (hints.safety && hints.safety.length) {
        body.push(h("h3", {}, t("safety")), h("ul", { class: "safety-list" }, ...hints.safety.map((x) =>
          h("li", { class: `danger-${x.danger}` }, tileEl(x.tile, { wild: this.obs && this.obs.wild }),
            ` ${t(`danger_${x.level}`)} · ${safetyReason(x, this.names())}`))));
      }
    }
    return h("aside", { class: "hints-panel", id: "hints" },
      h("header", {}, h("b", {}, t("hints")),
        h("button", { class: "close", onclick: () => { this.hintsOpen = false; this.render(); } }, "×")),
      ...body);
  }

  eventLog() {
    const obs = this.obs;
    const who = (s) => windName(seatWind(s, obs.dealer));
    const shown = this.events.filter((e) => !["draw"].includes(e.type) || e.tile).slice(-4);
    return h("ol", { class: "log", id: "log" }, ...shown.map((e) => h("li", {}, describeEvent(e, who))));
  }

  tick() {
    if (this.nextEl) {
      const left = this.nextAt == null ? null : Math.max(0, (this.nextAt - Date.now()) / 1000);
      this.nextEl.textContent = left == null ? "" : t("next_in", Math.ceil(left));
    }
    if (!this.countdownEl) return;
    if (this.deadline == null) { this.countdownEl.textContent = ""; return; }
    const left = Math.max(0, (this.deadline - Date.now()) / 1000);
    this.countdownEl.textContent = t("seconds", Math.ceil(left));
    const full = this.view ? this.view.turn_seconds : 30;
    this.countdownBar.style.width = `${Math.min(100, (100 * left) / full)}%`;
    this.countdownEl.parentElement?.classList.toggle("urgent", left < 5);
  }

  // ------------------------------------------------------------------ keys

  onKey(event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (this.sheetOpen && (key === "Escape" || key === "Enter")) {
      this.closeSheet();
      event.preventDefault();
      return;
    }
    if (!this.obs || this.seat == null) return;
    const { flat } = this.handOrder();
    const playable = flat.map((name, i) => [name, i]).filter(([name]) => this.playable(name));
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!playable.length) return;
      const order = playable.map(([, i]) => i);
      let pos = order.indexOf(this.cursor);
      if (pos < 0) pos = key === "ArrowLeft" ? order.length : -1;
      pos = (pos + (key === "ArrowLeft" ? -1 : 1) + order.length) % order.length;
      this.cursor = order[pos];
      this.render();
      event.preventDefault();
    } else if ((key === "Enter" || key === " ") && this.cursor != null) {
      const name = flat[this.cursor];
      if (this.playable(name)) this.act({ type: "discard", tile: name });
      event.preventDefault();
    } else if (/^[0-9]$/.test(key) && this.myLegal().some((a) => a.type === "throw_bullets")) {
      const action = this.myLegal().find((a) => a.type === "throw_bullets" && a.count === Number(key));
      if (action) this.act(action);
    } else if (key === "0") {
      if (this.obs.drawn && this.playable(this.obs.drawn)) this.act({ type: "discard", tile: this.obs.drawn });
    } else if (/^[1-9]$/.test(key)) {
      const others = this.myLegal().filter((a) => a.type !== "discard");
      const action = others[Number(key) - 1];
      if (action) this.act(action);
    } else if (key === "h" || key === "H") {
      this.askHints();
    }
  }

  /** Between hands: when the next hand is dealt anyway, and who has not pressed Next yet. */
  pauseLine() {
    const names = this.names();
    const waiting = (this.nextWaiting || []).filter((s) => s !== this.seat).map((s) => names[s]);
    this.nextEl = h("span", { class: "next-countdown", id: "next-countdown" });
    const el = h("p", { class: "pause-line", id: "pause-line" }, this.nextEl,
      waiting.length ? ` · ${t("waiting_for_next", waiting.join(", "))}` : "");
    this.tick();
    return el;
  }

  /** The score sheet, once the win's call-out has been seen (at once with reduced motion). */
  openSheetAfterCall() {
    const call = Object.values(this.callouts).find((c) => c.kind === "win" && c.until > Date.now());
    const wait = call && !reducedMotion() ? Math.max(0, call.at + 1100 - Date.now()) : 0;
    const sheet = this.sheet;
    clearTimeout(this.sheetTimer);
    if (!wait) { this.sheetOpen = true; return; }
    this.sheetTimer = setTimeout(() => { if (this.sheet === sheet) { this.sheetOpen = true; this.render(); } }, wait);
  }

  closeSheet() {
    if (this.pauses && !this.matchEnd && this.seat != null && !this.nextSent) {
      // the server deals the next hand once every connected person has read the sheet
      this.send({ type: "next" });
      this.nextSent = true;
    }
    this.sheetOpen = false;
    if (this.matchEnd) this.standingsOpen = true;
    this.render();
  }

  // ------------------------------------------------------------------ drawing

  render() {
    if (this.closed) return;
    const view = this.view;
    const header = h("div", { class: "room-bar" },
      h("span", { class: "room-code" }, `${t("room")} `, h("b", { id: "room-code" }, this.code)),
      view ? h("span", { class: "room-rules" }, ruleLabel(view.rules)) : null,
      view ? h("span", { class: "room-status" }, statusText(view), seedMark(view)) : null,
      this.seat == null && view ? h("span", { class: "spectating" }, t("spectating")) : null,
      h("a", { href: `#/room/${this.code}/hands`, class: "replays-link" }, t("replays")));
    const parts = [header];
    if (this.fatal) parts.push(h("p", { class: "error" }, this.fatal));
    if (this.lost) parts.push(h("p", { class: "banner lost" }, t("reconnecting")));
    if (this.message) parts.push(h("p", { class: "toast", role: "alert" }, this.message));
    if (view && view.status === "waiting") parts.push(this.waitingPanel());
    else if (this.obs && view) {
      const mine = this.seat != null;
      const obs = this.obs;
      const toAct = obs.phase === "turn" ? [obs.current] : [];
      if (mine && this.myLegal().length && !toAct.includes(this.seat)) toAct.push(this.seat);
      const board = renderBoard({
        obs, rules: view.rules, bottom: mine ? this.seat : 0, mySeat: mine ? this.seat : null,
        names: this.names(), away: this.away(), totals: this.totals, bullets: this.bullets, toAct,
        handEl: mine ? this.handEl() : null, handNo: this.handNo, handsTotal: view.rounds ? null : view.hands,
        centreExtra: this.eventLog(), lastDiscard: lastDiscarder(this.events), fresh: this.fresh,
        callouts: Object.fromEntries(Object.entries(this.callouts).filter(([, c]) => c.until > Date.now())),
      });
      parts.push(board);
      if (mine) parts.push(this.actionBar());
      document.body.dataset.step = `${this.handNo}:${this.step}`;
    }
    if (this.hintsOpen && this.hints) parts.push(this.hintsPanel());
    if (this.settingsOpen) {
      // kept between draws (the table re-draws with every frame): a click never lands on a
      // replaced checkbox
      if (!this.settingsEl || this.settingsLang !== lang()) {
        this.settingsEl = this.settingsPanel();
        this.settingsLang = lang();
      }
      parts.push(this.settingsEl);
    } else this.settingsEl = null;
    if (this.sheetOpen && this.sheet) {
      const finished = this.matchEnd != null;
      parts.push(h("div", { class: "overlay" }, scoreSheet({
        ...this.sheet, names: this.names(), rules: view ? view.rules : null, options: view ? view.options : null,
        stake: view ? view.stake : null, keep: this.sheet,
        actions: [[finished ? t("standings") : t("next_hand"), () => this.closeSheet(), "primary next-hand"]],
        pause: !finished && this.pauses ? this.pauseLine() : null,
      })));
    } else if (this.standingsOpen && this.matchEnd) {
      parts.push(h("div", { class: "overlay" }, standings({
        ...this.matchEnd, names: this.names(),
        actions: [[t("replays"), () => { location.hash = `#/room/${this.code}/hands`; }, "primary"],
          [t("back_lobby"), () => { location.hash = "#/"; }, ""]],
      })));
    }
    if (this.seat != null) parts.push(h("p", { class: "keys" }, t("keys_table")));
    this.root.replaceChildren(...parts);
  }
}

/** The finished (and running) hands of a room, each finished one with a link to its replay. */
export class HandsPage {
  constructor(root, code) { this.root = root; this.code = code.toUpperCase(); this.hands = null; this.error = null; }

  async start() {
    try {
      [this.hands, this.room] = await Promise.all([getJSON(`/rooms/${this.code}/hands`), getJSON(`/rooms/${this.code}`)]);
    } catch (error) { this.error = error.message; }
    this.render();
  }

  stop() {}

  render() {
    const parts = [h("h2", {}, t("hands_of_room", this.code)),
      h("p", {}, h("a", { href: `#/room/${this.code}` }, `← ${t("room")} ${this.code}`))];
    if (this.error) parts.push(h("p", { class: "error" }, this.error));
    else if (this.hands) {
      const names = this.room.seats.map((s) => s.player || (s.bot ? botName(s.bot) : `#${s.seat}`));
      if (!this.hands.length) parts.push(h("p", {}, t("no_hands")));
      parts.push(h("ul", { class: "hand-list" }, ...this.hands.map((hand) => {
        const r = hand.result;
        let text = t("in_play");
        if (r) text = r.winner == null ? t("draw") : `${names[r.winner]} · ${r.points} · ${r.deltas.join(" / ")}`;
        return h("li", { class: "hand-item" }, h("b", {}, t("hand_n", hand.number)), ` · ${t("dealer")} ${names[hand.dealer]} · `,
          text, " ", hand.finished ? h("a", { href: `#/replay/${hand.id}`, class: "open-replay" }, t("replay")) : null);
      })));
    }
    this.root.replaceChildren(...parts);
  }
}
