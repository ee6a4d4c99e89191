import type { MethodEntry } from "./connection-types.js";
import { type CompiledValidator, issuesOf, ValidationError } from "./validation.js";

/** Method entries by kind and wire name: dispatch is keyed by (side, kind, method). */
export interface Routes {
  readonly request: ReadonlyMap<string, MethodEntry>;
  readonly notification: ReadonlyMap<string, MethodEntry>;
}

export function routesOf(entries: readonly MethodEntry[]): Routes {
  const request = new Map<string, MethodEntry>();
  const notification = new Map<string, MethodEntry>();
  for (const entry of entries) {
    (entry.kind === "request" ? request : notification).set(entry.method, entry);
  }
  return { request, notification };
}

/** Why `params` fail the entry's schema, or undefined when they pass (or nothing is known). */
export function invalidParams(
  entry: MethodEntry | undefined,
  params: unknown,
): ValidationError | undefined {
  const validator = entry?.validateParams;
  if (!entry || !validator || validator(params)) return undefined;
  return new ValidationError(entry.params, issuesOf(validator));
}

/**
 * Read a received value: leniently with the entry's parser when it has one (what the peer
 * meant, repaired as the reference implementation would), strictly otherwise.
 */
export function receive(
  parse: ((value: unknown) => unknown) | undefined,
  validator: CompiledValidator | undefined,
  type: string,
  value: unknown,
): { value: unknown } | { invalid: ValidationError } {
  if (parse) {
    try {
      return { value: parse(value) };
    } catch (error) {
      if (error instanceof ValidationError) return { invalid: error };
      throw error;
    }
  }
  if (!validator || validator(value)) return { value };
  return { invalid: new ValidationError(type, issuesOf(validator)) };
}

/**
 * An empty result arrives as `null` from many peers (the official TypeScript SDK sends
 * `null` when a handler returns nothing) and as `undefined` from our own handlers. When the
 * schema's result type is an object that `{}` satisfies, that is what both mean.
 */
export function fillEmpty(value: unknown, validator: CompiledValidator | undefined): unknown {
  if (value !== undefined && value !== null) return value;
  if (validator && !validator(value ?? null) && validator({})) return {};
  return value ?? null;
}
