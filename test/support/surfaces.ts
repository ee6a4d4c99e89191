import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

/**
 * The surfaces of the vendored schema, read from the schema folder itself (so a schema bump
 * that adds or drops one changes every test that walks them): each `v<N>/` folder holds
 * `schema.json` + `meta.json` (stable) and `schema.unstable.json` + `meta.unstable.json`.
 * Entry points as the product defines them: `.` is v1 stable, `./unstable` v1 unstable,
 * `./v<N>` and `./v<N>/unstable` the others.
 */
export interface Surface {
  /** Folder of the surface in the generated package: `v1`, `v1/unstable`, `v2`, … */
  id: string;
  /** Its export in package.json: `.`, `./unstable`, `./v2`, … */
  entry: string;
  version: number;
  stable: boolean;
  /** Schema and meta files, relative to the schema folder. */
  schema: string;
  meta: string;
}

export interface SchemaDocument {
  $defs: Record<string, Record<string, unknown>>;
}

export interface MetaDocument {
  version: number;
  agentMethods: Record<string, string>;
  clientMethods: Record<string, string>;
  protocolMethods: Record<string, string>;
}

export const SCHEMA_DIR = join(ROOT, "schema");

export function surfacesOf(schemaDir: string): Surface[] {
  const versions = readdirSync(schemaDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^v\d+$/.test(e.name))
    .map((e) => Number(e.name.slice(1)))
    .sort((a, b) => a - b);
  const surfaces: Surface[] = [];
  for (const version of versions) {
    const folder = `v${version}`;
    const root = version === 1 ? "." : `./${folder}`;
    for (const stable of [true, false]) {
      const suffix = stable ? "" : ".unstable";
      const schema = `${folder}/schema${suffix}.json`;
      if (!existsSync(join(schemaDir, schema))) continue;
      surfaces.push({
        id: stable ? folder : `${folder}/unstable`,
        entry: stable ? root : root === "." ? "./unstable" : `${root}/unstable`,
        version,
        stable,
        schema,
        meta: `${folder}/meta${suffix}.json`,
      });
    }
  }
  return surfaces;
}

/** Every surface of `schema/`, in the order the package lists its entry points. */
export const SURFACES: readonly Surface[] = surfacesOf(SCHEMA_DIR);

/** Each stable surface with the unstable surface of the same protocol version. */
export const STABLE_UNSTABLE_PAIRS: ReadonlyArray<readonly [Surface, Surface]> = SURFACES.filter(
  (s) => s.stable,
).flatMap((s) => {
  const unstable = SURFACES.find((u) => !u.stable && u.version === s.version);
  return unstable ? [[s, unstable] as const] : [];
});

export function schemaOf(surface: Surface, schemaDir = SCHEMA_DIR): SchemaDocument {
  return JSON.parse(readFileSync(join(schemaDir, surface.schema), "utf8")) as SchemaDocument;
}

export function metaOf(surface: Surface, schemaDir = SCHEMA_DIR): MetaDocument {
  return JSON.parse(readFileSync(join(schemaDir, surface.meta), "utf8")) as MetaDocument;
}

/** All method entries of a meta.json: each (side, key) is one method of the surface. */
export function metaMethods(
  meta: MetaDocument,
): Array<{ side: string; key: string; wire: string }> {
  return (["agent", "client", "protocol"] as const).flatMap((side) =>
    Object.entries(meta[`${side}Methods`] ?? {}).map(([key, wire]) => ({ side, key, wire })),
  );
}
