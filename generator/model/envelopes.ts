import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { soleRef, unionKeyword } from "../schema/node.js";
import { refTarget } from "../schema/refs.js";
import type { Method, MethodKind, SurfaceModel } from "./protocol.js";

/**
 * JSON-RPC 2.0's member names (the wire format, not ACP's prose): a call names its method in
 * `method` and carries `params`; a request also has an `id`; a response carries `result`
 * (or `error`) for the request of its `id`.
 */
const JSON_RPC = { method: "method", params: "params", id: "id", result: "result" } as const;

/**
 * A JSON-RPC envelope definition (`ClientRequest`, `AgentResponse`…): a message whose
 * `params` (or `result`) is a union of every method's params (or result) type. The union is
 * untagged, so reading it as a union picks the first variant that fits, and a variant whose
 * fields are all optional fits anything and drops every key it does not declare. The
 * reference decodes such a message by its method instead, and so does parse<Name>: this
 * says, per envelope, which definition each method's content is read as.
 */
export interface Envelope {
  /** The envelope's definition key. */
  readonly definition: string;
  /** The property holding the method's content: `params`, or a response's `result`. */
  readonly property: string;
  /**
   * The message's property that names the method (`method`). Absent on a response: its
   * result answers a request it does not name, so only the caller can say which.
   */
  readonly methodProperty?: string;
  /** Wire name → the definition that method's content is, in the union's order. */
  readonly methods: ReadonlyArray<{ readonly method: string; readonly definition: string }>;
}

/**
 * The envelopes of `surface`, by definition key, in schema order. An envelope is a definition
 * whose root object (or one of its root union's branches: a response is a result or an error)
 * holds `params` beside `method` (or `result` without `method`), where that property's union
 * refers, among its leaves, to the params (result) definition of at least one of the
 * surface's methods (`x-method`). A method is keyed by its wire name; its kind is the
 * message's (a request has an `id`, a notification none), so `mcp/message`'s request and
 * notification never meet in one table. Leaves that are no method's content (an extension's
 * `ExtRequest`, `null`) stay out of the table: such content is kept whole.
 */
export function envelopesOf(
  surface: Pick<SurfaceModel, "definitions" | "methods" | "defsKeyword">,
): Map<string, Envelope> {
  const out = new Map<string, Envelope>();
  for (const def of surface.definitions) {
    const envelope = envelopeOf(def.key, def.schema, surface);
    if (envelope) out.set(def.key, envelope);
  }
  return out;
}

function envelopeOf(
  key: string,
  schema: Json,
  surface: Pick<SurfaceModel, "methods" | "defsKeyword">,
): Envelope | undefined {
  if (!isObject(schema)) return undefined;
  const keyword = unionKeyword(schema);
  const objects = [schema, ...(keyword ? (schema[keyword] as Json[]) : [])].filter(isObject);
  for (const object of objects) {
    const properties = object.properties;
    if (!isObject(properties)) continue;
    const has = (name: string) => Object.hasOwn(properties, name);
    // Only a union of contents is read by method: a lone reference reads as itself anyway.
    const leavesOf = (name: string) => {
      const union = properties[name];
      return new Set(
        isObject(union) && unionKeyword(union) ? unionLeaves(union, surface.defsKeyword) : [],
      );
    };
    if (has(JSON_RPC.method) && has(JSON_RPC.params)) {
      const kind: MethodKind = has(JSON_RPC.id) ? "request" : "notification";
      const leaves = leavesOf(JSON_RPC.params);
      const methods = tableOf(surface.methods, leaves, (m) => (m.kind === kind ? m.params : null));
      if (methods.length > 0)
        return {
          definition: key,
          property: JSON_RPC.params,
          methodProperty: JSON_RPC.method,
          methods,
        };
    } else if (has(JSON_RPC.result) && !has(JSON_RPC.method)) {
      const leaves = leavesOf(JSON_RPC.result);
      const methods = tableOf(surface.methods, leaves, (m) => m.result ?? null);
      if (methods.length > 0) return { definition: key, property: JSON_RPC.result, methods };
    }
  }
  return undefined;
}

/** The methods whose content (`contentOf`) is among `leaves`, in the leaves' order. */
function tableOf(
  methods: readonly Method[],
  leaves: ReadonlySet<string>,
  contentOf: (m: Method) => string | null,
): Envelope["methods"] {
  const byLeaf = new Map<string, Array<{ method: string; definition: string }>>();
  const seen = new Set<string>();
  for (const m of methods) {
    const content = contentOf(m);
    // One table entry per wire name: a method served by both sides is listed once.
    if (content === null || !leaves.has(content) || seen.has(m.method)) continue;
    seen.add(m.method);
    const list = byLeaf.get(content) ?? [];
    list.push({ method: m.method, definition: content });
    byLeaf.set(content, list);
  }
  return [...leaves].flatMap((leaf) => byLeaf.get(leaf) ?? []);
}

/**
 * The definitions a union refers to, nested unions flattened, in order: `{"anyOf": [{"anyOf":
 * [ref, …]}, {"type": "null"}]}` as the schema writes an optional untagged enum.
 */
function unionLeaves(schema: Json, defsKeyword: string): string[] {
  if (!isObject(schema)) return [];
  const ref = soleRef(schema);
  if (ref !== undefined) {
    const key = refTarget(ref, defsKeyword);
    return key === undefined ? [] : [key];
  }
  const keyword = unionKeyword(schema as JsonObject);
  if (!keyword) return [];
  return (schema[keyword] as Json[]).flatMap((branch) => unionLeaves(branch, defsKeyword));
}
