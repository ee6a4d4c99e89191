import type { Method, SurfaceModel } from "../model/protocol.js";
import type { Json } from "../schema/json.js";
import { escapePointerToken } from "../schema/pointer.js";
import type { Finding } from "./change.js";
import { BREAKS_BOTH, type Breaks, COMPATIBLE, either, finding } from "./classification.js";
import { SchemaComparison } from "./shape/compare.js";
import type { SchemaSide } from "./shape/walk.js";

/** The surfaces a method comparison needs: the pair itself and, for stable ones, the unstable twins. */
export interface SurfacePair {
  old: SurfaceModel;
  new: SurfaceModel;
  /** For a stable surface: the unstable surface of the same version, in each release. */
  oldUnstable?: SurfaceModel;
  newUnstable?: SurfaceModel;
  oldSide: SchemaSide;
  newSide: SchemaSide;
}

/**
 * A method is identified by wire name and kind: `mcp/message` is both a request and a
 * notification. Which side handles it is an attribute, compared separately, so a method
 * that changes sides is reported as such rather than as one removal and one addition.
 */
export function methodId(m: Pick<Method, "method" | "kind">): string {
  return `${m.method}\u0000${m.kind}`;
}

export function compareMethods(pair: SurfacePair): Finding[] {
  const findings: Finding[] = [];
  const oldById = byId(pair.old.methods);
  const newById = byId(pair.new.methods);
  const oldUnstable = byId(pair.oldUnstable?.methods ?? []);
  const newUnstable = byId(pair.newUnstable?.methods ?? []);

  for (const [id, m] of newById) {
    const before = oldById.get(id);
    if (before) {
      findings.push(...changedMethod(pair, before, m));
    } else if (oldUnstable.has(id)) {
      findings.push(
        finding(
          "method-stabilized",
          pathOf(pair.new, m),
          labelOf(m),
          `now stable (was only in "${pair.oldUnstable?.entry}")`,
        ),
      );
    } else {
      findings.push(finding("method-added", pathOf(pair.new, m), labelOf(m), "method added"));
    }
  }
  for (const [id, m] of oldById) {
    if (newById.has(id)) continue;
    const what = newUnstable.has(id)
      ? `moved to unstable (gone from "${pair.new.entry}", still in "${pair.newUnstable?.entry}")`
      : "method removed";
    findings.push(
      finding(
        newUnstable.has(id) ? "method-moved-to-unstable" : "method-removed",
        pathOf(pair.old, m),
        labelOf(m),
        what,
      ),
    );
  }
  return findings;
}

function changedMethod(pair: SurfacePair, a: Method, b: Method): Finding[] {
  const findings: Finding[] = [];
  const path = pathOf(pair.new, b);
  const label = labelOf(b);
  const sides = (m: Method) => [...m.handledBy].sort().join(" and ");
  if (sides(a) !== sides(b)) {
    // The handler moves to the other side's interface, and senders change direction.
    findings.push(
      finding("method-side-changed", path, label, `now handled by ${sides(b)} (was ${sides(a)})`),
    );
  }
  if (a.key !== b.key) {
    // The key names the method constant (`AGENT_METHODS.<key>`) and the handler member.
    findings.push(
      finding(
        "method-key-changed",
        path,
        label,
        `method key renamed from ${a.key} to ${b.key} (handler ${a.handler} → ${b.handler})`,
      ),
    );
  }
  for (const role of ["params", "result"] as const) {
    const before = a[role];
    const after = b[role];
    if (before === after || before === undefined || after === undefined) continue;
    // A result without a definition is JSON null (the model's NULL RESULT rule): a switch to
    // or from a definition changes what both the handler returns and the caller gets.
    const breaks =
      before === null || after === null ? BREAKS_BOTH : structuralBreaks(pair, before, after);
    const same = !breaks.breaksBuilders && !breaks.breaksReaders;
    findings.push(
      finding(
        "method-types-changed",
        path,
        label,
        `${role} type is now ${after ?? "null"} (was ${before ?? "null"}${same ? ", same shape" : ""})`,
        breaks,
      ),
    );
  }
  return findings;
}

/** How a method's params/result type switching from one definition to another affects callers. */
function structuralBreaks(pair: SurfacePair, before: string, after: string): Breaks {
  const a = pair.oldSide.defs[before];
  const b = pair.newSide.defs[after];
  if (a === undefined || b === undefined) return BREAKS_BOTH;
  const scratch = new SchemaComparison(pair.oldSide, pair.newSide);
  scratch.compare(a as Json, b as Json, {
    old: [pair.oldSide.keyword, before],
    new: [pair.newSide.keyword, after],
    label: after,
  });
  return scratch.findings.reduce<Breaks>((acc, f) => either(acc, f), COMPATIBLE);
}

function byId(methods: readonly Method[]): Map<string, Method> {
  return new Map(methods.map((m) => [methodId(m), m]));
}

function labelOf(m: Method): string {
  return `${m.method} (${m.kind} handled by ${[...m.handledBy].join(" and ")})`;
}

/** The `x-method` annotation of the method's params definition: where the method is declared. */
function pathOf(surface: SurfaceModel, m: Method): string {
  return [surface.defsKeyword, m.params, "x-method"].map(escapePointerToken).join("/");
}

/**
 * Where the old release named its methods in meta.json and the new one has none (no npm
 * tarball has ever carried one), the new keys are derived from `x-method` (model/methods.ts).
 * A key that differs is a breaking change of its own (`method-key-changed`); this note says
 * what was compared when none does, so a bump's record shows the derived keys were checked.
 */
export function derivedKeysNote(
  oldSurfaces: readonly SurfaceModel[],
  newSurfaces: readonly SurfaceModel[],
): string | undefined {
  let compared = 0;
  let differ = 0;
  let derived = 0;
  for (const after of newSurfaces) {
    const before = oldSurfaces.find((s) => s.id === after.id);
    if (after.meta || !before?.meta) continue;
    derived++;
    const old = byId(before.methods);
    for (const m of after.methods) {
      const a = old.get(methodId(m));
      if (!a || a.extension || m.extension) continue;
      compared++;
      if (a.key !== m.key) differ++;
    }
  }
  if (derived === 0) return undefined;
  const outcome =
    differ === 0
      ? `they equal the old meta.json keys for all ${compared} methods both have`
      : `${differ} of the ${compared} methods both have changed key (listed as breaking below)`;
  return `method keys: the new release has no meta.json, so its keys are derived from x-method; ${outcome}`;
}
