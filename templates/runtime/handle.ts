import type { CallOptions, HandleSpec } from "./connection-types.js";

/**
 * `{ [Symbol.asyncDispose](): Promise<void> }` where the consumer's TypeScript set-up
 * declares `Symbol.asyncDispose` (lib `esnext.disposable`, or @types/node), so a handle
 * works with `await using`; nothing otherwise, so an ES2020 set-up still type-checks.
 */
export type AsyncDisposableIfAvailable = SymbolConstructor extends {
  readonly asyncDispose: infer K extends symbol;
}
  ? { [P in K]: () => Promise<void> }
  : Record<never, never>;

/** What a handle's methods need: a way to send requests, and what each repeats. */
interface HandleState {
  readonly request: (method: string, params: unknown, options?: CallOptions) => Promise<unknown>;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Kept off the handle's own properties, so a handle compares and prints like the result. */
const STATE: unique symbol = Symbol("acp-codegen.handle") as never;

type Member = (this: { [STATE]: HandleState }, extra?: object, options?: CallOptions) => unknown;

/**
 * The prototype of every handle one spec makes: one method per `spec.methods` entry, each
 * sending its request with the scope and id filled in, and `Symbol.asyncDispose` calling
 * `spec.dispose` where the platform has the symbol.
 */
export function handlePrototype(spec: HandleSpec): object {
  const proto: Record<string | symbol, Member> = {};
  for (const [member, method] of Object.entries(spec.methods)) {
    proto[member] = function (extra, options) {
      const state = this[STATE];
      return state.request(method, { ...extra, ...state.params }, options);
    };
  }
  const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
  const dispose = spec.dispose === undefined ? undefined : proto[spec.dispose];
  if (typeof asyncDispose === "symbol" && dispose) {
    proto[asyncDispose] = async function () {
      await dispose.call(this);
    };
  }
  return Object.freeze(proto);
}

/**
 * A handle for what `result` names: the result's own properties, plus the methods of
 * `proto` acting on it (the creating request's scope params and the result's id filled in).
 */
export function makeHandle(
  proto: object,
  spec: HandleSpec,
  request: HandleState["request"],
  createParams: unknown,
  result: unknown,
): unknown {
  if (typeof result !== "object" || result === null) return result;
  const source = (
    typeof createParams === "object" && createParams !== null ? createParams : {}
  ) as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const key of spec.scope) if (Object.hasOwn(source, key)) params[key] = source[key];
  params[spec.id] = (result as Record<string, unknown>)[spec.id];
  const handle = Object.assign(Object.create(proto) as object, result);
  Object.defineProperty(handle, STATE, { value: { request, params: Object.freeze(params) } });
  return handle;
}
