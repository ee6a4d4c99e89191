import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { metaSchema } from "../load/extensions.js";
import type { InputFile, LoadedSurface } from "../load/index.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { refTarget, refTo } from "../schema/refs.js";
import { compareMethods, extractMethods } from "./methods.js";
import type { Method, SurfaceExtension } from "./protocol.js";

/** A surface with its extensions merged in: the definitions and methods every stage then reads alike. */
export interface ExtendedSurface {
  /** The loaded surface with the extensions' definitions after the protocol's, `_meta` keys typed. */
  surface: LoadedSurface;
  /**
   * Every method of the surface, in model order: the protocol's (read from the protocol's
   * definitions alone, so checked against meta.json) and the extensions'.
   */
  methods: Method[];
  extensions: SurfaceExtension[];
}

/**
 * Handler members every handler object already has: the runtime's catch-alls for undeclared
 * extension methods, and what every JavaScript object inherits.
 */
const TAKEN_HANDLERS = new Set([
  "extMethod",
  "extNotification",
  ...Object.getOwnPropertyNames(Object.prototype),
]);

const DEFAULT_ON_ERROR = "x-deserialize-default-on-error";

export function withExtensions(loaded: LoadedSurface, diagnostics?: Diagnostics): ExtendedSurface {
  // Old-release rules warn here, once per surface (methods.ts).
  const protocol = extractMethods(loaded, diagnostics);
  if (loaded.extensions.length === 0) return { surface: loaded, methods: protocol, extensions: [] };
  const defs: Record<string, Json> = { ...loaded.defs };
  const methods: Method[] = [];
  const extensions: SurfaceExtension[] = [];
  for (const extension of loaded.extensions) {
    // Read like a protocol schema of its own, so every error names the extension's file.
    const { meta: _meta, ...withoutMeta } = loaded;
    const own = extractMethods(
      {
        ...withoutMeta,
        schemaFile: extension.file,
        defsKeyword: "$defs",
        defs: extension.defs,
        extensions: [],
      },
      undefined,
      "extension",
    ).map((m) => ({ ...m, extension: extension.file.name }));
    for (const m of own) checkMethodNames(extension.file, m, [...protocol, ...methods]);
    methods.push(...own);
    for (const [key, def] of Object.entries(extension.defs)) {
      defs[key] = inDefsKeyword(def, loaded.defsKeyword);
      diagnostics?.relocate(
        loaded.schemaFile.display,
        pointer(loaded.defsKeyword, key),
        extension.file.display,
        pointer("$defs", key),
      );
    }
    const meta: SurfaceExtension["meta"] = [];
    for (const [target, keys] of Object.entries(extension.meta)) {
      defs[target] = withMetaKeys(defs[target] as Json, keys, loaded.defsKeyword);
      for (const key of Object.keys(keys)) meta.push({ definition: target, key });
    }
    extensions.push({
      file: extension.file,
      definitions: Object.keys(extension.defs),
      methods: [...new Set(own.map((m) => m.method))],
      meta,
    });
  }
  return {
    surface: { ...loaded, defs },
    methods: [...protocol, ...methods].sort(compareMethods),
    extensions,
  };
}

/**
 * An extension method's constant key and handler name are derived like the protocol's
 * (`_acme/ping` → `acme_ping` → `acmePing`), so they can meet a protocol method's (or
 * another extension's) on the side that serves both: a second member of that name would
 * silently shadow the first.
 */
function checkMethodNames(file: InputFile, m: Method, before: readonly Method[]): void {
  const at = pointer("$defs", m.params, "x-method");
  if (TAKEN_HANDLERS.has(m.handler))
    throw new InputError(
      file.display,
      at,
      `method ${JSON.stringify(m.method)} gives the handler name ${m.handler}, which every handler object already has`,
    );
  for (const other of before) {
    if (!other.handledBy.some((side) => m.handledBy.includes(side))) continue;
    if (other.method === m.method && other.kind === m.kind)
      throw new InputError(
        file.display,
        at,
        `method ${JSON.stringify(m.method)} is already defined (by ${other.params})`,
      );
    if (other.method !== m.method && (other.handler === m.handler || other.key === m.key))
      throw new InputError(
        file.display,
        at,
        `method ${JSON.stringify(m.method)} gives the name ${other.handler === m.handler ? m.handler : m.key}, as does ${JSON.stringify(other.method)}`,
      );
  }
}

/**
 * The definition with its `_meta` property declaring `keys` (optional: `_meta` stays open).
 * `_meta` is shared ground: any peer may put anything under any key, and ACP tells
 * implementations to assume nothing about it. So a value that does not fit a typed key is
 * dropped by parse on its own (`x-deserialize-default-on-error`, unless the extension says
 * otherwise), rather than costing the whole `_meta` object its other keys.
 */
function withMetaKeys(def: Json, keys: Record<string, Json>, defsKeyword: string): Json {
  const meta = metaSchema(def) as JsonObject;
  const object = def as JsonObject;
  const declared: JsonObject = isObject(meta.properties) ? { ...meta.properties } : {};
  for (const [key, schema] of Object.entries(keys)) {
    const typed = inDefsKeyword(schema, defsKeyword);
    declared[key] =
      isObject(typed) && !Object.hasOwn(typed, DEFAULT_ON_ERROR)
        ? { ...typed, [DEFAULT_ON_ERROR]: true }
        : typed;
  }
  return {
    ...object,
    properties: {
      ...(object.properties as JsonObject),
      _meta: { ...meta, properties: declared },
    },
  };
}

/** Extensions write `#/$defs/Name`; a surface that keeps its definitions elsewhere reads them there. */
function inDefsKeyword(node: Json, defsKeyword: string): Json {
  if (defsKeyword === "$defs") return node;
  const rewrite = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const target = k === "$ref" && typeof v === "string" ? refTarget(v, "$defs") : undefined;
      out[k] = target === undefined ? rewrite(v) : refTo(defsKeyword, target);
    }
    return out;
  };
  return rewrite(node);
}
