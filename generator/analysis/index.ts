import type { Diagnostics } from "../diagnostics.js";
import { Diagnostics as Silent } from "../diagnostics.js";
import { linkPlans, type PlanLayout, soloLayout } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import { buildRepairPlan } from "../model/repair-plan.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import type { NumberFormat } from "./ajv-facts.js";
import { type OwnFacts, ownFacts, parseChecks, type SurfaceFacts } from "./facts.js";
import { sharedCode, sharedParsers, takenFromShared } from "./sharing.js";

export type { Sharing, SurfaceFacts } from "./facts.js";

/**
 * The analysis stage: every surface's facts (facts.ts), each stable surface and its unstable
 * surface analysed as a pair (what they share: sharing.ts; their parse plans, linked). Each
 * fact is computed here once, in the order the surfaces come (the validators' warnings come
 * in that order), and the emitters only read them.
 *
 * `surfaces` are the ones emitted: a surface's stable or unstable surface is beside it only
 * when it is among them.
 */
export function analyse(
  surfaces: readonly SurfaceModel[],
  namesOf: (surface: SurfaceModel) => SurfaceSymbols,
  diagnostics: Diagnostics,
  formats: Record<string, NumberFormat>,
): Map<SurfaceModel, SurfaceFacts> {
  const own = new Map<SurfaceModel, OwnFacts>();
  for (const surface of surfaces)
    own.set(surface, ownFacts(surface, namesOf(surface), diagnostics, formats));
  const factsOf = (surface: SurfaceModel) => own.get(surface) as OwnFacts;

  const out = new Map<SurfaceModel, SurfaceFacts>();
  for (const surface of surfaces) {
    if (out.has(surface)) continue;
    const unstable = surfaces.find((s) => s.stableSurface === surface.id);
    const stable = surfaces.find((s) => s.id === surface.stableSurface);
    if (stable || unstable) {
      const pair = stable
        ? { stable, unstable: surface }
        : { stable: surface, unstable: unstable as SurfaceModel };
      if (!out.has(pair.stable) && !out.has(pair.unstable)) {
        for (const [s, facts] of analysePair(pair, factsOf)) out.set(s, facts);
        continue;
      }
    }
    const layout = soloLayout(buildRepairPlan(surface, factsOf(surface).reachesClosed));
    const decided = {
      code: new Set<string>(),
      ...sharedParsers(new Set(), layout, [factsOf(surface).envelopes]),
    };
    out.set(surface, {
      ...factsOf(surface),
      layout,
      sharing: { ...decided, taken: takenFromShared(surface, decided) },
      parseChecks: parseChecks(factsOf(surface), layout, false, new Silent()),
    });
  }
  return out;
}

/** A stable surface and its unstable surface: one sharing decision, one linking of plans. */
function analysePair(
  { stable, unstable }: { stable: SurfaceModel; unstable: SurfaceModel },
  factsOf: (surface: SurfaceModel) => OwnFacts,
): Array<[SurfaceModel, SurfaceFacts]> {
  const code = sharedCode({ surface: unstable, facts: factsOf(unstable) }, factsOf(stable));
  const layouts = linkPlans(
    buildRepairPlan(stable, factsOf(stable).reachesClosed),
    buildRepairPlan(unstable, factsOf(unstable).reachesClosed),
    code,
  );
  const envelopes = [factsOf(stable).envelopes, factsOf(unstable).envelopes];
  const side = (surface: SurfaceModel, layout: PlanLayout, beside: object) => {
    const decided = { code, ...sharedParsers(code, layout, envelopes) };
    const sharing = { ...beside, ...decided, taken: takenFromShared(surface, decided) };
    // The stable surface writes the base's checks, into shared-parsers.js.
    const withBase = surface === stable && sharing.planBase;
    const checks = parseChecks(factsOf(surface), layout, withBase, new Silent());
    return [surface, { ...factsOf(surface), layout, sharing, parseChecks: checks }] as [
      SurfaceModel,
      SurfaceFacts,
    ];
  };
  return [side(stable, layouts.stable, { unstable }), side(unstable, layouts.unstable, { stable })];
}
