import { isObject, type Json, type JsonObject } from "../load/json-types.js";
import { directRefs } from "../load/refs.js";
import type { Method, SurfaceModel } from "../model/protocol.js";
import { forEachSchema } from "../patch/walk.js";

/**
 * What the schema says about calls beyond their types, for the runtime's method tables:
 * which request a notification stops, and which request's result names something other
 * requests then act on. Derived from the definitions, so another schema (a new version, a
 * user's extension) gets the same behaviour for methods shaped the same way.
 */

/** A request the peer answers after a notification told it to stop. */
export interface CancelRule {
  /** Wire name of the notification (`session/cancel`). */
  readonly method: string;
  /** Params copied from the request into the notification (`sessionId`). */
  readonly copy: readonly string[];
}

/** A request whose result names a thing other requests act on, and those requests. */
export interface HandleRule {
  /** The result's property naming the thing (`terminalId`). */
  readonly id: string;
  /** Params of the creating request every call on the thing repeats (`sessionId`). */
  readonly scope: readonly string[];
  /** Handle member → the method it calls (`waitForExit` → `terminal/wait_for_exit`). */
  readonly methods: ReadonlyArray<{ readonly member: string; readonly method: Method }>;
  /** The member that frees the thing, if any: what `Symbol.asyncDispose` calls. */
  readonly dispose?: string;
  /** Name of the handle's type (`TerminalHandle`). */
  readonly typeName: string;
}

/**
 * The one handle member the schema cannot point at: which call frees the thing. ACP names it
 * `release` (`terminal/release`: "Releases the terminal and frees all associated
 * resources"), and the official SDK's TerminalHandle releases on `Symbol.asyncDispose` too.
 * A handle without a member of this name has no `Symbol.asyncDispose`.
 */
export const DISPOSE_MEMBER = "release";

/**
 * The notification that stops `request`, if the schema says so: a notification served by the
 * same side, whose required params are all required params of the request with the same
 * types, and which the request's result names as the reason it ended: a constant in the
 * result (ACP: `StopReason` `cancelled`, "cancelled by the client via `session/cancel`")
 * whose description mentions the notification's wire name in backticks. Only then does the
 * peer answer the request after the notification, so an abort can wait for that answer.
 */
export function cancelRuleOf(
  surface: SurfaceModel,
  request: Method,
  served: readonly Method[],
): CancelRule | undefined {
  if (request.kind !== "request" || !request.result) return undefined;
  const requestParams = requiredProperties(surface, request.params);
  const mentions = constDescriptions(surface, request.result);
  for (const candidate of served) {
    if (candidate.kind !== "notification") continue;
    const required = requiredProperties(surface, candidate.params);
    if (required.size === 0) continue;
    const shared = [...required].every(
      ([name, type]) => type !== undefined && requestParams.get(name) === type,
    );
    if (!shared) continue;
    if (!mentions.some((text) => text.includes(`\`${candidate.method}\``))) continue;
    return { method: candidate.method, copy: [...required.keys()].sort() };
  }
  return undefined;
}

/**
 * The handle the proxy of `request` resolves with, if the schema shapes it so: the result
 * has a required property P of a named type, and other requests served by the same side,
 * in the same namespace (`terminal/…`), require exactly P plus some of the request's own
 * required params: its scope, which must name things the protocol itself created (each of
 * its types is the type of a required property of some request's result, as `SessionId`
 * is of `session/new`'s): the thing lives inside another thing, such as a session. Each
 * becomes a member named after the rest of its wire name (`terminal/wait_for_exit` →
 * `waitForExit`).
 */
export function handleRuleOf(
  surface: SurfaceModel,
  request: Method,
  served: readonly Method[],
): HandleRule | undefined {
  if (request.kind !== "request" || !request.result) return undefined;
  const namespace = namespaceOf(request.method);
  if (!namespace) return undefined;
  const requestParams = requiredProperties(surface, request.params);
  const created = createdTypes(surface);
  for (const [id, idType] of requiredProperties(surface, request.result)) {
    if (idType === undefined) continue;
    let scope: string[] | undefined;
    const methods: Array<{ member: string; method: Method }> = [];
    for (const other of served) {
      if (other === request || other.kind !== "request") continue;
      if (namespaceOf(other.method) !== namespace) continue;
      const required = requiredProperties(surface, other.params);
      if (required.get(id) !== idType) continue;
      const rest = [...required].filter(([name]) => name !== id);
      if (rest.length === 0) continue;
      const inScope = ([name, type]: [string, string | undefined]) =>
        type !== undefined && requestParams.get(name) === type && created.has(type);
      if (!rest.every(inScope)) continue;
      const names = rest.map(([name]) => name).sort();
      if (scope && scope.join() !== names.join()) continue;
      scope = names;
      methods.push({ member: camelCase(other.method.slice(namespace.length + 1)), method: other });
    }
    if (!scope || methods.length === 0) continue;
    methods.sort((a, b) => (a.member < b.member ? -1 : 1));
    return {
      id,
      scope,
      methods,
      ...(methods.some((m) => m.member === DISPOSE_MEMBER) ? { dispose: DISPOSE_MEMBER } : {}),
      typeName: `${pascalCase(namespace)}Handle`,
    };
  }
  return undefined;
}

/** The named types of the required properties of every request's result. */
function createdTypes(surface: SurfaceModel): Set<string> {
  const types = new Set<string>();
  for (const m of surface.methods) {
    if (!m.result) continue;
    for (const type of requiredProperties(surface, m.result).values()) if (type) types.add(type);
  }
  return types;
}

function namespaceOf(wireName: string): string | undefined {
  const slash = wireName.indexOf("/");
  return slash > 0 ? wireName.slice(0, slash) : undefined;
}

const camelCase = (text: string): string =>
  text.replace(/[_/-]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const pascalCase = (text: string): string => {
  const camel = camelCase(text);
  return `${camel[0]?.toUpperCase() ?? ""}${camel.slice(1)}`;
};

function definition(surface: SurfaceModel, key: string): JsonObject | undefined {
  const schema = surface.definitions.find((d) => d.key === key)?.schema;
  return isObject(schema) ? schema : undefined;
}

/**
 * A definition's required properties, each with the definition its schema names (a `$ref`,
 * possibly wrapped in a one-item `allOf`, as schemars writes them), or undefined for an
 * inline schema. Two properties "have the same type" when they name the same definition.
 */
function requiredProperties(surface: SurfaceModel, key: string): Map<string, string | undefined> {
  const schema = definition(surface, key);
  const out = new Map<string, string | undefined>();
  if (!schema || !Array.isArray(schema.required) || !isObject(schema.properties)) return out;
  for (const name of schema.required) {
    if (typeof name !== "string") continue;
    const property = schema.properties[name];
    out.set(name, isObject(property) ? namedType(surface, property) : undefined);
  }
  return out;
}

function namedType(surface: SurfaceModel, property: JsonObject): string | undefined {
  const target =
    Array.isArray(property.allOf) && property.allOf.length === 1 ? property.allOf[0] : property;
  if (!isObject(target) || typeof target.$ref !== "string") return undefined;
  const refs = [...directRefs(target, surface.defsKeyword)];
  return refs.length === 1 ? refs[0] : undefined;
}

/** Descriptions of every `const` schema in a definition and the definitions it references. */
function constDescriptions(surface: SurfaceModel, key: string): string[] {
  const seen = new Set<string>();
  const texts: string[] = [];
  const pending = [key];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const schema: Json | undefined = definition(surface, next);
    if (!schema) continue;
    forEachSchema(schema, (node) => {
      if ("const" in node && typeof node.description === "string") texts.push(node.description);
    });
    for (const ref of directRefs(schema, surface.defsKeyword)) pending.push(ref);
  }
  return texts;
}
