import type { MethodEntry } from "./connection-types.js";
import type { ParseOptions, UnknownVariant } from "./parse.js";
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
 * meant, as the reference implementation reads it), strictly otherwise. `unknownVariants`
 * says what becomes of a closed union's variant this package does not know: kept (`keep`,
 * listed in `unknown`) or a reason to refuse the value (`reject`; when they are the only
 * reason, listed in `unknown` of the `invalid` answer, so the refusal can name them).
 */
export function receive(
  parse: ((value: unknown, options?: ParseOptions) => unknown) | undefined,
  validator: CompiledValidator | undefined,
  type: string,
  value: unknown,
  unknownVariants: "keep" | "reject" = "reject",
):
  | { value: unknown; unknown: readonly UnknownVariant[] }
  | { invalid: ValidationError; unknown: readonly UnknownVariant[] } {
  const unknown: UnknownVariant[] = [];
  if (parse) {
    const open: ParseOptions = {
      unknownVariants: "keep",
      onUnknownVariant: (variant) => unknown.push(variant),
    };
    try {
      if (unknownVariants === "keep") return { value: parse(value, open), unknown };
      return { value: parse(value), unknown };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // Refused: when the open reading accepts the value, the variants it kept are the only
      // reason, and the refusal names them. Otherwise the issues speak for themselves.
      const only = unknownVariants === "reject" && accepts(() => parse(value, open));
      return { invalid: error, unknown: only ? unknown : [] };
    }
  }
  if (!validator || validator(value)) return { value, unknown };
  return { invalid: new ValidationError(type, issuesOf(validator)), unknown };
}

function accepts(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch (error) {
    if (error instanceof ValidationError) return false;
    throw error;
  }
}

/** `sessionUpdate "plan_v2"`, `type "diagram"`: the kinds a log line names. */
export function kindsOf(unknown: readonly UnknownVariant[]): string {
  return [...new Set(unknown.map((u) => `${u.tag} ${JSON.stringify(u.kind)}`))].join(", ");
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
