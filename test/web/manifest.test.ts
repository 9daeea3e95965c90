import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createStaticRoutes } from "../../src/gateway/http/static.js";

/**
 * The installable app: index.html links the manifest, which has what browsers ask for to offer
 * "Install" (a name, a start URL in scope, standalone display, PNG icons of 192 and 512 px,
 * maskable ones too) and the app's own colours; every icon is served with the size it states.
 */
const web = fileURLToPath(new URL("../../web", import.meta.url));
const app = createStaticRoutes();

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(bytes);
  expect(b.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(b.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** A colour token of the light theme (the first definition in styles.css). */
function token(name: string): string {
  const css = readFileSync(`${web}/styles.css`, "utf8");
  const at = css.indexOf(`--${name}:`);
  expect(at, name).toBeGreaterThan(-1);
  return css.slice(at + name.length + 3, css.indexOf(";", at)).trim();
}

describe("the web app manifest", () => {
  it("is linked from the page and served as a manifest", async () => {
    const page = await (await app.request("/")).text();
    expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    const res = await app.request("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
  });

  it("has the fields an install needs, the app's colours, and icons of the sizes it states", async () => {
    const m = await (await app.request("/manifest.webmanifest")).json();
    expect(m.name).toBe("LogLine");
    expect(m.short_name).toBeTruthy();
    expect(m.display).toBe("standalone");
    expect(m.start_url).toBe("/");
    expect(m.start_url.startsWith(m.scope)).toBe(true);
    expect(m.theme_color).toBe(token("theme-color"));
    expect(m.background_color).toBe(token("bg"));
    const page = await (await app.request("/")).text();
    expect(page).toContain(`<meta name="theme-color" content="${m.theme_color}" />`);

    const pngs: Array<{ size: number; purpose: string }> = [];
    for (const icon of m.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>) {
      const res = await app.request(icon.src);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get("content-type"), icon.src).toBe(icon.type);
      if (icon.type !== "image/png") continue;
      const { width, height } = pngSize(new Uint8Array(await res.arrayBuffer()));
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      pngs.push({ size: width, purpose: icon.purpose });
    }
    // What browsers ask for: 192 and 512 px, and a maskable icon for launchers that crop to a shape.
    for (const size of [192, 512]) {
      expect(pngs.some((p) => p.size === size && p.purpose === "any")).toBe(true);
      expect(pngs.some((p) => p.size === size && p.purpose === "maskable")).toBe(true);
    }
  });
});
