import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, HISTORY_DIR, tempDir } from "../support/run.js";
import { type ExtensionFile, PROBE, readExtension } from "./support.js";

/**
 * Bad extension files: each one exits 2 with one line naming the file and the JSON pointer
 * of the offending spot, and `--out` is left as it was. Each case is the fixture of
 * extension.test with one thing broken.
 */

const work = tempDir("ext-bad");
afterAll(() => work.remove());

const probe = readExtension(PROBE);
const copy = (): ExtensionFile => structuredClone(probe);

interface Case {
  name: string;
  broken: () => unknown;
  pointer: string;
  message: RegExp;
}

const CASES: Case[] = [
  {
    name: "a method name without a leading _",
    broken: () => {
      const e = copy();
      (e.$defs.ProbeStatusNotification as Record<string, unknown>)["x-method"] = "probe/status";
      return e;
    },
    pointer: "/$defs/ProbeStatusNotification/x-method",
    message: /must start with "_"/,
  },
  {
    name: "a definition named like one of the protocol's",
    broken: () => {
      const e = copy();
      e.$defs.SessionId = { type: "string" };
      return e;
    },
    pointer: "/$defs/SessionId",
    message: /collides with the protocol's definition/,
  },
  {
    name: "a method whose handler name is a protocol method's",
    broken: () => {
      const e = copy();
      // `_session/new` → `session_new` → `sessionNew`, the agent's handler of `session/new`.
      for (const key of ["ProbeEchoRequest", "ProbeEchoResponse"])
        (e.$defs[key] as Record<string, unknown>)["x-method"] = "_session/new";
      return e;
    },
    pointer: "/$defs/ProbeEchoRequest/x-method",
    message: /gives the name (sessionNew|session_new), as does "session\/new"/,
  },
  {
    name: "a definition name the package cannot export",
    broken: () => {
      const e = copy();
      e.$defs.enum = { type: "string" };
      return e;
    },
    pointer: "/$defs/enum",
    message: /reserved word/,
  },
  {
    name: "x-method without x-side",
    broken: () => {
      const e = copy();
      delete (e.$defs.ProbeStatusNotification as Record<string, unknown>)["x-side"];
      return e;
    },
    pointer: "/$defs/ProbeStatusNotification/x-method",
    message: /x-method without x-side/,
  },
  {
    name: "a $ref to a definition neither the extension nor the protocol has",
    broken: () => {
      const e = copy();
      (e.$defs.ProbePart as { properties: Record<string, unknown> }).properties.text = {
        $ref: "#/$defs/NoSuchProtocolType",
      };
      return e;
    },
    pointer: "/$defs/ProbePart/properties/text/$ref",
    message: /dangling \$ref "#\/\$defs\/NoSuchProtocolType"/,
  },
  {
    name: "a _meta key for a definition the protocol does not have",
    broken: () => {
      const e = copy();
      e["x-meta"] = { NoSuchDefinition: { "probe.dev/x": { type: "string" } } };
      return e;
    },
    pointer: "/x-meta/NoSuchDefinition",
    message: /no protocol definition NoSuchDefinition/,
  },
  {
    name: "a surface selector that means nothing",
    broken: () => ({ ...copy(), "x-surfaces": ["v1", "beta"] }),
    pointer: "/x-surfaces/1",
    message: /unknown surface selector "beta"/,
  },
  {
    name: "a request without its response",
    broken: () => {
      const e = copy();
      delete e.$defs.ProbeSyncResponse;
      return e;
    },
    pointer: "/$defs/ProbeSyncRequest/x-method",
    message: /has no matching response definition/,
  },
  {
    // Checked against JSON Schema 2020-12's meta-schema before anything else reads it.
    name: "an enum that is not an array",
    broken: () => {
      const e = copy();
      (
        e.$defs.ProbeStatusNotification as { properties: Record<string, unknown> }
      ).properties.state = { type: "string", enum: "ready" };
      return e;
    },
    pointer: "/$defs/ProbeStatusNotification/properties/state/enum",
    message: /^not valid JSON Schema 2020-12: enum must be an array; found a string \("ready"\)$/,
  },
  {
    name: "a type JSON Schema does not have",
    broken: () => {
      const e = copy();
      (e.$defs.ProbePart as { properties: Record<string, unknown> }).properties.index = {
        type: "int",
      };
      return e;
    },
    pointer: "/$defs/ProbePart/properties/index/type",
    message:
      /^not valid JSON Schema 2020-12: type must be one of "array", "boolean", "integer", "null", "number", "object", "string", or an array; found a string \("int"\)$/,
  },
  {
    name: "a _meta key's schema that is not JSON Schema",
    broken: () => {
      const e = copy();
      e["x-meta"] = { ToolCallUpdate: { "probe.dev/origin": { type: "string", minLength: -1 } } };
      return e;
    },
    pointer: "/x-meta/ToolCallUpdate/probe.dev~1origin/minLength",
    message: /^not valid JSON Schema 2020-12: minLength must be >= 0; found an integer \(-1\)$/,
  },
  {
    name: "another dialect",
    broken: () => ({ ...copy(), $schema: "http://json-schema.org/draft-07/schema#" }),
    pointer: "/$schema",
    message:
      /^extensions are JSON Schema 2020-12 .*; found "http:\/\/json-schema.org\/draft-07\/schema#"$/,
  },
  {
    // The types would read the declared `text?` while the validators demand `txet`.
    name: "a required name that is not a property",
    broken: () => {
      const e = copy();
      (e.$defs.ProbeEchoRequest as { required: string[] }).required = ["sessionId", "txet"];
      return e;
    },
    pointer: "/$defs/ProbeEchoRequest/required/1",
    message:
      /^"txet" is required but is not one of the properties beside it \(sessionId, text, times\): a typo\?$/,
  },
  {
    name: "not JSON",
    broken: () => "{ not json",
    pointer: "",
    message: /invalid JSON/,
  },
];

describe("bad extension files", () => {
  it.each(CASES)("$name: exit 2, one line naming file and pointer, nothing written", async (c) => {
    const slug = c.name.replace(/\W+/g, "-");
    const file = join(work.path, `${slug}.json`);
    const broken = c.broken();
    writeFileSync(file, typeof broken === "string" ? broken : JSON.stringify(broken, null, 2));
    const out = join(work.path, `${slug}-out`);
    const result = await cli("generate", "--out", out, "--extension", file, "--quiet");
    expect(result.code).toBe(2);
    expect(result.stderr).toHaveLength(1);
    const line = result.stderr[0] ?? "";
    const prefix = `acp-codegen: ${file}#${c.pointer}: `;
    expect(line.startsWith(prefix), line).toBe(true);
    expect(line.slice(prefix.length)).toMatch(c.message);
    expect(existsSync(out)).toBe(false);
  });

  it("a bad extension leaves an existing package exactly as it was", async () => {
    const out = join(work.path, "kept");
    // A small release keeps the first generate quick; the extension is refused at loading.
    const small = ["--schema-dir", join(HISTORY_DIR, "v0.6.3")];
    expect((await cli("generate", ...small, "--out", out, "--quiet")).code).toBe(0);
    const manifest = readFileSync(join(out, "acp-codegen.json"), "utf8");
    const file = join(work.path, "kept.json");
    writeFileSync(file, JSON.stringify(CASES[0]?.broken()));
    const result = await cli("generate", ...small, "--out", out, "--extension", file, "--quiet");
    expect(result.code).toBe(2);
    expect(readFileSync(join(out, "acp-codegen.json"), "utf8")).toBe(manifest);
  });

  it("a keyword or format no one knows is a warning naming the extension file, once", async () => {
    const e = copy();
    const part = e.$defs.ProbePart as { properties: Record<string, Record<string, unknown>> };
    part.properties.index = { type: "integer", minimun: 0 };
    part.properties.text = { type: "string", format: "probe-text" };
    const file = join(work.path, "unknown-keyword.json");
    writeFileSync(file, JSON.stringify(e));
    const out = join(work.path, "unknown-keyword-out");
    // Two surfaces (stable and unstable), each merging the extension: one warning each.
    const small = ["--schema-dir", join(HISTORY_DIR, "v0.10.4")];
    const result = await cli("generate", ...small, "--out", out, "--extension", file, "--quiet");
    expect(result.code).toBe(0);
    expect(result.stderr).toEqual([
      `warning: ${file}#/$defs/ProbePart: unknown keyword "minimun" ignored by the validators`,
      `warning: ${file}#/$defs/ProbePart: unknown format "probe-text" treated as an annotation`,
    ]);
  });

  it("two extensions defining the same definition or _meta key: the second one is named", async () => {
    const first = join(work.path, "first.json");
    const second = join(work.path, "second.json");
    const part = { type: "object", properties: { n: { type: "integer" } } };
    const origin = { ToolCallUpdate: { "probe.dev/origin": { type: "string" } } };
    writeFileSync(first, JSON.stringify({ $defs: { ProbeShared: part }, "x-meta": origin }));
    writeFileSync(second, JSON.stringify({ $defs: { ProbeShared: part } }));
    const out = join(work.path, "twice-out");
    const twice = await cli("generate", "--out", out, "--extension", first, "--extension", second);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toEqual([
      `acp-codegen: ${second}#/$defs/ProbeShared: definition ProbeShared is also defined by ${first}`,
    ]);
    writeFileSync(second, JSON.stringify({ "x-meta": origin }));
    const meta = await cli("generate", "--out", out, "--extension", first, "--extension", second);
    expect(meta.code).toBe(2);
    expect(meta.stderr).toEqual([
      `acp-codegen: ${second}#/x-meta/ToolCallUpdate/probe.dev~1origin: ToolCallUpdate._meta key "probe.dev/origin" is also typed by ${first}`,
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it("an unknown --extension-surfaces selector is refused before anything is read", async () => {
    const result = await cli(
      "generate",
      "--out",
      join(work.path, "never"),
      "--extension",
      PROBE,
      "--extension-surfaces",
      "v1,nightly",
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual([
      'acp-codegen: --extension-surfaces: unknown surface selector "nightly" (expected v1, v2/unstable, stable, unstable…)',
    ]);
  });
});
