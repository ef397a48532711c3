// The page's router: #/ lobby, #/room/CODE the table, #/room/CODE/hands the room's hands,
// #/replay/ID[/STEP] the replay viewer. The language button re-draws the current page.

import { LobbyPage } from "./lobby.js";
import { lang, onLang, setLang, t } from "./i18n.js";
import { ReplayPage } from "./replay.js";
import { loadRuleSets } from "./rules.js";
import { onSettings } from "./settings.js";
import { HandsPage, RoomPage } from "./table.js";

const root = document.getElementById("app");
let page = null;

function route() {
  if (page) page.stop();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "room" && parts[1] && parts[2] === "hands") page = new HandsPage(root, parts[1]);
  else if (parts[0] === "room" && parts[1]) page = new RoomPage(root, parts[1]);
  else if (parts[0] === "replay" && parts[1]) page = new ReplayPage(root, parts[1], Number(parts[2] || 0));
  else page = new LobbyPage(root);
  document.body.dataset.page = page.constructor.name;
  page.start();
  header();
}

function header() {
  document.getElementById("lobby-link").textContent = t("lobby");
  const button = document.getElementById("lang-toggle");
  button.textContent = t("language");
  button.title = lang() === "zh" ? "Switch to English" : "切换到中文";
  document.title = `${t("title")} · majiang`;
}

document.getElementById("lang-toggle").addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
onLang(() => { header(); if (page) page.render(); });
onSettings(() => { if (page) page.render(); });
window.addEventListener("hashchange", route);
loadRuleSets().finally(route);
