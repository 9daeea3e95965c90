import { z } from "@hono/zod-openapi";
import { ZImportContactsRequest, ZPatchContactRequest, ZUpsertContactRequest } from "../../../contracts/gateway.js";
import { ZContactList, ZWriteResult } from "../../../contracts/gateway-responses.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const contactParams = z.object({ id: z.string().min(1).max(128) });

/** The workspace's contacts: addresses live in the vault; members read them back. */
export function createContactRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["Directory"];

  route(
    app,
    read({ path: "/v1/contacts", summary: "Contacts", tags, schema: ZContactList, described: "Contacts, by name" }),
    (c) => c.json(api.listContacts(c.get("principal"))),
  );

  const create = write({
    path: "/v1/contacts",
    summary: "Add a contact",
    tags,
    body: ZUpsertContactRequest,
    ok: { 201: json(ZWriteResult, "Added") },
  });
  route(app, create, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) => api.createContact(c.get("principal"), body, idem));
  });

  const patch = write({
    method: "patch",
    path: "/v1/contacts/{id}",
    summary: "Edit a contact",
    tags,
    body: ZPatchContactRequest,
    ok: { 200: json(ZWriteResult, "Saved") },
    params: contactParams,
  });
  route(app, patch, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) =>
      api.updateContact(c.get("principal"), c.req.valid("param").id, body, idem),
    );
  });

  // Admins only: deleting erases the contact's addresses for good. Looked up inside the write,
  // so a retry with the same key replays instead of answering 404.
  const remove = emptyWrite({
    method: "delete",
    path: "/v1/contacts/{id}",
    summary: "Delete a contact (admins; erases its addresses)",
    tags,
    ok: { 200: json(ZWriteResult, "Deleted") },
    params: contactParams,
  });
  route(app, remove, (c) =>
    idempotentWrite(core, c, "", (idem) => api.deleteContact(c.get("principal"), c.req.valid("param").id, idem)),
  );

  const importCsv = write({
    path: "/v1/contacts/import",
    summary: "Import contacts from CSV (name, email, phone, company)",
    tags,
    body: ZImportContactsRequest,
    ok: { 201: json(ZWriteResult, "Imported") },
  });
  route(app, importCsv, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) => api.importContacts(c.get("principal"), body, idem));
  });
  return app;
}
