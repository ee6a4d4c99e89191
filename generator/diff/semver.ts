import { type Change, impactOf } from "./change.js";

export type Bump = "major" | "minor" | "patch" | "none";

export interface Counts {
  breaking: number;
  compatible: number;
  doc: number;
}

export interface BumpAdvice {
  bump: Bump;
  counts: Counts;
  /** One sentence saying why, for the report's headline. */
  reason: string;
}

/**
 * Semantic-versioning advice for the generated package (not for the protocol): major when
 * any change breaks code that builds or reads messages, minor when something was added or
 * changed compatibly (a deprecation is minor too, as semver asks), patch when only prose
 * changed (descriptions, titles, examples and comments end up in JSDoc, nowhere else).
 * For a package still at 0.x, apply the usual shift: breaking → minor, the rest → patch.
 */
export function suggestBump(changes: readonly Change[]): BumpAdvice {
  const counts = countImpacts(changes);
  if (counts.breaking > 0) {
    return {
      bump: "major",
      counts,
      reason: `${plural(counts.breaking, "change")} ${counts.breaking === 1 ? "breaks" : "break"} code that builds or reads messages`,
    };
  }
  if (counts.compatible > 0) {
    return { bump: "minor", counts, reason: "additions and other compatible changes only" };
  }
  if (counts.doc > 0) {
    return {
      bump: "patch",
      counts,
      reason:
        "documentation only (descriptions, titles, examples): only the generated JSDoc changes",
    };
  }
  return { bump: "none", counts, reason: "no changes" };
}

export function countImpacts(changes: readonly Change[]): Counts {
  const counts: Counts = { breaking: 0, compatible: 0, doc: 0 };
  for (const c of changes) counts[impactOf(c)]++;
  return counts;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The version the advice leads to from `current` (docs/bump.md, "Choosing the version"):
 * from 1.0.0 on, major/minor/patch as named; below it, the usual shift (a breaking change
 * bumps the minor, anything else the patch). A prerelease or build suffix is dropped.
 */
export function nextVersion(current: string, bump: Bump): string {
  const parsed = /^(\d+)\.(\d+)\.(\d+)/.exec(current);
  if (!parsed || bump === "none") return current;
  const [major, minor, patch] = parsed.slice(1).map(Number) as [number, number, number];
  if (major === 0) return bump === "major" ? `0.${minor + 1}.0` : `0.${minor}.${patch + 1}`;
  if (bump === "major") return `${major + 1}.0.0`;
  return bump === "minor" ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}
