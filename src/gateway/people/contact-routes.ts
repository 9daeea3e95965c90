import { createRoute, z } from "@hono/zod-openapi";
import { ZImportContactsRequest, ZPatchContactRequest, ZUpsertContactRequest } from "../../../contracts/gateway.js";
import { ZContactList, ZWriteResult } from "../../../contracts/gateway-responses.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  READ_ERRORS,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

const contactParams = z.object({ id: z.string().min(1).max(128) });

/** The workspace's contacts: addresses live in the vault; members read them back. */
export function createContactRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Directory"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const writeCommon = { ...common, parameters: [IDEMPOTENCY_HEADER] };

  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/contacts",
      summary: "Contacts",
      responses: { 200: json(ZContactList, "Contacts, by name"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listContacts(c.get("principal"))),
  );

  const create = createRoute({
    ...writeCommon,
    method: "post",
    path: "/v1/contacts",
    summary: "Add a contact",
    request: { body: jsonBody(ZUpsertContactRequest) },
    responses: { 201: json(ZWriteResult, "Added"), ...errors(...WRITE_ERRORS) },
  });
  route(app, create, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) => api.createContact(c.get("principal"), body, idem));
  });

  const patch = createRoute({
    ...writeCommon,
    method: "patch",
    path: "/v1/contacts/{id}",
    summary: "Edit a contact",
    request: { params: contactParams, body: jsonBody(ZPatchContactRequest) },
    responses: { 200: json(ZWriteResult, "Saved"), ...errors(...WRITE_ERRORS) },
  });
  route(app, patch, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) =>
      api.updateContact(c.get("principal"), c.req.valid("param").id, body, idem),
    );
  });

  // Admins only: deleting erases the contact's addresses for good. Looked up inside the write,
  // so a retry with the same key replays instead of answering 404.
  const remove = createRoute({
    ...writeCommon,
    method: "delete",
    path: "/v1/contacts/{id}",
    summary: "Delete a contact (admins; erases its addresses)",
    request: { params: contactParams },
    responses: { 200: json(ZWriteResult, "Deleted"), ...errors(...WRITE_ERRORS) },
  });
  route(app, remove, (c) =>
    idempotentWrite(core, c, "", (idem) => api.deleteContact(c.get("principal"), c.req.valid("param").id, idem)),
  );

  const importCsv = createRoute({
    ...writeCommon,
    method: "post",
    path: "/v1/contacts/import",
    summary: "Import contacts from CSV (name, email, phone, company)",
    request: { body: jsonBody(ZImportContactsRequest) },
    responses: { 201: json(ZWriteResult, "Imported"), ...errors(...WRITE_ERRORS) },
  });
  route(app, importCsv, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) => api.importContacts(c.get("principal"), body, idem));
  });
  return app;
}
