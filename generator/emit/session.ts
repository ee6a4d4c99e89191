import type {
  Method,
  SessionModel,
  SlotTyping,
  SlotValue,
  SurfaceModel,
} from "../model/protocol.js";
import { reachingClosedUnions } from "../schema/unions.js";
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
export function emitSession({ surface, names, runtime }: EmitContext): OutputFile[] {
  const session = surface.session;
  const symbols = names.session;
  if (!session || !symbols) return [];
  const reach = reachingClosedUnions(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  );
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

  const call = (member: string, m: Method | undefined, doc: string) =>
    m?.result
      ? [
          `  /** ${doc} */`,
          `  ${member}(params: WithoutSession<${plain(m.params)}>, options?: CallOptions): Promise<${plain(m.result)}>;`,
        ]
      : [];
  const stopType = session.stopReason
    ? `${received(session.stopReason.definition)}[${literal(session.stopReason.property)}]`
    : "undefined";
  const promptResult = methods.prompt.result ? plain(methods.prompt.result) : "null";
  const turnEnd =
    spec.turn.end === "response"
      ? `the agent's answer to \`${methods.prompt.method}\``
      : `the \`${spec.turn.kind}\` that reports the session \`${spec.turn.idle}\` after it (the answer to \`${methods.prompt.method}\` only acknowledges the prompt)`;
  const head = banner(surface.schemaFile.name);
  const lines = [
    head,
    'import type * as T from "./types.js";',
    ...(usesReceived ? ['import type * as R from "./received.js";'] : []),
    `import type { CallOptions, PromptOptions, UpdatesOptions } from "${runtime}/connection-types.js";`,
    `import type { AsyncDisposableIfAvailable } from "${runtime}/handle.js";`,
    "",
    "/** What patches leave stored: the fields as received, `null` never kept. */",
    "type Settled<V> = V extends unknown ? { [K in keyof V]: Exclude<V[K], null> } : never;",
    "/** A session call's params without the session's id, which the session fills in. */",
    `type WithoutSession<P> = P extends unknown ? Omit<P, ${literal(spec.update.sessionId)}> : never;`,
    "",
    "/**",
    ` * What a ${symbols.session} knows, kept by the protocol's rules from every \`${methods.update.method}\` of the`,
    " * session (and from the answers of its calls): an entity a create makes is replaced whole by",
    " * the next, a patch changes only the fields it carries, a chunk appends its item. Updated in",
    " * place as updates arrive: copy what you keep.",
    " */",
    `export interface ${symbols.state} {`,
    ...slotLines,
    "}",
    "",
    "/**",
    " * One prompt turn: a promise of its answer, settled when the turn has ended",
    ` * (at ${turnEnd}),`,
    " * and an async iterable of its own updates, only this session's, only between the prompt and",
    " * its end. The updates are held until read, and read once, like a stream's; the iteration",
    " * ends when the turn settles, by throwing why when it failed. A turn cancelled (`cancel()`,",
    " * or the prompt's signal) sends",
    ` * \`${methods.cancel.method}\` and then waits at most the connection's \`cancelGraceMs\` (default 3000 ms)`,
    " * for the agent to end it; when the agent does not, it rejects with a `TurnAbandonedError`, and",
    " * what the agent still sends for it is dropped (logged) rather than given to a later turn.",
    " */",
    `export interface ${symbols.turn} extends PromiseLike<${promptResult}>, AsyncIterable<${update}> {`,
    `  readonly sessionId: ${plain(session.sessionIdType)};`,
    "  /** Why the turn stopped, once it has, as the agent reported it. */",
    `  readonly stopReason: ${stopType} | undefined;`,
    ...(hasText
      ? [
          "  /** The text of the agent's messages in this turn, once it has ended. */",
          "  text(): Promise<string>;",
        ]
      : []),
    `  /** Cancels the turn for sure: \`${methods.cancel.method}\`, then at most \`cancelGraceMs\`. Nothing once it settled. */`,
    "  cancel(): void;",
    "}",
    "",
    "/**",
    ` * A session opened by \`conn.session()\` (or loaded, or resumed). Its \`${methods.update.method}\`s go, in this`,
    " * order: to `history` until the opening call has answered; to the running turn; dropped (logged)",
    " * while they can only be an abandoned turn's late output; otherwise to its `updates()` readers.",
    ` * All of them apply to \`state\`. The connection's own \`${methods.update.handler}\` handler still sees every one.`,
    " */",
    `export interface ${symbols.session}<Opened = ${methods.new.result ? plain(methods.new.result) : "unknown"}> extends AsyncDisposableIfAvailable {`,
    `  readonly sessionId: ${plain(session.sessionIdType)};`,
    "  /** What the opening call answered. */",
    "  readonly response: Opened;",
    `  readonly state: ${symbols.state};`,
    "  /** The updates that arrived before the opening call answered: a load's replayed history. */",
    `  readonly history: readonly ${update}[];`,
    "  /**",
    ...(hasText
      ? [
          "   * Sends a prompt: a string is one text block. One turn runs at a time: a prompt sent while",
        ]
      : ["   * Sends a prompt. One turn runs at a time: a prompt sent while"]),
    "   * another turn runs goes out once that one settled.",
    "   */",
    `  prompt(input: ${hasText ? "string | " : ""}${content} | readonly ${content}[], options?: PromptOptions): ${symbols.turn};`,
    ...call(
      "setMode",
      methods.setMode,
      `\`${methods.setMode?.method}\` for this session; the state follows once answered.`,
    ),
    ...call(
      "setConfigOption",
      methods.setConfigOption,
      `\`${methods.setConfigOption?.method}\` for this session; the state follows once answered.`,
    ),
    "  /** This session's updates that belong to no turn, from now on, until it closes or `signal` aborts. */",
    `  updates(options?: UpdatesOptions): AsyncIterableIterator<${update}>;`,
    "  /**",
    methods.close
      ? `   * Closes the session: \`${methods.close.method}\` where the agent serves it, else the running turn is`
      : "   * Closes the session: the running turn is",
    "   * cancelled; waits for the running turn to settle, and stops routing. Idempotent.",
    "   */",
    "  close(): Promise<void>;",
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
