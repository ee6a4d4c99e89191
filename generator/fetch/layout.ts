/**
 * Which files of a release are schema files, and where each goes in the schema folder.
 *
 * Releases have named their schema files in three ways, all mapped here onto the layouts the
 * loader reads (`generator/load/layout.ts`), with the bytes unchanged:
 *
 * - flat `schema.json`, `meta.json`, `*.unstable.json`: npm tarballs up to SDK 1.9 (beside a
 *   `v2/` folder from 1.3 on), git tags up to v0.13.6; kept as they are;
 * - versioned `vN/schema.json`, `vN/meta.json`, …: npm tarballs from SDK 1.3 on, git tags from
 *   v0.13.7 on; kept as they are;
 * - suffixed `schema.vN.json`, `schema.vN.unstable.json`, `meta.vN….json`: git tags v0.13.0 to
 *   v0.13.6; moved to `vN/schema.json`, … (the loader reads no suffixed names).
 *
 * Inside an npm package or a repository they sit in a `schema/` folder; a folder or archive
 * of the schema folder itself has them at the top. Everything else is left behind.
 */

const BASE_NAMES = ["schema.json", "schema.unstable.json", "meta.json", "meta.unstable.json"];

export const SCHEMA_ROOTS = ["", "schema/"] as const;

/** The path a release file takes in the schema folder, or undefined when it is not a schema file. */
export function targetName(relative: string): string | undefined {
  if (BASE_NAMES.includes(relative)) return relative;
  const versioned = /^v[1-9][0-9]*\/((?:schema|meta)(?:\.unstable)?\.json)$/.exec(relative);
  if (versioned) return relative;
  const suffixed = /^(schema|meta)\.v([2-9]|[1-9][0-9]+)((?:\.unstable)?\.json)$/.exec(relative);
  if (suffixed) return `v${suffixed[2]}/${suffixed[1]}${suffixed[3]}`;
  return undefined;
}

/** A schema (not a meta.json) file: a root holding only meta files is not a schema folder. */
export function isSchemaFile(target: string): boolean {
  return /(?:^|\/)schema(?:\.unstable)?\.json$/.test(target);
}

/** Relative names to ask a host for when it cannot list a folder: every layout up to version `upTo`. */
export function probeNames(fromVersion: number, upTo: number): string[] {
  const names = fromVersion <= 1 ? [...BASE_NAMES] : [];
  for (let v = Math.max(1, fromVersion); v <= upTo; v++) {
    for (const base of BASE_NAMES) {
      names.push(`v${v}/${base}`);
      if (v >= 2) names.push(base.replace(/^(schema|meta)/, `$1.v${v}`));
    }
  }
  return names;
}

export interface PlannedFile {
  /** Path in the release, as listed by its source (`schema/v1/schema.json`). */
  from: string;
  /** Path in the schema folder (`v1/schema.json`). */
  to: string;
}

export type LayoutPlan =
  | { ok: true; root: string; files: PlannedFile[] }
  | { ok: false; problem: string };

/**
 * Pick the schema files out of a release's file list: the first root (the top, then
 * `schema/`) that holds at least one schema file wins. Two release files that would land on
 * the same name are refused rather than one silently chosen.
 */
export function planLayout(paths: Iterable<string>): LayoutPlan | undefined {
  const all = [...paths].sort();
  for (const root of SCHEMA_ROOTS) {
    const files: PlannedFile[] = [];
    for (const from of all) {
      if (!from.startsWith(root)) continue;
      const to = targetName(from.slice(root.length));
      if (to !== undefined) files.push({ from, to });
    }
    if (!files.some((f) => isSchemaFile(f.to))) continue;
    const byTarget = new Map<string, string>();
    for (const f of files) {
      const other = byTarget.get(f.to);
      if (other !== undefined) {
        return { ok: false, problem: `both ${other} and ${f.from} would become ${f.to}` };
      }
      byTarget.set(f.to, f.from);
    }
    files.sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
    return { ok: true, root, files };
  }
  return undefined;
}

export const NOT_FOUND_HINT =
  "no ACP schema in it (looked for schema.json, schema.unstable.json and vN/schema.json, at the top and under schema/)";
