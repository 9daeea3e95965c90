// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { toggleReaction } from "../message-actions.js";
import { toast } from "../store.js";
import { REACTIONS } from "../lib/facts.js";
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** The same test the server makes: one grapheme, a pictograph, a flag or a keycap. @param {string} s */
const isEmoji = (s) =>
  s.length > 0 &&
  s.length <= REACTIONS.maxChars &&
  [...graphemes.segment(s)].length === 1 &&
  (/\p{Extended_Pictographic}/u.test(s) || /^\p{Regional_Indicator}{2}$/u.test(s) || /^[#*0-9]\uFE0F?\u20E3$/u.test(s));

/** @typedef {import('../types.js').TimelineItem} TimelineItem */

/**
 * Reaction chips under a bubble (emoji and count; who reacted in the name and title; pressed when
 * one is mine, and pressing it again takes mine off).
 * @param {{ cid: string, it: TimelineItem, me: string | undefined }} props
 */
export function ReactionChips({ cid, it, me }) {
  const list = it.reactions ?? [];
  if (!list.length) return null;
  return html`<div class="reactions" role="group" aria-label=${t("reactions.group")}>
    ${list.map((r) => {
      const mine = !!me && r.entity_ids.includes(me);
      const who = r.names.join(", ");
      return html`<button key=${r.emoji} type="button" class=${`reaction-chip${mine ? " reaction-mine" : ""}`} aria-pressed=${mine}
        aria-label=${`${r.emoji} ${r.entity_ids.length}: ${who}${mine ? " (press to remove yours)" : ""}`} title=${who}
        onClick=${() => toggleReaction(cid, it, r.emoji)}>
        <span aria-hidden="true">${r.emoji}</span> <span class="reaction-count" aria-hidden="true">${r.entity_ids.length}</span></button>`;
    })}
  </div>`;
}

/**
 * The "React" picker: the quick set plus a field for any other emoji.
 * @param {{ cid: string, it: TimelineItem, onDone: () => void }} props
 */
export function ReactionPicker({ cid, it, onDone }) {
  const [other, setOther] = useState("");
  const pick = (/** @type {string} */ e) => {
    void toggleReaction(cid, it, e);
    onDone();
  };
  return html`<div class="reaction-picker" role="group" aria-label=${t("reactions.add")}
    onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") onDone();
    }}>
    ${REACTIONS.quick.map((e) => html`<button key=${e} type="button" class="reaction-pick" aria-label=${t("reactions.react_with", { emoji: e })} onClick=${() => pick(e)}>${e}</button>`)}
    <form class="reaction-other" onSubmit=${(/** @type {Event} */ ev) => {
      ev.preventDefault();
      const v = other.trim();
      if (!isEmoji(v)) {
        toast(t("reactions.one_emoji"));
        return;
      }
      pick(v);
    }}>
      <input type="text" class="reaction-input" aria-label=${t("reactions.other")} placeholder="🙂" maxlength=${REACTIONS.maxChars} value=${other}
        onInput=${(/** @type {any} */ e) => setOther(e.currentTarget.value)} />
      <button type="submit" class="btn btn-ghost small">${t("reactions.add_button")}</button>
    </form>
  </div>`;
}
