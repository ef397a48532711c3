// The page's router: #/ lobby, #/room/CODE the table, #/room/CODE/hands the room's hands,
// #/replay/ID[/STEP] the replay viewer. The language button re-draws the current page.

import { LobbyPage } from "./lobby.js";
import { lang, t } from "./i18n.js";
import { runPages } from "./pages.js";
import { ReplayPage } from "./replay.js";
import { loadRuleSets } from "./rules.js";
import { onSettings } from "./settings.js";
import { HandsPage, RoomPage } from "./table.js";

const root = document.getElementById("app");

function pick(parts) {
  if (parts[0] === "room" && parts[1] && parts[2] === "hands") return new HandsPage(root, parts[1]);
  if (parts[0] === "room" && parts[1]) return new RoomPage(root, parts[1]);
  if (parts[0] === "replay" && parts[1]) return new ReplayPage(root, parts[1], Number(parts[2] || 0));
  return new LobbyPage(root);
}

function header() {
  document.getElementById("lobby-link").textContent = t("lobby");
  const button = document.getElementById("lang-toggle");
  button.textContent = t("language");
  button.title = lang() === "zh" ? "Switch to English" : "切换到中文";
  document.title = `${t("title")} · majiang`;
}

onSettings(runPages(pick, header, loadRuleSets()));
