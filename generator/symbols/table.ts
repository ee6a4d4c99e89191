import { InputError } from "../errors.js";
import { type ProxyChain, proxyChain } from "../model/chain.js";
import { methodsOf } from "../model/methods.js";
import type { ErrorCode, HandleRule, ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { HANDLER_SIDES, type HandlerSide } from "../model/sides.js";
import { pointer } from "../schema/pointer.js";
import { hasCatchAll } from "../schema/unions.js";
import {
  CAPABILITIES_IMPORTS,
  CAPABILITIES_MODULE,
  CHAIN_ROLES,
  CONNECTION_IMPORTS,
  CONNECTION_REEXPORTS,
  definitionNames,
  ERRORS_IMPORTS,
  ERRORS_MODULE,
  errorHelper,
  handleType,
  INDEX_REEXPORTS,
  METHOD_MODULE,
  methodConstant,
  methodMap,
  NODE_ENTRY,
  type PackageEntry,
  packageNames,
  RECEIVED_NAMESPACE,
  REMOTE_ENTRY,
  ROLES,
  ROUTER_ENTRY,
  type Role,
  type RuntimeImport,
  type RuntimeReexport,
  SESSION_IMPORTS,
  SESSION_MODULE,
  SIGNATURES,
  TYPES_IMPORTS,
} from "./exports.js";
import { isFreeStaticName, typeNameProblem } from "./identifiers.js";

/**
 * The symbol table: every name an entry point exports, made here from the model and
 * checked here for collisions. Emitters and the package index read names from it and
 * make none of their own.
 */
export interface DefinitionSymbols {
  key: string;
  /** The type, named by the `$defs` key itself. */
  type: string;
  guard: string;
  validate: string;
  assert: string;
  parse: string;
  /** validators.js's export, imported by the other modules. */
  validator: string;
  /** Tagged unions only (model `union`): `is<Name>Of`. */
  variantGuard?: string;
  /** Open tagged unions only (a catch-all variant): `isCustom<Name>`. */
  customGuard?: string;
  /** Tagged unions with untagged variants (serde's fallback): `isUntagged<Name>`. */
  untaggedGuard?: string;
}

export interface SurfaceSymbols {
  /** In schema order. */
  definitions: readonly DefinitionSymbols[];
  /** The names of one definition, by key. */
  definition(key: string): DefinitionSymbols;
  /** Sides with method constants and maps: agent, client and protocol always, proxy when used. */
  sides: readonly HandlerSide[];
  methodConstant(side: HandlerSide): string;
  methodMap(side: HandlerSide, kind: "request" | "notification"): string;
  methodModule: typeof METHOD_MODULE;
  roles: typeof ROLES;
  /** The proxy chain's roles, where the surface has one (model/chain.ts). */
  chain?: { roles: typeof CHAIN_ROLES; model: ProxyChain };
  /** The runtime's call signatures the functions of each definition are declared with. */
  signatures: typeof SIGNATURES;
  /** Names a generated module declares without exporting them (see `LOCAL_NAMES`). */
  locals: Record<keyof typeof LOCAL_NAMES, string>;
  /** Runtime names `connection.js` and the entry point pass on, line by line. */
  reexports: { connection: readonly RuntimeReexport[]; index: readonly RuntimeReexport[] };
  /** What each declaration file imports from the runtime for its own declarations. */
  imports: DeclarationImports;
  /** The namespace of received types (`received.d.ts`): what the open reading returns. */
  received: string;
  /** The type each handle of the model's call rules is declared as (`TerminalHandle`). */
  handleType(rule: HandleRule): string;
  /** Every handle type `connection.js` declares, sorted. */
  handleTypes: readonly string[];
  errors: ErrorSymbols;
  capabilities: CapabilitySymbols;
  /** `session.d.ts`'s names, where the surface has the session layer. */
  session?: typeof SESSION_MODULE;
}

/**
 * The runtime imports of a surface's declaration files, file by file, holding only the
 * entries the surface has: `connection.d.ts` names `Negotiated` where there is a handshake and
 * `ProxyConnection` where there is a proxy chain; `session.d.ts` exists with the session layer.
 * (`methods.d.ts` and `received.d.ts` import nothing from the runtime.)
 */
export interface DeclarationImports {
  connection: Omit<typeof CONNECTION_IMPORTS, "negotiated" | "proxy"> &
    Partial<Pick<typeof CONNECTION_IMPORTS, "negotiated" | "proxy">>;
  session?: typeof SESSION_IMPORTS;
  capabilities: typeof CAPABILITIES_IMPORTS;
  errors: typeof ERRORS_IMPORTS;
  types: typeof TYPES_IMPORTS;
}

/**
 * Every line by which the surface's declaration files name a runtime module: what they
 * import, and what `connection.d.ts` and `index.d.ts` re-export.
 */
export function runtimeImportsOf(names: SurfaceSymbols): RuntimeImport[] {
  const { connection, session, capabilities, errors, types } = names.imports;
  return [
    ...[connection, session ?? {}, capabilities, errors, types].flatMap((file): RuntimeImport[] =>
      Object.values(file),
    ),
    ...names.reexports.connection,
    ...names.reexports.index,
  ];
}

/** `capabilities.js`: the gates, and the helpers where the surface has a handshake. */
export interface CapabilitySymbols {
  gates: string;
  /** Per role, the function building its capabilities from its handlers; none without a handshake. */
  helpers?: Readonly<Record<Role, string>>;
}

/** `errors.js`: the `RequestError` class and its static helpers. */
export interface ErrorSymbols {
  errorClass: string;
  /** One per code of the model, in its order. */
  helpers: ReadonlyArray<{ name: string; code: ErrorCode }>;
  /** Where the schema has the code a missing session is reported with. */
  sessionNotFound?: { name: string; code: ErrorCode };
}

export interface Symbols {
  of(surface: SurfaceModel): SurfaceSymbols;
  /** The Node-only entry point (the same for every surface): where it lives, what it re-exports. */
  node: PackageEntry;
  /** The remote transport's entry point (the same for every surface). */
  remote: PackageEntry;
  /** The routers' entry point, where the model has a handshake (model/versions.ts). */
  router: PackageEntry;
}

/** The symbol table of every surface; throws the first name that cannot be exported. */
export function buildSymbols(model: ProtocolModel): Symbols {
  const bySurface = new Map(model.surfaces.map((s) => [s.id, surfaceSymbols(s)]));
  return {
    of(surface) {
      const found = bySurface.get(surface.id);
      if (!found) throw new Error(`internal error: no symbols for surface ${surface.id}`);
      return found;
    },
    node: NODE_ENTRY,
    remote: REMOTE_ENTRY,
    router: ROUTER_ENTRY,
  };
}

/** Sides that always get constants and maps, even when empty, so imports never break. */
const ALWAYS: readonly HandlerSide[] = ["agent", "client", "protocol"];

export function surfaceSymbols(surface: SurfaceModel): SurfaceSymbols {
  // A definition an extension brought is named at its place in the extension file.
  const extensionOf = (key: string) => surface.extensions.find((e) => e.definitions.includes(key));
  const fail = (key: string, detail: string): never => {
    const extension = extensionOf(key);
    if (extension) throw new InputError(extension.file.display, pointer("$defs", key), detail);
    throw new InputError(surface.schemaFile.display, pointer(surface.defsKeyword, key), detail);
  };
  for (const def of surface.definitions) {
    const problem = typeNameProblem(def.key);
    if (problem) fail(def.key, problem);
  }

  const definitions = surface.definitions.map((def): DefinitionSymbols => {
    const { variantGuard, customGuard, untaggedGuard, ...names } = definitionNames(def.key);
    if (!def.union) return { key: def.key, ...names };
    const symbols: DefinitionSymbols = { key: def.key, ...names, variantGuard };
    if (hasCatchAll(def.union)) symbols.customGuard = customGuard;
    if (def.union.variants.some((v) => v.kind === "untagged"))
      symbols.untaggedGuard = untaggedGuard;
    return symbols;
  });
  const handleTypes = handleNames(surface, fail);
  checkCollisions(definitions, handleTypes, fail);

  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const chain = proxyChain(surface);
  if (chain) checkChainMembers(surface, chain, fail);
  return {
    definitions,
    definition(key) {
      const found = byKey.get(key);
      if (!found) throw new Error(`internal error: no definition ${key} in ${surface.id}`);
      return found;
    },
    sides: HANDLER_SIDES.filter(
      (side) => ALWAYS.includes(side) || surface.methods.some((m) => m.handledBy.includes(side)),
    ),
    methodConstant,
    methodMap,
    methodModule: METHOD_MODULE,
    roles: ROLES,
    ...(chain ? { chain: { roles: CHAIN_ROLES, model: chain } } : {}),
    signatures: SIGNATURES,
    locals: localNames(definitions),
    reexports: { connection: CONNECTION_REEXPORTS, index: INDEX_REEXPORTS },
    imports: declarationImports(surface, chain !== undefined),
    received: RECEIVED_NAMESPACE,
    handleType: (rule) => handleType(rule.namespace),
    handleTypes,
    errors: errorSymbols(surface),
    ...(surface.session ? { session: SESSION_MODULE } : {}),
    capabilities: {
      gates: CAPABILITIES_MODULE.gates,
      ...(surface.negotiation
        ? {
            helpers: {
              agent: CAPABILITIES_MODULE.helper("agent"),
              client: CAPABILITIES_MODULE.helper("client"),
            },
          }
        : {}),
    },
  };
}

function declarationImports(surface: SurfaceModel, chained: boolean): DeclarationImports {
  const { negotiated, proxy, ...connection } = CONNECTION_IMPORTS;
  return {
    connection: {
      ...connection,
      ...(surface.negotiation ? { negotiated } : {}),
      ...(chained ? { proxy } : {}),
    },
    ...(surface.session ? { session: SESSION_IMPORTS } : {}),
    capabilities: CAPABILITIES_IMPORTS,
    errors: ERRORS_IMPORTS,
    types: TYPES_IMPORTS,
  };
}

/**
 * The handle types of the surface's call rules, each declared once: two roles with handles
 * in one namespace would declare the same type twice.
 */
function handleNames(
  surface: SurfaceModel,
  fail: (key: string, detail: string) => never,
): string[] {
  const names = new Set<string>();
  for (const [creator, rule] of [...surface.calls.agent.handles, ...surface.calls.client.handles]) {
    // Always an identifier: the namespace is read like a handler name, then suffixed.
    const name = handleType(rule.namespace);
    if (names.has(name)) fail(creator.params, `a second handle named ${name}`);
    names.add(name);
  }
  return [...names].sort();
}

/**
 * The chain roles put handler names of different sides in one object: the conductor
 * serves the client's methods beside the envelope and calls the agent's beside the proxy
 * methods, and `Proxy` holds the proxy methods' handlers beside its two groups. A proxy
 * method named like one of those cannot be served; an input error at its definition.
 */
function checkChainMembers(
  surface: SurfaceModel,
  chain: ProxyChain,
  fail: (key: string, detail: string) => never,
): void {
  const { groups } = CHAIN_ROLES.proxy;
  const taken = [
    ...methodsOf(surface, "agent").map((m) => [m.handler, `the agent's ${m.method}`]),
    ...methodsOf(surface, "client").map((m) => [m.handler, `the client's ${m.method}`]),
    ...Object.values(groups).map((g) => [g, `the ${g} handlers of ${CHAIN_ROLES.proxy.handlers}`]),
  ];
  for (const m of chain.methods) {
    const clash = taken.find(([name]) => name === m.handler);
    if (clash)
      fail(m.params, `proxy method ${m.method} has the handler name ${m.handler} of ${clash[1]}`);
  }
}

/**
 * One `RequestError` helper per error code, named after its title. A title that gives no
 * free static member name (not an identifier, a member every class has, another helper's
 * name) is an input error at the title.
 */
function errorSymbols(surface: SurfaceModel): ErrorSymbols {
  const { codes, sessionNotFound } = surface.errors;
  const taken = new Set<string>([ERRORS_MODULE.sessionNotFound]);
  const helpers = codes.map((code) => {
    const name = errorHelper(code.title);
    if (!isFreeStaticName(name) || taken.has(name)) {
      throw new InputError(
        surface.schemaFile.display,
        `${code.at}/title`,
        `error code title ${JSON.stringify(code.title)} gives the helper name ${JSON.stringify(name)}, which is not a free identifier`,
      );
    }
    taken.add(name);
    return { name, code };
  });
  return {
    errorClass: ERRORS_MODULE.errorClass,
    helpers,
    ...(sessionNotFound
      ? { sessionNotFound: { name: ERRORS_MODULE.sessionNotFound, code: sessionNotFound } }
      : {}),
  };
}

/**
 * Names `types.d.ts` declares beside the definitions and their functions without exporting
 * them, so they can neither clash with another export nor be imported: the shared open-object
 * alias, and the namespace the open parsers' received types are read through. Each must
 * still differ from every name the file declares and from the others: it is suffixed with
 * `_` until it does (a rename no consumer can see, since nothing imports it).
 */
const LOCAL_NAMES = { openObject: "JsonObject", received: "R" } as const;

function localNames(
  definitions: readonly DefinitionSymbols[],
): Record<keyof typeof LOCAL_NAMES, string> {
  const taken = new Set<string>(
    definitions.flatMap((d) => [
      ...[d.type, d.guard, d.validate, d.assert, d.parse],
      ...[d.variantGuard, d.customGuard, d.untaggedGuard].filter((n) => n !== undefined),
    ]),
  );
  const free = (name: string): string => (taken.has(name) ? free(`${name}_`) : name);
  const openObject = free(LOCAL_NAMES.openObject);
  taken.add(openObject);
  return { openObject, received: free(LOCAL_NAMES.received) };
}

/**
 * Every entry point re-exports its modules with `export *`, and TypeScript silently
 * exports neither of two same-named exports (a type `isFoo` beside `Foo`'s guard). So each
 * exported name has one owner: the package, a definition's type, functions or union helpers.
 */
function checkCollisions(
  definitions: readonly DefinitionSymbols[],
  surfaceNames: readonly string[],
  fail: (key: string, detail: string) => never,
): void {
  type Owner = { package: true } | { key: string; what: "function" | "type" | "helper" };
  const owners = new Map<string, Owner>();
  for (const name of [...packageNames(), ...surfaceNames]) owners.set(name, { package: true });
  for (const d of definitions)
    for (const name of [d.guard, d.validate, d.assert, d.parse])
      owners.set(name, { key: d.key, what: "function" });
  for (const d of definitions) {
    const owner = owners.get(d.type);
    if (!owner) continue;
    const other =
      "package" in owner
        ? "a name the generated package exports"
        : `the ${d.type} function of definition ${owner.key}`;
    fail(d.key, `definition name ${JSON.stringify(d.type)} collides with ${other}`);
  }
  for (const d of definitions) owners.set(d.type, { key: d.key, what: "type" });
  for (const d of definitions) {
    for (const helper of [d.variantGuard, d.customGuard, d.untaggedGuard]) {
      if (helper === undefined) continue;
      const owner = owners.get(helper);
      if (owner) {
        const other =
          "package" in owner
            ? "a name the generated package exports"
            : owner.what === "type"
              ? `the type of definition ${owner.key}`
              : `a function generated for ${owner.key}`;
        fail(d.key, `union helper ${helper} collides with ${other}`);
      }
      owners.set(helper, { key: d.key, what: "helper" });
    }
  }
}
