/**
 * The remote endpoint spoken to by hand, as a hostile or broken client would: single HTTP
 * requests with chosen headers and bodies, and WebSocket upgrades whose refusal is read.
 */
import { WebSocket } from "ws";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

/** One request; the body is read whole unless it is an event stream (then it is cancelled). */
export async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  if (response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, text: "" };
  }
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export const JSON_HEADERS = { "Content-Type": "application/json" };

export function initializeBody(id: number | string = 0): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: 1 },
  });
}

/** POSTs initialize and returns the connection id the server answered with. */
export async function open(url: string, headers: Record<string, string> = {}): Promise<string> {
  const reply = await send(url, {
    headers: { ...JSON_HEADERS, ...headers },
    body: initializeBody(),
  });
  const id = reply.headers.get("Acp-Connection-Id");
  if (reply.status !== 200 || id === null)
    throw new Error(`initialize answered ${reply.status}: ${reply.text}`);
  return id;
}

/** A WebSocket upgrade: open, or the status and body it was refused with. */
export function upgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<
  { socket: WebSocket; connectionId: string | undefined } | { status: number; text: string }
> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, "ws"), { headers });
    let connectionId: string | undefined;
    socket.once("upgrade", (response) => {
      const id = response.headers["acp-connection-id"];
      connectionId = typeof id === "string" ? id : undefined;
    });
    socket.once("open", () => resolve({ socket, connectionId }));
    socket.once("unexpected-response", (_request, response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    socket.once("error", reject);
  });
}
