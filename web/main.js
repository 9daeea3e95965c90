// @ts-check
import { html, render } from "./lib/preact.js";
import { boot, followRoute } from "./boot.js";
import { markReadSoon } from "./read-marks.js";
import { App } from "./components/app.js";
import { onRoute } from "./router.js";
import { getState } from "./store.js";
import { startTabBadge } from "./notify.js";
import { loadLocale } from "./i18n.js";
import { startShortcuts } from "./shortcuts.js";
import { startOffline } from "./offline.js";
import { reconnectNow } from "./live.js";

onRoute((r) => void followRoute(r));
document.addEventListener("visibilitychange", () => {
  const cid = getState().route.conversationId;
  if (cid) markReadSoon(cid);
});
// The words first (the language chosen here before, else the browser's); the profile's language follows sign-in.
await loadLocale().catch((e) => console.error(e));
const root = document.getElementById("app");
if (root) render(html`<${App} />`, root);
startTabBadge();
startShortcuts();
startOffline(reconnectNow);
void boot();
