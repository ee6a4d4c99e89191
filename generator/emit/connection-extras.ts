import type { Method, SurfaceModel } from "../model/protocol.js";
import { type CancelRule, cancelRuleOf, type HandleRule, handleRuleOf } from "./call-rules.js";
import { literal, propertyKey } from "./output.js";

/**
 * The parts of `connection.js` / `connection.d.ts` that come from the call rules
 * (call-rules.ts): the `cancelBy` and `handle` fields of the runtime's method entries, the
 * handle types, and what the typed calls of such requests return and say.
 */

/** The rules of every method one role serves, computed once per emit. */
export interface CallRules {
  cancel(method: Method): CancelRule | undefined;
  handle(method: Method): HandleRule | undefined;
  /** Every handle of the role, for the type declarations. */
  readonly handles: ReadonlyArray<{ readonly method: Method; readonly rule: HandleRule }>;
}

export function callRules(surface: SurfaceModel, served: readonly Method[]): CallRules {
  const cancels = new Map<Method, CancelRule>();
  const handles = new Map<Method, HandleRule>();
  for (const m of served) {
    const cancel = cancelRuleOf(surface, m, served);
    if (cancel) cancels.set(m, cancel);
    const handle = handleRuleOf(surface, m, served);
    if (handle) handles.set(m, handle);
  }
  return {
    cancel: (m) => cancels.get(m),
    handle: (m) => handles.get(m),
    handles: [...handles].map(([method, rule]) => ({ method, rule })),
  };
}

/** Extra fields of one `MethodEntry` literal. */
export function entryFields(rules: CallRules, m: Method): string[] {
  const fields: string[] = [];
  const cancel = rules.cancel(m);
  if (cancel) {
    fields.push(
      `cancelBy: { method: ${literal(cancel.method)}, copy: [${cancel.copy.map(literal).join(", ")}] }`,
    );
  }
  const handle = rules.handle(m);
  if (handle) {
    const methods = handle.methods
      .map(({ member, method }) => `${propertyKey(member)}: ${literal(method.method)}`)
      .join(", ");
    fields.push(
      `handle: { id: ${literal(handle.id)}, scope: [${handle.scope.map(literal).join(", ")}], methods: { ${methods} }${
        handle.dispose ? `, dispose: ${literal(handle.dispose)}` : ""
      } }`,
    );
  }
  return fields;
}

/** The result type the proxy of `m` resolves with: its handle type, or the result's. */
export function proxyResult(rules: CallRules, m: Method, resultType: string): string {
  return rules.handle(m)?.typeName ?? `T.${resultType}`;
}

/** Doc lines for the proxy of `m` beyond its summary (what abort and the handle do). */
export function proxyNotes(rules: CallRules, m: Method): string[] {
  const notes: string[] = [];
  const cancel = rules.cancel(m);
  if (cancel) {
    notes.push(
      `Aborting \`options.signal\` sends \`${cancel.method}\` (with this call's ${cancel.copy.map((c) => `\`${c}\``).join(", ")}) and the call still resolves with the peer's answer, which ends the turn: it is not rejected.`,
    );
  }
  const handle = rules.handle(m);
  if (handle) {
    notes.push(
      `Resolves with a \`${handle.typeName}\`: the result, plus ${handle.methods.map((x) => `\`${x.member}()\``).join(", ")} acting on it.`,
    );
  }
  return notes;
}

/** Type names the handles add to the module's exports (checked for collisions). */
export function handleTypeNames(rules: readonly CallRules[]): string[] {
  return [...new Set(rules.flatMap((r) => r.handles.map((h) => h.rule.typeName)))];
}

/**
 * `export type TerminalHandle = …`: the creating request's result, the handle methods, and
 * `Symbol.asyncDispose` where the consumer's set-up declares it.
 */
export function handleDeclarations(rules: CallRules, typeOf: (key: string) => string): string[] {
  const lines: string[] = [];
  for (const { method, rule } of rules.handles) {
    if (!method.result) continue;
    const filled = [...rule.scope, rule.id].map(literal).join(" | ");
    lines.push(
      "/**",
      ` * What \`${method.method}\` created, as the typed call returns it: the result's properties`,
      ` * and one method per request acting on it, with ${[...rule.scope, rule.id].map((p) => `\`${p}\``).join(" and ")} filled in.`,
      rule.dispose
        ? ` * \`${rule.dispose}()\` frees it; with \`await using\`, leaving the scope calls it.`
        : " * Nothing frees it on its own.",
      " */",
      `export type ${rule.typeName} = T.${typeOf(method.result)} & AsyncDisposableIfAvailable & {`,
    );
    for (const { member, method: call } of rule.methods) {
      if (!call.result) continue;
      lines.push(
        `  /** \`${call.method}\` for this one. */`,
        `  ${propertyKey(member)}(params?: Omit<T.${typeOf(call.params)}, ${filled}>, options?: CallOptions): Promise<T.${typeOf(call.result)}>;`,
      );
    }
    lines.push("};", "");
  }
  return lines;
}
