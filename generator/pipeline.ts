import { Diagnostics } from "./diagnostics.js";
import { emitConnection } from "./emit/connection.js";
import { emitErrorCodes } from "./emit/error-codes.js";
import { emitGuards } from "./emit/guards.js";
import { emitMethods } from "./emit/methods.js";
import { emitMigration } from "./emit/migration.js";
import type { OutputFile } from "./emit/output.js";
import {
  emitPackageJson,
  emitReadme,
  emitRuntime,
  emitSurfaceIndex,
  type PackageOptions,
  runtimePathFrom,
} from "./emit/package.js";
import { emitParsers } from "./emit/parsers.js";
import { emitTypes } from "./emit/types.js";
import { emitValidators } from "./emit/validators.js";
import { loadSchemaDir } from "./load/index.js";
import { buildModel } from "./model/build.js";
import type { ProtocolModel } from "./model/protocol.js";
import { plan } from "./plan.js";

export interface RenderResult {
  model: ProtocolModel;
  files: OutputFile[];
  diagnostics: Diagnostics;
}

/**
 * The whole pipeline, in memory: load and check the input → one protocol model →
 * emitters → planned file list. `generate` writes the result; `check` compares it.
 */
export async function render(
  schemaDir: string,
  displayDir: string,
  options: PackageOptions,
): Promise<RenderResult> {
  const diagnostics = new Diagnostics();
  const model = buildModel(loadSchemaDir(schemaDir, displayDir, diagnostics));
  const emitted: OutputFile[] = [
    emitPackageJson(model, options),
    emitReadme(model, options),
    ...emitMigration(model.surfaces, options),
    ...emitRuntime(),
  ];
  for (const surface of model.surfaces) {
    const runtime = runtimePathFrom(surface);
    emitted.push(
      await emitTypes(surface),
      ...emitMethods(surface),
      await emitValidators(surface, diagnostics, runtime),
      ...emitGuards(surface, runtime),
      ...(await emitParsers(surface, runtime)),
      ...emitConnection(surface),
      ...emitErrorCodes(surface),
      ...emitSurfaceIndex(surface),
    );
  }
  return { model, files: plan(model, options, emitted), diagnostics };
}
