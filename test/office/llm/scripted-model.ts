import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI-compatible server: a real HTTP server on 127.0.0.1 speaking
 * `/v1/chat/completions` and `/v1/models`. Each completion request consumes the next step of the
 * script; every request body is recorded so tests can assert what was sent.
 */
type Step =
  | { content: string; finish_reason?: string; model?: string }
  | { refusal: string }
  | { status: number; body?: string }
  /** Never answers (the client must time out). */
  | { hang: true };

export interface ScriptedModel {
  baseUrl: string;
  requests: Array<{ path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> }>;
  script(...steps: Step[]): void;
  completionCalls(): number;
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const steps: Step[] = [];
  const requests: ScriptedModel["requests"] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = req.url ?? "";
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = { unparsable: raw };
      }
      requests.push({ path, headers: req.headers, body });
      if (req.method === "GET" && path === "/v1/models")
        return json(res, 200, { object: "list", data: [{ id: "scripted", object: "model" }] });
      if (req.method !== "POST" || path !== "/v1/chat/completions")
        return json(res, 404, { error: { message: "not found" } });
      const step = steps.shift();
      if (!step) return json(res, 500, { error: { message: "script exhausted" } });
      if ("hang" in step) return void hanging.add(res);
      if ("status" in step)
        return json(res, step.status, step.body ?? { error: { message: `scripted ${step.status}` } });
      const message =
        "refusal" in step
          ? { role: "assistant", content: null, refusal: step.refusal }
          : { role: "assistant", content: step.content };
      json(res, 200, {
        id: "chatcmpl-scripted",
        object: "chat.completion",
        created: 0,
        model: ("model" in step && step.model) || "scripted",
        choices: [{ index: 0, message, finish_reason: ("finish_reason" in step && step.finish_reason) || "stop" }],
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...s) => void steps.push(...s),
    completionCalls: () => requests.filter((r) => r.path === "/v1/chat/completions").length,
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
