import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { loadSchemaDir } from "../load/index.js";
import { buildModel } from "../model/build.js";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";

export interface DiffSide {
  model: ProtocolModel;
  /** The path as the user typed it. */
  display: string;
  /** The user named one schema file rather than a folder. */
  singleFile: boolean;
  diagnostics: Diagnostics;
}

/**
 * Load one side of a diff: a schema folder in any layout the generator accepts, or a single
 * schema file. A single file is read as a folder holding only that file, so it needs no
 * meta.json (methods come from its `x-method`/`x-side` annotations). Which surface it
 * becomes follows its name and folder, as in the layouts: `*.unstable.json` is unstable,
 * anything else stable; inside a `vN/` folder it is protocol version N, otherwise 1.
 */
export function loadSide(path: string): DiffSide {
  const diagnostics = new Diagnostics();
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new InputError(path, "", "not found (expected a schema.json file or a schema folder)");
  }
  if (isDirectory) {
    const model = buildModel(loadSchemaDir(resolve(path), path, diagnostics));
    return { model, display: path, singleFile: false, diagnostics };
  }
  return { model: loadSingleFile(path, diagnostics), display: path, singleFile: true, diagnostics };
}

function loadSingleFile(path: string, diagnostics: Diagnostics): ProtocolModel {
  const folder = /^v([1-9][0-9]*)$/.exec(basename(dirname(resolve(path))));
  const version = folder ? Number(folder[1]) : 1;
  const unstable = /\.unstable\.json$/i.test(basename(path));
  const layoutName = `${version === 1 ? "" : `v${version}/`}schema${unstable ? ".unstable" : ""}.json`;

  // Reuse the loader unchanged (same checks, same errors) on a scratch folder holding a copy
  // under the name the layout expects; errors naming the copy are renamed to the user's path.
  const scratch = mkdtempSync(join(tmpdir(), "acp-codegen-diff-"));
  try {
    mkdirSync(dirname(join(scratch, layoutName)), { recursive: true });
    try {
      copyFileSync(path, join(scratch, layoutName));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new InputError(path, "", `cannot read (${code})`);
    }
    const copyDisplay = join(scratch, layoutName);
    let model: ProtocolModel;
    try {
      model = buildModel(loadSchemaDir(scratch, scratch, diagnostics));
    } catch (error) {
      if (error instanceof InputError && error.file === copyDisplay) {
        throw new InputError(path, error.pointer, error.detail);
      }
      throw error;
    }
    for (const w of diagnostics.warnings) if (w.file === copyDisplay) w.file = path;
    return {
      ...model,
      surfaces: model.surfaces.map((s) => ({
        ...s,
        schemaFile: { ...s.schemaFile, display: path },
      })),
      inputs: model.inputs.map((f) => ({ ...f, display: path })),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
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
