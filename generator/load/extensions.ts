import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import {
  DRAFT_2020_12,
  metaSchemaProblem,
  undeclaredMessage,
  undeclaredRequired,
} from "../schema/meta-schema.js";
import { pointer } from "../schema/pointer.js";
import { refTarget } from "../schema/refs.js";
import { forEachJson, forEachSchema } from "../schema/walk.js";
import { checkDocument, checkPattern } from "./hostile.js";
import type { InputFile } from "./input-file.js";
import type { Stability } from "./layout.js";
import { readJsonFile } from "./read-json.js";

/**
 * The user's own extensions (`--extension FILE`): JSON Schema documents written like the
 * protocol's, whose definitions join every surface they apply to. An extension file holds
 *
 * - `$defs`: definitions; those with `x-side` and `x-method` are extension methods, named
 *   `Request`/`Response`/`Notification` like the protocol's, with a wire name starting with
 *   `_` (ACP reserves every other name for the protocol);
 * - `x-meta` (optional): typed `_meta` keys for named protocol definitions,
 *   `{"SessionNotification": {"acme.dev/trace": <schema>}}`;
 * - `x-surfaces` (optional): which surfaces it applies to (all by default), see SELECTOR.
 *
 * A `$ref` of the form `#/$defs/Name` names the extension's own definition, or else the
 * protocol's definition of that name on the surface it is applied to.
 */
export interface LoadedExtension {
  file: InputFile;
  defs: Record<string, Json>;
  /** Protocol definition → `_meta` key → schema of its value. */
  meta: Record<string, Record<string, Json>>;
  /** Selectors from `x-surfaces` (undefined: every surface). */
  surfaces?: string[];
}

/** What checking an extension against a surface reads of it (a `LoadedSurface`). */
export interface TargetSurface {
  version: number;
  stability: Stability;
  defs: Record<string, Json>;
  schemaFile: InputFile;
  extensions: LoadedExtension[];
}

/** One extension input as the CLI names it: read from `path`, recorded as `name`. */
export interface ExtensionSource {
  /** What the manifest records (see `extensionInputs`). */
  name: string;
  /** What messages call it: the path as typed; `name` when absent. */
  display?: string;
  path: string;
}

/** The user's extensions, and which surfaces they are narrowed to (`--extension-surfaces`). */
export interface ExtensionInputs {
  files: readonly ExtensionSource[];
  surfaces?: readonly string[];
}

/** The only x-side values an extension method may have: the sides a connection serves. */
const EXTENSION_SIDES = ["agent", "client", "both"] as const;

/**
 * A surface selector: `v1` (a protocol version, stable and unstable), `stable` or
 * `unstable` (every version's), `v1/stable` or `v1/unstable` (one surface).
 */
const SELECTOR = /^(?:v[1-9][0-9]*(?:\/(?:stable|unstable))?|stable|unstable)$/;

export function selects(
  selectors: readonly string[],
  surface: { version: number; stability: Stability },
): boolean {
  const id = `v${surface.version}`;
  return selectors.some(
    (s) => s === id || s === surface.stability || s === `${id}/${surface.stability}`,
  );
}

/**
 * Check a list of selectors: from `x-surfaces` (`at` is where in the file), or from
 * `--extension-surfaces` (`at` undefined: an option has no JSON pointer).
 */
export function checkSelectors(file: string, at: string | undefined, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new InputError(file, at, "expected a non-empty array of surface selectors");
  return value.map((s, i) => {
    if (typeof s !== "string" || !SELECTOR.test(s))
      throw new InputError(
        file,
        at === undefined ? undefined : `${at}${pointer(String(i))}`,
        `unknown surface selector ${JSON.stringify(s)} (expected v1, v2/unstable, stable, unstable…)`,
      );
    return s;
  });
}

export function loadExtension(source: ExtensionSource): LoadedExtension {
  const file = source.display ?? source.name;
  const read = readJsonFile(source.path, file);
  const value = read.value as Json;
  checkDocument(file, value);
  if (!isObject(value)) throw new InputError(file, "", "expected a JSON Schema object");
  checkDialect(file, value);
  if (Object.hasOwn(value, "definitions"))
    throw new InputError(
      file,
      pointer("definitions"),
      "extensions hold their definitions in $defs",
    );
  const defsValue = value.$defs ?? {};
  if (!isObject(defsValue)) throw new InputError(file, pointer("$defs"), "expected an object");
  const defs: Record<string, Json> = {};
  for (const [key, def] of Object.entries(defsValue)) {
    if (!isObject(def) && typeof def !== "boolean")
      throw new InputError(file, pointer("$defs", key), "expected a schema (object or boolean)");
    checkSchema(file, ["$defs", key], def);
    if (isObject(def)) checkMethod(file, key, def);
    defs[key] = def;
  }
  const meta: Record<string, Record<string, Json>> = {};
  if (Object.hasOwn(value, "x-meta")) {
    const byDefinition = value["x-meta"];
    if (!isObject(byDefinition))
      throw new InputError(file, pointer("x-meta"), "expected an object: definition → _meta keys");
    for (const [target, keys] of Object.entries(byDefinition)) {
      if (!isObject(keys))
        throw new InputError(
          file,
          pointer("x-meta", target),
          "expected an object: _meta key → schema",
        );
      for (const [key, schema] of Object.entries(keys)) {
        if (!isObject(schema) && typeof schema !== "boolean")
          throw new InputError(
            file,
            pointer("x-meta", target, key),
            "expected a schema (object or boolean)",
          );
        checkDialect(file, schema, ["x-meta", target, key]);
        checkSchema(file, ["x-meta", target, key], schema);
      }
      meta[target] = keys;
    }
  }
  const surfaces = Object.hasOwn(value, "x-surfaces")
    ? checkSelectors(file, pointer("x-surfaces"), value["x-surfaces"])
    : undefined;
  return {
    file: { name: source.name, display: file, sha256: sha256(read.text) },
    defs,
    meta,
    ...(surfaces ? { surfaces } : {}),
  };
}

/**
 * Before anything else reads it, the extension must be JSON Schema 2020-12 by that
 * dialect's own meta-schema (`"enum": "idle"`, `"type": "int"`), named in the extension
 * file: every later stage may assume well-formed keywords. `x-meta`'s schemas sit where
 * the meta-schema sees no schema, so each is checked on its own (`at` is where).
 */
function checkDialect(file: string, schema: Json, at: string[] = []): void {
  if (isObject(schema) && Object.hasOwn(schema, "$schema")) {
    const dialect = schema.$schema;
    if (dialect !== DRAFT_2020_12 && dialect !== `${DRAFT_2020_12}#`)
      throw new InputError(
        file,
        pointer(...at, "$schema"),
        `extensions are JSON Schema 2020-12 ("$schema": "${DRAFT_2020_12}"); found ${JSON.stringify(dialect)}`,
      );
  }
  const problem = metaSchemaProblem(schema);
  if (problem) throw new InputError(file, `${pointer(...at)}${problem.pointer}`, problem.message);
}

/**
 * Patterns compile and are safe; refs are local `#/$defs/Name` (resolved per surface later);
 * every name `required` lists is a declared property (a typo there would make the types and
 * the validators disagree).
 */
function checkSchema(file: string, at: string[], schema: Json): void {
  for (const found of undeclaredRequired(schema))
    throw new InputError(file, pointer(...at, ...found.path), undeclaredMessage(found));
  forEachSchema(schema, (node, path) => {
    if (Object.hasOwn(node, "pattern"))
      checkPattern(file, pointer(...at, ...path, "pattern"), node.pattern);
  });
  forEachJson(schema, (ref, path, inNames) => {
    if (inNames || path.at(-1) !== "$ref") return;
    const where = pointer(...at, ...path);
    if (typeof ref !== "string") throw new InputError(file, where, "$ref must be a string");
    if (refTarget(ref, "$defs") === undefined)
      throw new InputError(
        file,
        where,
        `unsupported $ref ${JSON.stringify(ref)}: only local refs of the form #/$defs/Name are supported`,
      );
  });
}

/** What only an extension's methods must satisfy; the rest is checked like the protocol's. */
function checkMethod(file: string, key: string, def: JsonObject): void {
  const hasSide = Object.hasOwn(def, "x-side");
  const hasMethod = Object.hasOwn(def, "x-method");
  if (!hasSide && !hasMethod) return;
  if (!hasSide)
    throw new InputError(file, pointer("$defs", key, "x-method"), "x-method without x-side");
  if (!hasMethod)
    throw new InputError(file, pointer("$defs", key, "x-side"), "x-side without x-method");
  const side = def["x-side"];
  if (!(EXTENSION_SIDES as readonly unknown[]).includes(side))
    throw new InputError(
      file,
      pointer("$defs", key, "x-side"),
      `extension methods are served by ${EXTENSION_SIDES.join(", ")}; found x-side ${JSON.stringify(side)}`,
    );
  const method = def["x-method"];
  if (typeof method !== "string" || !method.startsWith("_"))
    throw new InputError(
      file,
      pointer("$defs", key, "x-method"),
      `extension method ${JSON.stringify(method)} must start with "_": ACP reserves every other name for the protocol`,
    );
}

/**
 * Check an extension against one surface it applies to, before anything is merged: its
 * definitions, methods and `_meta` keys must not collide with the protocol's, and every
 * `$ref` must name a definition of the extension or of that surface.
 */
export function checkAgainstSurface(extension: LoadedExtension, surface: TargetSurface): void {
  const file = extension.file.display;
  const schema = surface.schemaFile.display;
  const protocolMethods = new Set<string>();
  for (const def of Object.values(surface.defs))
    if (isObject(def) && typeof def["x-method"] === "string") protocolMethods.add(def["x-method"]);
  for (const [key, def] of Object.entries(extension.defs)) {
    if (Object.hasOwn(surface.defs, key))
      throw new InputError(
        file,
        pointer("$defs", key),
        `definition ${key} collides with the protocol's definition of that name in ${schema}`,
      );
    if (
      isObject(def) &&
      typeof def["x-method"] === "string" &&
      protocolMethods.has(def["x-method"])
    )
      throw new InputError(
        file,
        pointer("$defs", key, "x-method"),
        `method ${JSON.stringify(def["x-method"])} collides with a protocol method in ${schema}`,
      );
  }
  const known = (name: string) =>
    Object.hasOwn(extension.defs, name) || Object.hasOwn(surface.defs, name);
  const refsIn = (at: string[], node: Json) =>
    forEachJson(node, (ref, path, inNames) => {
      if (inNames || path.at(-1) !== "$ref" || typeof ref !== "string") return;
      const target = refTarget(ref, "$defs");
      if (target === undefined || !known(target))
        throw new InputError(
          file,
          pointer(...at, ...path),
          `dangling $ref ${JSON.stringify(ref)}: no such definition in the extension or in ${schema}`,
        );
    });
  for (const [key, def] of Object.entries(extension.defs)) refsIn(["$defs", key], def);
  for (const [target, keys] of Object.entries(extension.meta)) {
    const def = Object.hasOwn(surface.defs, target) ? surface.defs[target] : undefined;
    if (def === undefined)
      throw new InputError(
        file,
        pointer("x-meta", target),
        `no protocol definition ${target} in ${schema}`,
      );
    const metaProperty = metaSchema(def);
    if (metaProperty === undefined)
      throw new InputError(
        file,
        pointer("x-meta", target),
        `${target} in ${schema} has no _meta object property`,
      );
    const declared = isObject(metaProperty.properties) ? metaProperty.properties : {};
    for (const [key, value] of Object.entries(keys)) {
      if (Object.hasOwn(declared, key))
        throw new InputError(
          file,
          pointer("x-meta", target, key),
          `${target}._meta already declares ${JSON.stringify(key)} in ${schema}`,
        );
      refsIn(["x-meta", target, key], value);
    }
  }
}

/** The schema of a definition's own `_meta` property, when it is an object schema. */
export function metaSchema(def: Json | undefined): JsonObject | undefined {
  if (!isObject(def) || !isObject(def.properties)) return undefined;
  const meta = def.properties._meta;
  return isObject(meta) ? meta : undefined;
}

/**
 * The extensions that apply to one surface: those whose `x-surfaces` select it, narrowed
 * by `--extension-surfaces` when given. Each is checked against the surface.
 */
export function extensionsFor(
  surface: TargetSurface,
  extensions: readonly LoadedExtension[],
  narrowed: readonly string[] | undefined,
): LoadedExtension[] {
  const applied = extensions.filter(
    (e) =>
      (e.surfaces === undefined || selects(e.surfaces, surface)) &&
      (narrowed === undefined || selects(narrowed, surface)),
  );
  for (const extension of applied) checkAgainstSurface(extension, surface);
  // Two extensions on one surface must not define the same name or `_meta` key either.
  const owner = new Map<string, LoadedExtension>();
  for (const extension of applied) {
    for (const key of Object.keys(extension.defs)) {
      const other = owner.get(key);
      if (other)
        throw new InputError(
          extension.file.display,
          pointer("$defs", key),
          `definition ${key} is also defined by ${other.file.display}`,
        );
      owner.set(key, extension);
    }
    for (const [target, keys] of Object.entries(extension.meta)) {
      for (const key of Object.keys(keys)) {
        const id = `${target}\u0000${key}`;
        const other = owner.get(id);
        if (other)
          throw new InputError(
            extension.file.display,
            pointer("x-meta", target, key),
            `${target}._meta key ${JSON.stringify(key)} is also typed by ${other.file.display}`,
          );
        owner.set(id, extension);
      }
    }
  }
  return applied;
}

/** Warn about an extension that applies to no surface at all: most likely a typo. */
export function warnUnused(
  extensions: readonly LoadedExtension[],
  surfaces: readonly TargetSurface[],
  diagnostics: Diagnostics,
): void {
  for (const extension of extensions) {
    if (!surfaces.some((s) => s.extensions.includes(extension)))
      diagnostics.warn(
        extension.file.display,
        extension.surfaces ? pointer("x-surfaces") : "",
        "the extension applies to none of the schema's surfaces",
      );
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The hash `generate` records for each extension, by name, without parsing anything: what
 * `check` compares with the manifest to confirm a clean tree cheaply. Undefined when a file
 * cannot be read (the full check then reports it properly).
 */
export function hashExtensions(
  sources: readonly ExtensionSource[],
): Record<string, string> | undefined {
  const hashes: Record<string, string> = {};
  for (const source of sources) {
    try {
      hashes[source.name] = sha256(readFileSync(source.path, "utf8"));
    } catch {
      return undefined;
    }
  }
  return hashes;
}

/**
 * `--extension FILE` (repeatable): each read from where it is and named in messages as
 * typed. With `packageDir` (generate's and check's `--out`) the manifest records it by its
 * path relative to the package folder, `/`-separated: `acme.json`, `./acme.json` and its
 * absolute path are one extension, the committed manifest holds no machine's absolute
 * path, and the record holds whichever folder the command runs from. Without (diff), it is
 * named as typed. The same file given twice is refused.
 */
export function extensionInputs(
  files: readonly string[],
  surfaces: string | undefined,
  packageDir?: string,
): ExtensionInputs {
  const seen = new Map<string, string>();
  const sources = files.map((file): ExtensionSource => {
    const path = resolve(file);
    const display = file.replaceAll("\\", "/");
    const before = seen.get(path);
    if (before !== undefined)
      throw InputError.about(
        "--extension",
        `${display} is given twice${before === display ? "" : ` (also as ${before})`}`,
      );
    seen.set(path, display);
    if (packageDir === undefined) return { name: display, path };
    const name = relative(resolve(packageDir), path).replaceAll("\\", "/");
    return { name, display, path };
  });
  if (surfaces === undefined) return { files: sources };
  const selectors = checkSelectors(
    "--extension-surfaces",
    undefined,
    surfaces.split(",").map((s) => s.trim()),
  );
  return { files: sources, surfaces: selectors };
}
