import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { wcagContrast } from "culori";
import { describe, expect, test } from "vitest";

/**
 * The design tokens of web/styles.css, light and dark, read from the stylesheet itself: every
 * text colour keeps 4.5:1 on each surface it is drawn on, and every control boundary, focus ring
 * and meaningful graphic 3:1 against what surrounds it (WCAG 2.2, 1.4.3 and 1.4.11). Contrast is
 * computed by culori. The browser test (test/e2e/visual.test.ts) checks the rendered pages.
 */
const css = readFileSync(fileURLToPath(new URL("../../web/styles.css", import.meta.url)), "utf8");

/** The custom properties declared in the first block that starts with `selector {`. */
function tokensOf(selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no ${selector} block in styles.css`);
  const body = css.slice(at, css.indexOf("\n}", at));
  return Object.fromEntries([...body.matchAll(/^\s*(--[a-z0-9-]+):\s*([^;]+);/gm)].map((m) => [m[1]!, m[2]!.trim()]));
}

const light = tokensOf(":root");
const themes = { light, dark: { ...light, ...tokensOf(':root[data-theme="dark"]') } } as const;

/** Where text is drawn: every page, panel, bubble and tinted row. */
const SURFACES = [
  "--bg",
  "--panel",
  "--panel-2",
  "--chat-bg",
  "--in",
  "--out",
  "--row-active",
  "--action-soft",
  "--danger-soft",
  "--accent-soft",
  "--warn-soft",
  "--field-error-bg",
];
const TEXT = ["--text", "--text-2", "--text-3"];

/** Coloured text on the surfaces it is used on, [foreground, backgrounds]. */
const COLOURED_TEXT: Array<[string, string[]]> = [
  ["--accent", ["--panel", "--panel-2", "--in", "--bg"]],
  ["--accent-2", ["--panel", "--panel-2", "--accent-soft", "--in"]],
  ["--on-fill", ["--accent", "--accent-2", "--ok", "--danger"]],
  ["--avatar-text", ["--hue-0", "--hue-1", "--hue-2", "--hue-3", "--hue-4", "--hue-5", "--hue-6", "--hue-7"]],
  ["--tick", ["--out"]],
  ["--danger", ["--panel", "--danger-soft", "--field-error-bg", "--panel-2"]],
  ["--warn", ["--panel", "--warn-soft", "--panel-2"]],
  ["--ok", ["--panel", "--ok-soft"]],
  ["--info", ["--panel", "--info-soft", "--action-soft"]],
  ["--neutral", ["--neutral-soft"]],
  ["--sys", ["--sys-soft"]],
  ["--note", ["--note-soft"]],
  ["--op", ["--op-soft", "--panel", "--panel-2"]],
  ["--notify", ["--notify-soft"]],
  ["--code", ["--code-bg"]],
  ["--toast", ["--toast-bg"]],
  ["--text", ["--pre-bg", "--warn-soft", "--info-soft", "--ok-soft", "--neutral-soft"]],
];

/** Boundaries of controls, focus rings and graphics that carry meaning, [colour, neighbours]. */
const NON_TEXT: Array<[string, string[]]> = [
  ["--control-line", ["--panel", "--panel-2", "--bg", "--in"]],
  ["--accent", ["--panel", "--panel-2", "--line", "--accent-soft"]],
  ["--danger-line", ["--panel"]],
  ["--focus", ["--panel", "--panel-2", "--bg", "--chat-bg", "--in", "--out", "--row-active"]],
];

function pairs(list: Array<[string, string[]]>, min: number) {
  return list.flatMap(([fg, bgs]) => bgs.map((bg) => ({ fg, bg, min })));
}
const PAIRS = [
  ...pairs(
    TEXT.map((t) => [t, SURFACES]),
    4.5,
  ),
  ...pairs(COLOURED_TEXT, 4.5),
  ...pairs(NON_TEXT, 3),
];

describe.each(Object.entries(themes))("the %s theme's tokens", (_name, tokens) => {
  test("every pair meets its minimum contrast", () => {
    const low = PAIRS.flatMap(({ fg, bg, min }) => {
      const [a, b] = [tokens[fg], tokens[bg]];
      if (!a || !b) return [`${fg} on ${bg}: missing`];
      const ratio = wcagContrast(a, b);
      return ratio >= min ? [] : [`${fg} ${a} on ${bg} ${b}: ${ratio.toFixed(2)} < ${min}`];
    });
    expect(low).toEqual([]);
  });
});

test("the dark theme gives its own value to every colour the light theme sets, except the avatars'", () => {
  const dark = tokensOf(':root[data-theme="dark"]');
  const colourTokens = Object.keys(light).filter(
    (k) => /^(#|rgba?\()/.test(light[k]!) && !/^--(hue-\d|avatar-text)$/.test(k),
  );
  expect(colourTokens.filter((k) => !(k in dark))).toEqual(["--warn-line", "--dot-off", "--dot-on", "--dot-wait"]);
});

test("outside the token blocks the stylesheet names no colour, only tokens and system colours", () => {
  const rest = css.replace(/:root(\[data-theme="dark"\])? \{[\s\S]*?\n\}/g, "");
  expect(rest.match(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/gi) ?? []).toEqual([]);
});
