import { Diagnostics } from "./diagnostics.js";
import { emitCapabilities } from "./emit/capabilities.js";
import { emitChangelog } from "./emit/changelog.js";
import { emitConnection } from "./emit/connection.js";
import type { EmitContext } from "./emit/context.js";
import { surfaceContexts } from "./emit/contexts.js";
import { emitErrors } from "./emit/errors.js";
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
  withReachableRuntime,
} from "./emit/package.js";
import { emitPackageEntries } from "./emit/package-entries.js";
import { emitParsers } from "./emit/parsers.js";
import { emitReceived } from "./emit/received.js";
import { emitRouterEntry } from "./emit/router-entry.js";
import { emitSession } from "./emit/session.js";
import { emitTypes } from "./emit/types.js";
import { emitValidators } from "./emit/validators.js";
import { type ExtensionInputs, loadSchemaDir } from "./load/index.js";
import { buildModel } from "./model/build.js";
import type { ProtocolModel } from "./model/protocol.js";
import { plan } from "./output/plan.js";
import { buildSymbols } from "./symbols/table.js";

/** What the package folder holds that the next package carries on (emit/changelog.ts). */
export interface CarriedFiles {
  /** The package's CHANGELOG.md as it is: the entries of earlier versions. */
  changelog?: string;
}

export interface RenderResult {
  model: ProtocolModel;
  files: OutputFile[];
  diagnostics: Diagnostics;
}

/**
 * The whole pipeline, in memory: load and check the input → one protocol model → its
 * symbol table → the analysis of each surface (analysis/: the schema prepared for each
 * backend, the parse plans, what surfaces share) → emitters, which print what it found →
 * planned file list. `generate` writes the result; `check` compares it.
 */
export async function render(
  schemaDir: string,
  displayDir: string,
  options: PackageOptions,
  extensions?: ExtensionInputs,
  carried: CarriedFiles = {},
): Promise<RenderResult> {
  const diagnostics = new Diagnostics();
  const model = buildModel(
    loadSchemaDir(schemaDir, displayDir, diagnostics, extensions),
    diagnostics,
  );
  const symbols = buildSymbols(model);
  const emitted: OutputFile[] = [
    emitPackageJson(model, symbols, options),
    emitReadme(model, symbols, options),
    emitChangelog(model, options, carried.changelog),
    ...emitMigration(model, options),
    ...emitPackageEntries(symbols),
    ...emitRouterEntry(model, symbols),
    ...emitRuntime(),
  ];
  for (const context of await surfaceContexts(model, symbols, diagnostics))
    emitted.push(...(await emitSurface(context)));
  return {
    model,
    files: plan(
      model,
      options,
      withReachableRuntime(emitted, model, symbols),
      extensions?.surfaces,
    ),
    diagnostics,
  };
}

/** Every file of one surface's folder (one entry point). */
export async function emitSurface(context: EmitContext): Promise<OutputFile[]> {
  return [
    await emitTypes(context),
    ...emitMethods(context),
    ...(await emitValidators(context)),
    ...emitGuards(context),
    ...(await emitParsers(context)),
    await emitReceived(context),
    ...emitConnection(context),
    ...emitSession(context),
    ...emitCapabilities(context),
    ...emitErrors(context),
    ...emitSurfaceIndex(context),
  ];
}
