// dist/runtime/node.js
import { spawn } from "node:child_process";
import { Fifo } from "./index.js";
import { InputEndedError } from "./index.js";
import { ndJsonStream } from "./index.js";
var READ_AHEAD = 16;
function readableOf(source, ended = async () => void 0) {
  return {
    getReader() {
      const chunks = new Fifo();
      let done = false;
      let failure;
      let paused = false;
      let wake;
      const notify = () => {
        const resume = wake;
        wake = void 0;
        resume?.();
      };
      const onData = (chunk) => {
        chunks.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
        if (chunks.length >= READ_AHEAD && !paused) {
          paused = true;
          source.pause();
        }
        notify();
      };
      const onEnd = () => {
        done = true;
        notify();
      };
      const onError = (error) => {
        failure ?? (failure = error);
        notify();
      };
      source.on("data", onData);
      source.on("end", onEnd);
      source.on("close", onEnd);
      source.on("error", onError);
      const detach = () => {
        source.removeListener("data", onData);
        source.removeListener("end", onEnd);
        source.removeListener("close", onEnd);
      };
      return {
        async read() {
          for (; ; ) {
            if (chunks.length > 0) {
              const value = chunks.shift();
              if (paused && chunks.length < READ_AHEAD / 4) {
                paused = false;
                source.resume();
              }
              return { done: false, value };
            }
            if (failure)
              throw failure;
            if (done) {
              detach();
              const reason = await ended();
              if (reason)
                throw reason;
              return { done: true };
            }
            await new Promise((resolve) => {
              wake = resolve;
            });
          }
        },
        releaseLock: detach,
        async cancel() {
          detach();
          chunks.clear();
          source.destroy();
        }
      };
    }
  };
}
function writableOf(sink, failed = async (error) => error) {
  let broken;
  sink.on("error", (error) => {
    broken ?? (broken = error);
  });
  return {
    getWriter() {
      return {
        write(chunk) {
          if (broken)
            return failed(broken).then((e) => Promise.reject(e));
          if (sink.destroyed || sink.writableEnded)
            return Promise.reject(new Error("the output stream is closed"));
          return new Promise((resolve, reject) => {
            let settled = false;
            const ready = sink.write(chunk, (error) => {
              if (!error)
                return;
              broken ?? (broken = error);
              if (!settled) {
                settled = true;
                failed(error).then(reject);
              }
            });
            if (ready) {
              settled = true;
              resolve();
            } else {
              sink.once("drain", () => {
                if (!settled) {
                  settled = true;
                  resolve();
                }
              });
            }
          });
        },
        close() {
          if (sink.destroyed || sink.writableFinished || broken)
            return Promise.resolve();
          return new Promise((resolve) => {
            sink.once("finish", resolve);
            sink.once("close", resolve);
            sink.once("error", () => resolve());
            if (!sink.writableEnded)
              sink.end();
          });
        },
        releaseLock() {
        }
      };
    }
  };
}
function nodeStream(output, input, options) {
  return ndJsonStream(writableOf(output), readableOf(input), options);
}
function stdio(options) {
  return nodeStream(process.stdout, process.stdin, options);
}
var AgentExitError = class extends InputEndedError {
  constructor(command, exit, stderr) {
    const how = exit.error ? `could not be started: ${exit.error.message}` : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const last = stderr.trim().split(/\r?\n/).slice(-3).join(" / ").slice(-400);
    super(`the agent (${command}) ${how}${last ? `; its stderr ended with: ${last}` : ""}`);
    this.name = "AgentExitError";
    this.code = exit.code;
    this.signal = exit.signal;
    this.stderr = stderr;
  }
};
var EXIT_GRACE_MS = 2e3;
function spawnAgent(command, args = [], options = {}) {
  const spawnOptions = {
    stdio: ["pipe", "pipe", "pipe"],
    ...options.cwd === void 0 ? {} : { cwd: options.cwd },
    ...options.env === void 0 ? {} : { env: { ...options.env } }
  };
  const child = spawn(command, [...args], spawnOptions);
  const limit = options.stderrTailBytes ?? 8192;
  let tail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text) => {
    if (options.stderr !== "keep")
      process.stderr.write(text);
    tail = (tail + text).slice(-limit);
  });
  let exit;
  const exited = new Promise((resolve) => {
    child.once("close", (code, signal) => {
      exit ?? (exit = { code, signal });
      resolve(exit);
    });
    child.once("error", (error) => {
      exit ?? (exit = { code: null, signal: null, error });
      resolve(exit);
    });
  });
  const display = [command, ...args].join(" ");
  const reason = async () => {
    if (!exit) {
      let timer;
      await Promise.race([
        exited,
        new Promise((resolve) => {
          timer = setTimeout(resolve, EXIT_GRACE_MS);
          timer.unref?.();
        })
      ]);
      if (timer)
        clearTimeout(timer);
    }
    return exit ? new AgentExitError(display, exit, tail) : void 0;
  };
  const stdin = child.stdin;
  const stdout = child.stdout;
  const stream = ndJsonStream(writableOf(stdin, async (error) => await reason() ?? error), readableOf(stdout, reason), options);
  return { stream, child, exited, stderrTail: () => tail };
}
export {
  AgentExitError,
  nodeStream,
  readableOf,
  spawnAgent,
  stdio,
  writableOf
};
