// @ts-check
// The colour theme, set before the first paint: index.html loads this classic script in <head>
// right after the stylesheet, so it runs before <body> is parsed and the page never flashes the
// wrong theme. The person's choice (System, Light or Dark) is kept in localStorage under the key
// web/theme.js writes; System follows prefers-color-scheme, also while the page is open.
(() => {
  const KEY = "logline.theme";
  const root = document.documentElement;
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    /** @type {string | null} */
    let stored = null;
    try {
      stored = localStorage.getItem(KEY);
    } catch {
      // Storage can be switched off: a choice made on this page (web/theme.js) lasts until reload.
      stored = root.dataset.themeChoice ?? null;
    }
    const choice = stored === "light" || stored === "dark" ? stored : "system";
    root.dataset.themeChoice = choice;
    root.dataset.theme = choice === "system" ? (dark.matches ? "dark" : "light") : choice;
    const bar = getComputedStyle(root).getPropertyValue("--theme-color").trim();
    if (bar) document.querySelector('meta[name="theme-color"]')?.setAttribute("content", bar);
  };
  apply();
  dark.addEventListener("change", apply);
  window.addEventListener("storage", (e) => {
    if (e.key === KEY) apply();
  });
  document.addEventListener("logline:theme", apply);
})();
