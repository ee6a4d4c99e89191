import { statSync } from "node:fs";
import { resolve } from "node:path";
import { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { type ExtensionInputs, loadSchemaDir, loadSurfaces } from "../load/index.js";
import { surfaceOfFile } from "../load/layout.js";
import { buildModel } from "../model/build.js";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { buildSymbols } from "../symbols/table.js";

export interface DiffSide {
  model: ProtocolModel;
  /** The path as the user typed it. */
  display: string;
  /** The user named one schema file rather than a folder. */
  singleFile: boolean;
  diagnostics: Diagnostics;
}

/**
 * Load one side of a diff through the generator's own loader, model builder and symbol
 * table (same checks, same errors): a schema folder in any layout, or a single schema file, which is
 * the one surface its name and folder say (`surfaceOfFile`) and needs no meta.json
 * (methods come from its `x-method`/`x-side` annotations).
 */
export function loadSide(path: string, extensions?: ExtensionInputs): DiffSide {
  const diagnostics = new Diagnostics();
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw InputError.about(path, "not found (expected a schema.json file or a schema folder)");
  }
  const input = isDirectory
    ? loadSchemaDir(resolve(path), path, diagnostics, extensions)
    : loadSurfaces([surfaceOfFile(path, path)], diagnostics, extensions);
  const model = buildModel(input, diagnostics);
  // A schema whose names generate refuses is refused here too: it can make no package.
  buildSymbols(model);
  return { model, display: path, singleFile: !isDirectory, diagnostics };
}

/**
 * Two single files are compared with each other whatever their names say: asking for
 * `old/schema.unstable.json` against `new/schema.json` means "compare these two", not
 * "one surface disappeared and another appeared". The old file takes the new one's surface.
 */
export function alignSingleFiles(oldSide: DiffSide, newSide: DiffSide): string | undefined {
  if (!oldSide.singleFile || !newSide.singleFile) return undefined;
  const [a] = oldSide.model.surfaces;
  const [b] = newSide.model.surfaces;
  if (!a || !b || a.id === b.id) return undefined;
  const relabelled: SurfaceModel = {
    ...a,
    id: b.id,
    entry: b.entry,
    version: b.version,
    stability: b.stability,
  };
  oldSide.model = { ...oldSide.model, surfaces: [relabelled] };
  return `${oldSide.display} (${a.id}) and ${newSide.display} (${b.id}) are single files: compared with each other as surface ${b.id}`;
}
