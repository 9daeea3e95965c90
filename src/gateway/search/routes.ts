import { z } from "@hono/zod-openapi";
import { SEARCH_LIMITS, ZSearchResults } from "../../../contracts/search.js";
import { createRouter, READ_ERRORS, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const searchQuery = z.object({
  q: z.string().openapi({
    description: `Words to find (1–${SEARCH_LIMITS.queryChars} characters, at most ${SEARCH_LIMITS.terms} words; the last one matches as a prefix)`,
  }),
  conversation_id: z.string().optional().openapi({ description: "Only this conversation (one I am in)" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SEARCH_LIMITS.maxLimit)
    .optional()
    .openapi({ description: `1–${SEARCH_LIMITS.maxLimit} hits (default ${SEARCH_LIMITS.defaultLimit})` }),
  before: z
    .string()
    .optional()
    .openapi({ description: "A cursor `seq:N`: hits older than it (page on with `next_cursor`)" }),
});

/** Full-text search of the messages in my conversations. */
export function createSearchRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { read } = signedInRoutes(core.tokens);
  route(
    app,
    read({
      path: "/v1/search",
      summary: "Search the messages of my conversations (newest first; snippets with highlight offsets, never markup)",
      tags: ["Conversations"],
      schema: ZSearchResults,
      described: "Messages found",
      query: searchQuery,
      // 503 while the index's thread starts again after a crash (it then catches up by itself).
      errors: [...READ_ERRORS, 503],
    }),
    async (c) => c.json(await api.search(c.get("principal"), c.req.valid("query"))),
  );
  return app;
}
