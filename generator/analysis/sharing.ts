import type { Envelope } from "../model/envelopes.js";
import type { PlanLayout } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import { sameDefinitions } from "../model/stability.js";
import { needsEvaluation } from "./ajv-facts.js";
import type { OwnFacts, SharedKind, SharedRole, Sharing, Taken } from "./facts.js";

/**
 * The definitions of an unstable surface whose validators (and the guards over them) are the
 * stable surface's. Judged on the schemas as the validators see them, prose and other
 * annotations stripped (prepare/backends.ts), not as written: upstream rewords a description
 * in the unstable schema for most definitions (137 of v1's 178 differ as written, 20 once
 * prepared), and no line of a validator reads one. A definition counts only if everything it
 * references counts too (model/stability.ts). Only between surfaces whose validators take
 * the same arguments: the bookkeeping emit/ajv.ts `createStandaloneAjv` leaves out when it
 * can would add some.
 */
export function sharedCode(
  unstable: { surface: SurfaceModel; facts: OwnFacts },
  stable: OwnFacts,
): Set<string> {
  const mine = unstable.facts.prepared.validators;
  const theirs = stable.prepared.validators;
  if (needsEvaluation(mine) || needsEvaluation(theirs)) return new Set();
  return sameDefinitions(theirs, mine, unstable.surface.defsKeyword, unstable.facts.schemas);
}

/**
 * The definitions whose `parse<Name>`, and whose union helpers, the shared module holds: a
 * definition both surfaces share whose roots (shape, repair, open check) and helper checks are
 * all shared records. Each surface's parsers.js re-exports them, so both entry points give
 * the same function, as they do for validators and guards.
 */
export function sharedParsers(
  code: ReadonlySet<string>,
  layout: PlanLayout,
  /** Both surfaces' envelopes (model/envelopes.ts), or the one surface's. */
  envelopes: ReadonlyArray<ReadonlyMap<string, Envelope>> = [],
): Pick<Sharing, "parsers" | "unions" | "planBase"> {
  const { base } = layout;
  const planBase = base.checks.length + base.nodes.length + base.shapes.length > 0;
  if (!planBase) return { parsers: new Set(), unions: new Set(), planBase };
  const within = (index: number | undefined, count: number) => index === undefined || index < count;
  const parsers = new Set(
    [...code].filter(
      (key) =>
        within(layout.shapeRoots.get(key), base.shapes.length) &&
        within(layout.roots.get(key), base.nodes.length) &&
        within(layout.open.get(key), base.checks.length),
    ),
  );
  // An envelope's parse calls its methods' parse<Name> by wire name: shared only where all
  // of those are, and both surfaces key the same methods to the same definitions.
  for (const key of new Set(envelopes.flatMap((e) => [...e.keys()]))) {
    const tables = envelopes.map((e) => e.get(key));
    const same = tables.every((t) => JSON.stringify(t) === JSON.stringify(tables[0]));
    const callsShared = tables.every((t) =>
      t?.contents.every((c) => c.methods.every((m) => parsers.has(m.definition))),
    );
    if (!same || !callsShared) parsers.delete(key);
  }
  const unions = new Set(
    layout.unions
      .filter(
        (u) =>
          parsers.has(u.def.key) &&
          within(u.other, base.checks.length) &&
          u.variants.every((v) => v.check < base.checks.length),
      )
      .map((u) => u.def.key),
  );
  return { parsers, unions, planBase };
}

/** The names each kind of file re-exports of a shared definition: a guard module all three guards. */
const ROLES = {
  validators: ["validator"],
  guards: ["guard", "validate", "assert"],
  parsers: ["parse"],
} as const satisfies Record<SharedKind, readonly SharedRole[]>;

/** A shared union's helpers, which parsers.js re-exports after the definition's `parse<Name>`. */
const UNION_ROLES = [
  "variantGuard",
  "customGuard",
  "untaggedGuard",
] as const satisfies SharedRole[];

/**
 * What each file kind of `surface` takes from the shared modules, from the decisions above:
 * validators and guards for `code`, `parse<Name>` for `parsers` and the union helpers for
 * `unions`, in the surface's definition order.
 */
export function takenFromShared(
  surface: SurfaceModel,
  { code, parsers, unions }: Pick<Sharing, "code" | "parsers" | "unions">,
): Sharing["taken"] {
  const keys = surface.definitions.map((d) => d.key);
  const of = (set: ReadonlySet<string>, roles: (key: string) => readonly SharedRole[]): Taken[] =>
    keys.filter((key) => set.has(key)).map((key) => ({ key, roles: roles(key) }));
  return {
    validators: of(code, () => ROLES.validators),
    guards: of(code, () => ROLES.guards),
    parsers: of(parsers, (key) =>
      unions.has(key) ? [...ROLES.parsers, ...UNION_ROLES] : ROLES.parsers,
    ),
  };
}
