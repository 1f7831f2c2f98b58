/**
 * Colour decisions, per stream. chalk 5 ignores NO_COLOR, so svc decides the level itself:
 * --no-color > NO_COLOR > FORCE_COLOR > TERM=dumb > isTTY (clig.dev, no-color.org).
 */
import { plainStyle, type Style } from './layout.js';

export type ColorLevel = 0 | 1 | 2 | 3;

export interface ColorStream {
  isTTY?: boolean;
  getColorDepth?: (env?: NodeJS.ProcessEnv) => number;
}

export function colorLevel(stream: ColorStream, env: NodeJS.ProcessEnv, noColorFlag: boolean): ColorLevel {
  if (noColorFlag) return 0;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return 0;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (env['TERM'] === 'dumb') return 0;
  if (!stream.isTTY) return 0;
  const depth = stream.getColorDepth?.(env) ?? 4;
  return depth >= 24 ? 3 : depth >= 8 ? 2 : depth >= 4 ? 1 : 0;
}

/** The Style for a colour level (chalk loads only when colour is on). */
export async function styleFor(level: ColorLevel): Promise<Style> {
  if (level === 0) return plainStyle;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level });
  return { bold: c.bold, dim: c.dim, green: c.green, yellow: c.yellow, red: c.red, cyan: c.cyan };
}
