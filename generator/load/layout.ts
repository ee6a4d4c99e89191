import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";

export type Stability = "stable" | "unstable";

/** One schema file (and its meta.json, when the release has one) that becomes one entry point. */
export interface SurfaceFiles {
  /** Protocol major version: 1 for `v1/` or a flat release, N for `vN/`. */
  version: number;
  stability: Stability;
  /** Paths relative to the schema dir, with `/` separators: stable across machines. */
  schema: string;
  meta?: string;
}

/**
 * Upstream has shipped two layouts: flat (`schema.json`, `meta.json`, optional
 * `schema.unstable.json` / `meta.unstable.json`; releases before mid-2026) and versioned
 * (`v1/…`, `v2/…`, each with the same four files). Both are found here; a release may
 * lack unstable files or v2, and only the surfaces that exist are returned. Releases in
 * between ship flat v1 files beside a `v2/` folder holding only `schema.unstable.json`. Releases in
 * between ship flat v1 files beside a `v2/` folder holding only `schema.unstable.json`.
 */
export function discoverSurfaces(schemaDir: string, displayDir: string): SurfaceFiles[] {
  if (!existsSync(schemaDir)) throw new InputError(displayDir, "", "schema directory not found");
  if (!statSync(schemaDir).isDirectory())
    throw new InputError(displayDir, "", "--schema-dir is not a directory");

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
    throw new InputError(
      displayDir,
      "",
      "ambiguous layout: both schema.json and v1/schema.json are present",
    );
  }
  if (versioned.length === 0 && !flat) {
    throw new InputError(
      displayDir,
      "",
      "no schema found (expected schema.json, or v1/schema.json in the versioned layout)",
    );
  }

  const folders = [
    ...(flat ? [{ prefix: "", version: 1 }] : []),
    ...versioned.map((v) => ({ prefix: `${v}/`, version: Number(v.slice(1)) })),
  ];
  const surfaces: SurfaceFiles[] = [];
  for (const { prefix, version } of folders) {
    for (const stability of ["stable", "unstable"] as const) {
      const suffix = stability === "stable" ? "" : ".unstable";
      const schema = `${prefix}schema${suffix}.json`;
      const meta = `${prefix}meta${suffix}.json`;
      const hasSchema = existsSync(join(schemaDir, schema));
      const hasMeta = existsSync(join(schemaDir, meta));
      if (!hasSchema) {
        if (hasMeta) throw new InputError(join(displayDir, meta), "", `has no matching ${schema}`);
        continue;
      }
      surfaces.push(
        hasMeta ? { version, stability, schema, meta } : { version, stability, schema },
      );
    }
  }
  return surfaces;
}
