import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, SCHEMA_DIR, tempDir, VENDORED_SURFACES } from "../support/run.js";
import { differential } from "./differential.js";

/** Fixed seed and bounded count for CI; `npm run fuzz` runs the same with more cases. */
const SEED = 20261129;
const CASES_PER_DEFINITION = 24;

const work = tempDir("fuzz");
beforeAll(async () => {
  expect(
    (await cli("generate", "--schema-dir", SCHEMA_DIR, "--out", work.path, "--force", "--quiet"))
      .code,
  ).toBe(0);
});
afterAll(() => work.remove());

describe("generated validators agree with ajv compiling the raw schema", () => {
  let total = 0;
  it.each(VENDORED_SURFACES)(
    "$id: every definition, generated and mutated instances",
    async (surface) => {
      const result = await differential({
        schemaFile: join(SCHEMA_DIR, surface.schema),
        packageSurfaceDir: join(work.path, surface.id),
        surface: surface.id,
        seed: SEED,
        casesPerDefinition: CASES_PER_DEFINITION,
      });
      total += result.cases;
      expect(result.disagreements).toEqual([]);
      // Both verdicts must occur often, or the comparison says little.
      expect(result.valid / result.cases).toBeGreaterThan(0.2);
      expect(result.valid / result.cases).toBeLessThan(0.9);
    },
  );

  it("ran at least 20,000 cases across the four surfaces", () => {
    expect(total).toBeGreaterThanOrEqual(20_000);
  });
});
