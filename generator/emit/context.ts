import type { Diagnostics } from "../diagnostics.js";
import type { SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { sharedWithStable } from "./shared-code.js";

/** What every per-surface emitter reads: the surface's model and names, and where it sits. */
export interface EmitContext {
  surface: SurfaceModel;
  names: SurfaceSymbols;
  /** Relative path from the surface's folder (`v1/unstable`) to the package's `runtime/`. */
  runtime: string;
  /** Where non-fatal findings go (unknown keywords and formats). */
  diagnostics: Diagnostics;
  /** The stable surface beside an unstable one (`surface.stableSurface`). */
  stable?: SurfaceModel;
  /** The stable surface's names, beside `stable`. */
  stableNames?: SurfaceSymbols;
  /**
   * Definitions whose validators and guards are the stable surface's, imported from its
   * folder (shared-code.ts); empty on a stable surface.
   */
  fromStable: ReadonlySet<string>;
}

export function emitContext(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  diagnostics: Diagnostics,
  stable?: { surface: SurfaceModel; names: SurfaceSymbols },
): EmitContext {
  return {
    surface,
    names,
    runtime: runtimeFrom(surface.id),
    diagnostics,
    ...(stable ? { stable: stable.surface, stableNames: stable.names } : {}),
    fromStable: stable ? sharedWithStable(surface, stable.surface) : new Set(),
  };
}

/** Relative path from a package folder (`v1/unstable`, `node`) to the package's `runtime/`. */
export function runtimeFrom(folder: string): string {
  return folder
    .split("/")
    .map(() => "..")
    .join("/")
    .concat("/runtime");
}
