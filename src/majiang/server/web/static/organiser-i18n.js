// The organiser's labels (labels.json's "organiser" section) in the browser table's language
// (i18n.js); a key not found there is one of the table's labels.

import { ORGANISER_LABELS, labelOf, t } from "./i18n.js";

/** A label in the current language ({0}… filled); unknown keys come from the table's labels. */
export function ot(key, ...args) { return labelOf(ORGANISER_LABELS, key, args) ?? t(key, ...args); }

/** +5, -3, 0. */
export function signed(n) { return n > 0 ? `+${n}` : String(n); }
