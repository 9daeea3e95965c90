import { z } from "zod";

/**
 * What every module's settings slice is made of: the environment's strings checked and turned into
 * values, and the one error a bad value stops the boot with.
 */

/** A configuration problem: `message` is the one line shown to whoever started the process. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

export const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => BOOL_WORDS.has(v), { message: `${name} must be one of 1, 0, true, false, yes, no, on, off` })
    .transform((v) => BOOL_WORDS.get(v)!);
const BOOL_WORDS = new Map([
  ["1", true],
  ["true", true],
  ["yes", true],
  ["on", true],
  ["0", false],
  ["false", false],
  ["no", false],
  ["off", false],
]);

export const int = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: `${name} must be a whole number between ${min} and ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be a whole number between ${min} and ${max}` });

export const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: `${name} must be an http:// or https:// URL`,
    })
    .transform((v) => v.replace(/\/+$/, ""));

export const oneOf = <T extends string>(name: string, values: readonly [T, ...T[]]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v): v is T => (values as readonly string[]).includes(v), {
      message: `${name} must be one of ${values.join(", ")}`,
    })
    .transform((v) => v as T);
