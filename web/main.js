// @ts-check
import { html, render } from "./lib/preact.js";
import { boot, followRoute } from "./boot.js";
import { markReadSoon } from "./actions.js";
import { App } from "./components/app.js";
import { onRoute } from "./router.js";
import { getState } from "./store.js";
import { startTabBadge } from "./notify.js";

onRoute((r) => void followRoute(r));
document.addEventListener("visibilitychange", () => {
  const cid = getState().route.conversationId;
  if (cid) markReadSoon(cid);
});
const root = document.getElementById("app");
if (root) render(html`<${App} />`, root);
startTabBadge();
void boot();
