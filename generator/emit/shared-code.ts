import { posix } from "node:path";
import type { SharedKind } from "../analysis/facts.js";
import type { SurfaceModel } from "../model/protocol.js";

/**
 * The modules, in a stable surface's folder, of the code it shares with its unstable one
 * (which code: analysis/sharing.ts).
 */
export const SHARED_VALIDATORS = "shared-validators.js";
export const SHARED_GUARDS = "shared-guards.js";
export const SHARED_PARSERS = "shared-parsers.js";
export const SHARED_PARSE_CHECKS = "shared-parsers-validators.js";

/** The shared module each kind of file re-exports from (analysis/facts.ts `Sharing.taken`). */
export const SHARED_MODULES = {
  validators: SHARED_VALIDATORS,
  guards: SHARED_GUARDS,
  parsers: SHARED_PARSERS,
} as const satisfies Record<SharedKind, string>;

/**
 * The specifier, from `surface`'s folder, of the shared module `file`: in the stable folder,
 * which is `surface`'s own when it has no stable surface beside it.
 */
export function sharedModuleFrom(
  surface: SurfaceModel,
  stable: SurfaceModel | undefined,
  file: string,
): string {
  return stable ? `${posix.relative(surface.id, stable.id) || "."}/${file}` : `./${file}`;
}
