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
import { type CompiledValidator } from "./validation.js";
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
export declare function envelope(base: DefinitionParse, spec: EnvelopeSpec): (value: unknown, options?: ResponseParseOptions) => unknown;
