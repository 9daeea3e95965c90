// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef } from "../lib/preact.js";
import { Icon } from "./icon.js";

/**
 * A picture at full size in a native modal <dialog>: showModal traps focus and gives Escape for
 * free; closing (Escape, Close, or a click beside the picture) hands focus back to what opened it.
 * @param {{ src: string, alt: string, title: string, caption?: string, onClose: () => void }} props
 */
export function Lightbox({ src, alt, title, caption, onClose }) {
  const box = useRef(/** @type {HTMLDialogElement | null} */ (null));
  useEffect(() => {
    const opener = /** @type {HTMLElement | null} */ (document.activeElement);
    const d = box.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
      opener?.focus();
    };
  }, []);
  return html`<dialog ref=${box} class="lightbox" aria-label=${t("file.picture", { title })} onClose=${onClose}
    onClick=${(/** @type {MouseEvent} */ e) => e.target === e.currentTarget && box.current?.close()}>
    <figure class="lightbox-figure">
      <img class="lightbox-img" src=${src} alt=${alt} />
      ${caption ? html`<figcaption class="lightbox-caption">${caption}</figcaption>` : null}
    </figure>
    <div class="lightbox-bar">
      <span class="lightbox-title">${title}</span>
      <a class="btn btn-small btn-secondary" href=${src} download=${title} aria-label=${t("file.download_named", { title })}>${t("file.download")}</a>
      <button type="button" class="icon-btn lightbox-close" aria-label=${t("common.close")} onClick=${() => box.current?.close()}><${Icon} name="x" /></button>
    </div>
  </dialog>`;
}
