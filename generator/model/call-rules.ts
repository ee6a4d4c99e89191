import type { HandleSpec } from "../../templates/runtime/connection-types.js";
import { isObject, type JsonObject } from "../schema/json.js";
import { literalOf, requiredOf, soleRef } from "../schema/node.js";
import { directRefs, refTarget } from "../schema/refs.js";
import { forEachSchema } from "../schema/walk.js";
import { DISPOSE_MEMBER } from "./conventions.js";
import { handlerName, methodKey, methodsOf } from "./methods.js";
import type {
  CallRules,
  CancelSpec,
  HandleRule,
  Method,
  RoleCalls,
  ServingSide,
  SurfaceModel,
} from "./protocol.js";

/**
 * What the schema says about calls beyond their types, for the runtime's method tables:
 * which request a notification stops, and which request's result names something other
 * requests then act on. Derived from the definitions, so another schema (a new version, a
 * user's extension) gets the same behaviour for methods shaped the same way. The one thing
 * the schema cannot say, which member frees a handle, is named in conventions.ts.
 */

type Surface = Pick<SurfaceModel, "definitions" | "methods" | "defsKeyword">;

/** The rules of the methods each connection role serves. */
export function callRules(surface: Surface): CallRules {
  const created = createdTypes(surface);
  const of = (side: ServingSide): RoleCalls => {
    const served = methodsOf(surface, side);
    const cancelBy = new Map<Method, CancelSpec>();
    const handles = new Map<Method, HandleRule>();
    for (const m of served) {
      const cancel = cancelRuleOf(surface, m, served);
      if (cancel) cancelBy.set(m, cancel);
      const handle = handleRuleOf(surface, m, served, created);
      if (handle) handles.set(m, handle);
    }
    return { cancelBy, handles };
  };
  return { agent: of("agent"), client: of("client") };
}

/**
 * The notification that stops `request`, if the schema says so: a notification served by the
 * same side, whose required params are all required params of the request with the same
 * types, and which the request's result names as the reason it ended: a constant in the
 * result (ACP: `StopReason` `cancelled`, "cancelled by the client via `session/cancel`")
 * whose description mentions the notification's wire name in backticks. Only then does the
 * peer answer the request after the notification, so an abort can wait for that answer.
 */
function cancelRuleOf(
  surface: Surface,
  request: Method,
  served: readonly Method[],
): CancelSpec | undefined {
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
 * becomes a member named like a handler, after the rest of its wire name
 * (`terminal/wait_for_exit` → `waitForExit`).
 */
function handleRuleOf(
  surface: Surface,
  request: Method,
  served: readonly Method[],
  created: ReadonlySet<string>,
): HandleRule | undefined {
  if (request.kind !== "request" || !request.result) return undefined;
  const namespace = namespaceOf(request.method);
  if (!namespace) return undefined;
  const requestParams = requiredProperties(surface, request.params);
  for (const [id, idType] of requiredProperties(surface, request.result)) {
    if (idType === undefined) continue;
    let scope: string[] | undefined;
    const members: Array<{ member: string; method: Method }> = [];
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
      const member = handlerName(methodKey(other.method.slice(namespace.length + 1)));
      members.push({ member, method: other });
    }
    if (!scope || members.length === 0) continue;
    members.sort((a, b) => (a.member < b.member ? -1 : 1));
    const spec: HandleSpec = {
      id,
      scope,
      methods: Object.fromEntries(members.map((m) => [m.member, m.method.method])),
      ...(members.some((m) => m.member === DISPOSE_MEMBER) ? { dispose: DISPOSE_MEMBER } : {}),
    };
    return { spec, namespace, members };
  }
  return undefined;
}

/** The named types of the required properties of every request's result. */
function createdTypes(surface: Surface): Set<string> {
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

function definition(surface: Surface, key: string): JsonObject | undefined {
  const schema = surface.definitions.find((d) => d.key === key)?.schema;
  return isObject(schema) ? schema : undefined;
}

/**
 * A definition's required properties, each with the definition its schema is a reference
 * to, or undefined for an inline schema. Two properties "have the same type" when they
 * name the same definition.
 */
function requiredProperties(surface: Surface, key: string): Map<string, string | undefined> {
  const schema = definition(surface, key);
  const out = new Map<string, string | undefined>();
  if (!schema || !isObject(schema.properties)) return out;
  for (const name of requiredOf(schema)) {
    const ref = soleRef(schema.properties[name] ?? {});
    out.set(name, ref === undefined ? undefined : refTarget(ref, surface.defsKeyword));
  }
  return out;
}

/** Descriptions of every constant in a definition and the definitions it references. */
function constDescriptions(surface: Surface, key: string): string[] {
  const seen = new Set<string>();
  const texts: string[] = [];
  const pending = [key];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const schema = definition(surface, next);
    if (!schema) continue;
    forEachSchema(schema, (node) => {
      if (literalOf(node) !== undefined && typeof node.description === "string")
        texts.push(node.description);
    });
    for (const ref of directRefs(schema, surface.defsKeyword)) pending.push(ref);
  }
  return texts;
}
