import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { generateSync } from "json-schema-faker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenApiDoc, operations, type Schema } from "../support/openapi-walk.js";
import { png } from "../support/pictures.js";
import { demoPerson, getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";

/**
 * A fuzz pass over the served OpenAPI document: every operation gets schema-valid requests (the
 * demo's real ids where the path names one, bodies and query values generated from the schemas
 * with a fixed seed) and schema-invalid ones (wrong types, hostile text in the path, the query
 * and the body, another content type, a body that is not JSON), as the owner, a member and
 * nobody. Every answer must be documented for its operation: its status listed, its JSON body
 * matching the schema stated for that status, its content type among those stated, an
 * `x-trace-id` header, no 5xx, and none slow (over a second and far slower than the run's median). Event streams: status and headers only.
 */
let t: TestServer;
let smtp: FakeSmtp;
let doc: OpenApiDoc & { components?: { schemas?: Record<string, Schema> } };
const SEED = 20_261_127;
const SLOW_MS = 1000;
/** …and this many times this run's median answer. */
const SLOW_FACTOR = 50;

beforeAll(async () => {
  // A rate limit this pass cannot reach: 429 is documented, but the pass is about every other answer.
  // Mail configured (a real SMTP server on loopback), so e-mailed sign-in links and the digest are
  // offered rather than refused as unavailable; a Jitsi Meet server named, so Start a call is too.
  smtp = await startSmtp();
  t = await startTestServer({
    rateLimit: { capacity: 100_000, refillPerSecond: 100_000 },
    connectors: {
      mail: { url: smtp.url, from: { name: "Acme Office", address: "office@example.com" } },
      jitsiBaseUrl: "https://meet.example.test",
      calls: true,
    },
  });
  doc = await (await fetch(`${t.url}/v1/openapi.json`)).json();
  // Real objects for the routes that read them: a file, a picture, a job.
  const dan = demoPerson(t, "Dan").token;
  const upload = async (path: string, file: Blob, name: string) => {
    const form = new FormData();
    form.set("file", file, name);
    const res = await fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": `setup-${name}-0000000000` },
      body: form,
    });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as Record<string, string>;
  };
  known.artifact = (
    await upload(
      "/v1/conversations/cnv_dan_ana/attachments",
      new Blob(["minutes of the call"], { type: "text/plain" }),
      "minutes.txt",
    )
  ).artifact_id!;
  known.avatar = (await upload("/v1/me/avatar", new Blob([png(8, 8)], { type: "image/png" }), "me.png"))
    .avatar_url!.split("/")
    .pop()!;
  await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
    kind: "text",
    body_text: "Can you schedule a 30-min call with Maria next week?",
  });
  known.job = await waitFor(
    async () =>
      (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline`, dan)).body.items.find(
        (i: { message: { card?: { job_id: string } } }) => i.message.card,
      )?.message.card.job_id,
    5000,
    "a job card",
  );
});
const known: { artifact?: string; avatar?: string; job?: string } = {};
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A small deterministic generator (mulberry32), for keys and choices. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Who = "owner" | "member" | "anonymous";
interface Attempt {
  what: string;
  who: Who;
  path: string;
  query?: Record<string, string> | undefined;
  /** Appended to the query string as it is. */
  rawQuery?: string;
  body?: { type: string; text: string } | { form: FormData } | undefined;
  /** Signed in by the session cookie instead of the bearer header (and without the CSRF header). */
  cookie?: boolean;
  /** Input no route should ever see: it must be refused with 400 in the standard shape. */
  hostile?: boolean;
}
interface Finding {
  op: string;
  attempt: string;
  problem: string;
}

/** Ids of the demo workspace by path or query parameter, for requests that reach the handler. */
function knownValue(path: string, name: string): string | undefined {
  if (name === "tenant_id") return t.demo.tenant_id;
  if (name === "conversation_id") return "cnv_dan_ana";
  if (name === "id" && path.startsWith("/v1/conversations/")) return "cnv_dan_ana";
  if ((name === "id" || name === "entity_id") && /^\/v1\/(agents|admin\/agents)\//.test(path))
    return "ent_agent_scheduler";
  if (name === "entity_id" && path.startsWith("/v1/office/")) return "ent_agent_scheduler";
  if (name === "id" && path.startsWith("/v1/entities/")) return "ent_human_ana";
  if (name === "id" && path.startsWith("/v1/artifacts/")) return known.artifact;
  if (name === "id" && path.startsWith("/v1/avatars/")) return known.avatar;
  if (name === "job_id") return known.job;
  if (["cursor", "before", "after", "after_cursor"].includes(name)) return "seq:1";
  if (name === "q") return "call";
  return undefined;
}

/**
 * Operations whose real effect would spoil the pass (signing out the token in use, ending
 * people's sessions, deactivating, removing): they get generated ids only, and their own
 * throwaway tokens.
 */
const DESTRUCTIVE = [
  /^delete \/v1\/session$/,
  /^delete \/v1\/sessions\//,
  /^(post|put) \/v1\/admin\/members\//,
  /^delete \/v1\/admin\/tokens\//,
  /^(delete|post) \/v1\/admin\/agents\//,
  /^put \/v1\/admin\/policies$/,
];

/** Sent as they are: too long, a NUL, the UTF-8 bytes of a lone surrogate, bytes that are no UTF-8, a newline, a bad escape. */
const HOSTILE_IDS = ["x".repeat(3000), "a%00b", "%ED%A0%80", "%FF%FE", "a%0Ab", "a%zzb"];
/** Query values, sent as they are: a NUL, a lone surrogate's bytes, no UTF-8, too long, a bell, a bare escape sign. */
const HOSTILE_QUERY = ["%00", "%ED%A0%80", "%FF", "x".repeat(5000), "a%07b", "%"];

describe("fuzzing the served OpenAPI document", () => {
  it("every answer to valid and invalid requests, as owner, member and nobody, is one the document states", {
    timeout: 120_000,
  }, async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
    // ajv-formats is CommonJS: its function is the default export's `default`.
    (formats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
    ajv.addFormat("binary", true);
    const validators = new Map<string, ValidateFunction>();
    const validatorFor = (key: string, schema: Schema) => {
      let v = validators.get(key);
      if (!v) {
        v = ajv.compile({ ...schema, components: doc.components });
        validators.set(key, v);
      }
      return v;
    };
    const random = seeded(SEED);
    let n = 0;
    const fake = (schema: Schema | undefined): unknown =>
      schema
        ? generateSync({ ...schema, components: doc.components } as never, {
            seed: SEED + n++,
            optionalsProbability: 0.5,
            maxDepth: 4,
            maxDefaultItems: 2,
          })
        : undefined;

    const owner = demoPerson(t, "Dan");
    const member = demoPerson(t, "Ana");
    const tokens = t.server.gateway.tokens;
    const findings: Finding[] = [];
    let requests = 0;
    const timings: Array<{ ms: number; op: string; attempt: string }> = [];

    const oversized = `{"x":"${"a".repeat(1024 * 1024)}"}`;
    let opIndex = 0;
    for (const { method, path, op } of operations(doc)) {
      const opName = `${method.toUpperCase()} ${path}`;
      const destructive = DESTRUCTIVE.some((r) => r.test(`${method} ${path}`));
      const isStream = Object.values(op.responses).some((r) => r.content?.["text/event-stream"]);
      const tokenOf = (who: Who): string | undefined => {
        if (who === "anonymous") return undefined;
        const person = who === "owner" ? owner : member;
        return destructive ? tokens.issue({ tenantId: t.demo.tenant_id, entityId: person.entity_id }) : person.token;
      };
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === "path");
      const queryParams = params.filter((p) => p.in === "query");
      const jsonSchema = op.requestBody?.content?.["application/json"]?.schema;
      const multipart = op.requestBody?.content?.["multipart/form-data"];
      const writes = !["get", "head"].includes(method);

      const validPath = (useKnown: boolean) =>
        pathParams.reduce((p, param) => {
          const known = useKnown && !destructive ? knownValue(path, param.name) : undefined;
          return p.replace(`{${param.name}}`, encodeURIComponent(known ?? String(fake(param.schema) ?? "x")));
        }, path);
      const validQuery = (useKnown = true) => {
        const q: Record<string, string> = {};
        for (const p of queryParams) {
          // The caller's own workspace stays: generated ids are for the things a request points at.
          const known = useKnown || p.name === "tenant_id" ? knownValue(path, p.name) : undefined;
          if (known !== undefined) q[p.name] = known;
          else if (p.required || random() < 0.5) q[p.name] = String(fake(p.schema));
        }
        return q;
      };
      const validBody = (): Attempt["body"] => {
        if (jsonSchema) return { type: "application/json", text: JSON.stringify(fake(jsonSchema)) };
        if (multipart) {
          const form = new FormData();
          form.set("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
          return { form };
        }
        return undefined;
      };

      const attempts: Attempt[] = [];
      for (const who of ["owner", "member", "anonymous"] as const) {
        attempts.push({ what: "valid, known ids", who, path: validPath(true), query: validQuery(), body: validBody() });
        attempts.push({
          what: "valid, generated ids",
          who,
          path: validPath(false),
          query: validQuery(false),
          body: validBody(),
        });
        if (jsonSchema)
          attempts.push({
            what: "a body of the wrong shape",
            who,
            path: validPath(true),
            query: validQuery(),
            body: { type: "application/json", text: "[1,{}]" },
          });
      }
      // Hostile and malformed input, as the owner (who gets furthest); two kinds of each per
      // operation, in turn, so that every kind meets many operations and the pass stays short.
      opIndex++;
      const inTurn = <T>(list: T[]) =>
        [0, 1].map((j) => [(opIndex * 2 + j) % list.length, list[(opIndex * 2 + j) % list.length]!] as const);
      for (const [i, id] of inTurn(HOSTILE_IDS)) {
        if (pathParams.length)
          attempts.push({
            what: `hostile path id #${i}`,
            who: "owner",
            hostile: true,
            path: path.replace(/\{[^}]+\}/g, id),
            query: validQuery(),
            body: validBody(),
          });
      }
      for (const [i, value] of inTurn(HOSTILE_QUERY)) {
        const names = queryParams.length ? queryParams.map((p) => p.name) : ["q"];
        const name = names[i % names.length]!;
        attempts.push({
          what: `hostile query ${name} #${i}`,
          who: "owner",
          hostile: true,
          path: validPath(true),
          query: validQuery(),
          rawQuery: `${name}=${value}`,
          body: validBody(),
        });
      }
      for (const p of queryParams.filter((q) => ["cursor", "before", "after", "after_cursor"].includes(q.name))) {
        attempts.push({
          what: `${p.name} past the end`,
          who: "owner",
          path: validPath(true),
          query: { ...validQuery(), [p.name]: "seq:999999999" },
        });
      }
      for (const p of queryParams.filter((q) => q.schema?.type === "integer")) {
        attempts.push({
          what: `non-integer ${p.name}`,
          who: "owner",
          path: validPath(true),
          query: { ...validQuery(), [p.name]: "1.5" },
        });
      }
      if (writes) {
        attempts.push({
          what: "a lone surrogate in the body",
          who: "owner",
          path: validPath(true),
          query: validQuery(),
          body: { type: "application/json", text: '{"x":"\\ud800"}' },
        });
        attempts.push({
          what: "the session cookie without the CSRF header",
          who: "member",
          cookie: true,
          path: validPath(true),
          query: validQuery(),
          body: validBody(),
        });
        attempts.push({
          what: "a body that is not JSON",
          who: "owner",
          path: validPath(true),
          query: validQuery(),
          body: { type: "application/json", text: "{nope" },
        });
        attempts.push({
          what: "another content type",
          who: "owner",
          path: validPath(true),
          query: validQuery(),
          body: { type: "text/plain", text: "hello" },
        });
        attempts.push({
          what: "a body over the limit",
          who: "anonymous",
          path: validPath(true),
          body: { type: "application/json", text: oversized },
        });
      }

      for (const a of attempts) {
        const token = tokenOf(a.who);
        const search = [
          ...Object.entries(a.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
          ...(a.rawQuery ? [a.rawQuery] : []),
        ].join("&");
        const headers: Record<string, string> = !token
          ? {}
          : a.cookie
            ? { cookie: `ll_session=${token}` }
            : { authorization: `Bearer ${token}` };
        if (writes) headers["idempotency-key"] = `fuzz-${Math.floor(random() * 1e12).toString(36)}`;
        let body: BodyInit | null = null;
        if (a.body && "form" in a.body) body = a.body.form;
        else if (a.body) {
          headers["content-type"] = a.body.type;
          body = a.body.text;
        }
        const abort = new AbortController();
        const started = performance.now();
        let res: Response;
        try {
          res = await fetch(`${t.url}${a.path}${search ? `?${search}` : ""}`, {
            method: method.toUpperCase(),
            headers,
            body,
            redirect: "manual",
            signal: abort.signal,
          });
        } catch (err) {
          findings.push({
            op: opName,
            attempt: `${a.who}: ${a.what}`,
            problem: `no answer (${(err as Error).message})`,
          });
          continue;
        }
        requests++;
        const record = (problem: string) => findings.push({ op: opName, attempt: `${a.who}: ${a.what}`, problem });
        const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
        let text = "";
        if (isStream && type === "text/event-stream") abort.abort();
        else text = await res.text();
        const ms = performance.now() - started;
        timings.push({ ms, op: opName, attempt: `${a.who}: ${a.what}` });
        if (res.status >= 500) record(`${res.status}: ${text.slice(0, 200)}`);
        if (!res.headers.get("x-trace-id")) record(`${res.status} without x-trace-id`);
        const documented = op.responses[String(res.status)] ?? op.responses.default;
        if (!documented) {
          record(`${res.status} is not documented (${text.slice(0, 120)})`);
          continue;
        }
        if (a.hostile && (res.status !== 400 || !/"code":"INVALID_INPUT"/.test(text)))
          record(`hostile text answered ${res.status} ${text.slice(0, 120)}, not 400 INVALID_INPUT`);
        const content = documented.content ?? {};
        if (!text) continue;
        const stated = Object.keys(content);
        if (!stated.includes(type) && !stated.includes("*/*"))
          record(`${res.status} answered ${type || "no content type"}; documented: ${stated.join(", ") || "no body"}`);
        const schema = content[type]?.schema;
        if (type === "application/json" && schema) {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            record(`${res.status} JSON that does not parse`);
            continue;
          }
          const validate = validatorFor(`${opName} ${res.status}`, schema);
          if (!validate(value))
            record(
              `${res.status} body does not match its schema: ${ajv.errorsText(validate.errors)} — ${text.slice(0, 160)}`,
            );
        }
      }
    }

    // Slow means over a second and far slower than this run's typical answer: a stall stands out,
    // while a machine busy with other work slows every answer alike.
    const sorted = timings.map((x) => x.ms).sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const limit = Math.max(SLOW_MS, SLOW_FACTOR * median);
    for (const x of timings)
      if (x.ms > limit)
        findings.push({
          op: x.op,
          attempt: x.attempt,
          problem: `answered in ${Math.round(x.ms)} ms (median ${median.toFixed(1)} ms)`,
        });
    const lines = findings.map((f) => `${f.op} [${f.attempt}] ${f.problem}`);
    expect(lines, `${findings.length} findings over ${requests} requests`).toEqual([]);
    expect(requests).toBeGreaterThan(operations(doc).length * 6);
  });
});
