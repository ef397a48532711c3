// The organiser's HTTP API (/organiser/api) and the tokens kept in this browser: a score
// sheet's or a tournament's token is given once, when it is made, and kept in localStorage
// ("majiang.organiser") so that this browser may change it later.

const BOOK = "majiang.organiser";
export const API = "/organiser/api";

function book() {
  try {
    const value = JSON.parse(localStorage.getItem(BOOK) || "{}") || {};
    return { games: value.games || {}, tournaments: value.tournaments || {} };
  } catch {
    return { games: {}, tournaments: {} };
  }
}

/** The token kept for a game ("games") or a tournament ("tournaments"), or null. */
export function tokenOf(kind, code) { return book()[kind][code.toUpperCase()]?.token || null; }

/** Keep a token with a label to list on the home page. */
export function keepToken(kind, code, token, label) {
  const b = book();
  b[kind][code.toUpperCase()] = { token, label, at: Date.now() };
  localStorage.setItem(BOOK, JSON.stringify(b));
}

/** Everything kept: {games: {CODE: {token, label}}, tournaments: {...}}. */
export function kept() { return book(); }

async function reason(response) {
  try {
    const body = await response.json();
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) return body.detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    return JSON.stringify(body);
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/** Call the API: method, path under /organiser/api, JSON body, token; throws Error(reason). */
export async function call(method, path, body = undefined, token = null) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers["X-Organiser-Token"] = token;
  const response = await fetch(API + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = new Error(await reason(response));
    error.status = response.status;
    throw error;
  }
  return response.status === 204 ? null : response.json();
}
