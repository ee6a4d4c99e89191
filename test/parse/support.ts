import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Diagnostics } from "../../generator/diagnostics.js";
import { surfaceContexts } from "../../generator/emit/contexts.js";
import { emitGuards } from "../../generator/emit/guards.js";
import { emitMethods } from "../../generator/emit/methods.js";
import type { OutputFile } from "../../generator/emit/output.js";
import { emitRuntime, emitSurfaceIndex } from "../../generator/emit/package.js";
import { emitParsers } from "../../generator/emit/parsers.js";
import { emitReceived } from "../../generator/emit/received.js";
import { emitTypes } from "../../generator/emit/types.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import type { ProtocolModel, SurfaceModel } from "../../generator/model/protocol.js";
import { buildSymbols } from "../../generator/symbols/table.js";

// biome-ignore lint/suspicious/noExplicitAny: generated modules are untyped at run time.
type Fn = (...args: any[]) => any;

export interface SurfaceModules {
  surface: SurfaceModel;
  /** parsers.js: parse<Name>, is<Name>Of, isCustom<Name>. */
  parsers: Record<string, Fn>;
  /** guards.js: is<Name>, validate<Name>, assert<Name>. */
  guards: Record<string, Fn>;
}

export interface ParsePackage {
  dir: string;
  model: ProtocolModel;
  surfaces: Map<string, SurfaceModules>;
}

/**
 * Generate what parsing needs for every surface of a schema folder into `dir`: the runtime,
 * validators, guards and the parsers (and for the surfaces named in `types` also types and
 * entry points, for type-checking). The emitters are called directly, so this works whether or not the
 * pipeline has the parsers wired in yet, and skips the slow type emitter when not needed.
 */
export async function buildParsePackage(
  schemaDir: string,
  dir: string,
  /** Surfaces (ids) to also emit types and entry points for. */
  options: { types?: readonly string[] } = {},
): Promise<ParsePackage> {
  const model = buildModel(loadSchemaDir(schemaDir, schemaDir, new Diagnostics()));
  const symbols = buildSymbols(model);
  const files: OutputFile[] = [...emitRuntime()];
  // Beside one another, as the pipeline emits them: an unstable surface's parsers then read
  // the records it shares with its stable surface from the stable folder's shared modules.
  for (const context of await surfaceContexts(model, symbols, new Diagnostics())) {
    const { surface } = context;
    files.push(
      ...(await emitValidators(context)),
      ...emitGuards(context),
      ...(await emitParsers(context)),
    );
    if (options.types?.includes(surface.id))
      files.push(
        await emitTypes(context),
        await emitReceived(context),
        ...emitMethods(context),
        ...emitSurfaceIndex(context),
      );
  }
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  const surfaces = new Map<string, SurfaceModules>();
  for (const surface of model.surfaces) {
    const load = async (name: string) =>
      (await import(pathToFileURL(join(dir, surface.id, name)).href)) as Record<string, Fn>;
    surfaces.set(surface.id, {
      surface,
      parsers: await load("parsers.js"),
      guards: await load("guards.js"),
    });
  }
  return { dir, model, surfaces };
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Run a parser, catching what it throws. */
export function attempt(parse: Fn, value: unknown): Outcome {
  try {
    return { ok: true, value: parse(value) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Freeze a JSON value all the way down, so any attempt to change it throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** A structural copy of a JSON value that keeps `__proto__` keys as own data. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
