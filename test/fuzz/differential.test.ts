import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_DIR, SURFACES, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { differential } from "./differential.js";

/** Fixed seed and bounded count for CI; `npm run fuzz` runs the same with more cases. */
const SEED = 20261129;
const CASES_PER_DEFINITION = 24;

describe("generated validators agree with an independently configured ajv compiling the raw schema", () => {
  it.each(SURFACES)("$id: every definition, generated and mutated instances", async (surface) => {
    const result = await differential({
      schemaFile: join(SCHEMA_DIR, surface.schema),
      packageSurfaceDir: join(TEST_PACKAGE, surface.id),
      surface: surface.id,
      seed: SEED,
      casesPerDefinition: CASES_PER_DEFINITION,
    });
    expect(result.disagreements).toEqual([]);
    // Every definition got its cases, and both verdicts occur often, or the comparison says little.
    expect(result.cases).toBe(Object.keys(schemaOf(surface).$defs).length * CASES_PER_DEFINITION);
    expect(result.valid / result.cases).toBeGreaterThan(0.2);
    expect(result.valid / result.cases).toBeLessThan(0.9);
  });

  it("runs at least 20,000 cases across the surfaces", () => {
    const definitions = SURFACES.map((s) => Object.keys(schemaOf(s).$defs).length);
    expect(definitions.reduce((a, b) => a + b, 0) * CASES_PER_DEFINITION).toBeGreaterThanOrEqual(
      20_000,
    );
  });
});
