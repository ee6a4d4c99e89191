import type { Diagnostics } from "../diagnostics.js";
import type { SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols } from "../symbols/table.js";

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
  /** The unstable surface beside a stable one (the one whose `stableSurface` is this). */
  unstable?: SurfaceModel;
}

export function emitContext(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  diagnostics: Diagnostics,
  stable?: SurfaceModel,
  unstable?: SurfaceModel,
): EmitContext {
  return {
    surface,
    names,
    runtime: runtimeFrom(surface.id),
    diagnostics,
    ...(stable ? { stable } : {}),
    ...(unstable ? { unstable } : {}),
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
