/**
 * The daemon's observation writes off the event loop: a worker thread (writer-worker.ts) holding
 * a SQLite connection of its own to the store's file, started on the first record. The event
 * loop serialises each observation's document, sends the records of one turn as one group (at
 * most `batch` a group, each group one IMMEDIATE transaction in the thread), and settles each
 * record's promise when the thread answers, after the COMMIT that holds it: what a caller has
 * acknowledged is on disk as far as SQLite's WAL commit goes, as with the store's own
 * connection. Reads stay on that connection; WAL readers see every committed row.
 *
 * Should the thread fail to start or open the file, the rows it was sent were not written and
 * are written on the event loop instead, as every later one is (`inline`). close() is
 * synchronous, as the store's is: it sends what is pending, asks the thread to close, waits for
 * it (Atomics.wait on a shared flag) and settles every answer it sent.
 */
import fs from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Observation, Recorded } from '../../core/history/store.js';
import type { ObservationRow } from './observation-writer.js';
import { errorFrom, FLAG_CLOSED, recordedFrom, type WireError, type WriterData, type WriterReply, type WriterRequest } from './writer-protocol.js';

/** How long close() waits for the thread to write what it was sent and close (ms). */
const CLOSE_WAIT_MS = 30_000;

interface Waiting {
  row: ObservationRow;
  resolve: (recorded: Recorded<Observation>) => void;
  reject: (error: unknown) => void;
}

export interface WriterThreadOptions {
  path: string;
  nativeBinding: string | null;
  ceiling: number | undefined;
  batch: number;
  /** Each outcome the thread wrote, for the store's counts (RowCeiling.settle). */
  settled: (recorded: Recorded<Observation>) => void;
  /** Writes rows on the event loop's connection (the thread could not). */
  inline: (rows: readonly ObservationRow[]) => Array<{ recorded: Recorded<Observation> } | { error: unknown }>;
}

/**
 * Where the thread's entry is: dist/sqlite-writer.js next to the bundled chunk that holds this
 * module; running from the sources (the tests), writer-worker.ts through tsx. null: neither.
 */
export function workerEntry(): { url: URL; source: boolean } | null {
  const bundled = new URL('./sqlite-writer.js', import.meta.url);
  if (fs.existsSync(bundled)) return { url: bundled, source: false };
  const source = new URL('./writer-worker.ts', import.meta.url);
  if (fs.existsSync(source)) return { url: source, source: true };
  return null;
}

/** A thread of the store's entry (workerEntry) with `workerData`; throws as new Worker does. */
export function startWorker(found: { url: URL; source: boolean }, workerData: unknown, transferList: MessagePort[] = []): Worker {
  return found.source
    ? // tsx's loader, registered inside the thread, runs the TypeScript entry.
      new Worker(`import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(found.url.href)}); })`, {
        eval: true,
        workerData,
        transferList,
      })
    : new Worker(found.url, { workerData, transferList });
}

export class WriterThread {
  readonly #options: WriterThreadOptions;
  #worker: Worker | null = null;
  #port: MessagePort | null = null;
  #flag: Int32Array | null = null;
  /** The thread could not be used: rows are written on the event loop. */
  #inline = false;
  #closed = false;
  #pending: Waiting[] = [];
  #sent = new Map<number, Waiting[]>();
  #nextId = 1;

  constructor(options: WriterThreadOptions) {
    this.#options = options;
  }

  record(row: ObservationRow): Promise<Recorded<Observation>> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ row, resolve, reject });
      if (this.#pending.length === 1) setImmediate(() => this.#send());
    });
  }

  /** Sends what is pending now instead of at the end of the turn (or of the group in flight). */
  flush(): void {
    this.#send(true);
  }

  /**
   * Sends the pending records, `batch` a group (written on the event loop when the thread cannot
   * be used). One group is in flight at a time: the records made while the thread commits it
   * wait and go together when it answers, so that a busy daemon writes fewer, larger
   * transactions (`all`: every pending group at once, the store is closing).
   */
  #send(all = false): void {
    while (this.#pending.length > 0 && (all || this.#sent.size === 0)) {
      const group = this.#pending.splice(0, this.#options.batch);
      const port = this.#inline || this.#closed ? null : this.#started();
      if (port === null) {
        this.#writeInline(group);
        continue;
      }
      const id = this.#nextId++;
      this.#sent.set(id, group);
      if (this.#sent.size === 1) this.#hold(true);
      port.postMessage({ type: 'record', id, rows: group.map((w) => w.row) } satisfies WriterRequest);
    }
  }

  #writeInline(group: Waiting[]): void {
    const results = this.#options.inline(group.map((w) => w.row));
    group.forEach((w, i) => {
      const result = results[i]!;
      if ('error' in result) w.reject(result.error);
      else w.resolve(result.recorded);
    });
  }

  /** The thread's port, the thread started on first use; null when it cannot be started. */
  #started(): MessagePort | null {
    if (this.#port !== null) return this.#port;
    const found = workerEntry();
    if (found === null) {
      this.#inline = true;
      return null;
    }
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const data: WriterData = { path: this.#options.path, nativeBinding: this.#options.nativeBinding, ceiling: this.#options.ceiling, flag, port: port2 };
    let worker: Worker;
    try {
      worker = startWorker(found, data, [port2]);
    } catch {
      port1.close();
      this.#inline = true;
      return null;
    }
    port1.on('message', (reply: WriterReply) => this.#answer(reply));
    // A thread that ended with groups unanswered: they are refused (whether the last one
    // committed is not known); later rows are written on the event loop.
    worker.on('error', (error) => this.#lost(error));
    worker.on('exit', () => this.#lost(new Error('the observation writer thread ended')));
    this.#worker = worker;
    this.#port = port1;
    this.#flag = new Int32Array(flag);
    this.#hold(true);
    return port1;
  }

  /** Keeps the process alive while groups are unanswered, not while the thread is idle. */
  #hold(on: boolean): void {
    if (on) {
      this.#worker?.ref();
      this.#port?.ref();
    } else {
      this.#worker?.unref();
      this.#port?.unref();
    }
  }

  #answer(reply: WriterReply): void {
    if (reply.type === 'failed') {
      // Nothing was written: every group sent is written on the event loop, as later ones are.
      this.#inline = true;
      const groups = [...this.#sent.values()];
      this.#sent.clear();
      this.#hold(false);
      for (const group of groups) this.#writeInline(group);
      this.#send();
      return;
    }
    const group = this.#sent.get(reply.id);
    if (group === undefined) return;
    this.#sent.delete(reply.id);
    if (this.#sent.size === 0) this.#hold(false);
    // The records made while this group was committed go now, together.
    if (!this.#closed) this.#send();
    reply.results.forEach((result, i) => {
      const w = group[i]!;
      if ('error' in result) {
        w.reject(errorFrom(result.error));
        return;
      }
      const recorded = recordedFrom(result, w.row);
      this.#options.settled(recorded);
      w.resolve(recorded);
    });
  }

  #lost(error: unknown): void {
    if (this.#inline && this.#sent.size === 0) return;
    if (this.#port !== null) this.#drain(this.#port);
    this.#inline = true;
    const wire: WireError = error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
    for (const group of this.#sent.values()) for (const w of group) w.reject(errorFrom(wire));
    this.#sent.clear();
    this.#port?.close();
    this.#hold(false);
    // What waited for the lost group is written on the event loop.
    if (!this.#closed) this.#send();
  }

  /** Settles the answers already in the port, synchronously. */
  #drain(port: MessagePort): void {
    try {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) this.#answer(m.message as WriterReply);
    } catch {
      // A closed port holds nothing more.
    }
  }

  /**
   * Sends what is pending, waits (synchronously) until the thread has written every group it
   * was sent and closed its connection, and settles their records.
   */
  close(): void {
    if (this.#closed) return;
    // A thread never started is not started to close: what is pending is written here.
    if (this.#port === null) this.#inline = true;
    this.#send(true);
    this.#closed = true;
    const port = this.#port;
    const flag = this.#flag;
    if (port === null || flag === null) return;
    if (!this.#inline) {
      port.postMessage({ type: 'close' } satisfies WriterRequest);
      const deadline = Date.now() + CLOSE_WAIT_MS;
      for (let state = Atomics.load(flag, 0); state !== FLAG_CLOSED; state = Atomics.load(flag, 0)) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        Atomics.wait(flag, 0, state, left);
      }
    }
    this.#drain(port);
    this.#inline = true;
    // Anything still unanswered (the thread did not close in time) is refused.
    const unanswered = [...this.#sent.values()].flat();
    this.#sent.clear();
    for (const w of unanswered) w.reject(new Error('the observation writer thread did not finish before the store closed'));
    port.close();
    this.#hold(false);
    void this.#worker?.terminate();
  }
}
