import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitContext } from "../../generator/emit/contexts.js";
import { emitValidators } from "../../generator/emit/validators.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { SCHEMA_DIR, SURFACES, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { InstanceGenerator, rng } from "./instances.js";

/**
 * The generator rewrites ajv's standalone code (generator/emit/ajv-output.ts: error objects
 * built by a helper, the path as an argument, the error list kept by helpers…) and claims each
 * rewrite leaves what a validator does unchanged. ajv's own code for the same schemas, compiled
 * the same way without the rewrites, is the oracle: for generated and mutated instances of
 * every definition, both must give the same verdict and the same errors (path, keyword and
 * params, in order), which is everything the package reads of them.
 */
const SEED = 20261201;
const CASES_PER_DEFINITION = 12;

type Validator = ((value: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; params: unknown }> | null;
};

const diagnostics = new Diagnostics();
const model = buildModel(loadSchemaDir(SCHEMA_DIR, SCHEMA_DIR, diagnostics), diagnostics);
const symbols = buildSymbols(model);
const scratch = mkdtempSync(join(tmpdir(), "acp-compactions-"));
cpSync(join(TEST_PACKAGE, "runtime"), join(scratch, "runtime"), { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The surface's validators.js (and the shared-validators.js it imports, emitted beside it as
 * the pipeline does) written to the scratch package, with or without the rewrites; their
 * relative paths are returned too.
 */
async function load(
  surfaceId: string,
  rewritten: boolean,
): Promise<{ validators: Record<string, Validator>; files: string[] }> {
  const surface = model.surfaces.find((s) => s.id === surfaceId);
  if (!surface) throw new Error(`no surface ${surfaceId}`);
  const unstable = model.surfaces.find((s) => s.stableSurface === surface.id);
  const context = await emitContext(
    surface,
    symbols.of(surface),
    diagnostics,
    unstable ? { unstable: { surface: unstable, names: symbols.of(unstable) } } : {},
  );
  const emitted = await emitValidators(context, rewritten ? undefined : []);
  const dir = join(scratch, rewritten ? "rewritten" : "ajv", surfaceId);
  mkdirSync(dir, { recursive: true });
  // One level deeper than in the package: the runtime is found one folder further up.
  for (const file of emitted)
    writeFileSync(
      join(scratch, rewritten ? "rewritten" : "ajv", file.path),
      file.content.replaceAll('"../', '"../../'),
    );
  const validators = (await import(pathToFileURL(join(dir, "validators.js")).href)) as Record<
    string,
    Validator
  >;
  return { validators, files: emitted.map((f) => f.path) };
}

const report = (v: Validator, value: unknown) =>
  v(value) ? true : JSON.stringify(v.errors?.map((e) => [e.instancePath, e.keyword, e.params]));

describe("the rewrites of ajv's output keep ajv's verdicts and errors", () => {
  // Unstable surfaces import the stable one's validators: the stable ones hold the same code.
  it.each(SURFACES.filter((s) => s.stable))("$id", async (surface) => {
    const { validators: ajv } = await load(surface.id, false);
    const { validators: rewritten, files } = await load(surface.id, true);
    for (const file of files)
      expect(
        readFileSync(join(TEST_PACKAGE, file), "utf8"),
        `the rewritten ${file} is the package's`,
      ).toBe(readFileSync(join(scratch, "rewritten", file), "utf8").replaceAll('"../../', '"../'));
    const defs = schemaOf(surface).$defs;
    const differences: string[] = [];
    let valid = 0;
    let cases = 0;
    for (const [index, name] of Object.keys(defs).sort().entries()) {
      const instances = new InstanceGenerator(defs, rng(SEED * 100_003 + index));
      const [a, b] = [ajv[`v${name}`], rewritten[`v${name}`]];
      if (!a || !b) throw new Error(`${surface.id}: no validator for ${name}`);
      for (let i = 0; i < CASES_PER_DEFINITION; i++) {
        const base = instances.sample(defs[name] ?? true);
        const value = i % 2 === 0 ? base : instances.mutate(base);
        const expected = report(a, value);
        cases++;
        if (expected === true) valid++;
        if (report(b, value) !== expected) differences.push(`${name}: ${JSON.stringify(value)}`);
      }
    }
    expect(differences).toEqual([]);
    // Both verdicts occur often, or the comparison of errors says little.
    expect(valid / cases).toBeGreaterThan(0.2);
    expect(valid / cases).toBeLessThan(0.9);
  });
});
