import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitContext } from "../../generator/emit/contexts.js";
import { emitErrors } from "../../generator/emit/errors.js";
import { InputError } from "../../generator/errors.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { tempDir } from "../support/run.js";
import { SCHEMA_DIR, SURFACES } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * RequestError's helpers come from the schema's ErrorCode: one per code with a title, named
 * after it, so a code a schema bump adds gets its helper.
 */

interface Variant {
  title?: string;
  const?: number;
}
type Helper = (
  data?: unknown,
  detail?: string,
) => { code: number; message: string; data?: unknown };

const work = tempDir("error-codes");
afterAll(() => work.remove());

const codesOf = (file: string): Variant[] =>
  (
    JSON.parse(readFileSync(join(SCHEMA_DIR, file), "utf8")) as {
      $defs: Record<string, { anyOf: Variant[] }>;
    }
  ).$defs.ErrorCode?.anyOf ?? [];

describe("RequestError helpers from the schema's ErrorCode", () => {
  it.each(SURFACES)(
    "$id: a static helper for every code with a title, making that code with the title as message",
    async ({ id, schema: file }) => {
      const { RequestError } = (await import(
        pathToFileURL(join(TEST_PACKAGE, id, "index.js")).href
      )) as { RequestError: Record<string, unknown> };
      const helpers = Object.getOwnPropertyNames(RequestError)
        .map((name) => RequestError[name])
        .filter((v): v is Helper => typeof v === "function");
      const made = helpers.map((helper) => helper());
      const codes = codesOf(file).filter((v) => typeof v.const === "number" && v.title);
      expect(codes.length).toBeGreaterThan(5);
      for (const variant of codes)
        expect(made, variant.title).toContainEqual(
          expect.objectContaining({ code: variant.const, message: variant.title }),
        );
    },
  );

  it("names helpers after the titles, adds detail to the message, and keeps data", async () => {
    const { RequestError } = await import("../../.test-package/package/v1/index.js");
    const error = RequestError.authenticationRequired({ methods: ["browser"] }, "log in first");
    expect(error.toErrorObject()).toEqual({
      code: -32000,
      message: "Authentication required: log in first",
      data: { methods: ["browser"] },
    });
  });

  it("sessionNotFound: Resource not found with data.sessionId, as the official SDK sends it", async () => {
    const { RequestError } = await import("../../.test-package/package/v1/index.js");
    const sdk = await import("@agentclientprotocol/sdk");
    const ours = RequestError.sessionNotFound("sess-9");
    const theirs = sdk.RequestError.sessionNotFound("sess-9");
    expect(ours.code).toBe(theirs.code);
    expect(ours.data).toEqual(theirs.data);
  });

  it("instanceof holds for any RequestError: from the connection's runtime or another entry point", async () => {
    const v1 = await import("../../.test-package/package/v1/index.js");
    const v2 = await import("../../.test-package/package/v2/index.js");
    // The bundled runtime module itself, as the connection code imports it (no declarations:
    // nothing outside the package can import it).
    const runtimePath = "../../.test-package/package/runtime/index.js";
    const runtime = (await import(runtimePath)) as { RequestError: typeof v1.RequestError };
    expect(new runtime.RequestError(-1, "x")).toBeInstanceOf(v1.RequestError);
    expect(v2.RequestError.internalError()).toBeInstanceOf(v1.RequestError);
    expect(new Error("x")).not.toBeInstanceOf(v1.RequestError);
    class AppError extends v1.RequestError {}
    expect(new AppError(1, "a")).toBeInstanceOf(AppError);
    expect(v1.RequestError.internalError()).not.toBeInstanceOf(AppError);
  });

  it("a code added to the schema gets its helper; a title that cannot name one is an input error", async () => {
    const dir = join(work.path, "schema");
    cpSync(SCHEMA_DIR, dir, { recursive: true });
    const file = join(dir, "v1", "schema.json");
    const schema = JSON.parse(readFileSync(file, "utf8"));
    schema.$defs.ErrorCode.anyOf.push({
      title: "Rate limited",
      description: "**Rate limited**: Slow down.",
      type: "integer",
      const: -32042,
    });
    writeFileSync(file, JSON.stringify(schema));
    const emitted = async () => {
      const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
      const symbols = buildSymbols(model);
      const v1 = model.surfaces.find((s) => s.id === "v1");
      if (!v1) throw new Error("no v1 surface");
      return emitErrors(await emitContext(v1, symbols.of(v1), new Diagnostics()));
    };
    const [js, dts] = await emitted();
    expect(js?.content).toContain(
      'static rateLimited(data, detail) {\n    return new RequestError(-32042, withDetail("Rate limited", detail), data);',
    );
    expect(dts?.content).toContain(
      "/** -32042 Rate limited: Slow down. */\n  static rateLimited(data?: unknown, detail?: string): RequestError;",
    );

    schema.$defs.ErrorCode.anyOf.push({ title: "Name", type: "integer", const: -32043 });
    writeFileSync(file, JSON.stringify(schema));
    const index = schema.$defs.ErrorCode.anyOf.length - 1;
    await expect(emitted()).rejects.toThrow(InputError);
    await expect(emitted()).rejects.toThrow(
      `#/$defs/ErrorCode/anyOf/${index}/title: error code title "Name" gives the helper name "name"`,
    );
  });
});
