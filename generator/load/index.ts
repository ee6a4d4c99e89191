import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { undeclaredMessage, undeclaredRequired } from "../schema/meta-schema.js";
import { pointer } from "../schema/pointer.js";
import { forEachSchema } from "../schema/walk.js";
import {
  type ExtensionInputs,
  extensionsFor,
  type LoadedExtension,
  loadExtension,
  warnUnused,
} from "./extensions.js";
import { checkDocument, checkPattern } from "./hostile.js";
import type { InputFile } from "./input-file.js";
import {
  changesFile,
  discoverSurfaces,
  type SourceFile,
  type Stability,
  type SurfaceFiles,
  UNSTABLE_BANNER,
} from "./layout.js";
import { readJsonFile } from "./read-json.js";
import { checkRefs } from "./refs.js";

export type { InputFile } from "./input-file.js";

/** meta.json, normalised: every `<side>Methods` map, keyed by side. */
export interface Meta {
  version?: number;
  methods: Record<string, Record<string, string>>;
  file: InputFile;
}

export interface LoadedSurface {
  version: number;
  stability: Stability;
  schema: JsonObject;
  /** `$defs` in current releases; `definitions` is accepted for hand-written inputs. */
  defsKeyword: "$defs" | "definitions";
  defs: Record<string, Json>;
  schemaFile: InputFile;
  meta?: Meta;
  /** The user's extensions that apply to this surface, checked against it (extensions.ts). */
  extensions: LoadedExtension[];
}

export interface LoadedInput {
  surfaces: LoadedSurface[];
  files: InputFile[];
  /** Every `--extension` file, in the order given. */
  extensions: InputFile[];
  /** The schema folder's CHANGES.md (layout.ts), also listed in `files`. */
  changes?: { file: InputFile; text: string };
}

export type { ExtensionInputs } from "./extensions.js";

/** Load every surface a schema folder holds, in any layout upstream has shipped. */
export function loadSchemaDir(
  schemaDir: string,
  displayDir: string,
  diagnostics: Diagnostics,
  extensions?: ExtensionInputs,
): LoadedInput {
  const input = loadSurfaces(discoverSurfaces(schemaDir, displayDir), diagnostics, extensions);
  const changes = changesFile(schemaDir, displayDir);
  if (!changes) return input;
  const text = readText(changes);
  const file = inputFile(changes.name, changes.display, text);
  return { ...input, files: [...input.files, file], changes: { file, text } };
}

/** A text input file, as UTF-8. */
function readText(file: SourceFile): string {
  try {
    return readFileSync(file.path, "utf8");
  } catch (error) {
    throw new InputError(
      file.display,
      "",
      `cannot read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
}

/**
 * Read and check the given surfaces' files: a folder's layout (`discoverSurfaces`), or any
 * other list of files, such as the lone schema file `diff` accepts (`surfaceOfFile`).
 */
export function loadSurfaces(
  found: readonly SurfaceFiles[],
  diagnostics: Diagnostics,
  extensionInputs: ExtensionInputs = { files: [] },
): LoadedInput {
  const surfaces: LoadedSurface[] = [];
  const files: InputFile[] = [];
  for (const { version, stability, schema: source, meta: metaSource } of found) {
    const schemaRead = readJsonFile(source.path, source.display);
    const schemaFile = inputFile(source.name, source.display, schemaRead.text);
    files.push(schemaFile);
    checkDocument(schemaFile.display, schemaRead.value as Json);
    const { schema, defsKeyword, defs } = checkSchemaShape(schemaFile.display, schemaRead.value);
    checkRefs(schemaFile.display, schema, defsKeyword, defs);
    forEachSchema(schema, (node, path) => {
      if (Object.hasOwn(node, "pattern"))
        checkPattern(schemaFile.display, pointer(...path, "pattern"), node.pattern);
    });
    // The protocol's released schemas are what they are: a required name that is not a
    // property is reported, not refused (an extension's is an error: load/extensions.ts).
    for (const found of undeclaredRequired(schema))
      diagnostics.warn(schemaFile.display, pointer(...found.path), undeclaredMessage(found));

    let meta: Meta | undefined;
    if (metaSource) {
      const metaRead = readJsonFile(metaSource.path, metaSource.display);
      const metaFile = inputFile(metaSource.name, metaSource.display, metaRead.text);
      checkDocument(metaFile.display, metaRead.value as Json);
      files.push(metaFile);
      meta = checkMeta(metaFile, metaRead.value, diagnostics);
    }
    surfaces.push({
      version,
      stability,
      schema,
      defsKeyword,
      defs,
      schemaFile,
      ...(meta ? { meta } : {}),
      extensions: [],
    });
  }
  const extensions = extensionInputs.files.map(loadExtension);
  for (const surface of surfaces)
    surface.extensions = extensionsFor(surface, extensions, extensionInputs.surfaces);
  warnUnused(extensions, surfaces, diagnostics);
  warnDraftsInStable(surfaces, diagnostics);
  return { surfaces, files, extensions: extensions.map((e) => e.file) };
}

/** The warning of the SURFACE BY FILE NAME rule (layout.ts): drafts in a stable file with no unstable one beside it. */
function warnDraftsInStable(surfaces: readonly LoadedSurface[], diagnostics: Diagnostics): void {
  for (const surface of surfaces) {
    if (surface.stability !== "stable") continue;
    if (surfaces.some((s) => s.version === surface.version && s.stability === "unstable")) continue;
    const drafts = Object.values(surface.defs).filter(
      (def) =>
        isObject(def) &&
        typeof def.description === "string" &&
        def.description.startsWith(UNSTABLE_BANNER),
    ).length;
    if (drafts === 0) continue;
    const unstableName = surface.schemaFile.name.replace(/\.json$/, ".unstable.json");
    diagnostics.warn(
      surface.schemaFile.display,
      "",
      `${drafts} definition${drafts === 1 ? " is" : "s are"} marked ${UNSTABLE_BANNER} and there is no ${unstableName}: the drafts are part of the stable entry point, as in the release's own SDK (rule: surface by file name)`,
    );
  }
}

function inputFile(name: string, display: string, text: string): InputFile {
  return { name, display, sha256: createHash("sha256").update(text).digest("hex") };
}

function checkSchemaShape(
  file: string,
  value: unknown,
): Pick<LoadedSurface, "schema" | "defsKeyword" | "defs"> {
  if (!isObject(value))
    throw new InputError(file, "", `expected a JSON Schema object, found ${describe(value)}`);
  const hasDefs = Object.hasOwn(value, "$defs");
  const hasDefinitions = Object.hasOwn(value, "definitions");
  if (hasDefs && hasDefinitions)
    throw new InputError(file, "", "both $defs and definitions are present; expected one");
  if (!hasDefs && !hasDefinitions)
    throw new InputError(file, "", "no $defs: expected the protocol's definitions under $defs");
  const defsKeyword = hasDefs ? "$defs" : "definitions";
  const defs = value[defsKeyword];
  if (!isObject(defs))
    throw new InputError(file, pointer(defsKeyword), `expected an object, found ${describe(defs)}`);
  for (const [key, def] of Object.entries(defs)) {
    if (!isObject(def) && typeof def !== "boolean") {
      throw new InputError(
        file,
        pointer(defsKeyword, key),
        `expected a schema (object or boolean), found ${describe(def)}`,
      );
    }
  }
  return { schema: value, defsKeyword, defs };
}

function checkMeta(file: InputFile, value: unknown, diagnostics: Diagnostics): Meta {
  if (!isObject(value))
    throw new InputError(file.display, "", `expected an object, found ${describe(value)}`);
  const methods: Record<string, Record<string, string>> = {};
  let version: number | undefined;
  for (const [key, entry] of Object.entries(value)) {
    if (key === "version") {
      if (typeof entry !== "number" || !Number.isInteger(entry) || entry < 0) {
        throw new InputError(
          file.display,
          pointer(key),
          `expected a non-negative integer, found ${describe(entry)}`,
        );
      }
      version = entry;
    } else if (/^[a-z][A-Za-z]*Methods$/.test(key)) {
      if (!isObject(entry))
        throw new InputError(
          file.display,
          pointer(key),
          `expected an object of method names, found ${describe(entry)}`,
        );
      const map: Record<string, string> = {};
      for (const [name, wire] of Object.entries(entry)) {
        if (typeof wire !== "string")
          throw new InputError(
            file.display,
            pointer(key, name),
            `expected a method name string, found ${describe(wire)}`,
          );
        map[name] = wire;
      }
      methods[key.slice(0, -"Methods".length)] = map;
    } else {
      diagnostics.warn(file.display, pointer(key), "unknown meta.json key, ignored");
    }
  }
  return version === undefined ? { methods, file } : { version, methods, file };
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `a ${typeof value}`;
}

/**
 * Hashes of the input files as `generate` records them, without parsing anything: what
 * `check` compares with the manifest to confirm a clean tree cheaply.
 */
export function hashInputs(schemaDir: string, displayDir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const sources = [
    ...discoverSurfaces(schemaDir, displayDir).flatMap((found) => [found.schema, found.meta]),
    changesFile(schemaDir, displayDir),
  ];
  for (const file of sources) {
    if (file === undefined) continue;
    let text: string;
    try {
      text = readFileSync(file.path, "utf8");
    } catch {
      continue; // unreadable: the full check will report it properly
    }
    hashes[file.name] = inputFile(file.name, file.display, text).sha256;
  }
  return hashes;
}
