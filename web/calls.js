// @ts-check
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { toast } from "./store.js";

/**
 * Start a call: the server names a Jitsi Meet room on its configured JITSI_BASE_URL and posts it
 * here as a message (it arrives on the stream for everyone, with Join the call). The button is
 * only shown when the server says calls are set up (`calls` in the session).
 * @param {string} cid
 */
export async function startCall(cid) {
  try {
    await api.startCall(cid);
    toast(t("calls.started"));
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("messages.unreachable"));
  }
}
