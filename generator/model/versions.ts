import type { Stability } from "../load/layout.js";
import type { Json } from "../schema/json.js";
import { withoutProse } from "../schema/node.js";
import type { SurfaceModel, VersionsModel } from "./protocol.js";
import { sameDefinitions } from "./stability.js";

/** The model's `versions` (protocol.ts `VersionsModel`), from the built surfaces. */
export function versionsOf(surfaces: readonly SurfaceModel[]): VersionsModel {
  const versions = [...new Set(surfaces.map((s) => s.protocolVersion))].sort((a, b) => a - b);
  const handshakes = surfaces.map((s) =>
    s.negotiation?.version === undefined
      ? undefined
      : { method: s.negotiation.method.method, version: s.negotiation.version },
  );
  const first = handshakes[0];
  const handshake =
    first &&
    handshakes.every(
      (h) => h !== undefined && h.method === first.method && h.version === first.version,
    )
      ? first
      : undefined;
  const same: Partial<Record<Stability, string[]>> = {};
  for (const stability of ["stable", "unstable"] as const) {
    const ofStability = surfaces
      .filter((s) => s.stability === stability)
      .sort((a, b) => a.protocolVersion - b.protocolVersion);
    const [base, ...others] = ofStability;
    if (!base || others.length === 0) continue;
    let common: Set<string> | undefined;
    for (const other of others) {
      const shared = sameDefinitions(prose(base), prose(other), other.defsKeyword, written(other));
      common = common ? new Set([...common].filter((k) => shared.has(k))) : shared;
    }
    same[stability] = [...(common ?? [])].sort();
  }
  return { versions, ...(handshake ? { handshake } : {}), same };
}

/** A surface's definitions without prose, by key. */
function prose(surface: SurfaceModel): Record<string, Json> {
  return Object.fromEntries(surface.definitions.map((d) => [d.key, withoutProse(d.schema)]));
}

function written(surface: SurfaceModel): Record<string, Json> {
  return Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
}
