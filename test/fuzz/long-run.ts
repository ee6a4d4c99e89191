/**
 * The differential fuzz test with more cases and a seed of your choice:
 *
 *   npm run fuzz -- [--cases-per-definition N] [--seed S] [--schema-dir DIR]
 *
 * Generates the package from the schema dir into a temp folder, then compares every
 * definition of every surface against ajv compiling the raw schema. Exits 1 on any
 * disagreement and prints each with the seed that reproduces it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../generator/cli.js";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { differential } from "./differential.js";

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const schemaDir = resolve(arg("schema-dir", "schema"));
const seed = Number(arg("seed", String(Date.now() % 1_000_000)));
const casesPerDefinition = Number(arg("cases-per-definition", "500"));
const out = mkdtempSync(join(tmpdir(), "acp-codegen-fuzz-"));
try {
  if (
    (await main(["generate", "--schema-dir", schemaDir, "--out", out, "--force", "--quiet"])) !== 0
  )
    process.exit(2);
  const input = loadSchemaDir(schemaDir, schemaDir, new Diagnostics());
  let failures = 0;
  for (const surface of input.surfaces) {
    const id =
      surface.stability === "stable" ? `v${surface.version}` : `v${surface.version}/unstable`;
    const started = Date.now();
    const result = await differential({
      schemaFile: join(schemaDir, surface.schemaFile.name),
      packageSurfaceDir: join(out, id),
      surface: id,
      seed,
      casesPerDefinition,
    });
    failures += result.disagreements.length;
    console.log(
      `${id}: ${result.cases} cases (${result.valid} valid), ${result.disagreements.length} disagreements, ${Date.now() - started} ms`,
    );
    for (const d of result.disagreements.slice(0, 20))
      console.log(
        `  ${d.definition} seed=${d.seed} generated=${d.generated} reference=${d.reference} ${d.value}`,
      );
  }
  console.log(`seed ${seed}: ${failures === 0 ? "no disagreements" : `${failures} disagreements`}`);
  process.exitCode = failures === 0 ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
