import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../errors.js";

export type Stability = "stable" | "unstable";

/** One input file: what the manifest records, where it is read from, and how errors name it. */
export interface SourceFile {
  /** Relative to the schema dir, with `/` separators (`v1/schema.json`): stable across machines. */
  name: string;
  /** Where to read it. */
  path: string;
  /** As the user would type it (`schema/v1/schema.json`). */
  display: string;
}

/** One schema file (and its meta.json, when the release has one) that becomes one entry point. */
export interface SurfaceFiles {
  /** Protocol major version: 1 for `v1/` or a flat release, N for `vN/`. */
  version: number;
  stability: Stability;
  schema: SourceFile;
  meta?: SourceFile;
}

/**
 * The schema diff of the bump that brought the folder's files, in Markdown: `fetch` writes it
 * beside them, and `generate` makes it the package's CHANGELOG.md entry for its version
 * (emit/changelog.ts). Not part of any surface.
 */
export const CHANGES_FILE = "CHANGES.md";

/** The schema folder's CHANGES.md, when it has one. */
export function changesFile(schemaDir: string, displayDir: string): SourceFile | undefined {
  const path = join(schemaDir, CHANGES_FILE);
  return existsSync(path) && statSync(path).isFile()
    ? { name: CHANGES_FILE, path, display: join(displayDir, CHANGES_FILE) }
    : undefined;
}

/** A surface's file name in a folder (`""` flat, `v2/`): `schema.json`, `v2/meta.unstable.json`… */
function fileName(folder: string, stability: Stability, base: "schema" | "meta"): string {
  return `${folder}${base}${stability === "unstable" ? ".unstable" : ""}.json`;
}

/**
 * Upstream has shipped two layouts: flat (`schema.json`, `meta.json`, optional
 * `schema.unstable.json` / `meta.unstable.json`; releases before mid-2026) and versioned
 * (`v1/…`, `v2/…`, each with the same four files). Both are found here; a release may
 * lack unstable files or v2, and only the surfaces that exist are returned. Releases in
 * between ship flat v1 files beside a `v2/` folder holding only `schema.unstable.json`.
 */
export function discoverSurfaces(schemaDir: string, displayDir: string): SurfaceFiles[] {
  if (!existsSync(schemaDir)) throw InputError.about(displayDir, "schema directory not found");
  if (!statSync(schemaDir).isDirectory())
    throw InputError.about(displayDir, "--schema-dir is not a directory");

  const versioned = readdirSync(schemaDir)
    .filter((name) => /^v[1-9][0-9]*$/.test(name) && statSync(join(schemaDir, name)).isDirectory())
    .filter(
      (name) =>
        existsSync(join(schemaDir, name, "schema.json")) ||
        existsSync(join(schemaDir, name, "schema.unstable.json")),
    )
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  const flat =
    existsSync(join(schemaDir, "schema.json")) ||
    existsSync(join(schemaDir, "schema.unstable.json"));

  // Releases between the two layouts ship flat v1 files beside a `v2/` folder.
  if (flat && versioned.includes("v1")) {
    throw InputError.about(
      displayDir,
      "ambiguous layout: both schema.json and v1/schema.json are present",
    );
  }
  if (versioned.length === 0 && !flat) {
    throw InputError.about(
      displayDir,
      "no schema found (expected schema.json, or v1/schema.json in the versioned layout)",
    );
  }

  const folders = [
    ...(flat ? [{ folder: "", version: 1 }] : []),
    ...versioned.map((v) => ({ folder: `${v}/`, version: Number(v.slice(1)) })),
  ];
  const source = (name: string): SourceFile => ({
    name,
    path: join(schemaDir, name),
    display: join(displayDir, name),
  });
  const surfaces: SurfaceFiles[] = [];
  for (const { folder, version } of folders) {
    for (const stability of ["stable", "unstable"] as const) {
      const schema = source(fileName(folder, stability, "schema"));
      const meta = source(fileName(folder, stability, "meta"));
      const hasSchema = existsSync(schema.path);
      const hasMeta = existsSync(meta.path);
      if (!hasSchema) {
        if (hasMeta) throw InputError.about(meta.display, `has no matching ${schema.name}`);
        continue;
      }
      surfaces.push(
        hasMeta ? { version, stability, schema, meta } : { version, stability, schema },
      );
    }
  }
  return surfaces;
}

/**
 * How upstream marks a draft in its descriptions: the first paragraph of every definition
 * that is not part of the spec yet.
 */
export const UNSTABLE_BANNER = "**UNSTABLE**";

/**
 * SURFACE BY FILE NAME: a file is the surface its name says, whatever it holds. Releases
 * before upstream split off `schema.unstable.json` ship one `schema.json` built with the
 * drafts in (npm SDK 0.4.5 to 1.9.0, whose `schema.json` is byte-identical to the next
 * release's `v1/schema.unstable.json`, and upstream tags up to v0.6.3, where a few
 * definitions carry the banner). It stays the stable entry point (`.`), drafts included:
 * that is what the release's own SDK exported from its main entry point, it is the only
 * v1 file such a release has (read as `./unstable`, the package would have no `.`), and
 * `diff` then compares `.` with `.` across releases, which is what a consumer imports. The
 * loader warns (loadSurfaces), so whoever generates from such a release knows `.` holds
 * drafts; each keeps its banner in its documentation.
 */

/**
 * The surface a lone schema file is, read as a folder holding only that file (so without
 * meta.json): by its name and folder, as in the layouts. `*.unstable.json` is unstable,
 * anything else stable; inside a `vN/` folder it is protocol version N, otherwise 1.
 */
export function surfaceOfFile(path: string, display: string): SurfaceFiles {
  const folder = /^v([1-9][0-9]*)$/.exec(basename(dirname(resolve(path))));
  const version = folder ? Number(folder[1]) : 1;
  const stability: Stability = /\.unstable\.json$/i.test(basename(path)) ? "unstable" : "stable";
  // Recorded under the name a flat (v1) or versioned (vN) release would give it.
  const name = fileName(version === 1 ? "" : `v${version}/`, stability, "schema");
  return { version, stability, schema: { name, path, display } };
}
