import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { LoadedInput, LoadedSurface } from "../load/index.js";
import { isObject, type Json } from "../schema/json.js";
import { pointer } from "../schema/pointer.js";
import { refTarget } from "../schema/refs.js";
import { taggedUnion } from "../schema/unions.js";
import { callRules } from "./call-rules.js";
import { negotiationOf } from "./capabilities.js";
import { BATCHES_SINCE_PROTOCOL_VERSION } from "./conventions.js";
import { errorCodes } from "./error-codes.js";
import { type ExtendedSurface, withExtensions } from "./extensions.js";
import type { Definition, ProtocolModel, SurfaceModel } from "./protocol.js";
import { sessionModel } from "./session-rules.js";
import { addedProperties, sameDefinitions } from "./stability.js";
import { versionsOf } from "./versions.js";

/**
 * Build the one model all emitters read, from the loaded and checked input. Rules applied
 * to gaps in old releases warn on `diagnostics` (methods.ts).
 */
export function buildModel(input: LoadedInput, diagnostics?: Diagnostics): ProtocolModel {
  // Each surface's methods are read once, here, so each old-release warning is given once.
  const extended = input.surfaces.map((s) => withExtensions(s, diagnostics));
  const surfaces = extended.map((surface) => {
    const { version, stability } = surface.surface;
    const stable =
      stability === "unstable"
        ? extended.find((s) => s.surface.version === version && s.surface.stability === "stable")
        : undefined;
    return buildSurface(surface, stable, diagnostics);
  });
  return {
    surfaces,
    versions: versionsOf(surfaces),
    inputs: input.files,
    extensions: input.extensions,
    ...(input.changes ? { changes: input.changes.text } : {}),
  };
}

function buildSurface(
  extended: ExtendedSurface,
  stableExtended: ExtendedSurface | undefined,
  diagnostics: Diagnostics | undefined,
): SurfaceModel {
  const surface = extended.surface;
  const stable = stableExtended?.surface;
  const same = stable ? sameDefinitions(stable.defs, surface.defs, surface.defsKeyword) : undefined;

  const resolve = (ref: string): Json | undefined => {
    const key = refTarget(ref, surface.defsKeyword);
    return key !== undefined && Object.hasOwn(surface.defs, key) ? surface.defs[key] : undefined;
  };
  const definitions = Object.entries(surface.defs).map(([key, schema]): Definition => {
    const union = isObject(schema) ? taggedUnion(schema, resolve) : undefined;
    const inStable = stable !== undefined && Object.hasOwn(stable.defs, key);
    const experimental: Definition["experimental"] =
      !stable || !same || same.has(key) ? false : inStable ? "changed" : "new";
    return {
      key,
      schema,
      ...(union ? { union } : {}),
      experimental,
      experimentalProperties:
        experimental === "changed" ? addedProperties(stable?.defs[key], schema) : [],
    };
  });

  const stableMethods = stableExtended?.methods ?? [];
  const methods = extended.methods.map((m) => ({
    ...m,
    experimental:
      stable !== undefined &&
      !stableMethods.some((s) => s.method === m.method && s.kind === m.kind && s.side === m.side),
  }));

  const read = { definitions, methods, defsKeyword: surface.defsKeyword };
  const negotiation = negotiationOf(
    { ...read, schemaFile: surface.schemaFile, extensions: extended.extensions },
    diagnostics,
  );
  const version = protocolVersion(surface);
  const calls = callRules(read);
  const session = sessionModel({ ...read, calls });
  return {
    id: surfaceId(surface),
    entry: entryPoint(surface.version, surface.stability),
    version: surface.version,
    stability: surface.stability,
    ...(stable ? { stableSurface: surfaceId(stable) } : {}),
    protocolVersion: version,
    schemaFile: surface.schemaFile,
    ...(surface.meta ? { meta: surface.meta } : {}),
    defsKeyword: surface.defsKeyword,
    definitions,
    methods,
    calls,
    errors: errorCodes(read),
    ...(negotiation ? { negotiation } : {}),
    batches: version >= BATCHES_SINCE_PROTOCOL_VERSION,
    extensions: extended.extensions,
    ...(session ? { session } : {}),
  };
}

/** `v1`, `v1/unstable`, `v2`, …: the surface's folder in the package. */
function surfaceId(surface: LoadedSurface): string {
  return surface.stability === "stable" ? `v${surface.version}` : `v${surface.version}/unstable`;
}

function entryPoint(version: number, stability: "stable" | "unstable"): string {
  const base = version === 1 ? "." : `./v${version}`;
  return stability === "stable" ? base : base === "." ? "./unstable" : `${base}/unstable`;
}

/** meta.json's `version` when present; otherwise the folder's (`v2/` → 2; flat → 1). */
function protocolVersion(surface: LoadedSurface): number {
  const declared = surface.meta?.version;
  if (declared === undefined) return surface.version;
  const versionedLayout = surface.schemaFile.name.startsWith(`v${surface.version}/`);
  if (versionedLayout && declared !== surface.version) {
    throw new InputError(
      surface.meta?.file.display ?? file(surface),
      pointer("version"),
      `version ${declared} does not match its folder v${surface.version}/`,
    );
  }
  return declared;
}

function file(surface: LoadedSurface): string {
  return surface.schemaFile.display;
}
