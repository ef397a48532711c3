// Small helpers: building DOM, the HTTP API, the seat tokens kept in localStorage.

/** An element: h("div", {class: "x", onclick: fn}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

async function failure(response) {
  try {
    const body = await response.json();
    const detail = body.detail;
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    return JSON.stringify(body);
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/** GET a JSON document (extra request headers in headers); throws an Error with the server's reason. */
export async function getJSON(path, headers = {}) {
  const response = await fetch(path, { headers: { accept: "application/json", ...headers } });
  if (!response.ok) throw new Error(await failure(response));
  return response.json();
}

/** POST a JSON body (extra request headers in headers); throws an Error with the server's reason. */
export async function postJSON(path, body, headers = {}) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await failure(response));
  return response.json();
}

/** DELETE with extra headers; throws an Error with the server's reason. */
export async function deleteWith(path, headers) {
  const response = await fetch(path, { method: "DELETE", headers: { accept: "application/json", ...headers } });
  if (!response.ok) throw new Error(await failure(response));
}

const SEATS = "majiang.seats";
const CREATORS = "majiang.creators";

/** The creator's token kept for a room this browser created, or null. */
export function creatorToken(code) {
  try { return (JSON.parse(localStorage.getItem(CREATORS) || "{}") || {})[code] || null; } catch { return null; }
}

/** Keep the creator's token of a room made here (it frees seats before the match). */
export function saveCreator(code, token) {
  let book;
  try { book = JSON.parse(localStorage.getItem(CREATORS) || "{}") || {}; } catch { book = {}; }
  book[code] = token;
  localStorage.setItem(CREATORS, JSON.stringify(book));
}

function seatBook() {
  try { return JSON.parse(localStorage.getItem(SEATS) || "{}") || {}; } catch { return {}; }
}

/** The seat grant ({seat, token, player_id, name}) kept for a room, or null. */
export function savedSeat(code) { return seatBook()[code] || null; }

/** Keep a seat grant so that a reload reconnects to the seat. */
export function saveSeat(code, grant) {
  const book = seatBook();
  book[code] = grant;
  localStorage.setItem(SEATS, JSON.stringify(book));
}

/** Forget a room's seat (its token was refused). */
export function forgetSeat(code) {
  const book = seatBook();
  delete book[code];
  localStorage.setItem(SEATS, JSON.stringify(book));
}

/** The player's name, remembered between visits. */
export function playerName() { return localStorage.getItem("majiang.name") || ""; }
export function setPlayerName(name) { localStorage.setItem("majiang.name", name); }
