import type {
  Method,
  SessionModel,
  SlotTyping,
  SlotValue,
  SurfaceModel,
} from "../model/protocol.js";
import { importLine } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import type { EmitContext } from "./context.js";
import { jsLiteral, literal, propertyKey } from "./js.js";
import { banner, type OutputFile } from "./output.js";

/**
 * The client's session layer of a surface (model/session-rules.ts): the spec `connection.js`
 * hands the runtime (`SESSION`), the `ClientSideConnection` that keeps sessions, and
 * `session.d.ts`, which types the session, its turns and its state from the same rules.
 */

/** `connection.js`'s module constant holding the surface's `SessionSpec`. */
export const SESSION_TABLE = "SESSION";

/** The lines declaring `SESSION` in `connection.js`, where the surface has sessions. */
export function sessionLines(surface: SurfaceModel): string[] {
  const session = surface.session;
  if (!session) return [];
  return [
    "/** The session layer's rules, read from the schema: what each update does to a session's state. */",
    `const ${SESSION_TABLE} = Object.freeze(${jsLiteral(session.spec)});`,
    "",
  ];
}

/** The runtime class `ClientSideConnection` extends, and the arguments its constructor adds. */
export function clientBase(surface: SurfaceModel): { base: string; extra: string } {
  return surface.session
    ? { base: "SessionConnection", extra: `${SESSION_TABLE}, ` }
    : { base: "SideConnection", extra: "" };
}

/** Declaration lines of `ClientSideConnection`'s session methods. */
export function clientSessionMembers(surface: SurfaceModel, names: SurfaceSymbols): string[] {
  const session = surface.session;
  const symbols = names.session;
  if (!session || !symbols) return [];
  const type = (key: string) => `T.${names.definition(key).type}`;
  const opener = (member: string, m: Method | undefined, doc: string[]) =>
    m?.result
      ? [
          "  /**",
          ...doc.map((line) => `   * ${line}`),
          "   */",
          `  ${member}(params: ${type(m.params)}, options?: CallOptions): Promise<${symbols.session}<${type(m.result)}>>;`,
        ]
      : [];
  const { methods } = session;
  return [
    ...opener("session", methods.new, [
      `Sends \`${methods.new.method}\` and resolves with the ${symbols.session} it opened, which keeps its state`,
      "from its updates and runs its turns. The updates that arrived before the answer are its `history`.",
    ]),
    ...opener("loadSession", methods.load, [
      `Sends \`${methods.load?.method}\` for an existing session: the history it replays before it answers`,
      "is in the session's `history` (and its state), never in a turn.",
    ]),
    ...opener("resumeSession", methods.resume, [
      `Sends \`${methods.resume?.method}\` for an existing session: what it replays before it answers is in`,
      "the session's `history` (and its state), never in a turn.",
    ]),
  ];
}

/** `session.d.ts`: `Session`, `Turn` and `SessionState`, typed by the surface's schema. */
export function emitSession({ surface, names, runtime, facts }: EmitContext): OutputFile[] {
  const session = surface.session;
  const symbols = names.session;
  const imports = names.imports.session;
  if (!session || !symbols || !imports) return [];
  const reach = facts.reachesClosed;
  // What the connection hands on is read openly: a received type where one exists.
  const received = (key: string) =>
    reach.has(key) ? `R.${names.definition(key).type}` : `T.${names.definition(key).type}`;
  const plain = (key: string) => `T.${names.definition(key).type}`;
  const { spec, methods } = session;
  const tag = spec.update.tag;
  const update = received(session.updateUnion);
  const content = session.content ? plain(session.content) : "unknown";
  const hasText = spec.prompt.text !== undefined;
  const usesReceived = reach.size > 0;

  const holdType = (hold: SlotValue, slot: SlotTyping): string => {
    const kind =
      "kind" in hold && hold.kind !== undefined
        ? `{ ${propertyKey(tag)}: ${literal(hold.kind)} } & `
        : "";
    switch (hold.how) {
      case "whole":
        return `${kind}${received(hold.definition)}`;
      case "settled":
        return `${kind}Settled<${received(hold.definition)}>`;
      case "property":
        return `${received(hold.definition)}[${literal(hold.property)}]`;
      case "chunks": {
        const key = slot.key
          ? `${propertyKey(slot.key.property)}?: ${plain(slot.key.definition)}; `
          : "";
        return `{ ${kind ? `${propertyKey(tag)}: ${literal(hold.kind ?? "")}; ` : ""}${key}${propertyKey(hold.field)}: ${received(hold.item)}[] }`;
      }
    }
  };
  const slotLines = session.slots.flatMap((slot) => {
    const holds = slot.holds.map((h) => holdType(h, slot));
    const entity =
      holds.length === 0
        ? "unknown"
        : holds.length === 1
          ? holds[0]
          : holds.map((h) => `(${h})`).join(" | ");
    const kinds = slot.kinds.map((k) => `\`${k}\``).join(", ");
    switch (slot.shape) {
      case "map":
        return [
          `  /** By \`${slot.key?.property}\`, from ${kinds}. */`,
          `  readonly ${propertyKey(slot.name)}: ReadonlyMap<${plain(slot.key?.definition ?? "")}, ${entity}>;`,
        ];
      case "list":
        return [
          `  /** In arrival order, from ${kinds}. */`,
          `  readonly ${propertyKey(slot.name)}: ReadonlyArray<${entity}>;`,
        ];
      default:
        return [
          `  /** From ${kinds}${effectNote(session, slot.name)}; undefined until one arrives. */`,
          `  readonly ${propertyKey(slot.name)}?: ${entity};`,
        ];
    }
  });

  const call = (member: string, m: Method | undefined) =>
    m?.result
      ? [
          `  /** \`${m.method}\` for this session (its id filled in); the state follows once answered. */`,
          `  ${member}(params: Without<${plain(m.params)}, ${literal(spec.update.sessionId)}>, options?: CallOptions): Promise<${plain(m.result)}>;`,
        ]
      : [];
  const stopType = session.stopReason
    ? `${received(session.stopReason.definition)}[${literal(session.stopReason.property)}]`
    : "undefined";
  const promptResult = methods.prompt.result ? plain(methods.prompt.result) : "null";
  const turnEnd =
    spec.turn.end === "response"
      ? `the agent's answer to \`${methods.prompt.method}\``
      : `the \`${spec.turn.kind}\` that reports the session \`${spec.turn.idle}\` after it (the answer to \`${methods.prompt.method}\` only acknowledges the prompt, and is what the turn resolves with)`;
  const input = `${hasText ? "string | " : ""}${content} | readonly ${content}[]`;
  const id = plain(session.sessionIdType);
  const head = banner(surface.schemaFile.name);
  // The members every surface's session and turn have are the runtime's (`SessionOf`,
  // `TurnOf`, with their documentation); this file gives them the surface's types.
  const lines = [
    head,
    'import type * as T from "./types.js";',
    ...(usesReceived ? ['import type * as R from "./received.js";'] : []),
    importLine(imports.members, runtime),
    importLine(imports.disposable, runtime),
    "",
    "/**",
    ` * What a ${symbols.session} knows, kept by the protocol's rules from every \`${methods.update.method}\` of the`,
    " * session (and from the answers of its calls): an entity a create makes is replaced whole by",
    " * the next, a patch changes only the fields it carries, a chunk appends its item (plain text",
    " * kept joined). Updated in place as updates arrive: copy what you keep.",
    " */",
    `export interface ${symbols.state} {`,
    ...slotLines,
    "}",
    "",
    `/** One prompt turn (see \`TurnOf\`); it ends at ${turnEnd}. Cancelling sends \`${methods.cancel.method}\`. */`,
    `export interface ${symbols.turn} extends TurnOf<${promptResult}, ${update}, ${stopType}, ${id}> {}`,
    "",
    `/** A session (see \`SessionOf\`): its prompts are ${hasText ? "a string (one text block) or " : ""}content blocks. */`,
    `export interface ${symbols.session}<Opened = ${methods.new.result ? plain(methods.new.result) : "unknown"}>`,
    `  extends SessionOf<${id}, Opened, ${symbols.state}, ${update}, ${input}, ${symbols.turn}>, AsyncDisposableIfAvailable {`,
    ...call("setMode", methods.setMode),
    ...call("setConfigOption", methods.setConfigOption),
    "}",
    "",
  ];
  return [{ path: `${surface.id}/session.d.ts`, content: lines.join("\n") }];
}

/** ", and the answers of `session/new`, …" for a value slot that calls set too. */
function effectNote(session: SessionModel, slot: string): string {
  const calls = Object.entries(session.spec.effects)
    .filter(([, effects]) => effects.some((e) => e.slot === slot))
    .map(([method]) => `\`${method}\``);
  return calls.length === 0 ? "" : ` and the answers of ${calls.join(", ")}`;
}
