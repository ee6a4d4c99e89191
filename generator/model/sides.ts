/** `x-side` values and the handler side(s) that serve such a method. */
export const SIDES = {
  agent: ["agent"],
  client: ["client"],
  protocol: ["protocol"],
  both: ["agent", "client"],
  proxy: ["proxy"],
} as const satisfies Record<string, readonly string[]>;

export type Side = keyof typeof SIDES;
export type HandlerSide = (typeof SIDES)[Side][number];
export const HANDLER_SIDES: readonly HandlerSide[] = ["agent", "client", "protocol", "proxy"];

export function isSide(value: unknown): value is Side {
  return typeof value === "string" && Object.hasOwn(SIDES, value);
}
