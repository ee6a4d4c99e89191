import { InputError } from "../errors.js";
import type { ErrorCode, HandleRule, ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { HANDLER_SIDES, type HandlerSide } from "../model/sides.js";
import { hasCatchAll } from "../model/unions.js";
import { pointer } from "../schema/pointer.js";
import {
  CONNECTION_REEXPORTS,
  definitionNames,
  ERRORS_MODULE,
  errorHelper,
  handleType,
  INDEX_REEXPORTS,
  METHOD_MODULE,
  methodConstant,
  methodMap,
  NODE_ENTRY,
  NODE_REEXPORTS,
  packageNames,
  ROLES,
  type RuntimeReexport,
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
  /** Runtime names `connection.js` and the entry point pass on, line by line. */
  reexports: { connection: readonly RuntimeReexport[]; index: readonly RuntimeReexport[] };
  /** The type each handle of the model's call rules is declared as (`TerminalHandle`). */
  handleType(rule: HandleRule): string;
  /** Every handle type `connection.js` declares, sorted. */
  handleTypes: readonly string[];
  errors: ErrorSymbols;
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
  node: { entry: typeof NODE_ENTRY; reexports: readonly RuntimeReexport[] };
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
    node: { entry: NODE_ENTRY, reexports: NODE_REEXPORTS },
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
    const { variantGuard, customGuard, ...names } = definitionNames(def.key);
    if (!def.union) return { key: def.key, ...names };
    return hasCatchAll(def.union)
      ? { key: def.key, ...names, variantGuard, customGuard }
      : { key: def.key, ...names, variantGuard };
  });
  const handleTypes = handleNames(surface, fail);
  checkCollisions(definitions, handleTypes, fail);

  const byKey = new Map(definitions.map((d) => [d.key, d]));
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
    reexports: { connection: CONNECTION_REEXPORTS, index: INDEX_REEXPORTS },
    handleType: (rule) => handleType(rule.namespace),
    handleTypes,
    errors: errorSymbols(surface),
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
    for (const helper of [d.variantGuard, d.customGuard]) {
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
