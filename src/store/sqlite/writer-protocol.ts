/**
 * What the event loop and the daemon's observation writer thread (writer-worker.ts) say to each
 * other over their MessagePort: groups of rows one way, each group's outcomes the other, and the
 * shared flag the event loop may wait on while the writer closes.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Observation, Recorded } from '../../core/history/store.js';
import { newRow, type ObservationRow } from './observation-writer.js';

/** The flag's states (Int32Array of one element over a SharedArrayBuffer). */
export const FLAG_STARTING = 0;
export const FLAG_OPEN = 1;
export const FLAG_CLOSED = 2;

export interface WriterData {
  role?: 'writer';
  /** The store's file (absolute). */
  path: string;
  /** better-sqlite3's addon, when found where npm puts it (see sqliteAddon). */
  nativeBinding: string | null;
  /** SVC_MAX_OBSERVATIONS; undefined: unbounded. */
  ceiling: number | undefined;
  flag: SharedArrayBuffer;
  port: MessagePort;
}

/**
 * The checkpointer thread's data (checkpointer.ts, checkpoint-worker.ts). `shared` holds four
 * Int32 cells: the event loop's write count (CHECKPOINTER_NUDGES), the stop request, and the
 * thread's state (CHECKPOINTER_STARTING, _OPEN, _CLOSED), which the event loop may wait on.
 */
export interface CheckpointerData {
  role: 'checkpointer';
  path: string;
  nativeBinding: string | null;
  shared: SharedArrayBuffer;
  /** Least time between two checkpoints (ms). */
  gapMs: number;
}

export const CHECKPOINTER_NUDGES = 0;
export const CHECKPOINTER_STOP = 1;
export const CHECKPOINTER_STATE = 2;
export const CHECKPOINTER_STARTING = 0;
export const CHECKPOINTER_OPEN = 1;
export const CHECKPOINTER_CLOSED = 2;
/** Least time between two of the thread's checkpoints (ms): a busy daemon's WAL grows a few MiB in it. */
export const CHECKPOINT_GAP_MS = 100;

export type WriterRequest = { type: 'record'; id: number; rows: ObservationRow[] } | { type: 'close' };

/** An error as it crosses the thread: what callers read of it (its message, its SQLite code). */
export interface WireError {
  name: string;
  message: string;
  code?: string;
}

/**
 * One record's outcome. A new row is only its id (and how many rows made room for it): the
 * event loop builds the row from the values it sent (newRow), as the writer itself does, so
 * that the answer the thread serialises and the event loop reads stays a few numbers.
 */
export type WireResult = { stored: number } | { evicted: number; id: number } | { recorded: Recorded<Observation> } | { error: WireError };

export type WriterReply = { type: 'failed'; error: WireError } | { type: 'recorded'; id: number; results: WireResult[] };

export function wireResult(result: { recorded: Recorded<Observation> } | { error: unknown }): WireResult {
  if ('error' in result) return { error: errorOf(result.error) };
  const { recorded } = result;
  if (recorded.outcome === 'stored') return { stored: recorded.row.id };
  if (recorded.outcome === 'evicted') return { evicted: recorded.evicted, id: recorded.row.id };
  return result;
}

/** The record's outcome again, on the event loop, from the row it sent. */
export function recordedFrom(result: Exclude<WireResult, { error: WireError }>, row: ObservationRow): Recorded<Observation> {
  if ('stored' in result) return { outcome: 'stored', row: newRow(row, result.stored), evicted: 0 };
  if ('evicted' in result) return { outcome: 'evicted', row: newRow(row, result.id), evicted: result.evicted };
  return result.recorded;
}

export function errorOf(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? { name: error.name, message: error.message, code } : { name: error.name, message: error.message };
}

/** The error again, on the event loop: an Error of the same name, message and code. */
export function errorFrom(wire: WireError): Error {
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.code !== undefined) (error as Error & { code?: string }).code = wire.code;
  return error;
}
