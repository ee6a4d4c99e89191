import type { SurfaceFacts } from "../analysis/index.js";
import type { Diagnostics } from "../diagnostics.js";
import type { SurfaceModel } from "../model/protocol.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import type { DeclarationSource } from "./shared-declarations.js";

/**
 * What every per-surface emitter reads: the surface's model, names and facts (the analysis
 * stage's), where it sits, and the declaration sources of its declaration files. Built by
 * contexts.ts; an emitter is a function of it to files, and reads nothing else.
 */
export interface EmitContext {
  surface: SurfaceModel;
  names: SurfaceSymbols;
  /** Relative path from the surface's folder (`v1/unstable`) to the package's `runtime/`. */
  runtime: string;
  /** Where non-fatal findings go. */
  diagnostics: Diagnostics;
  /** Everything the analysis stage found about the surface and the one beside it. */
  facts: SurfaceFacts;
  /** The stable surface beside an unstable one (`surface.stableSurface`). */
  stable?: SurfaceModel;
  /** The stable surface's names, beside `stable`. */
  stableNames?: SurfaceSymbols;
  /** The unstable surface beside a stable one (the one whose `stableSurface` is this). */
  unstable?: SurfaceModel;
  /**
   * types.d.ts's and received.d.ts's declarations, this surface's and the stable one's:
   * built on the first call for all the surfaces emitted together (contexts.ts).
   */
  declarations: () => Promise<Declarations>;
}

/** The context's parts the declaration sources are built from (contexts.ts builds them first). */
export type DeclarationInput = Omit<EmitContext, "declarations">;

/**
 * A surface's declaration files before sharing, and the stable surface's beside an unstable
 * one: what an unstable surface's types.d.ts and received.d.ts take from (shared-declarations.ts).
 */
export interface Declarations {
  types: DeclarationSource;
  /** Absent where no definition reaches a closed union: received.d.ts is then empty. */
  received?: DeclarationSource;
  stable?: { types: DeclarationSource; received?: DeclarationSource };
}

/** Relative path from a package folder (`v1/unstable`, `node`) to the package's `runtime/`. */
export function runtimeFrom(folder: string): string {
  return folder
    .split("/")
    .map(() => "..")
    .join("/")
    .concat("/runtime");
}
