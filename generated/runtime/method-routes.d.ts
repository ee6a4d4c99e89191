import type { MethodEntry } from "./connection-types.js";
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
 * meant, repaired as the reference implementation would), strictly otherwise.
 */
export declare function receive(parse: ((value: unknown) => unknown) | undefined, validator: CompiledValidator | undefined, type: string, value: unknown): {
    value: unknown;
} | {
    invalid: ValidationError;
};
/**
 * An empty result arrives as `null` from many peers (the official TypeScript SDK sends
 * `null` when a handler returns nothing) and as `undefined` from our own handlers. When the
 * schema's result type is an object that `{}` satisfies, that is what both mean.
 */
export declare function fillEmpty(value: unknown, validator: CompiledValidator | undefined): unknown;
