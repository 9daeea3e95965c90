// @ts-check
import { t } from "./i18n.js";
// ThreadContext (pin, Change target) and Assist, through api.js like every other command.
import { api, ApiError } from "./api.js";
import { getState, setState, toast } from "./store.js";
import { loadDrawer } from "./actions.js";

/** @typedef {import('./types.js').ThreadContext} ThreadContext */

/** @param {ThreadContext} view */
function keep(view) {
  setState((s) => ({ threads: { ...s.threads, [view.conversation_id]: view } }));
}

/** @param {string} cid */
export async function loadThread(cid) {
  try {
    keep(await api.threadContext(cid));
  } catch {
    // A conversation without ThreadContext is simply unpinned.
  }
}

/** @param {string} cid @param {string | null} jobId */
export async function pinJob(cid, jobId) {
  try {
    keep(await api.setPin(cid, jobId));
    toast(jobId ? t("thread.pinned") : t("thread.unpinned"));
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("thread.pin_error"));
  }
}

/** The ActionSummary's Change: the next message defaults to this job. @param {string} cid @param {string} jobId */
export async function changeTarget(cid, jobId) {
  try {
    keep(await api.setTarget(cid, jobId));
    const title = getState().jobs[jobId]?.title ?? "that job";
    toast(t("thread.target", { title }));
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("thread.target_error"));
  }
}

/** @param {string} jobId @returns {Promise<import('./types.js').AssistResponse | null>} */
export async function loadAssist(jobId) {
  try {
    return await api.assist(jobId);
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("thread.assist_unavailable"));
    return null;
  }
}

/** @param {string} jobId @param {import('./types.js').SuggestionView} s @returns {Promise<boolean>} */
export async function applySuggestion(jobId, s) {
  try {
    await api.applySuggestion(jobId, s.suggestion_id, s.requires_confirmation);
    toast(t("thread.applied"));
    void loadDrawer(jobId);
    return true;
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("thread.apply_error"));
    return false;
  }
}
