import { Hono } from "hono";
import { ZImportContactsRequest, ZPatchContactRequest, ZUpsertContactRequest } from "../../../contracts/gateway.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import { contactsFromCsv, deleteContact, existingContact, listContacts, upsertContacts } from "../commands/contacts.js";
import { requireAdmin } from "../commands/workspaces.js";
import type { Core } from "../core.js";
import { parseWith, readJson } from "../http-body.js";
import { idempotentWrite } from "./write.js";

export function createContactRoutes(core: Core): Hono<GwEnv> {
  const app = new Hono<GwEnv>();
  const auth = authenticate(core.tokens);
  app.get("/v1/contacts", auth, (c) => c.json(listContacts(core, c.get("principal"))));
  app.post("/v1/contacts", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZUpsertContactRequest, value, "contact");
    return idempotentWrite(core, c, raw, (idem) => upsertContacts(core, c.get("principal"), [{ body }], idem));
  });
  app.patch("/v1/contacts/:id", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const patch = parseWith(ZPatchContactRequest, value, "contact");
    const p = c.get("principal");
    const prev = existingContact(core, p, c.req.param("id"));
    const body = { display_name: patch.display_name ?? prev.display_name, ...patch } as typeof patch & { display_name: string };
    // An edit answers 200 (201 is for a contact created).
    return idempotentWrite(core, c, raw, (idem) => upsertContacts(core, p, [{ id: prev.contact_id, body }], idem, 200));
  });
  // Admins only: deleting erases the contact's addresses for good (see deleteContact).
  app.delete("/v1/contacts/:id", auth, async (c) => {
    const p = c.get("principal");
    requireAdmin(core, p);
    // Looked up inside the write, so a retry with the same key replays instead of answering 404.
    return idempotentWrite(core, c, "", (idem) => deleteContact(core, p, existingContact(core, p, c.req.param("id")), idem));
  });
  app.post("/v1/contacts/import", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const { csv } = parseWith(ZImportContactsRequest, value, "import");
    const rows = contactsFromCsv(csv);
    return idempotentWrite(core, c, raw, (idem) => upsertContacts(core, c.get("principal"), rows.map((body) => ({ body })), idem));
  });
  return app;
}
