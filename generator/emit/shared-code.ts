import { posix } from "node:path";
import { Diagnostics } from "../diagnostics.js";
import { linkPlans, type PlanLayout, soloLayout } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import { buildRepairPlan } from "../model/repair-plan.js";
import { sameDefinitions } from "../model/stability.js";
import { prepareDefinitions } from "../prepare/backends.js";
import type { Json } from "../schema/json.js";
import { needsEvaluation } from "./ajv.js";

/** A surface's definitions as the validators see them; findings are dropped (reported when emitted). */
function validatorSchemas(surface: SurfaceModel): Record<string, Json> {
  return prepareDefinitions("validators", {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics: new Diagnostics(),
  });
}

/** The modules, in a stable surface's folder, of the code it shares with its unstable one. */
export const SHARED_VALIDATORS = "shared-validators.js";
export const SHARED_GUARDS = "shared-guards.js";
export const SHARED_PARSERS = "shared-parsers.js";
export const SHARED_PARSE_CHECKS = "shared-parsers-validators.js";

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

/**
 * The definitions of an unstable surface whose compiled code is the stable surface's: their
 * validators and the guards over them are emitted once, into the stable folder's shared
 * modules, which both surfaces import (an unstable entry point then loads no stable code it
 * does not use).
 *
 * Judged on the schemas as the validators see them, prose and other annotations stripped
 * (prepare/backends.ts), not as written: upstream rewords a description in the unstable schema
 * for most definitions (137 of v1's 178 differ as written, 20 once prepared), and no line of
 * a validator reads one. A definition counts only if everything it references counts too
 * (model/stability.ts), so a changed definition deep down is never reached through stable
 * code. Only between surfaces whose validators take the same arguments: the bookkeeping
 * emit/ajv.ts `createStandaloneAjv` leaves out when it can would add some.
 *
 * Types are not shared this way: their documentation is the descriptions, which differ
 * (shared-declarations.ts judges them on the declarations as written).
 */
export function sharedWithStable(surface: SurfaceModel, stable: SurfaceModel): ReadonlySet<string> {
  // Asked once for each surface of the pair (each emits its side of the shared modules).
  const known = computed.get(surface);
  if (known?.stable === stable) return known.shared;
  const shared = compute(surface, stable);
  computed.set(surface, { stable, shared });
  return shared;
}

const computed = new WeakMap<SurfaceModel, { stable: SurfaceModel; shared: Set<string> }>();

function compute(surface: SurfaceModel, stable: SurfaceModel): Set<string> {
  const mine = validatorSchemas(surface);
  const theirs = validatorSchemas(stable);
  if (needsEvaluation(mine) || needsEvaluation(theirs)) return new Set();
  const written = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  return sameDefinitions(theirs, mine, surface.defsKeyword, written);
}

/**
 * The parse plan of the context's surface, laid out beside the surface next to it: the
 * records a stable surface and its unstable one share are numbered first in both and written
 * once, into the stable folder's shared-parsers.js (model/plan-link.ts). Computed once per
 * pair: both surfaces' emitters ask.
 */
export function planLayout({
  surface,
  stable,
  unstable,
  shared,
}: {
  surface: SurfaceModel;
  stable?: SurfaceModel;
  unstable?: SurfaceModel;
  shared: ReadonlySet<string>;
}): PlanLayout {
  const pair = stable
    ? { stable, unstable: surface }
    : unstable
      ? { stable: surface, unstable }
      : undefined;
  if (!pair) return soloLayout(buildRepairPlan(surface));
  let known = layouts.get(pair.stable);
  if (known?.beside !== pair.unstable) {
    known = {
      beside: pair.unstable,
      ...linkPlans(buildRepairPlan(pair.stable), buildRepairPlan(pair.unstable), shared),
    };
    layouts.set(pair.stable, known);
  }
  return stable ? known.unstable : known.stable;
}

const layouts = new WeakMap<
  SurfaceModel,
  { beside: SurfaceModel; stable: PlanLayout; unstable: PlanLayout }
>();
