import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Diagnostics, formatWarning } from "../../generator/diagnostics.js";
import { InputError } from "../../generator/errors.js";
import { type LoadedInput, loadSchemaDir, loadSurfaces } from "../../generator/load/index.js";
import { surfaceOfFile } from "../../generator/load/layout.js";
import { buildModel } from "../../generator/model/build.js";
import { CAPABILITY_RULES, STALE_PROSE } from "../../generator/model/capability-rules.js";
import type { CapabilityGate, SurfaceModel } from "../../generator/model/protocol.js";
import { V1_CAPABILITY_GATES } from "../support/protocol.js";
import { heldReleases, RELEASES_DIR, SCHEMA_DIR } from "../support/run.js";

/**
 * The capability model against the schema it was read from, on the vendored schema and on
 * every release the repository keeps: every gate names a capability, a method and a variant
 * the schema has; and what the schema's prose ties to a capability is gated. The readings of
 * the schema here are the test's own (plain property walks and regular expressions over the
 * descriptions), not the generator's.
 */

type Node = Record<string, unknown>;
type Defs = Record<string, Node>;

const RELEASES = heldReleases();
/** The release the documented facts below were read against. */
const SDK_2_4 = join(RELEASES_DIR, "2.4.0");

const surfacesOf = (dir: string): SurfaceModel[] =>
  buildModel(loadSchemaDir(dir, dir, new Diagnostics())).surfaces;

/** Every surface of every release, with the definitions of its schema file as written. */
const ALL = RELEASES.flatMap(([label, dir]) =>
  surfacesOf(dir).map((surface) => {
    const file = join(dir, surface.schemaFile.name);
    const doc = JSON.parse(readFileSync(file, "utf8")) as { $defs?: Defs; definitions?: Defs };
    return { label: `${label} ${surface.id}`, surface, defs: doc.$defs ?? doc.definitions ?? {} };
  }),
);

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** The definition a property refers to: `$ref`, a one-item `allOf`, or a ref beside `null`. */
function refOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (typeof node.$ref === "string") return node.$ref.split("/").pop();
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    const refs = list.filter((b) => !(isNode(b) && b.type === "null")).map(refOf);
    if (refs.length === 1 && refs[0]) return refs[0];
  }
  return undefined;
}

/** The property schema at `path` under capability definition `root`, or undefined. */
function capabilityAt(defs: Defs, root: string, path: readonly string[]): Node | undefined {
  let def: Node | undefined = defs[root];
  let prop: unknown;
  for (const segment of path) {
    const props = def?.properties;
    prop = isNode(props) && Object.hasOwn(props, segment) ? props[segment] : undefined;
    if (!isNode(prop)) return undefined;
    const next = refOf(prop);
    def = next ? defs[next] : undefined;
  }
  return isNode(prop) ? prop : undefined;
}

/** Whether, walking `at` from definition `from`, one lands on a reference to `target`. */
function reaches(defs: Defs, from: string, at: readonly string[], target: string): boolean {
  const step = (node: unknown, rest: readonly string[], depth: number): boolean => {
    if (!isNode(node) || depth > 40) return false;
    const ref = typeof node.$ref === "string" ? node.$ref.split("/").pop() : undefined;
    if (rest.length === 0 && ref === target) return true;
    if (ref && ref !== target && step(defs[ref], rest, depth + 1)) return true;
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      const list = node[keyword];
      if (Array.isArray(list) && list.some((b) => step(b, rest, depth + 1))) return true;
    }
    const [head, ...tail] = rest;
    if (head === "*")
      return step(node.items, tail, depth + 1) || step(node.additionalProperties, tail, depth + 1);
    const props = node.properties;
    return head !== undefined && isNode(props) && step(props[head], tail, depth + 1);
  };
  return from === target ? at.length === 0 : step(defs[from], at, 0);
}

/** Each sentence of a description, lines joined. */
const sentences = (text: unknown): string[] =>
  typeof text === "string"
    ? text.split(/\n\s*\n|(?<=\.)\s+/).map((s) => s.replace(/\s*\n\s*/g, " "))
    : [];

const gateId = (g: { side: string; path: readonly string[]; method: string; content?: string }) =>
  `${g.side} ${g.path.join(".")} → ${g.method}${g.content ? ` [${g.content}]` : ""}`;
const idOf = (g: CapabilityGate) =>
  gateId({
    side: g.side,
    path: g.path,
    method: g.method.method,
    ...(g.content ? { content: `${g.content.definition} ${g.content.value}` } : {}),
  });

/** Every capability field of a side: its path and the descriptions on it and its definition. */
function fieldsOf(defs: Defs, root: string): Array<{ path: string[]; own: string; all: string[] }> {
  const out: Array<{ path: string[]; own: string; all: string[] }> = [];
  const walk = (key: string, prefix: string[]) => {
    const props = defs[key]?.properties;
    if (!isNode(props) || prefix.length > 8) return;
    for (const [name, prop] of Object.entries(props)) {
      if (!isNode(prop) || name === "_meta") continue;
      const target = refOf(prop);
      const own = typeof prop.description === "string" ? prop.description : "";
      const inner = target ? defs[target]?.description : undefined;
      out.push({
        path: [...prefix, name],
        own,
        all: [own, typeof inner === "string" ? inner : ""],
      });
      if (target && !prefix.includes(name)) walk(target, [...prefix, name]);
    }
  };
  walk(root, []);
  return out;
}

describe("the capability model against its schema, on every release", () => {
  it.each(ALL.map((s) => [s.label, s] as const))(
    "%s: every gate names a capability, a method and a variant the schema has",
    (_label, { surface, defs }) => {
      const negotiation = surface.negotiation;
      if (!negotiation) throw new Error("no negotiation: every release has initialize");
      for (const gate of negotiation.gates) {
        const root = negotiation.capabilities[gate.side].definition;
        const field = capabilityAt(defs, root, gate.path);
        expect(field, `${idOf(gate)}: ${root} has ${gate.path.join(".")}`).toBeDefined();
        const declaredAs = field?.type === "boolean" ? "true" : "object";
        expect(gate.declare, idOf(gate)).toBe(declaredAs);
        expect(gate.method.handledBy, idOf(gate)).toContain(gate.side);
        expect(defs[gate.method.params]?.["x-method"], idOf(gate)).toBe(gate.method.method);
        if (!gate.content) continue;
        const union = defs[gate.content.definition] ?? {};
        const branches = [union.oneOf, union.anyOf].find(Array.isArray) ?? [];
        const tags = (branches as Node[]).map((b) => {
          const props = isNode(b.properties) ? b.properties : {};
          const tag = props[gate.content?.tag ?? ""];
          return isNode(tag) ? tag.const : undefined;
        });
        expect(tags, idOf(gate)).toContain(gate.content.value);
        expect(gate.content.at.length, idOf(gate)).toBeGreaterThan(0);
        for (const at of gate.content.at)
          expect(
            reaches(defs, gate.method.params, at, gate.content.definition),
            `${idOf(gate)} at /${at.join("/")}`,
          ).toBe(true);
      }
    },
  );

  it.each(ALL.map((s) => [s.label, s] as const))(
    "%s: every capability field that names a method, or a variant, gates it",
    (_label, { surface, defs }) => {
      const negotiation = surface.negotiation;
      if (!negotiation) throw new Error("no negotiation");
      const found = new Set(negotiation.gates.map(idOf));
      const expected: string[] = [];
      for (const side of ["agent", "client"] as const) {
        const served = surface.methods.filter((m) => m.handledBy.includes(side));
        const wire = new Set(served.map((m) => m.method));
        const root = negotiation.capabilities[side].definition;
        for (const field of fieldsOf(defs, root)) {
          for (const sentence of field.all.flatMap(sentences)) {
            const names = [
              ...sentence.matchAll(
                /(?:^Whether the (?:agent|client) (?:supports|wants)|^Capabilities for(?: the)?|^Marker for) `([^`]+)`/gi,
              ),
            ].map((m) => m[1] as string);
            for (const name of names.filter((n) => wire.has(n)))
              expected.push(gateId({ side, path: field.path, method: name }));
            for (const [, namespace] of sentence.matchAll(/\ball `([^`/]+)\/\*` methods/gi))
              for (const m of served.filter((m) => m.method.startsWith(`${namespace}/`)))
                expected.push(gateId({ side, path: field.path, method: m.method }));
          }
          for (const sentence of sentences(field.own)) {
            const variant = /^(?:Agent|Client) supports \[`(\w+)::(\w+)`\]/.exec(sentence);
            if (!variant) continue;
            const [, union, name] = variant as unknown as [string, string, string];
            const tag = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
            const gated = negotiation.gates.filter(
              (g) =>
                g.content?.definition === union &&
                g.content.value === tag &&
                g.path.join(".") === field.path.join("."),
            );
            expect(gated.length, `${field.path.join(".")} gates ${union} ${tag}`).toBeGreaterThan(
              0,
            );
          }
        }
      }
      expect(expected.length).toBeGreaterThan(0);
      for (const id of expected) expect(found, id).toContain(id);
    },
  );

  it.each(ALL.map((s) => [s.label, s] as const))(
    "%s: every method and variant the schema says needs a capability is gated",
    (_label, { surface, defs }) => {
      const gates = surface.negotiation?.gates ?? [];
      // Descriptions on a definition and on every reference to it.
      const describedAt = new Map<string, string[]>();
      const collect = (node: unknown) => {
        if (Array.isArray(node)) node.forEach(collect);
        if (!isNode(node)) return;
        const ref = refOf(node);
        if (ref && typeof node.description === "string")
          describedAt.set(ref, [...(describedAt.get(ref) ?? []), node.description]);
        for (const value of Object.values(node)) collect(value);
      };
      collect(defs);
      let checked = 0;
      for (const m of surface.methods) {
        const texts = [defs[m.params]?.description, ...(describedAt.get(m.params) ?? [])];
        const needs = texts
          .flatMap(sentences)
          .some((s) => /only available (?:if|when) the (?:agent|client)\b.*capabilit/i.test(s));
        if (!needs) continue;
        checked++;
        expect(
          gates.some((g) => g.method === m && !g.content),
          `${m.method} is gated`,
        ).toBe(true);
      }
      for (const [key, def] of Object.entries(defs)) {
        const branches = [def.oneOf, def.anyOf].find(Array.isArray) ?? [];
        for (const branch of branches as Node[]) {
          const needs = sentences(branch.description).some((s) =>
            /^(?:Requires the `[^`]+`|Only available when the (?:Agent|Client) capabilities)/.test(
              s,
            ),
          );
          if (!needs) continue;
          const props = isNode(branch.properties) ? branch.properties : {};
          const tag = Object.values(props).find((p) => isNode(p) && typeof p.const === "string");
          const value = isNode(tag) ? tag.const : undefined;
          checked++;
          expect(
            gates.some((g) => g.content?.definition === key && g.content.value === value),
            `${key} ${String(value)} is gated`,
          ).toBe(true);
        }
      }
      expect(checked).toBeGreaterThan(0);
    },
  );

  it("SDK 2.4.0's v1 stable gates exactly what the protocol's documentation lists", () => {
    const v1 = surfacesOf(SDK_2_4).find((s) => s.id === "v1");
    const found = (v1?.negotiation?.gates ?? []).map(idOf).sort();
    const documented = V1_CAPABILITY_GATES.map((g) =>
      gateId({ ...g, path: g.capability.split(".") }),
    ).sort();
    expect(found).toEqual(documented);
  });

  it("only the gates whose capability promises the method require its handler (SDK 2.4.0)", () => {
    const v2 = surfacesOf(SDK_2_4).find((s) => s.id === "v2");
    const gate = (path: string, method: string) =>
      v2?.negotiation?.gates.find(
        (g) => g.path.join(".") === path && g.method.method === method && !g.content,
      );
    // v2's `session` opens the session/* surface; deleting has a capability of its own.
    expect(gate("session", "session/new")?.handlerRequired).toBe(true);
    expect(gate("session", "session/delete")?.handlerRequired).toBe(false);
    expect(gate("session.delete", "session/delete")?.handlerRequired).toBe(true);
    const v1 = surfacesOf(SDK_2_4).find((s) => s.id === "v1");
    const content = v1?.negotiation?.gates.filter((g) => g.content) ?? [];
    expect(content.length).toBeGreaterThan(0);
    expect(content.every((g) => !g.handlerRequired)).toBe(true);
  });

  it("knows what initialize negotiates on every surface: the capability properties and the version", () => {
    for (const { label, surface } of ALL) {
      const n = surface.negotiation;
      expect(n?.method.method, label).toBe("initialize");
      // v1 names the properties after the side, v2 calls both `capabilities`.
      const expected =
        surface.version === 1
          ? ["agentCapabilities", "clientCapabilities"]
          : ["capabilities", "capabilities"];
      expect([n?.capabilities.agent.property, n?.capabilities.client.property], label).toEqual(
        expected,
      );
      expect(n?.version, label).toBe("protocolVersion");
    }
  });
});

describe("named capability rules", () => {
  const vendored = surfacesOf(SCHEMA_DIR);

  it.each(CAPABILITY_RULES.map((r) => [r.name, r] as const))(
    "%s: names a path, a method and a variant the vendored schema has, and gates them",
    (_name, rule) => {
      const applied = vendored.flatMap((s) =>
        (s.negotiation?.gates ?? []).filter((g) =>
          g.sources.some((x) => x.kind === "rule" && x.rule === rule.name),
        ),
      );
      expect(applied.length).toBeGreaterThan(0);
      for (const gate of applied) {
        expect(rule.paths.map((p) => p.join("."))).toContain(gate.path.join("."));
        expect(gate.method.method).toBe(rule.method);
        expect(gate.content?.value).toBe(rule.variant);
      }
      const doc = JSON.parse(readFileSync(join(SCHEMA_DIR, "v1", "schema.json"), "utf8")) as {
        $defs: Defs;
      };
      expect(rule.paths.some((p) => capabilityAt(doc.$defs, "ClientCapabilities", p))).toBe(true);
    },
  );

  it(`${STALE_PROSE.name}: a release needs it, and the field named after the method gates it`, () => {
    // SDK 2.4.0's v1 session/fork says `session.fork`; v1 has sessionCapabilities.fork.
    const unstable = surfacesOf(SDK_2_4).find((s) => s.id === "v1/unstable");
    const fork = unstable?.negotiation?.gates.filter((g) => g.method.method === "session/fork");
    expect(fork?.map((g) => g.path.join(".")).filter((p) => !p.startsWith("mcp"))).toEqual([
      "sessionCapabilities.fork",
    ]);
    const doc = readFileSync(join(SDK_2_4, "v1", "schema.unstable.json"), "utf8");
    expect(doc).toContain("only available if the agent advertises the `session.fork` capability");
  });
});

/** The vendored stable v1 schema as one loaded surface, with `edit` applied to its definitions. */
function editedV1(edit: (defs: Defs) => void): LoadedInput {
  const file = join(SCHEMA_DIR, "v1", "schema.json");
  const input = loadSurfaces([surfaceOfFile(file, "schema.json")], new Diagnostics());
  const surface = input.surfaces[0] as LoadedInput["surfaces"][number];
  const defs = structuredClone(surface.defs) as unknown as Defs;
  edit(defs);
  surface.defs = defs as unknown as typeof surface.defs;
  return input;
}

function refusal(input: LoadedInput): string {
  try {
    buildModel(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).message;
  }
  throw new Error("expected the model to refuse the schema");
}

/** The model built from `input`, with the warnings it gave. */
function built(input: LoadedInput): { v1: SurfaceModel; warnings: string[] } {
  const diagnostics = new Diagnostics();
  const model = buildModel(input, diagnostics);
  const v1 = model.surfaces[0];
  if (!v1) throw new Error("expected the edited v1 surface");
  return { v1, warnings: diagnostics.warnings.map(formatWarning) };
}

const gatedPaths = (v1: SurfaceModel, method: string) =>
  (v1.negotiation?.gates ?? [])
    .filter((g) => g.method.method === method)
    .map((g) => `${g.path.join(".")}${g.content ? ` [${g.content.value}]` : ""}`);

const props = (defs: Defs, key: string) => defs[key]?.properties as Record<string, Node>;

describe("prose that does not hold on a released schema: a warning, and read as if not said", () => {
  it("a rule's capability renamed while its method stays", () => {
    const input = editedV1((defs) => {
      const p = props(defs, "ClientCapabilities");
      p.elicit = p.elicitation as Node;
      delete p.elicitation;
    });
    const { v1, warnings } = built(input);
    expect(warnings).toContain(
      'warning: schema.json#/$defs/ClientCapabilities: capability rule "elicitation form mode" (model/capability-rules.ts): elicitation/create is here, but ClientCapabilities has no elicitation.form; if the capability moved, add its new path to the rule; read as if it were not said',
    );
    expect(v1.negotiation?.gates.some((g) => g.sources.some((x) => x.kind === "rule"))).toBe(false);
  });

  it("a rule whose method the release does not have is simply absent", () => {
    const input = editedV1((defs) => {
      const p = props(defs, "ClientCapabilities");
      delete p.elicitation;
      for (const key of Object.keys(defs))
        if (String(defs[key]?.["x-method"]).startsWith("elicitation/"))
          delete defs[key]?.["x-method"];
      for (const key of Object.keys(defs))
        if (String(defs[key]?.["x-method"]) === "undefined") delete defs[key]?.["x-side"];
    });
    const { v1, warnings } = built(input);
    expect(warnings).toEqual([]);
    expect(v1.negotiation?.gates.some((g) => g.path[0] === "elicitation")).toBe(false);
    expect(v1.negotiation?.gates.some((g) => g.path[0] === "loadSession")).toBe(true);
  });

  it("a method's description naming a capability no field has, with nothing else gating it", () => {
    const input = editedV1((defs) => {
      const p = props(defs, "AgentCapabilities");
      p.sessionLoading = p.loadSession as Node;
      delete p.loadSession;
      const text = String(defs.LoadSessionRequest?.description);
      (defs.LoadSessionRequest as Node).description = text.replace("`loadSession`", "`canLoad`");
    });
    const { v1, warnings } = built(input);
    // The definition's description, and the copy on the reference to it in ClientRequest.
    expect(warnings).toEqual([
      "warning: schema.json#/$defs/LoadSessionRequest/description: names the capability `canLoad`, which AgentCapabilities does not have; read as if it were not said",
      expect.stringMatching(
        /^warning: schema\.json#\/\$defs\/ClientRequest\/properties\/params\/.*\/description: names the capability `loadSession`, which AgentCapabilities does not have; read as if it were not said$/,
      ),
    ]);
    expect(gatedPaths(v1, "session/load").filter((p) => !p.includes("["))).toEqual([]);
    // The rest of the schema's gates are read as before.
    expect(gatedPaths(v1, "fs/read_text_file")).toEqual(["fs.readTextFile"]);
  });

  it("a variant's description naming a capability neither side has", () => {
    const input = editedV1((defs) => {
      const image = (defs.ContentBlock as Node).oneOf as Node[];
      const branch = image[1] as Node;
      branch.description = String(branch.description).replace("`image`", "`pictures`");
    });
    const { v1, warnings } = built(input);
    expect(warnings).toEqual([
      "warning: schema.json#/$defs/ContentBlock/oneOf/1/description: names the capability `pictures`, which neither AgentCapabilities nor ClientCapabilities has; read as if it were not said",
    ]);
    expect(gatedPaths(v1, "session/prompt")).not.toContain("promptCapabilities.image [image]");
    expect(gatedPaths(v1, "session/prompt")).toContain("promptCapabilities.audio [audio]");
  });

  it("a capability named after a method every agent must serve", () => {
    const input = editedV1((defs) => {
      props(defs, "SessionCapabilities").prompt = { type: "boolean" };
    });
    const { v1, warnings } = built(input);
    expect(warnings).toEqual([
      "warning: schema.json#/$defs/SessionCapabilities/properties/prompt: capability sessionCapabilities.prompt is named after session/prompt, which every agent must serve (model/conventions.ts REQUIRED_HANDLERS); read as if it were not said",
    ]);
    expect(gatedPaths(v1, "session/prompt").filter((p) => !p.includes("["))).toEqual([]);
  });

  it("the same prose in a user's extension file is an input error naming that file", () => {
    const input = editedV1(() => {});
    const surface = input.surfaces[0] as LoadedInput["surfaces"][number];
    const file = { name: "acme.json", path: "/x/acme.json", display: "acme.json" };
    surface.extensions = [
      {
        file,
        defs: {
          AcmeRequest: {
            type: "object",
            description: "Only available if the Agent supports the `acme.widgets` capability.",
            "x-side": "agent",
            "x-method": "_acme/widgets",
          },
          AcmeResponse: { type: "object", "x-side": "agent", "x-method": "_acme/widgets" },
        },
        meta: {},
      },
    ] as unknown as typeof surface.extensions;
    expect(refusal(input)).toBe(
      "acme.json#/$defs/AcmeRequest/description: names the capability `acme.widgets`, which AgentCapabilities does not have",
    );
  });
});
