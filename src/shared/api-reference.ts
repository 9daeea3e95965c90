import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * A readable API reference rendered on the server from the OpenAPI document: operations grouped
 * by tag, each with its parameters, request body and responses (schemas as JSON). It needs no
 * script and nothing from another origin, so it works offline and under the app's strict CSP
 * (ready-made reference pages load their renderer from a CDN). Clients that want more read
 * `/v1/openapi.json` with any OpenAPI tool.
 */
interface Doc {
  info?: { title?: string; description?: string; version?: string };
  paths?: object;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

const schemaBlock = (schema: unknown) =>
  html`<details><summary>schema</summary><pre>${JSON.stringify(schema, null, 2)}</pre></details>`;

function operation(path: string, method: string, op: Operation): HtmlEscapedString | Promise<HtmlEscapedString> {
  const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-");
  const body = Object.entries(op.requestBody?.content ?? {});
  return html`<section class="op" id="${id}">
    <h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${op.summary ?? ""}${op.security?.length ? html` <span class="auth">signed in</span>` : ""}</p>
    ${
      op.parameters?.length
        ? html`<h4>Parameters</h4><ul>${op.parameters.map((p) => html`<li><code>${p.name}</code> (${p.in}${p.required ? ", required" : ""})${p.description ? html` — ${p.description}` : ""}</li>`)}</ul>`
        : ""
    }
    ${body.length ? html`<h4>Request body</h4>${body.map(([type, c]) => html`<p><code>${type}</code></p>${schemaBlock(c.schema)}`)}` : ""}
    <h4>Responses</h4>
    <ul>${Object.entries(op.responses ?? {}).map(([status, r]) => html`<li><strong>${status}</strong> ${r.description ?? ""}${Object.entries(r.content ?? {}).map(([, c]) => (c.schema && status.startsWith("2") ? schemaBlock(c.schema) : ""))}</li>`)}</ul>
  </section>`;
}

export function renderReference(doc: Doc): HtmlEscapedString | Promise<HtmlEscapedString> {
  const byTag = new Map<string, Array<[string, string, Operation]>>();
  for (const [path, item] of Object.entries(doc.paths ?? {}) as Array<
    [string, Record<string, Operation | undefined>]
  >) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), [path, method, op]]);
    }
  }
  const tags = [...byTag.keys()].sort();
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${doc.info?.title ?? "API"} reference</title><link rel="stylesheet" href="/docs.css"></head>
<body>
<main>
<h1>${doc.info?.title ?? "API"}</h1>
<p>${doc.info?.description ?? ""}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>
<nav aria-label="Sections"><ul>${tags.map((t) => html`<li><a href="#tag-${t}">${t}</a></li>`)}</ul></nav>
${tags.map((t) => html`<h2 id="tag-${t}">${t}</h2>${(byTag.get(t) ?? []).map(([path, method, op]) => operation(path, method, op))}`)}
</main>
</body>
</html>`;
}
