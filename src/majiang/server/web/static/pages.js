// The router both single-page apps share: one page at a time from the location's hash, a
// header labelled in the current language, and the language button.

import { lang, onLang, setLang } from "./i18n.js";

/**
 * Show the page `pick(parts)` makes for the hash's parts ("#/room/ABCD" gives ["room", "ABCD"])
 * once `ready` settles and again at every hash change; `header()` labels the page's header.
 * The language button toggles zh/en; a language change re-labels and re-draws. Returns a
 * function that re-draws the current page.
 */
export function runPages(pick, header, ready = Promise.resolve()) {
  let page = null;
  const redraw = () => { if (page) page.render(); };
  function route() {
    if (page) page.stop();
    page = pick(location.hash.replace(/^#\/?/, "").split("/").filter(Boolean));
    document.body.dataset.page = page.constructor.name;
    page.start();
    header();
  }
  document.getElementById("lang-toggle").addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
  onLang(() => { header(); redraw(); });
  window.addEventListener("hashchange", route);
  ready.finally(route);
  return redraw;
}
