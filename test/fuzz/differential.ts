import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { referenceAjv } from "../support/reference-ajv.js";
import { InstanceGenerator, rng } from "./instances.js";

export interface Disagreement {
  surface: string;
  definition: string;
  seed: number;
  value: string;
  generated: boolean;
  reference: boolean;
}

export interface DifferentialResult {
  cases: number;
  valid: number;
  disagreements: Disagreement[];
}

type Validator = (value: unknown) => boolean;

/**
 * Compare the generated standalone validators of one surface with a reference: ajv set up
 * by the tests (support/reference-ajv.ts: its own integer ranges, no vendor vocabulary, no
 * `discriminator`, so oneOf is tried branch by branch) compiling the RAW schema at run time,
 * with none of the generator's rewrites. Any disagreement is a bug in a rewrite, in the
 * ahead-of-time compilation or in the package's runtime formats.
 */
export async function differential(options: {
  schemaFile: string;
  packageSurfaceDir: string;
  surface: string;
  seed: number;
  casesPerDefinition: number;
}): Promise<DifferentialResult> {
  const raw = JSON.parse(readFileSync(options.schemaFile, "utf8")) as {
    $defs: Record<string, Record<string, unknown>>;
  };
  const reference = referenceAjv();
  const id = "acp-codegen:reference";
  reference.addSchema({ ...raw, $id: id });
  const generated = (await import(
    pathToFileURL(join(options.packageSurfaceDir, "validators.js")).href
  )) as Record<string, Validator>;

  const result: DifferentialResult = { cases: 0, valid: 0, disagreements: [] };
  const names = Object.keys(raw.$defs).sort();
  for (const [index, name] of names.entries()) {
    const seed = options.seed * 100_003 + index;
    const random = rng(seed);
    const instances = new InstanceGenerator(raw.$defs, random);
    const ref = reference.getSchema(`${id}#/$defs/${name}`) as Validator | undefined;
    const gen = generated[`v${name}`];
    if (!ref || !gen) throw new Error(`${options.surface}: no validator for ${name}`);
    for (let i = 0; i < options.casesPerDefinition; i++) {
      const base = instances.sample(raw.$defs[name] ?? true);
      const value = i % 2 === 0 ? base : instances.mutate(base);
      const expected = ref(value);
      const actual = gen(value);
      result.cases++;
      if (expected) result.valid++;
      if (expected !== actual) {
        result.disagreements.push({
          surface: options.surface,
          definition: name,
          seed,
          value: JSON.stringify(value).slice(0, 500),
          generated: actual,
          reference: expected,
        });
      }
    }
  }
  return result;
}
