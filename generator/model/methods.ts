import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { LoadedSurface } from "../load/index.js";
import { isObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { REQUIRED_HANDLERS } from "./conventions.js";
import type { Method, MethodKind, ServingSide, SurfaceModel } from "./protocol.js";
import { HANDLER_SIDES, type HandlerSide, isSide, SIDES, type Side } from "./sides.js";

/**
 * Nothing in the schema says whether an annotated definition is a request, a response or
 * a notification except its name. The rule, applied to every definition that carries
 * `x-method`: a name ending in `Request` is a request's params, `Response` a request's
 * result, `Notification` a notification's params. Anything else is an input error.
 */
type Role = "request" | "response" | "notification";
function roleOf(key: string): Role | undefined {
  if (key.endsWith("Request")) return "request";
  if (key.endsWith("Response")) return "response";
  if (key.endsWith("Notification")) return "notification";
  return undefined;
}

/** Printable ASCII without spaces: wire names end up in string literals and object keys. */
const WIRE_NAME = /^[\x21-\x7e]+$/;

interface Annotated {
  key: string;
  side: Side;
  method: string;
  role: Role;
}

/**
 * The methods of a surface, from its `x-side`/`x-method` annotations, checked against its
 * meta.json. Releases before the annotations were complete leave gaps; each gap whose
 * meaning is plain gets a named rule below (applied with a warning on `diagnostics`), the
 * rest stay input errors. The rules are for the protocol's released schemas: a user's
 * extension file (`source: "extension"`) gets none, and every such gap is an error there.
 */
export function extractMethods(
  surface: LoadedSurface,
  diagnostics?: Diagnostics,
  source: "protocol" | "extension" = "protocol",
): Method[] {
  const file = surface.schemaFile.display;
  const annotated: Annotated[] = [];
  for (const [key, def] of Object.entries(surface.defs)) {
    if (!isObject(def)) continue;
    const hasSide = Object.hasOwn(def, "x-side");
    const hasMethod = Object.hasOwn(def, "x-method");
    if (!hasSide && !hasMethod) continue;
    const at = (kw: string) => pointer(surface.defsKeyword, key, kw);
    if (!hasSide) throw new InputError(file, at("x-method"), "x-method without x-side");
    if (!hasMethod) throw new InputError(file, at("x-side"), "x-side without x-method");
    const side = def["x-side"];
    const method = def["x-method"];
    if (!isSide(side)) {
      throw new InputError(
        file,
        at("x-side"),
        `unknown x-side ${JSON.stringify(side)} (known: ${Object.keys(SIDES).join(", ")})`,
      );
    }
    if (typeof method !== "string" || !WIRE_NAME.test(method)) {
      throw new InputError(
        file,
        at("x-method"),
        `x-method must be a non-empty string of printable ASCII without spaces, found ${JSON.stringify(method)}`,
      );
    }
    const role = roleOf(key);
    if (!role) {
      throw new InputError(
        file,
        at("x-method"),
        "cannot tell request, response or notification: the definition name must end in Request, Response or Notification",
      );
    }
    annotated.push({ key, side, method, role });
  }

  // Group by (side, wire name): `mcp/message` has a request, a response and a notification.
  const groups = new Map<string, Partial<Record<Role, Annotated>>>();
  for (const a of annotated) {
    const id = `${a.side}\u0000${a.method}`;
    const group = groups.get(id) ?? {};
    const clash = group[a.role];
    if (clash) {
      throw new InputError(
        file,
        pointer(surface.defsKeyword, a.key, "x-method"),
        `duplicate ${a.role} for x-side ${a.side} method ${JSON.stringify(a.method)} (also on ${clash.key})`,
      );
    }
    group[a.role] = a;
    groups.set(id, group);
  }

  const methods: Omit<Method, "key" | "handler" | "experimental" | "requiredBy">[] = [];
  for (const group of groups.values()) {
    const { request, response, notification } = group;
    if (response && !request) {
      throw new InputError(
        file,
        pointer(surface.defsKeyword, response.key, "x-method"),
        `response for ${JSON.stringify(response.method)} has no matching request definition`,
      );
    }
    if (request) {
      methods.push({
        method: request.method,
        side: request.side,
        handledBy: SIDES[request.side],
        kind: "request",
        params: request.key,
        result: response
          ? response.key
          : source === "extension"
            ? noResponse(surface, request)
            : unannotatedResult(surface, request, diagnostics),
      });
    }
    if (notification) {
      methods.push({
        method: notification.method,
        side: notification.side,
        handledBy: SIDES[notification.side],
        kind: "notification",
        params: notification.key,
      });
    }
  }

  const keys = methodKeys(surface, methods, diagnostics);
  return methods
    .map((m) => {
      const key = keys.get(m.method) ?? methodKey(m.method);
      const handler = handlerName(key);
      return {
        ...m,
        key,
        handler: nameForKind(handler, m, methods),
        experimental: false,
        requiredBy: SERVING_SIDES.filter(
          (role) => m.handledBy.includes(role) && REQUIRED_HANDLERS[role].includes(m.method),
        ),
      };
    })
    .sort(compareMethods);
}

/** The roles a connection serves methods in. */
const SERVING_SIDES: readonly ServingSide[] = ["agent", "client"];

/**
 * The result of an annotated request no response definition annotates, in releases before
 * every response carried `x-method` (the npm packages `@zed-industries/agent-client-protocol`
 * 0.1.2 to 0.2.0-alpha.8, upstream tags v0.0.33 to v0.2.0). Two named rules, each with a
 * warning naming the method:
 *
 * - RESULT BY NAME: the definition named like the request with `Response` for `Request`
 *   (`ReadTextFileRequest` → `ReadTextFileResponse`), when it exists and carries no
 *   `x-method` of its own, is the result. Those releases list exactly that definition in
 *   their response union (`ClientResponse`), and their SDK typed the call's result with it.
 * - NULL RESULT: otherwise the result is JSON `null` (`authenticate`, `session/load`,
 *   `fs/write_text_file`). Those releases serialised a result without content as `null`,
 *   list it in the response union as `{ "title": "AuthenticateResponse", "type": "null" }`,
 *   and their SDK sent `"result": null` and typed the call `Promise<void>` (`authenticate`,
 *   `session/load`) or with a type that is `null` (`fs/write_text_file`).
 */
function unannotatedResult(
  surface: LoadedSurface,
  request: Annotated,
  diagnostics: Diagnostics | undefined,
): string | null {
  const at = pointer(surface.defsKeyword, request.key, "x-method");
  const file = surface.schemaFile.display;
  const named = `${request.key.slice(0, -"Request".length)}Response`;
  const candidate = Object.hasOwn(surface.defs, named) ? surface.defs[named] : undefined;
  const annotated =
    isObject(candidate) &&
    (Object.hasOwn(candidate, "x-method") || Object.hasOwn(candidate, "x-side"));
  if (candidate !== undefined && !annotated) {
    diagnostics?.warn(
      file,
      at,
      `request ${JSON.stringify(request.method)} has no response definition with x-method ${JSON.stringify(request.method)}: its result is ${named}, the definition named after the request (rule: result by name)`,
    );
    return named;
  }
  diagnostics?.warn(
    file,
    at,
    `request ${JSON.stringify(request.method)} has no response definition: its result is null (rule: null result)`,
  );
  return null;
}

/** In an extension file a request needs its response: the old releases' rules are not for it. */
function noResponse(surface: LoadedSurface, request: Annotated): never {
  throw new InputError(
    surface.schemaFile.display,
    pointer(surface.defsKeyword, request.key, "x-method"),
    `request ${JSON.stringify(request.method)} has no matching response definition`,
  );
}

/** A wire name with both a request and a notification (`mcp/message`) needs two handlers. */
function nameForKind(
  handler: string,
  m: Pick<Method, "method" | "kind" | "side">,
  all: Pick<Method, "method" | "kind" | "side">[],
): string {
  const twin = all.some((o) => o.method === m.method && o.side === m.side && o.kind !== m.kind);
  return twin && m.kind === "notification" ? `${handler}Notification` : handler;
}

export function compareMethods(a: Method, b: Method): number {
  const side = (m: Method) => HANDLER_SIDES.indexOf(m.handledBy[0] ?? "agent");
  return side(a) - side(b) || compare(a.method, b.method) || compare(a.kind, b.kind);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * meta.json and the x-method annotations must agree: every annotated method must be listed
 * under each side that serves it, and a listed method that some definition annotates must
 * be annotated for that side. Both stay input errors: the two files then contradict each
 * other (a meta.json from another release, a typo), and either could be the right one.
 *
 * One gap has a named rule instead, UNANNOTATED META METHOD: a listed method that no
 * definition annotates at all is left out of the method tables, with a warning. Upstream
 * tags v0.0.14 to v0.0.31 annotate no definition (their meta.json is the only method
 * table), and v0.2.1 to v0.2.3 list `session/set_mode` while its draft definitions carry
 * no `x-method`: the method exists, but nothing in the schema says which definitions are
 * its params and result, or whether it is a request. Guessing from names would type a
 * method wrongly; without it the package is still correct for everything the schema
 * does say. Returns wire name → meta.json key.
 */
function methodKeys(
  surface: LoadedSurface,
  methods: Pick<Method, "method" | "handledBy" | "params">[],
  diagnostics: Diagnostics | undefined,
): Map<string, string> {
  const keys = new Map<string, string>();
  const meta = surface.meta;
  if (!meta) return keys;
  const metaFile = meta.file.display;
  const annotatedNames = new Set(methods.map((m) => m.method));
  for (const [side, entries] of Object.entries(meta.methods)) {
    const seen = new Map<string, string>();
    for (const [key, wire] of Object.entries(entries)) {
      const at = pointer(`${side}Methods`, key);
      const previous = seen.get(wire);
      if (previous)
        throw new InputError(
          metaFile,
          at,
          `method ${JSON.stringify(wire)} is listed twice (also as ${previous})`,
        );
      seen.set(wire, key);
      if (!annotatedNames.has(wire)) {
        // Rule: UNANNOTATED META METHOD (see the comment above).
        diagnostics?.warn(
          metaFile,
          at,
          `method ${JSON.stringify(wire)} has no definition with x-method ${JSON.stringify(wire)} in ${surface.schemaFile.display}: left out of the method tables, since the schema says nothing of its params or result (rule: unannotated meta.json method)`,
        );
        continue;
      }
      if (
        !methods.some((m) => m.method === wire && (m.handledBy as readonly string[]).includes(side))
      ) {
        throw new InputError(
          metaFile,
          at,
          `method ${JSON.stringify(wire)} has no definition with x-method ${JSON.stringify(wire)} served by the ${side} side in ${surface.schemaFile.display}`,
        );
      }
      const known = keys.get(wire);
      if (known && known !== key)
        throw new InputError(
          metaFile,
          at,
          `method ${JSON.stringify(wire)} has two keys: ${known} and ${key}`,
        );
      keys.set(wire, key);
    }
  }
  for (const m of methods) {
    for (const side of m.handledBy) {
      if (!Object.values(meta.methods[side] ?? {}).includes(m.method)) {
        throw new InputError(
          surface.schemaFile.display,
          pointer(surface.defsKeyword, m.params, "x-method"),
          `method ${JSON.stringify(m.method)} (served by the ${side} side) is not listed in ${metaFile} under ${side}Methods`,
        );
      }
    }
  }
  return keys;
}

/** The methods of `side` (those it serves), optionally of one kind, in model order. */
export function methodsOf(
  surface: Pick<SurfaceModel, "methods">,
  side: HandlerSide,
  kind?: MethodKind,
): Method[] {
  return surface.methods.filter(
    (m) => m.handledBy.includes(side) && (kind === undefined || m.kind === kind),
  );
}

/**
 * `document/didOpen` → `document_did_open`; `$/cancel_request` → `cancel_request`: the
 * meta.json key of a method, for releases without meta.json.
 */
export function methodKey(wire: string): string {
  return wire
    .replace(/^\$\//, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/** meta.json key → handler member name: `fs_read_text_file` → `fsReadTextFile`. */
export function handlerName(key: string): string {
  return key
    .replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase())
    .replace(/^[^A-Za-z_$]+/, "_");
}

export type { MethodKind };
