import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { SESSION_CALLS } from "../../generator/model/conventions.js";
import type { SurfaceModel } from "../../generator/model/protocol.js";
import type { UpdateRule } from "../../templates/runtime/session-state.js";
import { RELEASES_DIR, SCHEMA_DIR, tempDir } from "../support/run.js";

/**
 * The session state rules read from the schema (model/session-rules.ts): checked against
 * what the schema's own definitions say, on the vendored schema and every release the
 * repository keeps, and on a schema whose names were changed, to show they come from the
 * shapes and not from a list of names.
 */

const surfacesOf = (dir: string): SurfaceModel[] =>
  buildModel(loadSchemaDir(dir, dir, new Diagnostics())).surfaces;
const vendored = surfacesOf(SCHEMA_DIR);
const surface = (id: string) => vendored.find((s) => s.id === id) as SurfaceModel;

type Json = Record<string, unknown>;
const defsOf = (s: SurfaceModel): Record<string, Json> =>
  Object.fromEntries(s.definitions.map((d) => [d.key, d.schema as Json]));

/** The union variant of a tag, as the schema writes it, and the definition its `allOf` names. */
function variantDefinition(
  s: SurfaceModel,
  tag: string,
): { key: string; schema: Json } | undefined {
  const union = defsOf(s).SessionUpdate as { oneOf?: Json[]; anyOf?: Json[] };
  const variant = (union.oneOf ?? union.anyOf ?? []).find(
    (v) =>
      (v.properties as Json | undefined)?.sessionUpdate !== undefined &&
      ((v.properties as Json).sessionUpdate as Json).const === tag,
  );
  const ref = ((variant?.allOf as Json[] | undefined)?.[0]?.$ref as string | undefined)
    ?.split("/")
    .pop();
  return ref ? { key: ref, schema: defsOf(s)[ref] as Json } : undefined;
}

const ruleOf = (s: SurfaceModel, tag: string): UpdateRule | undefined => s.session?.spec.rules[tag];
const nullableProperties = (schema: Json): string[] =>
  Object.entries(schema.properties as Record<string, Json>)
    .filter(([, p]) => JSON.stringify(p).includes('"null"'))
    .map(([name]) => name);

describe("session state rules from the schema", () => {
  it("every surface of the vendored schema has the session layer, with every call it names", () => {
    for (const s of vendored) {
      expect(s.session, s.id).toBeDefined();
      const calls = s.session?.spec.calls;
      // What the convention lists by wire name, where the schema has the method.
      for (const [member, wire] of Object.entries(SESSION_CALLS)) {
        const has = s.methods.some((m) => m.method === wire && m.kind === "request");
        const named =
          member === "new"
            ? calls?.new?.method
            : (calls as unknown as Record<string, unknown> | undefined)?.[member];
        expect(named !== undefined, `${s.id} ${member}`).toBe(has);
      }
    }
  });

  it("v1: tool_call creates a tool call by toolCallId, tool_call_update patches it, null leaving a field as it was", () => {
    for (const id of ["v1", "v1/unstable"]) {
      const s = surface(id);
      expect(ruleOf(s, "tool_call"), id).toEqual({
        op: "create",
        slot: "toolCalls",
        key: ["toolCallId"],
      });
      expect(ruleOf(s, "tool_call_update"), id).toEqual({
        op: "patch",
        slot: "toolCalls",
        key: ["toolCallId"],
        patch: { nullClears: [], byKey: [] },
      });
      // The schema's own words for the update: only changed fields; nothing about null.
      expect(variantDefinition(s, "tool_call_update")?.schema.description).toMatch(
        /only changed fields/,
      );
      expect(s.session?.spec.slots.toolCalls).toBe("map");
    }
  });

  it("v1: a plan update replaces the plan whole", () => {
    for (const id of ["v1", "v1/unstable"]) {
      expect(ruleOf(surface(id), "plan"), id).toEqual({ op: "set", slot: "plan" });
      expect(variantDefinition(surface(id), "plan")?.schema.properties).toHaveProperty("entries");
    }
  });

  it("v2: tool_call_update upserts, null clearing every nullable field, _meta patched by key", () => {
    for (const id of ["v2", "v2/unstable"]) {
      const s = surface(id);
      const def = variantDefinition(s, "tool_call_update")?.schema as Json;
      expect(def.description).toMatch(/`null` clears/);
      const rule = ruleOf(s, "tool_call_update");
      expect(rule?.op, id).toBe("patch");
      if (rule?.op !== "patch") continue;
      expect([...rule.patch.nullClears].sort(), id).toEqual(nullableProperties(def).sort());
      expect(rule.patch.byKey, id).toEqual(["_meta"]);
      // v2 has no tool_call: nothing creates, so the upsert is typed by its own fields.
      expect(ruleOf(s, "tool_call"), id).toBeUndefined();
      expect(ruleOf(s, "tool_call_content_chunk"), id).toMatchObject({
        op: "push",
        slot: "toolCalls",
        to: "content",
      });
    }
  });

  it("v2: an update with the same messageId patches the message; chunks append to it", () => {
    for (const id of ["v2", "v2/unstable"]) {
      const s = surface(id);
      for (const kind of ["user_message", "agent_message", "agent_thought"]) {
        expect(variantDefinition(s, kind)?.schema.description, kind).toMatch(/patch/);
        expect(ruleOf(s, kind), `${id} ${kind}`).toMatchObject({
          op: "patch",
          slot: "messages",
          key: ["messageId"],
          kind,
        });
        expect(ruleOf(s, `${kind}_chunk`), `${id} ${kind}`).toMatchObject({
          op: "push",
          slot: "messages",
          key: ["messageId"],
          kind,
          from: "content",
          to: "content",
        });
      }
      // Every message update names its message in v2: a map by id.
      expect(s.session?.spec.slots.messages).toBe("map");
    }
  });

  it("v1: messages come as chunks whose messageId is optional: a list in arrival order", () => {
    const s = surface("v1");
    const chunk = variantDefinition(s, "agent_message_chunk")?.schema as Json;
    expect(chunk.required).not.toContain("messageId");
    expect(s.session?.spec.slots.messages).toBe("list");
  });

  it("v2: the state update says whether the session runs; its idle ends the turn, with the stop reason", () => {
    for (const id of ["v2", "v2/unstable"]) {
      const spec = surface(id).session?.spec;
      expect(spec?.rules.state_update).toEqual({ op: "set", slot: "state", from: "state" });
      expect(spec?.turn).toEqual({
        end: "state",
        kind: "state_update",
        field: "state",
        idle: "idle",
        stopReason: "stopReason",
      });
      // The prompt's answer is a receipt: no stop reason in it.
      const promptResponse = defsOf(surface(id)).PromptResponse as Json;
      expect(promptResponse.properties).not.toHaveProperty("stopReason");
    }
  });

  it("v1: the turn ends at the prompt's answer, which carries the stop reason", () => {
    for (const id of ["v1", "v1/unstable"])
      expect(surface(id).session?.spec.turn).toEqual({ end: "response", stopReason: "stopReason" });
  });

  it("the answers of session calls set what they carry: session/new's modes and config options, set_mode's mode", () => {
    const effects = surface("v1").session?.spec.effects;
    expect(effects?.["session/new"]).toEqual([
      { slot: "currentModeId", from: "result", path: ["modes", "currentModeId"] },
      { slot: "configOptions", from: "result", path: ["configOptions"] },
    ]);
    expect(effects?.["session/set_mode"]).toEqual([
      { slot: "currentModeId", from: "params", path: ["modeId"] },
    ]);
    expect(surface("v2").session?.spec.effects["session/new"]).toContainEqual({
      slot: "availableCommands",
      from: "result",
      path: ["availableCommands"],
    });
  });

  it("every rule names fields its variant's definition has", () => {
    for (const s of vendored) {
      for (const [tag, rule] of Object.entries(s.session?.spec.rules ?? {})) {
        const def = variantDefinition(s, tag)?.schema as Json;
        // A union (v2's StateUpdate) declares its fields in its branches.
        if (def.properties === undefined) continue;
        const props = Object.keys(def.properties as Json);
        if ("key" in rule) expect(props, `${s.id} ${tag}`).toContain(rule.key[0]);
        if (rule.op === "push") expect(props, `${s.id} ${tag}`).toContain(rule.from);
        if (rule.op === "patch" || rule.op === "merge")
          for (const name of [...rule.patch.nullClears, ...rule.patch.byKey])
            expect(nullableProperties(def), `${s.id} ${tag} ${name}`).toContain(name);
      }
    }
  });

  it("the same rules in every released schema that has the updates", () => {
    for (const release of ["0.4.5", "0.23.0", "1.2.1", "1.3.0", "2.0.0", "2.4.0"]) {
      for (const s of surfacesOf(join(RELEASES_DIR, release)).filter((x) => x.version === 1)) {
        const rules = s.session?.spec.rules;
        expect(rules, `${release} ${s.id}`).toBeDefined();
        expect(rules?.tool_call?.op, `${release} ${s.id}`).toBe("create");
        expect(rules?.tool_call_update?.op, `${release} ${s.id}`).toBe("patch");
        expect(rules?.plan, `${release} ${s.id}`).toEqual({ op: "set", slot: "plan" });
        expect(rules?.agent_message_chunk?.op, `${release} ${s.id}`).toBe("push");
      }
    }
  });

  describe("a schema with other names gets the same rules under them", () => {
    const work = tempDir("session-renamed");
    afterAll(() => work.remove());
    mkdirSync(join(work.path, "v1"));
    {
      const renamed = readFileSync(join(SCHEMA_DIR, "v1", "schema.json"), "utf8")
        .replaceAll("ToolCallUpdate", "WidgetUpdate")
        .replaceAll("ToolCallId", "WidgetId")
        .replaceAll("toolCallId", "widgetId")
        .replaceAll('"tool_call_update"', '"widget_update"')
        .replaceAll('"tool_call"', '"widget"')
        .replaceAll('"plan"', '"roadmap"')
        .replaceAll('"Plan":', '"Roadmap":')
        .replaceAll('"#/$defs/Plan"', '"#/$defs/Roadmap"');
      writeFileSync(join(work.path, "v1", "schema.json"), renamed);
    }

    it("widget creates widgets by widgetId, widget_update patches them, roadmap replaces", () => {
      const [renamed] = surfacesOf(work.path);
      const rules = renamed?.session?.spec.rules;
      expect(rules?.widget).toEqual({ op: "create", slot: "widgets", key: ["widgetId"] });
      expect(rules?.widget_update).toMatchObject({
        op: "patch",
        slot: "widgets",
        key: ["widgetId"],
      });
      expect(rules?.roadmap).toEqual({ op: "set", slot: "roadmap" });
      expect(rules?.tool_call).toBeUndefined();
    });
  });
});
