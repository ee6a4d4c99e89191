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

/**
 * Why `params` fail the entry's schema, or undefined when they pass (or nothing is known).
 * `sent`: this side is about to send them, so the issues may name what they hold.
 */
export function invalidParams(
  entry: MethodEntry | undefined,
  params: unknown,
  sent = false,
): ValidationError | undefined {
  const validator = entry?.validateParams;
  if (!entry || !validator || validator(params)) return undefined;
  return new ValidationError(
    entry.params,
    issuesOf(validator, sent ? { value: params } : undefined),
  );
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
  if (parse) {
    try {
      if (unknownVariants === "keep") return readOpen(parse, value);
      return { value: parse(value), unknown: NONE };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // Refused: when the open reading accepts the value, the variants it kept are the only
      // reason, and the refusal names them. Otherwise the issues speak for themselves.
      const open = unknownVariants === "reject" ? acceptsOpen(parse, value) : undefined;
      return { invalid: error, unknown: open ?? NONE };
    }
  }
  if (!validator || validator(value)) return { value, unknown: NONE };
  return { invalid: new ValidationError(type, issuesOf(validator)), unknown: NONE };
}

const NONE: readonly UnknownVariant[] = Object.freeze([]);

/**
 * The unknown variants of the open reading under way. Parsing is synchronous and calls
 * nothing outside the parser, so one collector (and one options object) serves every
 * message, instead of a fresh pair per message received.
 */
let collected: UnknownVariant[] | undefined;
const OPEN: ParseOptions = {
  unknownVariants: "keep",
  onUnknownVariant: (variant) => {
    if (collected) collected.push(variant);
    else collected = [variant];
  },
};

/** The open reading of `value`, with the unknown variants it kept. */
function readOpen(
  parse: (value: unknown, options?: ParseOptions) => unknown,
  value: unknown,
): { value: unknown; unknown: readonly UnknownVariant[] } {
  // Saved and restored, should a value's getters (from a transport other than ndJsonStream)
  // ever start a reading of their own.
  const outer = collected;
  collected = undefined;
  try {
    const read = parse(value, OPEN);
    return { value: read, unknown: collected ?? NONE };
  } finally {
    collected = outer;
  }
}

/** The variants the open reading kept when it accepts `value`; undefined when it refuses it too. */
function acceptsOpen(
  parse: (value: unknown, options?: ParseOptions) => unknown,
  value: unknown,
): readonly UnknownVariant[] | undefined {
  try {
    return readOpen(parse, value).unknown;
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

/** `sessionUpdate "plan_v2"`, `type "diagram"`: the kinds a log line names. */
export function kindsOf(unknown: readonly UnknownVariant[]): string {
  return [...new Set(unknown.map((u) => `${u.tag} ${JSON.stringify(u.kind)}`))].join(", ");
}

/**
 * An empty result arrives as `null` from many peers (the official TypeScript SDK, 2.4.0 as
 * 1.9, sends `null` when a handler returns nothing, except for the methods it lists as having
 * an empty result: `session/resume` and extension methods get `null`, `session/set_mode`
 * gets `{}`) and as `undefined` from our own handlers. When the schema's result type is an
 * object that `{}` satisfies, that is what both mean.
 */
export function fillEmpty(value: unknown, validator: CompiledValidator | undefined): unknown {
  if (value !== undefined && value !== null) return value;
  if (validator && !validator(value ?? null) && validator({})) return {};
  return value ?? null;
}
