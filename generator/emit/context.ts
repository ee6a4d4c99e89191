import type { Diagnostics } from "../diagnostics.js";
import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols, Symbols } from "../symbols/table.js";
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
  /** The unstable surface beside a stable one (the one whose `stableSurface` is this). */
  unstable?: SurfaceModel;
  /**
   * Definitions this surface shares with the one beside it: their validators and guards are
   * compiled once, into the stable folder's shared modules (shared-code.ts). Empty without one.
   */
  shared: ReadonlySet<string>;
}

/** The surfaces beside one: its stable surface (with its names), or its unstable one. */
export interface Beside {
  stable?: { surface: SurfaceModel; names: SurfaceSymbols };
  unstable?: SurfaceModel;
}

export function emitContext(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  diagnostics: Diagnostics,
  { stable, unstable }: Beside = {},
): EmitContext {
  return {
    surface,
    names,
    runtime: runtimeFrom(surface.id),
    diagnostics,
    ...(stable ? { stable: stable.surface, stableNames: stable.names } : {}),
    ...(unstable ? { unstable } : {}),
    shared: stable
      ? sharedWithStable(surface, stable.surface)
      : unstable
        ? sharedWithStable(unstable, surface)
        : new Set(),
  };
}

/**
 * Every surface's context, each beside its stable or unstable surface: what the pipeline
 * emits from (and tests that emit a surface's files the way it does).
 */
export function surfaceContexts(
  model: ProtocolModel,
  symbols: Symbols,
  diagnostics: Diagnostics,
): EmitContext[] {
  return model.surfaces.map((surface) => {
    const stable = model.surfaces.find((s) => s.id === surface.stableSurface);
    const unstable = model.surfaces.find((s) => s.stableSurface === surface.id);
    return emitContext(surface, symbols.of(surface), diagnostics, {
      ...(stable ? { stable: { surface: stable, names: symbols.of(stable) } } : {}),
      ...(unstable ? { unstable } : {}),
    });
  });
}

/**
 * `compute`, done once for each surface and the stable surface beside it: for what the
 * surface's own emitter and the one beside it both ask. (The pipeline emits each surface
 * once; a test that also emits a surface alone asks again, and is answered for that.)
 */
export function oncePerSurface<T>(
  compute: (context: EmitContext) => T,
): (context: EmitContext) => T {
  const known = new WeakMap<SurfaceModel, Array<{ stable?: SurfaceModel; value: T }>>();
  return (context) => {
    const seen = known.get(context.surface) ?? [];
    let hit = seen.find((k) => k.stable === context.stable);
    if (!hit) {
      hit = { ...(context.stable ? { stable: context.stable } : {}), value: compute(context) };
      known.set(context.surface, [...seen, hit]);
    }
    return hit.value;
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
