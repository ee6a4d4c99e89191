import type { CallOptions, HandleSpec } from "./connection-types.js";
/**
 * `{ [Symbol.asyncDispose](): Promise<void> }` where the consumer's TypeScript set-up
 * declares `Symbol.asyncDispose` (lib `esnext.disposable`, or @types/node), so a handle
 * works with `await using`; nothing otherwise, so an ES2020 set-up still type-checks.
 */
export type AsyncDisposableIfAvailable = SymbolConstructor extends {
    readonly asyncDispose: infer K extends symbol;
} ? {
    [P in K]: () => Promise<void>;
} : Record<never, never>;
/** What a handle's methods need: a way to send requests, and what each repeats. */
interface HandleState {
    readonly request: (method: string, params: unknown, options?: CallOptions) => Promise<unknown>;
    readonly params: Readonly<Record<string, unknown>>;
}
/**
 * The prototype of every handle one spec makes: one method per `spec.methods` entry, each
 * sending its request with the scope and id filled in, and `Symbol.asyncDispose` calling
 * `spec.dispose` where the platform has the symbol.
 */
export declare function handlePrototype(spec: HandleSpec): object;
/**
 * A handle for what `result` names: the result's own properties, plus the methods of
 * `proto` acting on it (the creating request's scope params and the result's id filled in).
 */
export declare function makeHandle(proto: object, spec: HandleSpec, request: HandleState["request"], createParams: unknown, result: unknown): unknown;
export {};
