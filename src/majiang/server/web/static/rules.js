// The rule sets as the server describes them (GET /rules): titles, what a table shows, the
// bots. Loaded once before the first page; pages ask here instead of naming a rule set.

import { getJSON } from "./util.js";

const known = new Map();

/** Fetch the descriptions (once; a failure leaves the neutral defaults below). */
export async function loadRuleSets() {
  if (known.size) return [...known.values()];
  try {
    for (const rules of await getJSON("/rules")) known.set(rules.name, rules);
  } catch {
    // the pages still work: titles fall back to the name, the table shows every field
  }
  return [...known.values()];
}

/** Every rule set, in the server's order (the first is its default). */
export function ruleSets() { return [...known.values()]; }

/** The description of a rule set, or null. */
export function ruleSet(name) { return known.get(name) || null; }

/** The short title in both languages ("国标 GB"), or the name. */
export function ruleLabel(name) { const rules = known.get(name); return rules ? rules.label : String(name ?? ""); }

const EVERY_FIELD = { prevalent_wind: true, dealer_count: true, wild: true, second_ledger: null, gunner: false };

/** What a table of this rule set shows: prevalent_wind, dealer_count, wild, second_ledger. */
export function shows(name) { const rules = known.get(name); return rules ? rules.shows : EVERY_FIELD; }

/** The rule set a new room plays unless the form says otherwise (the server's first). */
export function defaultRules() { return known.keys().next().value ?? ""; }
