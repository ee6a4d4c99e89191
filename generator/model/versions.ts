import type { Stability } from "../load/layout.js";
import type { Json } from "../schema/json.js";
import { withoutProse } from "../schema/node.js";
import type { SurfaceModel } from "./protocol.js";
import { sameDefinitions } from "./stability.js";

/**
 * What the package's protocol versions have in common, for the code that serves several of
 * them on one stream (`PKG/router`): the handshake that chooses the version, which every
 * version must read alike (the router reads it before it knows the version), and the
 * definitions that are the same in every version, which an application's logic can take
 * and give to a connection of any of them.
 */
export interface VersionsModel {
  /** The protocol versions the package has a surface of, ascending. */
  versions: number[];
  /**
   * The request that chooses the version and the property holding it, read from the
   * surfaces' handshakes (capabilities.ts): absent unless every surface has one, and all
   * name the same request and property.
   */
  handshake?: { method: string; version: string };
  /**
   * Per stability with surfaces of more than one version: the definitions every version
   * defines alike, sorted. Judged without prose (schema/node.ts `withoutProse`: upstream's
   * descriptions link to each version's documentation) and over references (stability.ts):
   * such a definition admits and reads the same values in every version, and its type is
   * the same, so a value typed by one version's entry point fits any other's.
   */
  same: Partial<Record<Stability, string[]>>;
}

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
