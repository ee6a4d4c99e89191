/**
 * `parse<Name>` of a JSON-RPC envelope (`ClientRequest`, `AgentResponse`…): a message whose
 * `params` (or `result`) is an untagged union of every method's params (or result) type.
 * Read as a union, the first variant that fits wins, and a variant whose fields are all
 * optional fits anything and keeps none of the other keys. The reference decodes such a
 * message by its method, as the connection does: so does this. The generator says which
 * envelope keys which methods (model/envelopes.ts); this is the reading.
 */
import type { ParseOptions, ResponseParseOptions } from "./parse-context.js";
import type { Check } from "./parse-records.js";
import { copyOf, free, hasOwn, isDict, put } from "./parse-values.js";
import { type CompiledValidator, ValidationError } from "./validation.js";

/** JSON-RPC 2.0: a request has an `id`, a notification none. */
const ID = "id";

/** A definition's `parse<Name>` as parsers.js defines it. */
export type DefinitionParse = (value: unknown, options?: ParseOptions) => unknown;

/** What parsers.js says of one envelope. */
export interface EnvelopeSpec {
  /** The definition's name, for the errors. */
  readonly type: string;
  /** Its validator, and with the open reading the check that admits unknown variants. */
  readonly validator: CompiledValidator;
  readonly open?: Check;
  /** What the message may carry; the first the message holds (and whose `id` fits) is read. */
  readonly contents: readonly EnvelopeContentSpec[];
}

export interface EnvelopeContentSpec {
  /** The property holding the method's content: `params`, `result`. */
  readonly property: string;
  /** The message's property naming the method (`method`); absent: the caller names it. */
  readonly method?: string;
  /** Wire name → the parse of that method's content. */
  readonly by: ReadonlyMap<string, DefinitionParse>;
  /**
   * Where another entry reads the same property: whether this one is for messages with an
   * `id` (JSON-RPC's requests) or without (notifications).
   */
  readonly id?: boolean;
}

/**
 * The envelope's parse over `base`, the definition's reading as a union (which still reads
 * everything but the content: the id, an error, what the definition declares).
 *
 * - Content of a method in the table: read by that method's parse (leniently, repairs and
 *   the open reading included), then the rest of the message by `base` with that content in
 *   place. Content the method's parse refuses makes the message invalid, as on a connection
 *   (the issues under the property's path).
 * - Any other content (an extension's method, a response whose request is not named): kept
 *   whole (without own `__proto__` keys), when the message with it is valid; else what
 *   `base` made of it (it repaired the message into a valid one).
 * - No content, or `null`: as `base` reads it.
 */
export function envelope(
  base: DefinitionParse,
  spec: EnvelopeSpec,
): (value: unknown, options?: ResponseParseOptions) => unknown {
  const { type, validator, open, contents } = spec;
  return (value, options) => {
    if (!isDict(value)) return base(value, options);
    const held = contents.filter((c) => hasOwn(value, c.property) && value[c.property] != null);
    const carried = held.find((c) => c.id === undefined || c.id === hasOwn(value, ID)) ?? held[0];
    if (carried === undefined) return base(value, options);
    const { property, method: named, by } = carried;
    const content = value[property];
    const method = named === undefined ? options?.method : value[named];
    const read = typeof method === "string" ? by.get(method) : undefined;
    if (read !== undefined) {
      let parsed: unknown;
      try {
        parsed = read(content, options);
      } catch (error) {
        throw under(error, type, property);
      }
      return withContent(base(withContent(value, property, parsed), options), property, parsed);
    }
    const rest = base(value, options);
    const whole = withContent(rest, property, free(content));
    const keep = options?.unknownVariants === "keep" && open !== undefined ? open : validator;
    return whole !== rest && keep(whole) ? whole : rest;
  };
}

/** `message` with `property` set to `content` (a copy), or `message` itself when it has none. */
function withContent(message: unknown, property: string, content: unknown): unknown {
  if (!isDict(message) || !hasOwn(message, property)) return message;
  const out = copyOf(message);
  put(out, property, content);
  return out;
}

/** The method's parse refused the content: the envelope's error, the issues under `property`. */
function under(error: unknown, type: string, property: string): unknown {
  if (!(error instanceof ValidationError)) return error;
  const prefix = `/${property.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  return new ValidationError(
    type,
    error.issues.map((issue) => ({ ...issue, instancePath: `${prefix}${issue.instancePath}` })),
  );
}
