import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { assertions, soleRef, unionKeyword } from "../schema/node.js";
import { refTarget } from "../schema/refs.js";
import type { Method, MethodKind, SurfaceModel } from "./protocol.js";

/**
 * JSON-RPC 2.0's member names (the wire format, not ACP's prose): a call names its method in
 * `method` and carries `params`; a request also has an `id`; a response carries `result`
 * (or `error`) for the request of its `id`.
 */
const JSON_RPC = { method: "method", params: "params", id: "id", result: "result" } as const;

/**
 * A JSON-RPC envelope definition (`ClientRequest`, `AgentResponse`…; before 0.7,
 * `ClientOutgoingMessage`, a request, a response or a notification): a message whose
 * `params` (or `result`) is a union of every method's params (or result) type. The union is
 * untagged, so reading it as a union picks the first variant that fits, and a variant whose
 * fields are all optional fits anything and drops every key it does not declare. The
 * reference decodes such a message by its method instead, and so does parse<Name>: this
 * says, per envelope, which definition each method's content is read as.
 */
export interface Envelope {
  /** The envelope's definition key. */
  readonly definition: string;
  /** What it may carry, one entry per property (`params`, `result`), in schema order. */
  readonly contents: readonly EnvelopeContent[];
}

export interface EnvelopeContent {
  /** The property holding the method's content: `params`, or a response's `result`. */
  readonly property: string;
  /**
   * The message's property that names the method (`method`). Absent on a response: its
   * result answers a request it does not name, so only the caller can say which.
   */
  readonly methodProperty?: string;
  /** Wire name → the definition that method's content is, in the union's order. */
  readonly methods: ReadonlyArray<{ readonly method: string; readonly definition: string }>;
  /**
   * Where another of the definition's objects carries the same property: whether this one's
   * messages have an `id` (a request's params) or none (a notification's).
   */
  readonly id?: boolean;
}

/**
 * The envelopes of `surface`, by definition key, in schema order. An envelope is a definition
 * with an object (its root, or a branch of a union at its root, at any depth) holding `params`
 * beside `method` (or `result` without `method`), where that property is a union (possibly
 * through references to definitions that are only unions) whose leaves include the params
 * (result) definition of at least one of the surface's methods (`x-method`). A method is
 * keyed by its wire name; its kind is the object's (a request has an `id`, a notification
 * none), so `mcp/message`'s request and notification never meet in one table. Leaves that are no method's content (an
 * extension's `ExtRequest`, `null`) stay out of the tables: such content is kept whole.
 */
export function envelopesOf(
  surface: Pick<SurfaceModel, "definitions" | "methods" | "defsKeyword">,
): Map<string, Envelope> {
  const schemas = new Map(surface.definitions.map((d) => [d.key, d.schema]));
  const out = new Map<string, Envelope>();
  for (const def of surface.definitions) {
    const contents = contentsOf(def.schema, surface, schemas);
    if (contents.length > 0) out.set(def.key, { definition: def.key, contents });
  }
  return out;
}

function contentsOf(
  schema: Json,
  surface: Pick<SurfaceModel, "methods" | "defsKeyword">,
  schemas: ReadonlyMap<string, Json>,
): EnvelopeContent[] {
  const found: EnvelopeContent[] = [];
  const kindOf = new Map<EnvelopeContent, MethodKind>();
  for (const object of unionObjects(schema)) {
    const properties = object.properties;
    if (!isObject(properties)) continue;
    const has = (name: string) => Object.hasOwn(properties, name);
    const leavesOf = (name: string) =>
      new Set(unionLeaves(properties[name] as Json, surface.defsKeyword, schemas, true, new Set()));
    if (has(JSON_RPC.method) && has(JSON_RPC.params)) {
      const kind: MethodKind = has(JSON_RPC.id) ? "request" : "notification";
      const leaves = leavesOf(JSON_RPC.params);
      const methods = tableOf(surface.methods, leaves, (m) => (m.kind === kind ? m.params : null));
      if (methods.length > 0) {
        const content = { property: JSON_RPC.params, methodProperty: JSON_RPC.method, methods };
        found.push(content);
        kindOf.set(content, kind);
      }
    } else if (has(JSON_RPC.result) && !has(JSON_RPC.method)) {
      const leaves = leavesOf(JSON_RPC.result);
      const methods = tableOf(surface.methods, leaves, (m) => m.result ?? null);
      if (methods.length > 0) found.push({ property: JSON_RPC.result, methods });
    }
  }
  // Two objects carrying the same property (a request's and a notification's params, as
  // before 0.7): which one a message is, JSON-RPC says by its `id`.
  return found.map((content) =>
    found.some((c) => c !== content && c.property === content.property)
      ? { ...content, id: kindOf.get(content) === "request" }
      : content,
  );
}

/** `schema` and the objects of its unions' branches, at any depth (references not followed). */
function unionObjects(schema: Json): JsonObject[] {
  if (!isObject(schema)) return [];
  const keyword = unionKeyword(schema);
  const branches = keyword ? (schema[keyword] as Json[]) : [];
  return [schema, ...branches.flatMap(unionObjects)];
}

/** The methods whose content (`contentOf`) is among `leaves`, in the leaves' order. */
function tableOf(
  methods: readonly Method[],
  leaves: ReadonlySet<string>,
  contentOf: (m: Method) => string | null,
): EnvelopeContent["methods"] {
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
 * [ref, …]}, {"type": "null"}]}` as the schema writes an optional untagged enum, and through a
 * reference to a definition that is only such a union (`ClientRequest` before 0.7). `top`: a
 * lone reference there to anything else is no union, and has no leaves.
 */
function unionLeaves(
  schema: Json,
  defsKeyword: string,
  schemas: ReadonlyMap<string, Json>,
  top: boolean,
  seen: Set<string>,
): string[] {
  if (!isObject(schema)) return [];
  const ref = soleRef(schema);
  if (ref !== undefined) {
    const key = refTarget(ref, defsKeyword);
    if (key === undefined || seen.has(key)) return [];
    const target = schemas.get(key);
    if (isObject(target) && onlyUnion(target)) {
      seen.add(key);
      return unionLeaves(target, defsKeyword, schemas, false, seen);
    }
    return top ? [] : [key];
  }
  const keyword = unionKeyword(schema as JsonObject);
  if (!keyword) return [];
  return (schema[keyword] as Json[]).flatMap((branch) =>
    unionLeaves(branch, defsKeyword, schemas, false, seen),
  );
}

/** A definition that says nothing but which branches it is (annotations aside). */
function onlyUnion(schema: JsonObject): boolean {
  const keyword = unionKeyword(schema);
  return keyword !== undefined && Object.keys(assertions(schema)).every((k) => k === keyword);
}
