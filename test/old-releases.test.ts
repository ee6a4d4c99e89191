import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../generator/diagnostics.js";
import { loadSchemaDir } from "../generator/load/index.js";
import { buildModel } from "../generator/model/build.js";
import { RawPeer, streamPair } from "./runtime/support.js";
import { cli, ERAS_DIR, importSurface, RELEASES_DIR, tempDir } from "./support/run.js";

/**
 * The named rules for gaps in old releases (generator/model/methods.ts, load/layout.ts),
 * checked against what each release itself says: its response unions, its meta.json, its
 * banners. test/releases.test.ts generates, imports and type-checks every era.
 */

type Json = Record<string, unknown>;
const schemaOf = (dir: string, file = "schema.json") =>
  JSON.parse(readFileSync(join(dir, file), "utf8")) as { $defs: Record<string, Json> };

function modelOf(dir: string) {
  const diagnostics = new Diagnostics();
  const model = buildModel(loadSchemaDir(dir, dir, diagnostics), diagnostics);
  return { model, warnings: diagnostics.warnings.map((w) => `${w.pointer}: ${w.message}`) };
}

/**
 * What a release's response unions (`AgentResponse`, `ClientResponse`) say each request
 * answers with, by the branch titled after the request: `null`, or the definition it refers to.
 */
function unionResults(defs: Record<string, Json>): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const key of ["AgentResponse", "ClientResponse"]) {
    for (const branch of (defs[key]?.anyOf ?? []) as Json[]) {
      const title = branch.title as string;
      const ref = branch.$ref as string | undefined;
      out.set(title, branch.type === "null" ? null : (ref?.replace("#/$defs/", "") ?? title));
    }
  }
  return out;
}

describe("requests whose response definition is not annotated (npm 0.1.2 to 0.2.0-alpha.8)", () => {
  for (const era of ["zed-0.1.2", "zed-0.2.0-alpha.8"]) {
    it(`${era}: each gets the result its release's response union lists, with a warning`, () => {
      const dir = join(ERAS_DIR, era);
      const defs = schemaOf(dir).$defs;
      const { model, warnings } = modelOf(dir);
      const unions = unionResults(defs);
      const gaps = Object.entries(defs).filter(
        ([key, def]) =>
          key.endsWith("Request") &&
          typeof def["x-method"] === "string" &&
          !Object.values(defs).some(
            (d) => d !== def && d["x-method"] === def["x-method"] && d["x-side"] === def["x-side"],
          ),
      );
      expect(gaps.length).toBeGreaterThan(0);
      const methods = model.surfaces[0]?.methods ?? [];
      for (const [key, def] of gaps) {
        const title = `${key.slice(0, -"Request".length)}Response`;
        expect(unions.has(title), title).toBe(true);
        const method = methods.find((m) => m.method === def["x-method"] && m.kind === "request");
        expect(method?.result, String(def["x-method"])).toBe(unions.get(title));
        const rule = unions.get(title) === null ? "null result" : "result by name";
        expect(
          warnings.filter(
            (w) => w.includes(`"${def["x-method"]}"`) && w.includes(`(rule: ${rule})`),
          ),
        ).toHaveLength(1);
      }
      // Every other request keeps its annotated response, and nothing else warns about methods.
      expect(
        warnings.filter(
          (w) => w.includes("(rule: null result)") || w.includes("(rule: result by name)"),
        ),
      ).toHaveLength(gaps.length);
    });
  }
});

describe("a null result, in the generated package and on the wire (zed 0.1.2)", () => {
  const work = tempDir("old-releases");
  let mod: Record<string, unknown>;
  beforeAll(async () => {
    const run = await cli(
      "generate",
      "--schema-dir",
      join(ERAS_DIR, "zed-0.1.2"),
      "--out",
      work.path,
      "--quiet",
    );
    expect(run.stderr.filter((l) => !l.startsWith("warning:"))).toEqual([]);
    mod = await importSurface(work.path, "v1");
  });
  afterAll(() => work.remove());

  // These calls test the result, not the handshake: no initialize first.
  const NO_HANDSHAKE = { capabilities: "off" } as const;
  type Connection = {
    close(): void;
    agent: Record<string, (params: unknown) => Promise<unknown>>;
  };
  type ConnectionClass = new (
    toHandlers: (conn: unknown) => object,
    stream: unknown,
    options?: object,
  ) => Connection;

  it("METHODS and the method maps say null for exactly the requests without a response definition", () => {
    const methods = mod.METHODS as Array<{ method: string; result?: string | null }>;
    const nulls = methods.filter((m) => m.result === null).map((m) => m.method);
    const defs = schemaOf(join(ERAS_DIR, "zed-0.1.2")).$defs;
    const unions = unionResults(defs);
    const expected = Object.entries(defs)
      .filter(([key, def]) => typeof def["x-method"] === "string" && key.endsWith("Request"))
      .filter(([key]) => unions.get(`${key.slice(0, -"Request".length)}Response`) === null)
      .map(([, def]) => def["x-method"]);
    expect(nulls.sort()).toEqual([...expected].sort());
    const dts = readFileSync(join(work.path, "v1", "methods.d.ts"), "utf8");
    for (const method of nulls)
      expect(dts).toMatch(
        new RegExp(`"${method}": \\{ kind: "request"; params: T\\.\\w+; result: null; \\}`),
      );
  });

  it("a handler that returns nothing answers result null, and the call resolves with null", async () => {
    const [a, b] = streamPair();
    const sent: unknown[] = [];
    const AgentSide = mod.AgentSideConnection as ConnectionClass;
    const ClientSide = mod.ClientSideConnection as ConnectionClass;
    const agent = new AgentSide(() => ({ authenticate: () => undefined }), a, {
      ...NO_HANDSHAKE,
      trace: (e: { direction: string; message: unknown }) => {
        if (e.direction === "sent") sent.push(e.message);
      },
    });
    const client = new ClientSide(() => ({}), b, { ...NO_HANDSHAKE, log: () => {} });
    await expect(client.agent.authenticate?.({ methodId: "token" })).resolves.toBeNull();
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 0, result: null }]);
    agent.close();
    client.close();
  });

  it("a handler that returns a value for a null result is refused (-32603), not sent", async () => {
    const [a, b] = streamPair();
    const AgentSide = mod.AgentSideConnection as ConnectionClass;
    const ClientSide = mod.ClientSideConnection as ConnectionClass;
    const agent = new AgentSide(() => ({ authenticate: () => ({ token: "x" }) }), a, {
      ...NO_HANDSHAKE,
      log: () => {},
    });
    const client = new ClientSide(() => ({}), b, { ...NO_HANDSHAKE, log: () => {} });
    await expect(client.agent.authenticate?.({ methodId: "token" })).rejects.toMatchObject({
      code: -32603,
    });
    agent.close();
    client.close();
  });

  it("a later peer's empty object for a null result reads as null", async () => {
    const peer = new RawPeer();
    const ClientSide = mod.ClientSideConnection as ConnectionClass;
    const client = new ClientSide(() => ({}), peer.stream, { ...NO_HANDSHAKE, log: () => {} });
    const call = client.agent.authenticate?.({ methodId: "token" });
    const request = (await peer.next()) as { id: number; method: string };
    expect(request.method).toBe("authenticate");
    await peer.send({ jsonrpc: "2.0", id: request.id, result: {} });
    await expect(call).resolves.toBeNull();
    client.close();
  });
});

describe("meta.json methods no definition annotates (upstream tags)", () => {
  const metaOf = (dir: string) =>
    JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")) as Record<
      string,
      Record<string, string>
    >;
  const annotated = (dir: string) =>
    new Set(Object.values(schemaOf(dir).$defs).map((d) => d["x-method"]));

  for (const era of ["git-v0.0.31", "git-v0.2.3"]) {
    it(`${era}: each is left out with a warning at its meta.json entry; the others stay`, () => {
      const dir = join(ERAS_DIR, era);
      const meta = metaOf(dir);
      const names = annotated(dir);
      const listed = Object.entries(meta).flatMap(([key, entries]) =>
        key.endsWith("Methods")
          ? Object.entries(entries).map(([k, wire]) => ({ at: `/${key}/${k}`, wire }))
          : [],
      );
      const missing = listed.filter((l) => !names.has(l.wire));
      expect(missing.length).toBeGreaterThan(0);
      const { model, warnings } = modelOf(dir);
      const methods = model.surfaces[0]?.methods ?? [];
      for (const { at, wire } of missing) {
        expect(methods.some((m) => m.method === wire)).toBe(false);
        expect(
          warnings.filter(
            (w) => w.startsWith(`${at}: `) && w.includes("(rule: unannotated meta.json method)"),
          ),
        ).toHaveLength(1);
      }
      const kept = new Set(listed.filter((l) => names.has(l.wire)).map((l) => l.wire));
      expect(new Set(methods.map((m) => m.method))).toEqual(kept);
    });
  }
});

describe("drafts in a file named schema.json (the SURFACE BY FILE NAME rule)", () => {
  const banner = (dir: string, file: string) =>
    Object.values(schemaOf(dir, file).$defs).filter(
      (d) => typeof d.description === "string" && d.description.startsWith("**UNSTABLE**"),
    ).length;

  it("a flat release with drafts in schema.json keeps it as entry point `.`, with a warning that counts them", () => {
    const dir = join(RELEASES_DIR, "1.2.1");
    const drafts = banner(dir, "schema.json");
    expect(drafts).toBeGreaterThan(0);
    const { model, warnings } = modelOf(dir);
    expect(model.surfaces.map((s) => s.entry)).toEqual(["."]);
    expect(warnings.filter((w) => w.includes("(rule: surface by file name)"))).toEqual([
      `: ${drafts} definitions are marked **UNSTABLE** and there is no schema.unstable.json: the drafts are part of the stable entry point, as in the release's own SDK (rule: surface by file name)`,
    ]);
  });

  it("says nothing where an unstable file sits beside the stable one", () => {
    const dir = join(RELEASES_DIR, "2.4.0");
    expect(banner(dir, "v1/schema.unstable.json")).toBeGreaterThan(0);
    expect(modelOf(dir).warnings.filter((w) => w.includes("surface by file name"))).toEqual([]);
  });
});
