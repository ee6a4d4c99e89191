import type { MethodEntry } from "./connection-types.js";
import type { ParseOptions, UnknownVariant } from "./parse.js";
import { type CompiledValidator, ValidationError } from "./validation.js";
/** Method entries by kind and wire name: dispatch is keyed by (side, kind, method). */
export interface Routes {
    readonly request: ReadonlyMap<string, MethodEntry>;
    readonly notification: ReadonlyMap<string, MethodEntry>;
}
export declare function routesOf(entries: readonly MethodEntry[]): Routes;
/** Why `params` fail the entry's schema, or undefined when they pass (or nothing is known). */
export declare function invalidParams(entry: MethodEntry | undefined, params: unknown): ValidationError | undefined;
/**
 * Read a received value: leniently with the entry's parser when it has one (what the peer
 * meant, as the reference implementation reads it), strictly otherwise. `unknownVariants`
 * says what becomes of a closed union's variant this package does not know: kept (`keep`,
 * listed in `unknown`) or a reason to refuse the value (`reject`; when they are the only
 * reason, listed in `unknown` of the `invalid` answer, so the refusal can name them).
 */
export declare function receive(parse: ((value: unknown, options?: ParseOptions) => unknown) | undefined, validator: CompiledValidator | undefined, type: string, value: unknown, unknownVariants?: "keep" | "reject"): {
    value: unknown;
    unknown: readonly UnknownVariant[];
} | {
    invalid: ValidationError;
    unknown: readonly UnknownVariant[];
};
/** `sessionUpdate "plan_v2"`, `type "diagram"`: the kinds a log line names. */
export declare function kindsOf(unknown: readonly UnknownVariant[]): string;
/**
 * An empty result arrives as `null` from many peers (the official TypeScript SDK sends
 * `null` when a handler returns nothing) and as `undefined` from our own handlers. When the
 * schema's result type is an object that `{}` satisfies, that is what both mean.
 */
export declare function fillEmpty(value: unknown, validator: CompiledValidator | undefined): unknown;
