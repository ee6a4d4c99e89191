import type { Method, RoleCalls } from "../model/protocol.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { jsLiteral, propertyKey } from "./js.js";

/**
 * What the model's call rules (model/call-rules.ts) add to `connection.js` /
 * `connection.d.ts`: the `cancelBy` and `handle` fields of the runtime's method entries,
 * the handle types, and what the typed calls of such requests return and say.
 */

/** Extra fields of one `MethodEntry` literal, in the runtime's shape (`connection-types.ts`). */
export function entryFields(calls: RoleCalls, m: Method): string[] {
  const cancelBy = calls.cancelBy.get(m);
  const handle = calls.handles.get(m);
  return [
    ...(cancelBy ? [`cancelBy: ${jsLiteral(cancelBy)}`] : []),
    ...(handle ? [`handle: ${jsLiteral(handle.spec)}`] : []),
  ];
}

/** The type the typed call of `m` resolves with: its handle type, or the result's. */
export function callResult(names: SurfaceSymbols, calls: RoleCalls, m: Method): string {
  const handle = calls.handles.get(m);
  if (handle) return names.handleType(handle);
  return `T.${names.definition(m.result as string).type}`;
}

/** Doc lines for the typed call of `m` beyond its summary: what abort and the handle do. */
export function callNotes(names: SurfaceSymbols, calls: RoleCalls, m: Method): string[] {
  const notes: string[] = [];
  const cancel = calls.cancelBy.get(m);
  if (cancel) {
    notes.push(
      `Aborting \`options.signal\` sends \`${cancel.method}\` (with this call's ${cancel.copy.map((c) => `\`${c}\``).join(", ")}) and the call still resolves with the peer's answer, which ends the turn: it is not rejected.`,
    );
  }
  const handle = calls.handles.get(m);
  if (handle) {
    notes.push(
      `Resolves with a \`${names.handleType(handle)}\`: the result, plus ${handle.members.map((x) => `\`${x.member}()\``).join(", ")} acting on it.`,
    );
  }
  return notes;
}

/**
 * `export type TerminalHandle = …`: the creating request's result, the handle's methods,
 * and `Symbol.asyncDispose` where the consumer's set-up declares it.
 */
export function handleDeclarations(names: SurfaceSymbols, calls: RoleCalls): string[] {
  const type = (key: string) => names.definition(key).type;
  const lines: string[] = [];
  for (const [method, rule] of calls.handles) {
    if (!method.result) continue;
    const { id, scope, dispose } = rule.spec;
    const filled = [...scope, id];
    lines.push(
      "/**",
      ` * What \`${method.method}\` created, as the typed call returns it: the result's properties`,
      ` * and one method per request acting on it, with ${filled.map((p) => `\`${p}\``).join(" and ")} filled in.`,
      dispose
        ? ` * \`${dispose}()\` frees it; with \`await using\`, leaving the scope calls it.`
        : " * Nothing frees it on its own.",
      " */",
      `export type ${names.handleType(rule)} = T.${type(method.result)} & AsyncDisposableIfAvailable & {`,
    );
    for (const { member, method: call } of rule.members) {
      if (!call.result) continue;
      lines.push(
        `  /** \`${call.method}\` for this one. */`,
        `  ${propertyKey(member)}(params?: Omit<T.${type(call.params)}, ${filled.map((p) => jsLiteral(p)).join(" | ")}>, options?: CallOptions): Promise<T.${type(call.result)}>;`,
      );
    }
    lines.push("};", "");
  }
  return lines;
}
