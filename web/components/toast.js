// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";

/** @param {{ toast: { text: string, n: number } | null }} props */
export function Toast({ toast }) {
  const [shown, setShown] = useState(/** @type {number | null} */ (null));
  useEffect(() => {
    if (!toast) return;
    setShown(toast.n);
    const t = setTimeout(() => setShown(null), 2600);
    return () => clearTimeout(t);
  }, [toast?.n]);
  if (!toast || shown !== toast.n) return null;
  return html`<div class="toast" role="status">${toast.text}</div>`;
}
