import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config.js";

/** Every OFFICE_LLM_* setting is validated at boot and carried to createServer's office.llm. */
describe("LLM settings in the configuration", () => {
  const base = { OFFICE_PLANNER: "llm", OFFICE_LLM_BASE_URL: "http://127.0.0.1:11434/v1", OFFICE_LLM_MODEL: "qwen2.5" };

  it("reads max tokens, response format, extra body, timeout and full logging", () => {
    const c = parseConfig(
      {
        ...base,
        OFFICE_LLM_MAX_TOKENS: "900",
        OFFICE_LLM_RESPONSE_FORMAT: "json_object",
        OFFICE_LLM_EXTRA_BODY: '{"think":false}',
        OFFICE_LLM_TIMEOUT_MS: "30000",
        OFFICE_LLM_LOG_FULL: "1",
      },
      "/tmp",
    );
    expect(c.office.llm).toMatchObject({
      maxTokens: 900,
      responseFormat: "json_object",
      extraBody: { think: false },
      timeoutMs: 30000,
      logFull: true,
    });
  });

  it("refuses bad values with the variable's name", () => {
    for (const [k, v] of [
      ["OFFICE_LLM_MAX_TOKENS", "10"],
      ["OFFICE_LLM_RESPONSE_FORMAT", "xml"],
      ["OFFICE_LLM_EXTRA_BODY", "[1]"],
      ["OFFICE_LLM_EXTRA_BODY", "{nope"],
    ] as const) {
      expect(() => parseConfig({ ...base, [k]: v }, "/tmp"), k).toThrow(ConfigError);
      try {
        parseConfig({ ...base, [k]: v }, "/tmp");
      } catch (e) {
        expect((e as ConfigError).variable).toBe(k);
      }
    }
  });
});
