import { methodsOf } from "../model/methods.js";
import type { Method, ProtocolModel, SurfaceModel } from "../model/protocol.js";
import type { OutputFile } from "./output.js";
import { render } from "./templates.js";

/**
 * The name mapping of MIGRATING.md: for each method, the name the official SDK 1.x gave its
 * handler and its call on `AgentSideConnection` / `ClientSideConnection`, beside ours.
 *
 * SDK 1.x names come from the params definition, not the wire name: the definition's name
 * without its `Request` / `Notification` suffix, in camelCase (`NewSessionRequest` →
 * `newSession`, `ReadTextFileRequest` → `readTextFile`, `CancelNotification` → `cancel`),
 * with `unstable_` before methods only the unstable schema has (`unstable_forkSession`).
 * When what is left is only the method's namespace (`SessionNotification` → `session`), it
 * names the method after its wire name instead (`sessionUpdate`). The test of this file
 * checks the rule against the SDK 1.x declarations.
 */

export interface MigrationRow {
  readonly wire: string;
  readonly kind: Method["kind"];
  /** SDK 1.x handler name (also its call on the other side's connection). */
  readonly sdk: string;
  /** Our handler name (and the member of `conn.agent` / `conn.client`). */
  readonly ours: string;
  /** Only in the unstable schema: ours is imported from the unstable entry point. */
  readonly unstable: boolean;
}

function lowerFirst(text: string): string {
  return `${text[0]?.toLowerCase() ?? ""}${text.slice(1)}`;
}

export function sdk1Name(m: Method, unstable: boolean): string {
  const stem = lowerFirst(m.params.replace(/(Request|Notification)$/, ""));
  const namespace = m.method.split("/")[0] ?? "";
  const name = stem === namespace ? m.handler : stem;
  return unstable ? `unstable_${name}` : name;
}

/**
 * Rows for the methods each role serves, from the widest v1 surface (unstable, if there is
 * one), marked unstable where the stable surface lacks them; undefined without a v1.
 */
export function migrationRows(
  surfaces: readonly SurfaceModel[],
): { agent: MigrationRow[]; client: MigrationRow[] } | undefined {
  const v1 = surfaces.filter((s) => s.version === 1);
  const widest = v1.find((s) => s.stability === "unstable") ?? v1[0];
  if (!widest) return undefined;
  // `experimental`: the model's mark of a method the stable surface lacks. The SDK 1.x had
  // no typed handler for an extension's methods (`--extension`): they have no row.
  const rows = (role: "agent" | "client") =>
    methodsOf(widest, role)
      .filter((m) => m.extension === undefined)
      .map((m) => ({
        wire: m.method,
        kind: m.kind,
        sdk: sdk1Name(m, m.experimental),
        ours: m.handler,
        unstable: m.experimental,
      }));
  return { agent: rows("agent"), client: rows("client") };
}

/**
 * MIGRATING.md: moving from the SDK 1.x `AgentSideConnection` / `ClientSideConnection`
 * classes (which SDK 2.x removed, so their users must move anyway) to this package.
 */
export function emitMigration(model: ProtocolModel, options: { name: string }): OutputFile[] {
  const rows = migrationRows(model.surfaces);
  if (!rows) return [];
  const unstableImport = `${options.name}/unstable`;
  const cell = (row: MigrationRow) => ({
    ...row,
    entry: row.unstable ? unstableImport : options.name,
  });
  return [
    {
      path: MIGRATION_FILE,
      content: render("MIGRATING.md.hbs", {
        name: options.name,
        agent: rows.agent.map(cell),
        client: rows.client.map(cell),
      }),
    },
  ];
}

/** Where the guide goes in the package (package.json `files` lists it). */
export const MIGRATION_FILE = "MIGRATING.md";
