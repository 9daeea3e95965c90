// @ts-check
import { useState } from "../lib/preact.js";

/**
 * A checkbox whose truth is on the server. While a change is being saved the box shows what the
 * person chose, whatever else redraws the page meanwhile (a presence update, a typing line);
 * once the save ends the server's word shows again: the new value, or the old one if it failed.
 * @param {boolean} saved what the server says now
 * @param {(next: boolean) => Promise<unknown>} save
 * @returns {{ checked: boolean, onChange: (e: any) => void }}
 */
export function useSavedToggle(saved, save) {
  const [pending, setPending] = useState(/** @type {boolean | null} */ (null));
  const onChange = (/** @type {any} */ e) => {
    const next = !!e.currentTarget.checked;
    setPending(next);
    void save(next).finally(() => setPending(null));
  };
  return { checked: pending ?? saved, onChange };
}
